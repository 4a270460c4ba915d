"""The page of "my games" (games/web/mine.py, /my-games/): the games in play one sits in,
whose turn it is and how long is left, those waiting for you first."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from games.live import services
from games.models import Game, Player
from games.web import mine

pytestmark = pytest.mark.django_db

ME = "session-me"


def game_with(*seats: tuple[str, str], turn_seconds: int | None = None) -> str:
    """A game with these (name, session key) seats, the first the host; its code."""
    (host, key), *others = seats
    game, _ = services.create_game(host_name=host, session_key=key, turn_seconds=turn_seconds)
    for name, other in others:
        services.join_game(game.code, name, session_key=other)
    return game.code


def start_on(code: str, name: str) -> None:
    """Start the game and play turns (roll, first empty box) until ``name`` is on turn."""
    players = {p.name: p for p in Player.objects.filter(game__code=code)}
    services.start_game(
        code, players[next(iter(players))].pk, version=Game.objects.get(code=code).version
    )
    while True:
        _, _, state = services.rules_state(code)
        assert state is not None
        if state.current == players[name].seat:
            return
        player = next(p for p in players.values() if p.seat == state.current)
        services.roll(code, player.pk, [], version=Game.objects.get(code=code).version)
        box = state.cards[player.seat].empty[0].value
        services.score(code, player.pk, box, version=Game.objects.get(code=code).version)


def deadline_in(code: str, minutes: int | None) -> None:
    deadline = None if minutes is None else timezone.now() + timedelta(minutes=minutes)
    Game.objects.filter(code=code).update(deadline=deadline)


@pytest.fixture
def games() -> dict[str, str]:
    """Games of the browser session ``ME`` (as "me"), and games it must not see."""
    made = {
        "theirs_no_clock": game_with(("me", ME), ("ana", "a")),
        "mine_a_day": game_with(("bob", "b"), ("me", ME), turn_seconds=86_400),
        "theirs_soon": game_with(("me", ME), ("cy", "c"), turn_seconds=3_600),
        "mine_no_clock": game_with(("me", ME), ("dee", "d")),
        "lobby": game_with(("me", ME), ("eve", "e")),
        "someone_elses": game_with(("fay", "f"), ("gus", "g")),
        "left": game_with(("me", ME), ("hal", "h"), ("ida", "i")),
    }
    start_on(made["theirs_no_clock"], "ana")
    start_on(made["mine_a_day"], "me")
    deadline_in(made["mine_a_day"], 180)
    start_on(made["theirs_soon"], "cy")
    deadline_in(made["theirs_soon"], 10)
    start_on(made["mine_no_clock"], "me")
    start_on(made["someone_elses"], "fay")
    start_on(made["left"], "hal")
    services.leave_game(made["left"], Player.objects.get(game__code=made["left"], name="me").pk)
    return made


def test_it_lists_the_games_in_play_yours_first_then_by_the_time_left(games) -> None:  # type: ignore[no-untyped-def]
    listed = mine.games_in_play(user_id=None, session_key=ME, now=timezone.now())

    assert [g.game.code for g in listed] == [
        games["mine_a_day"],  # Your turn, 3 hours left.
        games["mine_no_clock"],  # Your turn, no clock.
        games["theirs_soon"],  # cy's turn, 10 minutes left.
        games["theirs_no_clock"],  # ana's turn, no clock.
    ]
    assert [g.yours for g in listed] == [True, True, False, False]
    assert [g.on_turn_name for g in listed] == ["me", "me", "cy", "ana"]
    assert [g.your_name for g in listed] == ["me"] * 4
    assert listed[1].others == ("dee",)
    assert [g.left_words for g in listed] == [
        "2 h 59 min left",
        "no clock",
        "9 min left",
        "no clock",
    ]


def test_an_account_sees_the_seats_it_holds_on_any_browser(django_user_model) -> None:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_user("jo", password="x" * 12)
    game, _ = services.create_game(host_name="jo", session_key="phone", user_id=user.pk)
    services.join_game(game.code, "kim", session_key="k")
    start_on(game.code, "kim")

    listed = mine.games_in_play(user_id=user.pk, session_key="laptop", now=timezone.now())

    assert [(g.game.code, g.your_name, g.on_turn_name) for g in listed] == [
        (game.code, "jo", "kim")
    ]
    assert mine.games_in_play(user_id=None, session_key="laptop", now=timezone.now()) == []


def test_a_browser_without_a_session_has_no_games() -> None:
    assert mine.games_in_play(user_id=None, session_key="", now=timezone.now()) == []


def test_the_page_shows_each_game_with_whose_turn_and_the_time_left(client: Client) -> None:
    client.get("/")  # Not needed for a session: the room makes one.
    code = game_with(("ana", "a"), ("zed", "z"))
    client.get(f"/g/{code}/")
    key = client.session.session_key
    assert key is not None
    services.join_game(code, "me", session_key=key)
    start_on(code, "me")
    other = game_with(("me", key), ("bo", "b"), turn_seconds=7_200)
    start_on(other, "bo")

    page = client.get("/my-games/").content.decode()

    rows = re.findall(
        r'<li class="panel my-game[^"]*" data-code="([^"]+)" data-yours="(\w+)"', page
    )
    assert rows == [(code, "true"), (other, "false")]
    first, second = page.split('data-code="')[1:3]
    assert "Your turn" in first
    assert "no clock" in first
    assert "You (me) with ana, zed" in first
    assert f'href="/g/{code}/"' in first
    assert "bo's turn" in second
    assert re.search(r"1 h \d+ min left", second)
    assert "round 1 of 13" in second


def test_a_browser_with_no_games_is_told_how_to_start_one(client: Client) -> None:
    page = client.get("/my-games/").content.decode()

    assert 'id="my-games-none"' in page
    assert "No games in play" in page


def test_the_header_links_to_my_games(client: Client) -> None:
    page = client.get("/rules/").content.decode()

    assert '<a href="/my-games/">My games</a>' in page
