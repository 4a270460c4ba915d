"""``manage.py audit_games [CODE ...]``: check that every game's log replays to its tables."""

from __future__ import annotations

import dataclasses
import json
from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.web.audit import audit_all


class Command(BaseCommand):
    help = (
        "Replay each game's event log with the rules engine and compare it with the saved "
        "game (all games, or the invite codes given). Exits with an error if any differ."
    )

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "codes",
            nargs="*",
            help="invite codes (default: every game), after --: a code may start with -",
        )
        parser.add_argument(
            "--json", action="store_true", help="one JSON object per game, with who is connected"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        audits = audit_all(options["codes"])
        for found in audits:
            if options["json"]:
                self.stdout.write(json.dumps(dataclasses.asdict(found)))
            elif found.problems:
                self.stdout.write(f"{found.code} ({found.status}, version {found.version}):")
                for problem in found.problems:
                    self.stdout.write(f"  {problem}")
        unsound = sum(bool(found.problems) for found in audits)
        if unsound:
            raise CommandError(f"{unsound} of {len(audits)} games do not replay to their tables")
        if not options["json"]:
            self.stdout.write(f"{len(audits)} games replay to their tables")
