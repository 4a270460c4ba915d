"""Games saved with the schema of migration 0015 open, replay, review and export the same.

``data/games_0015.json`` holds games played through the services of commit 7665e36,
the last before the command pipeline was rewritten, and what the site showed of each
then (``data/make_games_0015.py`` made it): every kind of event there was, the turn
clock, a seat away and handed to a bot, an abandoned game, a rematch whose seat 0 is a
bot. Each test loads those rows into the schema of that time, migrates to the latest,
and compares.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import RequestFactory
from django.utils.dateparse import parse_datetime

from games.engine import replay
from games.insight import chances, review
from games.live import services
from games.models import Game, GameEvent
from games.web import history, review_words, views
from tests.server.helpers import as_reviewed_now

pytestmark = pytest.mark.django_db(transaction=True)

STORED = json.loads((Path(__file__).parent / "data" / "games_0015.json").read_text())
THEN = [("games", "0015_event_kinds_from_classes")]
DATES = {"created_at", "started_at", "finished_at", "joined_at", "deadline", "wake_at", "acted_at"}


@pytest.fixture
def stored() -> None:
    """The stored rows, into the tables as migration 0015 left them, then every migration since."""
    executor = MigrationExecutor(connection)
    executor.migrate(THEN)
    old = executor.loader.project_state(THEN).apps
    for model, rows in (
        ("Game", STORED["rows"]["game"]),
        ("Player", STORED["rows"]["player"]),
        ("GameEvent", STORED["rows"]["gameevent"]),
    ):
        cls = old.get_model("games", model)
        cls.objects.bulk_create(
            cls(**{k: parse_datetime(v) if k in DATES and v else v for k, v in row.items()})
            for row in rows
        )
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())


def _codes(*statuses: str) -> list[str]:
    return [
        code
        for code in STORED["codes"]
        if not statuses or STORED["expected"][code]["status"] in statuses
    ]


def _without_time_left(snapshot: dict[str, Any]) -> dict[str, Any]:
    """The snapshot without what depends on the time it is read at (the clock's time left)."""
    if snapshot["clock"] is not None:
        del snapshot["clock"]["ms_left"]
    return snapshot


def test_the_stored_games_hold_every_kind_of_event_and_every_status() -> None:
    kinds = {row["kind"] for row in STORED["rows"]["gameevent"]}
    # Every kind but the host's choice of the chances during play, which came after (0021).
    assert kinds == set(GameEvent.KINDS) - {"show_odds"}
    statuses = {STORED["expected"][code]["status"] for code in STORED["codes"]}
    assert statuses == {"lobby", "playing", "finished", "abandoned"}


def test_every_stored_game_replays_to_its_saved_record(stored: None) -> None:
    for code in _codes():
        room = replay.replay(services.replay_events(code))
        game = Game.objects.get(code=code)
        assert room.game == game.state, code
        assert room.status == game.status, code
        assert room.players == tuple(p.name for p in game.players.order_by("seat")), code


def test_every_stored_game_opens_with_the_same_snapshot_and_history(stored: None) -> None:
    for code in _codes():
        expected = STORED["expected"][code]
        snapshot = _without_time_left(services.snapshot(code))
        assert snapshot == _without_time_left(expected["snapshot"]), code
        summary = history.summary(Game.objects.get(code=code))
        assert {
            "names": [s.name for s in summary.seats],
            "totals": [s.total for s in summary.seats],
            "winners": [s.player.seat for s in summary.winners],
        } == expected["history"], code


def test_every_stored_game_exports_and_reviews_as_before(stored: None) -> None:
    factory = RequestFactory(HTTP_HOST="localhost")
    for code in _codes("playing", "finished", "abandoned"):
        response = views.export(factory.get(f"/g/{code}/export.json"), code)
        exported = json.loads(response.content)
        # Where the dice came from is new since (issue 29): every stored game threw them fresh.
        dice = exported["game"].pop("dice")
        expected = STORED["expected"][code]["export"]
        assert within_rounding(exported, expected) == expected, code
        assert (dice["kind"], dice["daily"], dice["dice_of"]) == ("fresh", None, None), code
        moments = review_words.moments_json(review.build(services.replay_events(code)))
        reviewed = as_reviewed_now(STORED["expected"][code]["review"])
        assert within_rounding(moments, reviewed) == reviewed, code


def within_rounding(got: Any, expected: Any) -> Any:
    """``got``, with each float that lies within one unit of the last decimal sent
    (:data:`games.insight.chances.DECIMALS`) of ``expected``'s replaced by it, so that
    ``got == expected`` says what it means. The chances to win are sums of numpy's, whose
    last bits differ from one machine and numpy build to another (its SIMD paths); a
    chance on a rounding boundary then comes out a unit either way (0.3307 or 0.3308,
    seen between two machines). Everything else must be equal: the structure, the
    order, the words, every integer."""
    if isinstance(got, dict) and isinstance(expected, dict) and got.keys() == expected.keys():
        return {key: within_rounding(got[key], expected[key]) for key in got}
    if isinstance(got, list) and isinstance(expected, list) and len(got) == len(expected):
        return [within_rounding(g, e) for g, e in zip(got, expected, strict=True)]
    unit = 10**-chances.DECIMALS
    # One unit, and half of one more for the error of the floats themselves.
    if isinstance(got, float) and isinstance(expected, float) and abs(got - expected) < 1.5 * unit:
        return expected
    return got
