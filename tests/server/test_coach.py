"""The coach and the bots over the websocket: advice to the player on turn alone, bots live."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from channels.db import database_sync_to_async

from games.engine import rules
from games.engine.replay import replay
from games.insight import coach
from games.live import bots, services
from games.models import Game
from games.strategy import load, odds
from tests.server.helpers import fingerprint
from tests.server.test_consumer import Client, new_game, seat

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@database_sync_to_async
def stored(code: str) -> tuple[object, ...]:
    return fingerprint(code)


@database_sync_to_async
def game_row(code: str) -> Game:
    return Game.objects.get(code=code)


async def solo(fixed_dice, coach: bool | None = None) -> tuple[str, Client]:  # type: ignore[no-untyped-def]
    """Ana alone at a one-seat table, the game started, her turn."""
    code = await new_game(seats=1, coach=coach)
    ana = await seat(code, "Ana")
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("started")
    await ana.drain()
    return code, ana


async def test_the_player_on_turn_gets_every_choice_best_first(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    _code, ana = await solo(fixed_dice)
    fixed_dice.load(1, 2, 3, 4, 6)
    await ana.send(type="roll", version=ana.version)
    await ana.expect("rolled")

    await ana.send(type="advice", id="advice-1")
    advice = await ana.expect("advice")

    assert advice["id"] == "advice-1"
    assert (advice["dice"], advice["rolls_left"]) == ([1, 2, 3, 4, 6], 2)
    choices = advice["choices"]
    # Five different faces: 31 sets of dice to keep (not all five), and 13 open boxes.
    assert len(choices) == 31 + 13
    assert sum(c["kind"] == "score" for c in choices) == 13
    expected = [c["expected"] for c in choices]
    assert expected == sorted(expected, reverse=True)
    assert choices[0]["loss"] == 0
    assert all(
        c["loss"] == pytest.approx(choices[0]["expected"] - c["expected"], abs=1e-3)
        for c in choices
    )
    # The same figures the engine gives for this position.
    card = rules.Scorecard(rules.OFFICIAL)
    engine = load(rules.OFFICIAL).advise(card, [1, 2, 3, 4, 6], 2)
    assert [(c["label"], c["expected"]) for c in choices] == [
        (c.label, round(c.expected, 4)) for c in engine
    ]
    straight = next(c for c in choices if c["category"] == "small_straight")
    assert (straight["label"], straight["points"]) == ("Small straight (30)", 30)
    keep = next(c for c in choices if c["kept"] == [1, 2, 3, 4])
    assert (keep["label"], keep["hold"]) == ("Keep 1 2 3 4", [0, 1, 2, 3])


@database_sync_to_async
def coach_position(code: str, seat_: int) -> tuple[rules.Position, int]:
    player = Game.objects.get(code=code).players.get(seat=seat_)
    return services.coach_position(code, player.pk)


async def test_the_coach_looks_at_the_position_on_turn_and_its_version(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, ana = await solo(fixed_dice)
    fixed_dice.load(6, 1, 6, 2, 6)
    await ana.send(type="roll", version=ana.version)
    await ana.expect("rolled")
    await ana.send(type="hold", hold=[4, 0, 2])
    await ana.expect("held")

    position, version = await coach_position(code, 0)

    empty = rules.Scorecard(rules.OFFICIAL)
    assert position == rules.Position(rules.OFFICIAL, 0, empty, (6, 1, 6, 2, 6), 2, (0, 2, 4))
    assert version == (await game_row(code)).state_version
    await ana.send(type="advice", id="advice-2")
    assert await ana.expect("advice") == {**coach.advice(position, version), "id": "advice-2"}


async def test_advice_is_refused_to_anyone_but_the_player_on_turn(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    # With two seats the advice reads the chances to win: their table first (seconds to
    # build, once a run), so the answer does not depend on a test before this one.
    await asyncio.to_thread(odds.load, rules.OFFICIAL)
    code = await new_game(seats=2, coach=True)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    watcher = await Client(code).connect()
    await ana.send(type="advice")
    await ana.expect_error("not_started")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # Ana wins the roll-off.
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")

    await ana.send(type="advice")
    await ana.expect_error("not_rolled")
    fixed_dice.load(6, 6, 6, 6, 6)
    await ana.send(type="roll", version=ana.version)
    await ana.expect("rolled")
    for client in (ben, watcher):
        await client.drain()
    before = await stored(code)

    await ben.send(type="advice")
    await ben.expect_error("not_your_turn")
    await watcher.send(type="advice")
    await watcher.expect_error("not_a_player")
    await ana.send(type="advice", seat=1)
    await ana.expect_error("not_your_seat")

    await ana.send(type="advice")
    assert (await ana.expect("advice"))["choices"][0]["label"] == "Yahtzee (50)"
    # Advice is for the asker alone, and changes nothing.
    assert await ben.until_pong() == []
    assert await watcher.until_pong() == []
    assert await stored(code) == before


async def test_the_host_switches_the_coach_and_everyone_hears(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = await new_game(seats=2)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    assert ana.snapshot["game"]["coach"] is False

    await ben.send(type="coach", on=True)
    await ben.expect_error("not_host")
    await ana.send(type="coach", on="please")
    await ana.expect_error("invalid_message")
    await ana.send(type="coach", on=True)
    for client in (ana, ben):
        event = await client.expect("coach")
        assert event["data"] == {"on": True, "seat": 0, "name": "Ana"}
    assert (await game_row(code)).coach

    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 4, 4, 4, 4, 4)
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")
    await ana.send(type="roll", version=ana.version)
    await ana.expect("rolled")
    await ana.send(type="coach", on=False)
    await ana.expect("coach")
    await ana.send(type="advice")
    await ana.expect_error("coach_off")


async def play_my_turn(client: Client, seat_: int) -> None:
    """One roll, then the box worth most (the first of equals)."""
    await client.send(type="roll", version=client.version)
    rolled = await client.expect("rolled")
    options: dict[str, int] = rolled["data"]["options"]
    best = max(options, key=lambda box: options[box])
    await client.send(type="score", category=best, version=client.version)
    scored = await client.expect("scored")
    assert scored["data"]["seat"] == seat_


def on_turn(events: list[dict[str, Any]]) -> int | None:
    """Whose turn it is after the last event that passed the turn."""
    for event in reversed(events):
        data = event["data"]
        if event["kind"] in ("scored", "left") and "next" in data:
            return data["next"]  # type: ignore[no-any-return]
        if event["kind"] in ("started", "roll_off") and data.get("first") is not None:
            return data["first"]  # type: ignore[no-any-return]
    return None


async def test_bots_complete_a_game_in_a_room_beside_people() -> None:
    code = await new_game(seats=4)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    await ana.send(type="add_bot", level="optimal")
    await ana.send(type="add_bot", level="casual")
    seated = []
    while len(seated) < 2:  # Ben's own arrival may come first: wait for the two bots.
        joined = await ana.expect("joined")
        if joined["data"].get("bot"):
            seated.append(joined["data"]["bot"])
    await ben.send(type="add_bot", level="casual")
    await ben.expect_error("not_host")
    watcher = await Client(code).connect()
    assert [p["bot"] for p in watcher.snapshot["players"]] == [None, None, "optimal", "casual"]

    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("started")
    people = {0: ana, 1: ben}
    finished = False
    while not finished:
        # The bots move on their own; wait until a person is on turn or the game ends.
        await bots.settle()
        for client in (ana, ben, watcher):  # Told of every move so far (over Redis, a
            await client.catch_up()  # bot's last may be on its way when its driver is done).
        finished = any(e["kind"] == "finished" for e in watcher.events)
        if not finished:
            current = on_turn(watcher.events)
            assert current in people, f"a bot on turn ({current}) is not playing"
            await play_my_turn(people[current], current)

    room = replay(await database_sync_to_async(services.replay_events)(code))
    assert room.status == "finished"
    assert all(card.is_complete for card in room.game.cards)  # type: ignore[union-attr]
    scored = [e["data"]["seat"] for e in watcher.events if e["kind"] == "scored"]
    assert sorted(scored) == sorted([0, 1, 2, 3] * 13)
    # Every browser saw every bot move, in order, with no gap.
    versions = [e["version"] for e in watcher.events]
    assert versions == list(range(versions[0], versions[0] + len(versions)))
    for client in (ana, ben):
        await client.close()
    await watcher.close()
