"""The duplicate dice through the services: daily games, their board, "play my dice"."""

from __future__ import annotations

import datetime
import json
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import IntegrityError, connection
from django.urls import reverse

from games.engine import events as ev
from games.engine import grid as grids
from games.engine.grid import Grid
from games.engine.replay import replay
from games.engine.rules import Game as RulesGame
from games.insight.duplicate import engine_game
from games.live import daily, duplicate, services
from games.live.pipeline import CommandError
from games.models import DailyEngine, DailyEntry, Game, Player
from games.wire import presentation
from tests.server.helpers import Table, play_solo, play_solo_as

pytestmark = pytest.mark.django_db


def seat(game: Game) -> Player:
    return Player.objects.get(game=game, seat=0)


def roll(game: Game, hold: tuple[int, ...] = ()) -> tuple[int, ...]:
    services.roll(game.code, seat(game).pk, hold, version=Game.objects.get(pk=game.pk).version)
    _, _, state = services.rules_state(game.code)
    assert state is not None
    assert state.turn.dice is not None
    return state.turn.dice


def score(game: Game, box: str) -> None:
    services.score(game.code, seat(game).pk, box, version=Game.objects.get(pk=game.pk).version)


def test_two_daily_players_holding_different_dice_reroll_to_the_same_faces() -> None:
    ana = daily.play_today("ana", session_key="session-ana")
    ben = daily.play_today("ben", session_key="session-ben")
    assert roll(ana) == roll(ben) == daily.day_grid(daily.today()).faces(1, 1)

    ana_dice, ben_dice = roll(ana, (0, 1)), roll(ben, (2,))

    second = daily.day_grid(daily.today()).faces(1, 2)
    assert ana_dice[2:] == second[2:]
    assert ben_dice[3:] == second[3:]
    assert ana_dice[3:] == ben_dice[3:]  # Both rerolled positions 3 and 4 (0-based).


