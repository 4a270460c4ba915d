"""The chances to win in the review and the export (issue 18): a graph over the whole
game, its turning points linked to their moments, and ``win_chances`` in the JSON.

The figures are :func:`games.insight.chances.over_the_game`'s for the same log (tested in
tests/test_chances.py); here, what the page and the export make of them, and that
nobody is given the chances of a game still in play.
"""

from __future__ import annotations

import json
import re

import pytest
from django.core.cache import cache
from django.test import Client as HttpClient

from games.insight import chances, review
from games.live import services
from games.models import Game
from games.web import review_words
from tests.server.helpers import play_as_bots

pytestmark = pytest.mark.django_db


def finished(fixed_dice, seats: int = 2, seed: int = 7) -> str:  # type: ignore[no-untyped-def]
    """A whole game of bots' moves (Optimal, Casual, ...), over."""
    game, host = services.create_game(seats=seats, host_name="Ana", session_key="s-ana")
    assert host is not None
    for seat in range(1, seats):
        services.join_game(game.code, f"P{seat + 1}", session_key=f"s-{seat}")
    fixed_dice.load(*[6] * 5, *[1] * 5 * (seats - 1))  # Ana wins the roll-off.
    services.start_game(game.code, host.pk, version=Game.objects.get(code=game.code).version)
    play_as_bots(game.code, seed)
    assert Game.objects.get(code=game.code).status == Game.Status.FINISHED
    return game.code


def expected(code: str) -> chances.WinChances:
    return chances.over_the_game(review.build(services.replay_events(code)))


def test_the_review_draws_the_chances_and_lists_the_turning_points(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    cache.clear()
    code = finished(fixed_dice)
    page = HttpClient().get(f"/g/{code}/review/").content.decode()
    told = review.build(services.replay_events(code))
    want = expected(code)
    turning = want.turning_points()
    assert chances.FEWEST_TURNING_POINTS <= len(turning) <= chances.TURNING_POINTS

    svg = re.search(r'<svg[^>]*class="chart chart--chances"[^>]*>.*?</svg>', page, re.DOTALL)
    assert svg is not None
    assert f'data-moments="{len(want.chances)}"' in svg.group(0)
    assert svg.group(0).count('class="chart__line"') == 2
    marks = re.findall(r'class="chart__turn" data-index="(\d+)" data-number="(\d+)"', svg.group(0))
    assert marks == [(str(p.index), str(n)) for n, p in enumerate(turning, start=1)]
    # The list: each turning point, named as a roll or a decision, linked to its moment.
    items = re.findall(
        r'<li class="chances__turn" data-number="(\d)"><a href="\?at=(\d+)#replay" data-at="\d+"'
        r' data-index="(\d+)"><span class="chances__cause chances__cause--(\w+)">(\w+)</span>'
        r"Round (\d+): ([^<]+)</a>",
        page,
    )
    assert [(int(n), int(seq), int(index), cause, int(r), text) for n, seq, index, cause, _, r, text
            in items] == [
        (n, p.seq, p.index, p.cause, p.round,
         review_words.swing_text(p, told).replace("'", "&#x27;"))
        for n, p in enumerate(turning, start=1)
    ]  # fmt: skip
    # The page's script has every moment's chances, as the graph draws them.
    config = json.loads(
        re.search(r'<script id="review-config" type="application/json">(.*?)</script>', page).group(
            1
        )  # type: ignore[union-attr]
    )
    assert config["chances"] == [[round(c, 4) for c in at] for at in want.chances]
    assert config["chances"][0] == [0.5, 0.5]
    assert sum(config["chances"][-1]) == 1


def test_the_chances_are_worked_out_once_per_game(fixed_dice, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    cache.clear()
    code = finished(fixed_dice)
    calls = []
    real = chances.over_the_game
    monkeypatch.setattr(chances, "over_the_game", lambda *a: calls.append(1) or real(*a))
    client = HttpClient()
    client.get(f"/g/{code}/review/")
    client.get(f"/g/{code}/review/?at=40")
    client.get(f"/g/{code}/export.json")
    assert len(calls) == 1


def test_the_export_carries_the_chances_once_the_game_is_over(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    cache.clear()
    code = finished(fixed_dice, seats=3, seed=11)
    exported = HttpClient().get(f"/g/{code}/export.json").json()
    told = review.build(services.replay_events(code))
    worded = review_words.win_chances_json(expected(code), told)
    assert exported["win_chances"] == json.loads(json.dumps(worded))
    assert all(point["text"] for point in exported["win_chances"]["turning_points"])
    assert exported["game"]["show_odds"] is False
    assert exported["win_chances"]["names"] == ["Ana", "P2", "P3"]
    moments = exported["win_chances"]["moments"]
    assert moments[0]["chances"] == [pytest.approx(1 / 3, abs=1e-4)] * 3
    assert moments[-1]["kind"] == "finished"


def test_a_game_in_play_exports_no_chances(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    # A player in a room that hides the odds must not read them from the export.
    game, host = services.create_game(seats=2, host_name="Ana", session_key="s-ana")
    assert host is not None
    services.join_game(game.code, "Ben", session_key="s-ben")
    fixed_dice.load(*[6] * 5, *[1] * 5, 2, 3, 4, 5, 6)
    services.start_game(game.code, host.pk, version=Game.objects.get(code=game.code).version)
    services.roll(game.code, host.pk, [], version=Game.objects.get(code=game.code).version)
    assert HttpClient().get(f"/g/{game.code}/export.json").json()["win_chances"] is None


def test_a_solo_game_has_no_graph_of_who_was_likely_to_win(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    cache.clear()
    game, host = services.create_game(seats=1, host_name="Ana", session_key="s-ana")
    assert host is not None
    services.start_game(game.code, host.pk, version=Game.objects.get(code=game.code).version)
    play_as_bots(game.code, 2, levels=("optimal",))
    client = HttpClient()
    page = client.get(f"/g/{game.code}/review/").content.decode()
    assert 'id="chances"' not in page
    assert 'id="replay-chances"' not in page
    assert 'class="chart chart--lines"' in page  # The running totals are there.
    # The export still says so in figures: alone, a player always wins, and nothing turns.
    exported = client.get(f"/g/{game.code}/export.json").json()["win_chances"]
    assert {tuple(m["chances"]) for m in exported["moments"]} == {(1.0,)}
    assert exported["turning_points"] == []
