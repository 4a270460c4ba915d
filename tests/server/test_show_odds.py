"""Who sees the chances to win (issue 18): the host's choice when the room opens, and
during the game (issue 27).

Watchers always see them; players only when the host chose so (off by default, so
nobody is told they have lost). These tests are about the setting and the refusals,
which are decided before the strategy engine is asked anything; the answers
themselves are in tests/server/test_odds.py.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client as HttpClient

from games.engine import rules
from games.engine.replay import replay
from games.live import services
from games.live.services import CommandError
from games.models import Game, GameEvent
from tests.server.helpers import Table, fingerprint, play_out
from tests.server.test_consumer import Client, new_game, seat, stored
from tests.server.test_odds import two_and_watchers

pytestmark = pytest.mark.django_db(transaction=True)


# -- the setting -----------------------------------------------------------------------


def test_a_room_hides_the_odds_from_its_players_unless_its_host_shows_them() -> None:
    hidden = Table("ana").game
    assert hidden.show_odds is False
    assert services.snapshot(hidden.code)["game"]["show_odds"] is False
    # Left out of the log when off, as every setting at its default.
    assert "show_odds" not in GameEvent.objects.get(game=hidden, kind="created").payload

    shown, _ = services.create_game(seats=2, show_odds=True)
    assert shown.show_odds is True
    assert services.snapshot(shown.code)["game"]["show_odds"] is True
    created = GameEvent.objects.get(game=shown, kind="created").payload
    assert created == {
        "preset": "official",
        "seats": 2,
        "coach": False,
        "show_odds": True,
        "turn_seconds": 60,
    }


@pytest.mark.parametrize("wrong", ["yes", 1, None, "true"])
def test_anything_but_true_or_false_is_refused_and_opens_nothing(wrong: object) -> None:
    with pytest.raises(CommandError) as refused:
        services.create_game(seats=2, show_odds=wrong)
    assert refused.value.code == "invalid_show_odds"
    assert Game.objects.count() == 0


def test_a_rematch_keeps_the_choice() -> None:
    game, ana = services.create_game(seats=1, host_name="ana", show_odds=True)
    assert ana is not None
    services.start_game(game.code, ana.pk, version=Game.objects.get(code=game.code).version)
    play_out(game.code)
    new = services.rematch(game.code, ana.pk)
    assert new.show_odds is True
    assert GameEvent.objects.get(game=new, kind="created").payload["show_odds"] is True


def test_the_api_opens_a_room_with_the_choice_and_refuses_anything_else() -> None:
    client = HttpClient()
    made = client.post("/api/games/", {"show_odds": True}, content_type="application/json")
    assert made.status_code == 201
    assert Game.objects.get(code=made.json()["code"]).show_odds is True
    plain = client.post("/api/games/", {}, content_type="application/json")
    assert Game.objects.get(code=plain.json()["code"]).show_odds is False
    for wrong in ("yes", 1, None, [True]):
        refused = client.post(
            "/api/games/", json.dumps({"show_odds": wrong}), content_type="application/json"
        )
        assert refused.status_code == 400, wrong
        error = refused.json()["error"]
        assert error["code"] == "invalid_show_odds", wrong
        assert error["message"].startswith("show_odds is true or false"), wrong
    assert Game.objects.count() == 2


def test_the_home_form_has_the_box_unticked_and_opens_the_room_as_chosen(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/").content.decode()
    assert 'name="show_odds"' in page
    assert "Players see who is likely to win" in page
    assert 'name="show_odds" checked' not in page
    form = {"name": "Ana", "preset": "official", "seats": "2", "turn_seconds": "60"}
    client.post("/", form)
    client.post("/", {**form, "show_odds": "on"})
    assert [g.show_odds for g in Game.objects.order_by("created_at")] == [False, True]


# -- the host's choice during the game ------------------------------------------------------


def test_the_host_shows_and_hides_the_odds_during_the_game_and_the_room_is_told() -> None:
    table = Table("ana", "ben", seats=2)
    table.start()
    services.set_show_odds(table.code, table.id("ana"), True)
    assert table.game.show_odds is True
    assert services.snapshot(table.code)["game"]["show_odds"] is True
    event = table.last_event()
    assert (event.kind, event.payload) == ("show_odds", {"show": True, "seat": 0, "name": "ana"})
    assert table.game.state_version < table.game.version  # It makes no move stale.
    version = table.version
    services.set_show_odds(table.code, table.id("ana"), True)  # Already so: nothing.
    assert table.version == version
    services.set_show_odds(table.code, table.id("ana"), False)
    assert table.game.show_odds is False
    # The log replays to the room as it is, the choice included.
    replayed = replay(services.replay_events(table.code))
    assert (replayed.status, replayed.options.show_odds) == ("playing", False)
    assert [kind for kind in table.kinds() if kind == "show_odds"] == ["show_odds"] * 2


@pytest.mark.parametrize(
    ("who", "show", "code"),
    [
        ("ben", True, "not_host"),
        (None, True, "not_a_player"),
        ("ana", "yes", "invalid_show_odds"),
        ("ana", 1, "invalid_show_odds"),
        ("ana", None, "invalid_show_odds"),
    ],
)
def test_showing_the_odds_is_refused_with_a_reason_and_changes_nothing(who, show, code) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", seats=2)
    table.start()
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as refused:
        services.set_show_odds(table.code, table.id(who), show)
    assert refused.value.code == code
    assert fingerprint(table.code) == before
    assert table.game.show_odds is False


def test_the_choice_is_refused_once_the_game_is_over() -> None:
    table = Table("ana", seats=1)
    table.play_out()  # On the server's own dice.
    before = fingerprint(table.code)
    with pytest.raises(rules.IllegalMoveError) as refused:
        services.set_show_odds(table.code, table.id("ana"), True)
    assert refused.value.code == "game_over"
    assert fingerprint(table.code) == before


@pytest.mark.asyncio
async def test_over_the_socket_only_the_host_changes_it_and_everyone_is_told(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, ana, ben, (watcher,) = await two_and_watchers(fixed_dice, 1)
    before = await stored(code)
    await ben.send(type="show_odds", show=True, id="show_odds-1")
    refused = await ben.expect_error("not_host")
    assert refused["id"] == "show_odds-1"
    for wrong in ("yes", None):
        await ana.send(type="show_odds", show=wrong, id="show_odds-2")
        assert (await ana.expect_error("invalid_show_odds"))["id"] == "show_odds-2"
    assert await watcher.until_pong() == []  # Nobody else is told: nothing changed.
    assert await stored(code) == before

    await ana.send(type="show_odds", show=True, id="show_odds-3")
    for client in (ana, ben, watcher):
        told = await client.expect("show_odds")
        assert told["data"] == {"show": True, "seat": 0, "name": "Ana"}
    # From now on the players are answered; the answers are in tests/server/test_odds.py.
    await ana.send(type="show_odds", show=False)
    await ben.expect("show_odds")
    await ben.send(type="odds", version=ben.version, id="odds-9")
    assert (await ben.expect_error("odds_hidden"))["id"] == "odds-9"
    for client in (ana, ben, watcher):
        await client.close()


# -- asking over the socket: the refusals ---------------------------------------------------


@pytest.mark.asyncio
async def test_players_are_refused_the_odds_unless_the_room_shows_them(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = await new_game(seats=2)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    watcher = await Client(code).connect()
    # Before the start there is nothing to work out (and a player is told it is hidden).
    await watcher.send(type="odds", version=watcher.version, id="odds-1")
    assert (await watcher.expect_error("not_started"))["id"] == "odds-1"
    await ana.send(type="odds", version=ana.version)
    await ana.expect_error("odds_hidden")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    # Ana starts at the version she was told of last: first she hears of every seat taken
    # (over Redis the news of Ben's seat may still be on its way).
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")
    for client in (ana, ben, watcher):
        await client.drain()
    before = await stored(code)

    for client in (ana, ben):
        await client.send(type="odds", version=client.version, id="odds-2")
        refused = await client.expect_error("odds_hidden")
        assert refused["id"] == "odds-2"
        assert "watchers do" in refused["message"]
    # Refusals go to the asker alone, and change nothing.
    assert await watcher.until_pong() == []
    assert await stored(code) == before


@pytest.mark.asyncio
async def test_a_stale_or_malformed_request_is_answered_clearly(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = await new_game(seats=2, show_odds=True)
    ana = await seat(code, "Ana")
    await seat(code, "Ben")
    watcher = await Client(code).connect()
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")
    await watcher.drain()
    seen = watcher.version
    fixed_dice.load(2, 3, 4, 5, 6)
    await ana.send(type="roll", version=ana.version)
    await watcher.expect("rolled")
    before = await stored(code)

    await watcher.send(type="odds", version=seen, id="old")
    stale = await watcher.expect_error("stale")
    assert stale["id"] == "old"
    assert f"since version {seen}" in stale["message"]
    assert "ask again" in stale["message"]
    await watcher.send(type="odds", version=watcher.version + 5)
    assert "has not happened" in (await watcher.expect_error("stale"))["message"]
    await watcher.send(type="odds")
    await watcher.expect_error("invalid_message")
    await watcher.send(type="odds", version="7")
    await watcher.expect_error("invalid_message")
    await watcher.send(type="odds", version=watcher.version, seat=0)
    await watcher.expect_error("not_your_seat")
    await ana.send(type="odds", version=ana.version, seat=1)
    await ana.expect_error("not_your_seat")
    assert await stored(code) == before


def test_services_odds_game_reads_the_play_and_its_version() -> None:
    # What the chances are worked out from, for a watcher: the play, and its version.
    game, _ = services.create_game(seats=1, host_name="Solo")
    player = game.players.get()
    services.start_game(game.code, player.pk, version=Game.objects.get(code=game.code).version)
    row = Game.objects.get(code=game.code)
    state, version = services.odds_game(game.code, None, row.version)
    assert version == row.state_version
    assert state == row.state