def test_a_solo_game_replays_from_its_own_grid_to_what_was_saved(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    game = table.game
    found = duplicate.grid_of(game)
    assert found is not None
    assert duplicate.grid_of(Game.objects.get(pk=game.pk)) == found  # Written once, kept.

    # Every decision of the log again, every die taken from the grid.
    state = RulesGame.new(1)
    for event in services.replay_events(game.code):
        if isinstance(event, ev.Rolled):
            state = state.roll(0, found.throw(state, 0, event.held), event.held).game
        elif isinstance(event, ev.Scored):
            state = state.score(0, event.category).game
    assert state == table.state()


def test_a_grid_game_replays_from_its_log() -> None:
    game = daily.play_today("ana", session_key="session-ana")
    play_solo_as(game, "casual")
    assert replay(services.replay_events(game.code)).game == services.table(game.code).state


def test_the_grid_of_a_game_in_play_is_in_no_message() -> None:
    game = daily.play_today("ana", session_key="session-ana")
    roll(game)
    score(game, "chance")
    roll(game)
    the_grid = daily.day_grid(daily.today())
    later = [the_grid.faces(t, r) for t in range(3, 14) for r in (1, 2, 3)]

    told = [
        json.dumps(services.snapshot(game.code, seat(game).pk)),
        json.dumps(presentation.log_json(services.log(game.code))),
        json.dumps(services.game_json(Game.objects.get(pk=game.pk))),
    ]
    for text in told:
        assert the_grid.text() not in text
        assert '"grid"' not in text
        for faces in later:  # No roll still to come, in any form the dice are sent.
            if faces not in (the_grid.faces(1, 1), the_grid.faces(2, 1)):
                assert json.dumps(list(faces)) not in text


def test_the_export_of_a_daily_game_hides_its_grid_until_the_day_is_over(
    client, fake_clock
) -> None:  # type: ignore[no-untyped-def]
    client.post(reverse("daily-play"), {"name": "ana"})
    entry = DailyEntry.objects.get()
    play_solo_as(entry.game)

    shown = client.get(reverse("export", args=[entry.game.code])).json()["game"]["dice"]
    assert shown == {"kind": "daily", "daily": entry.day.isoformat(), "dice_of": None, "grid": None}
    assert daily.day_grid(entry.day).text() not in json.dumps(
        client.get(reverse("export", args=[entry.game.code])).json()
    )

    fake_clock.at += datetime.timedelta(days=1)
    shown = client.get(reverse("export", args=[entry.game.code])).json()["game"]["dice"]
    assert shown["grid"] == daily.day_grid(entry.day).text()


def test_one_daily_game_per_browser_and_per_account(django_user_model) -> None:  # type: ignore[no-untyped-def]
    first = daily.play_today("ana", session_key="browser-1")
    assert daily.play_today("ana again", session_key="browser-1") == first

    bob = django_user_model.objects.create_user("bob", password="x" * 12)
    on_phone = daily.play_today("bob", session_key="phone", user_id=bob.pk)
    assert daily.play_today("bob", session_key="laptop", user_id=bob.pk) == on_phone
    assert DailyEntry.objects.count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("same", ["browser", "account"])
def test_two_tabs_starting_todays_game_at_once_get_one_game(
    same: str, monkeypatch: pytest.MonkeyPatch, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    """Two threads, each with its own database connection as a process has, start today's
    game for the same browser (two tabs) or the same account (two browsers) at once.

    A barrier lines them up after their real check for an attempt, so both have seen none
    before either saves: the race is certain, not left to timing. On PostgreSQL both
    transactions then insert at once, and the unique index makes the second wait for the
    first to commit and fail, after which it reads the first's game. On SQLite a
    transaction takes the write lock when it begins (yahtzee_site/settings.py), so the
    second waits for the first to commit before inserting: there this proves that a tab
    past the check is refused by the database and lands in the other tab's game.
    """
    user_id = django_user_model.objects.create_user("ana").pk if same == "account" else None
    checked = threading.Barrier(2, timeout=60)
    first_looks: list[DailyEntry | None] = []
    looks = []  # Every check, by both threads.
    mine = threading.local()
    real_entry_of = daily.entry_of

    def entry_of(*args: object, **kwargs: object) -> DailyEntry | None:
        found = real_entry_of(*args, **kwargs)  # type: ignore[arg-type]
        looks.append(found)
        if not getattr(mine, "looked", False):  # The check before saving: wait for the other.
            mine.looked = True
            first_looks.append(found)
            checked.wait()
        return found

    monkeypatch.setattr(daily, "entry_of", entry_of)

    def tab(number: int) -> str:
        session_key = "browser-1" if same == "browser" else f"browser-{number}"
        try:
            return daily.play_today("ana", session_key=session_key, user_id=user_id).code
        finally:
            connection.close()  # Each thread's own connection.

    with ThreadPoolExecutor(max_workers=2) as pool:
        codes = list(pool.map(tab, range(2)))

    assert first_looks == [None, None]  # Both were past the check: they really raced.
    # One saved its attempt; the database refused the other's, which then looked again and
    # found the first's (a third check, and the only one that found anything).
    assert len(looks) == 3
    assert looks[2] is not None
    assert codes[0] == codes[1]  # Both tabs land in the one game.
    assert Game.objects.filter(daily__isnull=False).count() == 1
    assert DailyEntry.objects.count() == 1
    assert DailyEntry.objects.get().game.code == codes[0]


def test_the_database_refuses_a_second_entry_of_a_browser() -> None:
    game = daily.play_today("ana", session_key="browser-1")
    other = daily.play_today("ben", session_key="browser-2")
    with pytest.raises(IntegrityError):
        DailyEntry.objects.create(day=game.daily, game=other, session_key="browser-1", name="x")


def test_the_engine_score_is_the_optimal_bots_on_the_same_dice() -> None:
    game = daily.play_today("Optimal fan", session_key="browser-1")
    play_solo_as(game, "optimal")

    engine = daily.engine_of(daily.today())
    assert engine.score == services.table(game.code).state.cards[0].total  # type: ignore[union-attr]
    assert engine.seconds > 0
    assert daily.engine_of(daily.today()) == engine
    assert DailyEngine.objects.count() == 1
    assert daily.settle(DailyEntry.objects.get()).given_away == 0


def test_the_board_orders_by_score_and_equal_scores_share_a_place() -> None:
    day = daily.today()
    games = {}
    for name in ("ana", "ben", "cat", "dan"):
        games[name] = daily.play_today(name, session_key=f"session-{name}")
    play_solo_as(games["ana"], "optimal")
    play_solo_as(games["ben"], "casual")
    play_solo_as(games["cat"], "optimal")  # dan is still playing: not on the board.

    places = daily.board(day).places

    assert next((p.place, p.entry.name) for p in places)[0] == 1
    by_name = {p.entry.name: p for p in places}
    assert set(by_name) == {"ana", "ben", "cat"}
    assert by_name["ana"].place == by_name["cat"].place == 1
    assert by_name["ben"].place == (
        3 if by_name["ben"].entry.score != by_name["ana"].entry.score else 1
    )
    assert by_name["ben"].entry.given_away is not None
    assert by_name["ben"].entry.given_away > 0


def test_play_my_dice_gives_a_friend_the_same_first_roll(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)
    friend = duplicate.play_dice_of(table.code, "ben", session_key="session-ben")
    assert friend.dice_of is not None
    assert friend.dice_of.code == table.code
    assert roll(friend) == (1, 1, 1, 2, 3)  # The first roll of the first game.


def test_play_my_dice_is_refused_for_a_game_in_play_today_and_with_several_players(
    fixed_dice,
) -> None:  # type: ignore[no-untyped-def]
    in_play = Table("ana", "ben")
    with pytest.raises(CommandError) as refused:
        duplicate.play_dice_of(in_play.code, "cat")
    assert refused.value.code == "not_finished"

    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, *[6] * 5 * 26)  # ana wins the roll-off.
    in_play.start()
    in_play.play_out()
    with pytest.raises(CommandError) as refused:
        duplicate.play_dice_of(in_play.code, "cat")
    assert refused.value.code == "no_grid"

    today = daily.play_today("ana", session_key="session-ana")
    play_solo_as(today)
    with pytest.raises(CommandError) as refused:
        duplicate.play_dice_of(today.code, "cat")
    assert refused.value.code == "dice_secret"


def test_the_coach_stays_off_on_shared_dice() -> None:
    game = daily.play_today("ana", session_key="session-ana")
    with pytest.raises(CommandError) as refused:
        services.set_coach(game.code, seat(game).pk, True)
    assert refused.value.code == "no_coach_on_duplicate_dice"
    assert not Game.objects.get(pk=game.pk).coach


def test_the_engine_plays_a_grid_as_the_optimal_bot() -> None:
    found = Grid.from_seed(b"any seed")
    game = engine_game(found)
    assert game.is_over
    assert game.cards[0].total > 0
    assert len(list(grids.played_cells([]))) == 0
