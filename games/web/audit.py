"""Checking the record: does every game's log replay, with the rules alone, to what is saved?

The log is the record of a game and the tables are kept from it in the same
transaction (:mod:`games.live.store`), so the two can never disagree unless something
is badly wrong: a move lost or applied twice, a row edited by hand, a bug. An
operator runs this after an incident (``python manage.py audit_games``); the fault
tests run it after killing processes and restarting PostgreSQL and Redis.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from games.engine import replay
from games.live import services
from games.models import Game


@dataclass
class Audit:
    """What the check found in one game: nothing in :attr:`problems` is a sound record."""

    code: str
    status: str
    version: int
    problems: list[str] = field(default_factory=list)
    #: Who is connected now, as every snapshot says: per seat, and how many watch.
    connected: list[bool] = field(default_factory=list)
    watchers: int = 0


def audit(code: str) -> Audit:
    """Replay ``code``'s log and compare the room it ends with to the saved one
    (:attr:`games.live.pipeline.Table.room`)."""
    table = services.table(code)
    game = table.game
    here = services.presence(game, table.players)
    found = Audit(
        code=code,
        status=game.status,
        version=game.version,
        connected=[seat["connected"] for seat in here["players"]],
        watchers=here["watchers"],
    )
    logged = services.log(code)
    numbers = [entry.seq for entry in logged]
    if numbers != list(range(1, len(numbers) + 1)):
        found.problems.append(f"the log's numbers are not 1 to {len(numbers)}: {numbers}")
    if numbers and numbers[-1] != game.version:
        found.problems.append(f"the game is at version {game.version}, its log at {numbers[-1]}")
    try:
        replayed = replay.replay(entry.event for entry in logged)
    except replay.ReplayError as error:
        found.problems.append(f"the log does not replay: {error}")
        return found
    saved = table.room
    for name in _COMPARED:
        if getattr(replayed, name) != getattr(saved, name):
            found.problems.append(
                f"{name}: the log replays to {getattr(replayed, name)!r}, "
                f"the tables hold {getattr(saved, name)!r}"
            )
    # The logs of games made before the turn clock was recorded in ``created`` have none.
    options = saved.options
    if replayed.options.turn_seconds is None:
        options = replace(options, turn_seconds=None)
    if replayed.options != options:
        found.problems.append(
            f"options: the log replays to {replayed.options!r}, the tables hold {saved.options!r}"
        )
    return found


#: What the replayed room and the saved one must agree on, besides the options. Not the
#: code of the game this one is the rematch of: that game may have been deleted since.
_COMPARED = ("preset", "seats", "status", "players", "seated", "host", "game", "rematch")


def audit_all(codes: list[str] | None = None) -> list[Audit]:
    """Audit the games ``codes``, or every game, oldest first."""
    if not codes:
        codes = list(Game.objects.order_by("pk").values_list("code", flat=True))
    return [audit(code) for code in codes]
