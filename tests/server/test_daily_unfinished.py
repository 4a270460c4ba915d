"""A daily attempt that ends with boxes still empty: not ranked, shown as not finished,
and still the day's one attempt. Played on a fixed day, whose dice (from the tests'
secret key) are known, so every figure below is worked out by hand."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse

from games.engine.rules import YAHTZEE_BOXES
from games.live import daily, services
from games.models import DailyEntry, Game, Player
from tests.conftest import FakeClock
from tests.server.helpers import play_solo_as

pytestmark = pytest.mark.django_db

DAY = datetime.date(2026, 11, 27)  # Day 2 of the daily dice.
# The first roll of each turn on that day's dice (daily.day_grid(DAY).faces(turn, 1)).
FIRST_ROLLS = [
    (3, 1, 3, 6, 6),
    (4, 6, 5, 2, 5),
    (1, 5, 4, 5, 1),
    (2, 5, 6, 4, 4),
    (6, 2, 4, 5, 2),
    (4, 3, 1, 2, 4),
    (1, 4, 6, 6, 1),
    (3, 1, 2, 2, 4),
    (6, 2, 3, 5, 3),
    (3, 1, 3, 1, 4),
    (1, 5, 6, 3, 4),
    (1, 2, 6, 1, 4),
    (2, 4, 1, 6, 2),
]
# Each first roll scored in the card's next box: Ones 1, Twos 2, Threes 0, Fours 8, Fives 5,
# Sixes 0 (16, no bonus), no kind, house, straight or Yahtzee, and Chance 2+4+1+6+2 = 15.
IN_CARD_ORDER = 31
IN_CARD_ORDER_SYMBOLS = "🟨🟨⬛🟨🟨⬛⬛⬛⬛⬛⬛⬛🟨"


@pytest.fixture
def on_day(fake_clock: FakeClock) -> FakeClock:
    fake_clock.at = datetime.datetime(2026, 11, 27, 12, 0, tzinfo=datetime.UTC)
    return fake_clock


def first_roll_in(game: Game, box: str) -> None:
    player = Player.objects.get(game=game, seat=0)
    services.roll(game.code, player.pk, (), version=Game.objects.get(pk=game.pk).version)
    services.score(game.code, player.pk, box, version=Game.objects.get(pk=game.pk).version)


def test_the_dice_of_the_day_are_those_worked_out_here(on_day: FakeClock) -> None:
    grid = daily.day_grid(DAY)
    assert [grid.faces(turn, 1) for turn in range(1, 14)] == FIRST_ROLLS


def abandoned_after(game: Game, clock: FakeClock) -> None:
    """Nobody plays ``game`` for a day and an hour: the watch ends it, as it stands."""
    clock.advance(25 * 3600)
    services.wake(game.code)
    clock.advance(-25 * 3600)
    assert Game.objects.get(pk=game.pk).status == Game.Status.ABANDONED


def test_unfinished_attempts_are_kept_off_the_places_and_listed_apart(
    on_day: FakeClock, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    ana = daily.play_today("ana", session_key="ana")
    play_solo_as(ana, "optimal")  # The engine's own play: its score, nothing given away.
    for name in ("dan", "eve"):
        game = daily.play_today(name, session_key=name)
        for box in YAHTZEE_BOXES:
            first_roll_in(game, box.value)
    ben = daily.play_today("ben", session_key="ben")
    first_roll_in(ben, "chance")  # 3+1+3+6+6 = 19
    first_roll_in(ben, "fives")  # 5+5 = 10
    abandoned_after(ben, on_day)
    cat = daily.play_today("cat", session_key="cat")
    first_roll_in(cat, "ones")  # 1
    services.leave_game(cat.code, Player.objects.get(game=cat, seat=0).pk)
    assert Game.objects.get(pk=cat.pk).status == Game.Status.FINISHED  # Over, not played out.
    daily.play_today("fay", session_key="fay")  # Still playing: on neither list.

    board = daily.board(DAY)
    engine = daily.engine_of(DAY)

    assert [(p.place, p.entry.name, p.entry.score) for p in board.places] == [
        (1, "ana", engine.score),
        (2, "dan", IN_CARD_ORDER),
        (2, "eve", IN_CARD_ORDER),
    ]
    assert board.places[0].entry.given_away == 0
    assert [(e.name, e.score, e.boxes, e.given_away) for e in board.unfinished] == [
        ("ben", 29, 2, None),
        ("cat", 1, 1, None),
    ]
    assert [e.card for e in board.unfinished] == [
        "⬜⬜⬜⬜🟨⬜⬜⬜⬜⬜⬜⬜🟨",
        "🟨⬜⬜⬜⬜⬜⬜⬜⬜⬜⬜⬜⬜",
    ]

    url = "https://yahtzee.example/daily/2026-11-27/"
    ben_result = daily.result_of(DailyEntry.objects.get(game=ben))
    assert ben_result is not None
    assert (ben_result.place, ben_result.ranked) == (None, 3)
    assert ben_result.share_text(url) == (
        f"Yahtzee Live daily #2: not finished, 29 after 2 of 13 boxes (engine {engine.score})\n"
        f"⬜⬜⬜⬜🟨⬜⬜⬜⬜⬜⬜⬜🟨\n{url}"
    )
    eve_result = daily.result_of(DailyEntry.objects.get(name="eve"))
    assert eve_result is not None
    assert (eve_result.place, eve_result.ranked) == (2, 3)
    assert eve_result.share_text(url) == (
        f"Yahtzee Live daily #2: {IN_CARD_ORDER} (engine {engine.score})\n"
        f"{IN_CARD_ORDER_SYMBOLS}\n{url}"
    )


def test_an_attempt_left_unfinished_is_still_the_days_one_attempt(client, on_day) -> None:  # type: ignore[no-untyped-def]
    client.post(reverse("daily-play"), {"name": "cat"})
    game = DailyEntry.objects.get().game
    first_roll_in(game, "ones")
    services.leave_game(game.code, Player.objects.get(game=game, seat=0).pk)

    again = client.post(reverse("daily-play"), {"name": "cat"})
    assert again.url == reverse("daily")  # The result, not a new game.
    assert DailyEntry.objects.count() == 1
    page = client.get(reverse("daily")).content.decode()
    assert 'id="daily-unfinished"' in page
    assert 'id="daily-place">not ranked<' in page
    assert 'id="given-away">not counted<' in page
    assert "Play today&#x27;s dice" not in page
    unfinished = page[page.index('id="unfinished"') :]
    assert 'cat <span class="badge">guest</span>' in unfinished
    assert "<td>1 of 13</td>" in unfinished
    assert "Yahtzee Live daily #2: not finished, 1 after 1 of 13 boxes (engine " in page


def test_the_profile_averages_the_finished_days_only(client, on_day, django_user_model) -> None:  # type: ignore[no-untyped-def]
    gil = django_user_model.objects.create_user("gil")
    finished = daily.play_today("gil", session_key="", user_id=gil.pk)
    for box in YAHTZEE_BOXES:
        first_roll_in(finished, box.value)
    on_day.advance(24 * 3600)  # The next day: two boxes played, then nobody played.
    left = daily.play_today("gil", session_key="", user_id=gil.pk)
    first_roll_in(left, "chance")  # 6 2 5 1 4: 18
    first_roll_in(left, "ones")  # 2 2 6 6 6: 0
    abandoned_after(left, on_day)

    history = daily.history_of(gil.pk)
    done = DailyEntry.objects.get(game=finished)
    assert [(e.day.day, e.score, e.boxes, e.finished) for e in history.entries] == [
        (28, 18, 2, False),
        (27, IN_CARD_ORDER, 13, True),
    ]
    assert done.given_away is not None
    assert history.average_given_away == done.given_away  # The unfinished day is not counted.

    page = client.get(reverse("profile", args=["gil"])).content.decode()
    assert f'id="daily-average">{done.given_away:.1f}<' in page
    assert "over 1 finished" in page
    assert "not finished (2 of 13 boxes)" in page


def test_the_rooms_end_panel_reads_the_result_from_the_board(client, on_day) -> None:  # type: ignore[no-untyped-def]
    eve = daily.play_today("eve", session_key="eve")
    ben = daily.play_today("ben", session_key="ben")
    result = reverse("daily-result", args=[eve.code])
    refused = client.get(result)
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "not_finished")
    for box in YAHTZEE_BOXES:
        first_roll_in(eve, box.value)
    first_roll_in(ben, "chance")
    services.leave_game(ben.code, Player.objects.get(game=ben, seat=0).pk)
    engine = daily.engine_of(DAY).score

    shown = client.get(result).json()
    given = DailyEntry.objects.get(game=eve).given_away  # Settled by that request.
    assert {k: v for k, v in shown.items() if k != "given_away"} == {
        "score": IN_CARD_ORDER,
        "finished": True,
        "boxes": 13,
        "place": 1,
        "ranked": 1,
        "engine": engine,
        "share": (
            f"Yahtzee Live daily #2: {IN_CARD_ORDER} (engine {engine})\n"
            f"{IN_CARD_ORDER_SYMBOLS}\nhttp://testserver/daily/2026-11-27/"
        ),
        "board": "/daily/2026-11-27/",
    }
    assert given is not None
    # Scoring each first roll where it falls gives a good deal away.
    assert shown["given_away"] == given > 0
    left = client.get(reverse("daily-result", args=[ben.code])).json()
    assert (left["score"], left["finished"], left["boxes"], left["place"], left["given_away"]) == (
        19,
        False,
        1,
        None,
        None,
    )
    missing = client.get(reverse("daily-result", args=["nope"]))
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "no_such_game")
