"""A Yatzy room: a whole game through the websocket, and bots that finish one.

The websocket game is driven as ``test_consumer.py`` drives a Yahtzee game: two players
and a watcher, the server's dice fixed by the test, every score checked as it comes.
"""

from __future__ import annotations

from typing import Any

import pytest

from games.engine import rules
from games.engine.replay import replay
from games.live import services
from games.models import Game
from tests.server.helpers import Table
from tests.server.test_bots import bot_turns, play_bots

# The websocket helpers of the Yahtzee game's tests, and their fixtures (time stands still;
# no rate limit), which pytest finds by their names here.
from tests.server.test_consumer import (  # noqa: F401
    Client,
    new_game,
    script_speed,
    seat,
    snapshot,
    still_time,
    stored,
)

pytestmark = [pytest.mark.django_db(transaction=True)]

# Alice's turns: the dice of her one roll, the box she fills and its points (card order).
ALICE = [
    ((1, 1, 1, 2, 3), "ones", 3),
    ((2, 2, 2, 1, 1), "twos", 6),
    ((3, 3, 3, 1, 1), "threes", 9),
    ((4, 4, 4, 1, 1), "fours", 12),
    ((5, 5, 5, 1, 1), "fives", 15),
    ((6, 6, 6, 1, 1), "sixes", 18),  # 63: the 50 bonus
    ((6, 6, 5, 5, 1), "one_pair", 12),
    ((6, 6, 5, 5, 1), "two_pairs", 22),
    ((2, 2, 3, 3, 3), "three_of_a_kind", 9),  # the three threes only
    ((6, 6, 6, 6, 6), "four_of_a_kind", 24),  # five alike: four of them count
    ((5, 4, 3, 2, 1), "small_straight", 15),
    ((6, 5, 4, 3, 2), "large_straight", 20),
    ((6, 6, 6, 5, 5), "full_house", 28),  # the sum
    ((6, 6, 6, 6, 5), "chance", 29),
    ((4, 4, 4, 4, 4), "yatzy", 50),
]
ALICE_TOTAL = 63 + 50 + 12 + 22 + 9 + 24 + 15 + 20 + 28 + 29 + 50  # 322
# Bob rolls 1 2 3 4 6 every turn and fills his boxes in card order.
BOB_POINTS = [1, 2, 3, 4, 0, 6, 0, 0, 0, 0, 0, 0, 0, 16, 0]


async def started_yatzy_table(fixed_dice) -> tuple[str, Client, Client, Client]:  # type: ignore[no-untyped-def]
    """Alice (host, seat 0) and Bob seated at a Yatzy table, a watcher, Alice on turn."""
    code = await new_game(preset="yatzy")
    alice = await seat(code, "Alice")
    bob = await seat(code, "Bob")
    watcher = await Client(code).connect()
    fixed_dice.load(*[6] * 5, *[1] * 5)
    await alice.catch_up()
    await alice.send(type="start", version=alice.version)
    assert (await alice.expect("roll_off"))["data"]["first"] == 0
    for client in (alice, bob, watcher):
        await client.drain()
        client.events.clear()
    return code, alice, bob, watcher


@pytest.mark.asyncio
@pytest.mark.usefixtures("script_speed")
async def test_two_players_and_a_watcher_play_a_whole_yatzy_game(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_yatzy_table(fixed_dice)
    assert list(watcher.snapshot["players"][0]["card"]["boxes"]) == [
        c.value for c in rules.YATZY.boxes
    ]

    for (faces, box, points), bob_box, bob_points in zip(
        ALICE, rules.YATZY_BOXES, BOB_POINTS, strict=True
    ):
        fixed_dice.load(*faces)
        await alice.send(type="roll", version=alice.version)
        rolled = await alice.expect("rolled")
        # The options are the empty boxes of Yatzy's card, by its own scoring.
        options: dict[str, Any] = rolled["data"]["options"]
        assert options[box] == points
        assert "yahtzee" not in options
        await alice.send(type="score", category=box, version=alice.version)
        scored = await alice.expect("scored")
        assert (scored["data"]["points"], scored["data"]["yahtzee_bonus"]) == (points, False)

        await bob.catch_up(alice.version)
        fixed_dice.load(1, 2, 3, 4, 6)
        await bob.send(type="roll", version=bob.version)
        await bob.expect("rolled")
        await bob.send(type="score", category=bob_box.value, version=bob.version)
        assert (await bob.expect("scored"))["data"]["points"] == bob_points
        await alice.catch_up(bob.version)

    finished = await bob.expect("finished")
    assert finished["data"] == {
        "winners": [0],
        "totals": [ALICE_TOTAL, sum(BOB_POINTS)],
        "places": [1, 2],
    }
    await watcher.catch_up(bob.version)
    kinds = [e["kind"] for e in watcher.events]
    assert kinds == ["rolled", "scored", "rolled", "scored"] * 15 + ["finished"]
    await watcher.send(type="snapshot")
    final = await watcher.expect("snapshot")
    assert final == {
        **await snapshot(code),
        "watchers": final["watchers"],
        "players": final["players"],
    }
    card = final["players"][0]["card"]
    assert (card["upper_total"], card["upper_bonus"], card["total"]) == (63, 50, ALICE_TOTAL)
    assert (card["yahtzee_bonus"], card["yahtzee_bonus_count"]) == (0, 0)
    assert final["game"]["status"] == "finished"
    for client in (alice, bob, watcher):
        await client.close()


@pytest.mark.asyncio
@pytest.mark.usefixtures("script_speed")
async def test_a_box_of_the_other_game_is_refused_and_changes_nothing(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, alice, bob, watcher = await started_yatzy_table(fixed_dice)
    fixed_dice.load(6, 6, 6, 6, 6)
    await alice.send(type="roll", version=alice.version)
    await alice.expect("rolled")
    before = await stored(code)
    await alice.send(type="score", category="yahtzee", version=alice.version)
    error = await alice.expect_error("unknown_category")
    assert "yatzy" in error["message"]
    assert await stored(code) == before
    for client in (alice, bob, watcher):
        await client.close()


def test_bots_of_every_level_finish_a_yatzy_game(kept_tables) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", preset="yatzy", seats=4)
    assert table.game.rules is rules.YATZY
    for level in ("win", "optimal", "casual"):
        services.add_bot(table.code, table.id("ana"), level)
    table.start()
    while table.game.status == Game.Status.PLAYING:
        play_bots(table.code)
        if table.game.status == Game.Status.PLAYING:  # Ana's turn: one roll, the best box.
            table.roll("ana")
            state = table.state()
            options = state.cards[0].options(state.turn.dice or ())
            table.score("ana", max(options, key=lambda c: options[c]).value)

    room = replay(services.replay_events(table.code))
    assert room.status == "finished"
    assert room.game is not None
    for bot in (1, 2, 3):
        assert len(bot_turns(table.code, bot)) == 15
        card = room.game.cards[bot]
        assert len(card.filled) == 15
        assert card.total == sum(card.filled.values()) + card.upper_bonus
