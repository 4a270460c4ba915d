"""Games saved before the saved record (migrations 0005 and 0006) open, review and export the same.

``data/legacy_games.json`` holds games played through the services of commit
ddeea25, the last to write the old tables, and what the site showed of each
then (``data/make_legacy_games.py`` made it). Each test loads those rows into
the schema of that time, migrates, and compares.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import RequestFactory
from django.utils.dateparse import parse_datetime

from games.engine import codec, replay
from games.insight import review
from games.live import services
from games.models import Game, GameEvent
from games.web import review_words, views
from games.wire import presentation
from tests.server.helpers import as_reviewed_now

pytestmark = pytest.mark.django_db(transaction=True)

LEGACY = json.loads((Path(__file__).parent / "data" / "legacy_games.json").read_text())
BEFORE = [("games", "0004_coach_and_bots")]
DATES = {"created_at", "started_at", "finished_at", "joined_at"}


def _load_old_rows() -> None:
    """The legacy rows, into the tables as migration 0004 left them."""
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    for model, rows in (
        ("Game", LEGACY["rows"]["game"]),
        ("Player", LEGACY["rows"]["player"]),
        ("FilledBox", LEGACY["rows"]["filledbox"]),
        ("GameEvent", LEGACY["rows"]["gameevent"]),
    ):
        cls = old.get_model("games", model)
        cls.objects.bulk_create(
            cls(**{k: parse_datetime(v) if k in DATES and v else v for k, v in row.items()})
            for row in rows
        )


@pytest.fixture
def migrated() -> Iterator[None]:
    _load_old_rows()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    # Every migration since: the services and pages below run on the models as they are now.
    executor.migrate(executor.loader.graph.leaf_nodes())
    yield
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # The later migrations, for later tests.


def _codes(status: str | None = None) -> list[str]:
    return [c for c in LEGACY["codes"] if status in (None, LEGACY["expected"][c]["status"])]


def test_the_legacy_data_covers_what_a_game_can_hold() -> None:
    kinds = {row["kind"] for row in LEGACY["rows"]["gameevent"]}
    # Every kind there was then; the turn clock's, the bots' pace and the host's choice of
    # the chances during play came after, and a lobby leave was saved as "left" (without
    # the "next" of a leave in play) until "unseated".
    assert kinds == set(GameEvent.KINDS) - {
        "away", "back", "handed", "abandoned", "bot_pace", "unseated", "show_odds"
    }  # fmt: skip
    leaves = [row["payload"] for row in LEGACY["rows"]["gameevent"] if row["kind"] == "left"]
    assert {"next" in payload for payload in leaves} == {True, False}
    statuses = {LEGACY["expected"][code]["status"] for code in LEGACY["codes"]}
    assert statuses == {"lobby", "playing", "finished"}


def test_every_game_gets_a_record_that_its_log_replays_to(migrated: None) -> None:
    for code in _codes():
        game = Game.objects.get(code=code)
        room = replay.replay(services.replay_events(code))
        assert game.state == room.game, code
        assert (game.record is None) == (LEGACY["expected"][code]["status"] == "lobby")
        if game.record is not None:
            assert game.record["format"] == codec.GAME_FORMAT


def test_every_finished_game_exports_as_before(migrated: None) -> None:
    factory = RequestFactory(HTTP_HOST="localhost")
    for code in _codes("finished") + _codes("playing"):
        response = views.export(factory.get(f"/g/{code}/export.json"), code)
        exported = json.loads(response.content)
        assert exported["game"].pop("turn_seconds") is None  # New: the turn clock, none then.
        assert exported["game"].pop("bot_pace") == "natural"  # New: the bots' pace.
        assert exported["game"].pop("show_odds") is False  # New: who sees the odds.
        dice = exported["game"].pop("dice")  # New: where the dice came from, thrown fresh then.
        assert (dice["kind"], dice["daily"], dice["dice_of"]) == ("fresh", None, None), code
        # New: the chances to win at every moment, once the game is over.
        chances = exported.pop("win_chances")
        if exported["game"]["status"] == "finished":  # Its result: winners share 1.
            winners = [p["winner"] for p in exported["players"]]
            share = round(1 / sum(winners), 4) if any(winners) else 0
            assert chances["moments"][-1]["kind"] == "finished"
            assert chances["moments"][-1]["chances"] == [share if w else 0 for w in winners]
        else:
            assert chances is None
        for event in exported["events"]:
            if event["kind"] == "finished":  # New: each seat's final place.
                places = event["data"].pop("places")
                assert places == [p["place"] for p in services.snapshot(code)["players"]]
        assert exported == LEGACY["expected"][code]["export"], code


def test_every_game_reviews_as_before(migrated: None) -> None:
    for code in _codes("finished") + _codes("playing"):
        moments = review_words.moments_json(review.build(services.replay_events(code)))
        for moment in moments:
            assert moment.pop("by") is None  # New: who made a move for a player; nobody then.
        assert moments == as_reviewed_now(LEGACY["expected"][code]["review"]), code


def test_every_game_opens_with_the_same_snapshot_and_history(migrated: None) -> None:
    for code in _codes():
        expected = LEGACY["expected"][code]
        snapshot: dict[str, Any] = services.snapshot(code)
        recent = snapshot.pop("recent")
        for player in snapshot["players"]:
            del player["place"]  # New: each seat's place, from the game's outcome.
            # New: who a bot plays for; nobody, before the turn clock.
            assert (player.pop("away"), player.pop("handed")) == (False, False)
        # New: the turn clock, which no game had then.
        assert (snapshot.pop("clock"), snapshot["game"].pop("turn_seconds")) == (None, None)
        assert snapshot["game"].pop("bot_pace") == "natural"  # New: the bots' pace.
        assert snapshot["game"].pop("show_odds") is False  # New: who sees the odds.
        assert snapshot == expected["snapshot"], code
        assert [e["version"] for e in recent] == list(
            range(max(1, snapshot["version"] - services.RECENT_EVENTS + 1), snapshot["version"] + 1)
        )
        summary = views.history.summary(Game.objects.get(code=code))
        assert {
            "names": [s.name for s in summary.seats],
            "totals": [s.total for s in summary.seats],
            "winners": [s.player.seat for s in summary.winners],
        } == expected["history"], code


def test_the_log_keeps_the_facts_and_the_export_adds_the_rest(migrated: None) -> None:
    code = _codes("finished")[0]
    stored = {e.kind: e.payload for e in GameEvent.objects.filter(game__code=code)}
    assert set(stored["scored"]) == {"seat", "category", "points", "dice", "yahtzee_bonus", "next"}
    assert set(stored["rolled"]) == {"seat", "dice", "held"}
    exported = presentation.log_json(services.log(code))
    scored = next(e for e in exported if e["kind"] == "scored")
    assert {"card", "round", "total"} <= set(scored["data"])
