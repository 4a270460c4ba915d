"""The bots' pace (issue 19): the host chooses how long the bots take over their moves.

The setting is a host-only command with its event, like the coach; the driver's waits
are read with the sleep injected, never timed.
"""

from __future__ import annotations

import json

import pytest
from asgiref.sync import sync_to_async
from django.test import Client as HttpClient

from games.engine import rules
from games.engine.replay import replay
from games.live import bots, services
from games.live.services import CommandError
from games.models import Game, GameEvent
from tests.server.helpers import Table, fingerprint
from tests.server.test_consumer import Client, new_game, seat, stored

pytestmark = pytest.mark.django_db(transaction=True)


# -- the setting -----------------------------------------------------------------------


def test_a_room_opens_at_the_natural_pace_unless_told_otherwise() -> None:
    assert Table("ana").game.bot_pace == "natural"
    game, _ = services.create_game(seats=2, bot_pace="instant")
    assert game.bot_pace == "instant"
    assert services.snapshot(game.code)["game"]["bot_pace"] == "instant"
    created = GameEvent.objects.get(game=game, kind="created").payload
    assert created == {
        "preset": "official",
        "seats": 2,
        "coach": False,
        "bot_pace": "instant",
        "turn_seconds": 60,
    }
    with pytest.raises(CommandError) as refused:
        services.create_game(seats=2, bot_pace="slow")
    assert refused.value.code == "invalid_bot_pace"


def test_the_host_sets_the_pace_in_the_lobby_and_in_play_and_the_room_is_told() -> None:
    table = Table("ana", "ben", seats=2)
    services.set_bot_pace(table.code, table.id("ana"), "quick")
    assert table.game.bot_pace == "quick"
    event = table.last_event()
    assert (event.kind, event.payload) == ("bot_pace", {"pace": "quick", "seat": 0, "name": "ana"})
    assert table.game.state_version < table.game.version  # It makes no move stale.

    table.start()
    services.set_bot_pace(table.code, table.id("ana"), "instant")
    assert table.game.bot_pace == "instant"
    version = table.version
    services.set_bot_pace(table.code, table.id("ana"), "instant")  # Already so: nothing.
    assert table.version == version
    # The log still replays: the pace changes no play.
    assert replay(services.replay_events(table.code)).status == "playing"


@pytest.mark.parametrize(
    ("who", "pace", "code"),
    [
        ("ben", "quick", "not_host"),
        (None, "quick", "not_a_player"),
        ("ana", "slow", "invalid_bot_pace"),
        ("ana", 1, "invalid_bot_pace"),
        ("ana", "", "invalid_bot_pace"),
    ],
)
def test_setting_the_pace_is_refused_with_a_reason_and_changes_nothing(who, pace, code) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", seats=2)
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as refused:
        services.set_bot_pace(table.code, table.id(who), pace)
    assert refused.value.code == code
    assert fingerprint(table.code) == before
    assert table.game.bot_pace == "natural"


def test_the_pace_is_refused_once_the_game_is_over() -> None:
    table = Table("ana", seats=1)
    table.play_out()  # On the server's own dice.
    before = fingerprint(table.code)
    with pytest.raises(rules.IllegalMoveError) as refused:
        services.set_bot_pace(table.code, table.id("ana"), "quick")
    assert refused.value.code == "game_over"
    assert fingerprint(table.code) == before


def test_a_rematch_keeps_the_pace() -> None:
    table = Table("ana", seats=1)
    services.set_bot_pace(table.code, table.id("ana"), "quick")
    table.play_out()
    new = services.rematch(table.code, table.id("ana"))
    assert new.bot_pace == "quick"
    created = GameEvent.objects.get(game=new, kind="created").payload
    assert created["bot_pace"] == "quick"


def test_the_api_opens_a_room_at_the_pace_asked_and_refuses_another() -> None:
    client = HttpClient()
    made = client.post("/api/games/", {"bot_pace": "quick"}, content_type="application/json")
    assert made.status_code == 201
    assert Game.objects.get(code=made.json()["code"]).bot_pace == "quick"
    for wrong in ("slow", 3, None):
        refused = client.post(
            "/api/games/", json.dumps({"bot_pace": wrong}), content_type="application/json"
        )
        assert refused.status_code == 400, wrong
        assert refused.json()["error"]["code"] == "invalid_bot_pace", wrong
    assert Game.objects.count() == 1


# -- over the websocket -----------------------------------------------------------------


@pytest.mark.asyncio
async def test_the_host_sets_the_pace_over_the_socket_and_others_are_refused() -> None:
    code = await new_game(seats=3)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    watcher = await Client(code).connect()
    for client in (ana, ben, watcher):
        await client.drain()
    before = await stored(code)

    for client, message, error in [
        (ben, {"pace": "instant"}, "not_host"),
        (watcher, {"pace": "instant"}, "not_a_player"),
        (ana, {"pace": "slow"}, "invalid_bot_pace"),
        (ana, {"pace": 2}, "invalid_bot_pace"),
        (ana, {}, "invalid_bot_pace"),
        (ana, {"pace": "quick", "seat": 1}, "not_your_seat"),
    ]:
        await client.send(type="bot_pace", id="p", **message)
        refused = await client.expect_error(error)
        assert refused["id"] == "p"
    assert await stored(code) == before

    await ana.send(type="bot_pace", pace="instant")
    for client in (ana, ben, watcher):
        event = await client.expect("bot_pace")
        assert event["data"] == {"pace": "instant", "seat": 0, "name": "Ana"}
    await watcher.send(type="snapshot")
    assert (await watcher.expect("snapshot"))["game"]["bot_pace"] == "instant"


# -- the waits -----------------------------------------------------------------------


class Middle:
    """The middle of every range: a natural pause exactly as the table gives it."""

    def uniform(self, a: float, b: float) -> float:
        return (a + b) / 2


class Edges:
    """The ends of the range in turn: the shortest and longest a natural pause may be."""

    def __init__(self) -> None:
        self.calls = 0

    def uniform(self, a: float, b: float) -> float:
        self.calls += 1
        return a if self.calls % 2 else b


async def bot_turn(
    fixed_dice,  # type: ignore[no-untyped-def]
    pace: str,
    faces: list[int],
    rng: bots.Uniform | None = None,
) -> list[tuple[str, float]]:
    """A bot's first turn at ``pace``, on dice ``faces``: each move's step and its wait
    (a natural one exactly as the table gives it, unless ``rng`` says otherwise)."""
    table = await sync_to_async(Table)("ana")
    await sync_to_async(services.add_bot)(table.code, table.id("ana"), "optimal")
    await sync_to_async(services.set_bot_pace)(table.code, table.id("ana"), pace)
    fixed_dice.load(1, 1, 1, 1, 1, 6, 6, 6, 6, 6)  # The bot wins the roll-off.
    await sync_to_async(table.start)("ana")
    fixed_dice.load(*faces)
    waits: list[float] = []
    steps: list[str] = []
    real_make = bots.make

    def make(plan: bots.Plan) -> bool:
        steps.append(plan.step)
        return real_make(plan)

    async def sleep(seconds: float) -> None:
        waits.append(seconds)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bots, "make", make)
        patch.setattr(bots, "sleep", sleep)
        patch.setattr(bots, "variation", rng or Middle())
        bots.kick(table.code)  # As the server starts a driver, which plays to Ana's turn.
        await bots.settle()
    return list(zip(steps, waits, strict=True))


@pytest.fixture
def paced(settings):  # type: ignore[no-untyped-def]
    """No override: the room's pace decides (the suite's settings make every wait 0)."""
    settings.YAHTZEE_BOT_PAUSE = None
    return settings


@pytest.mark.asyncio
async def test_a_natural_bot_thinks_longer_over_a_box_than_over_picking_up_the_dice(
    fixed_dice,  # type: ignore[no-untyped-def]
    paced,  # type: ignore[no-untyped-def]
) -> None:
    # A Yahtzee at once: the optimal bot writes it down.
    assert await bot_turn(fixed_dice, "natural", [6, 6, 6, 6, 6]) == [
        ("first_roll", 0.5),
        ("score", 1.2),
    ]


@pytest.mark.asyncio
async def test_a_natural_bot_pauses_for_each_step_of_a_long_turn(fixed_dice, paced) -> None:  # type: ignore[no-untyped-def]
    # 1 1 2 3 6, then 1 and 6 thrown again to 4 4, then 2 and 3 thrown again to 4 4:
    # the bot keeps its pair of ones, then 1 1 4 4, and takes what the dice give.
    turn = await bot_turn(fixed_dice, "natural", [1, 1, 2, 3, 6, 4, 4, 4, 4, 4, 4])
    steps = [step for step, _ in turn]
    assert steps[0] == "first_roll"
    assert steps[-1] == "score"
    assert "keep" in steps
    assert all(wait == bots.NATURAL_PAUSES[step] for step, wait in turn)
    # A keep is followed by the roll it announced, which is quick.
    assert all(steps[i + 1] == "roll" for i, step in enumerate(steps) if step == "keep")
    assert 2.5 <= sum(wait for _, wait in turn) <= 5.0


@pytest.mark.asyncio
async def test_a_natural_pause_varies_by_a_fifth_either_way(fixed_dice, paced) -> None:  # type: ignore[no-untyped-def]
    turn = await bot_turn(fixed_dice, "natural", [6, 6, 6, 6, 6], rng=Edges())
    assert turn == [("first_roll", 0.4), ("score", 1.44)]


@pytest.mark.parametrize(("pace", "wait"), [("quick", bots.QUICK_PAUSE), ("instant", 0.0)])
@pytest.mark.asyncio
async def test_quick_and_instant_bots_wait_the_same_before_every_move(
    fixed_dice,  # type: ignore[no-untyped-def]
    paced,  # type: ignore[no-untyped-def]
    pace: str,
    wait: float,
) -> None:
    turn = await bot_turn(fixed_dice, pace, [1, 1, 2, 3, 6, 4, 4, 4, 4, 4, 4])
    assert len(turn) >= 3
    assert [w for _, w in turn] == [wait] * len(turn)


@pytest.mark.asyncio
async def test_the_settings_override_is_every_wait_whatever_the_pace(fixed_dice, settings) -> None:  # type: ignore[no-untyped-def]
    settings.YAHTZEE_BOT_PAUSE = 0.05
    turn = await bot_turn(fixed_dice, "natural", [6, 6, 6, 6, 6])
    assert turn == [("first_roll", 0.05), ("score", 0.05)]


@pytest.mark.parametrize(("chosen", "pace"), [("instant", "instant"), (None, "natural")])
def test_the_home_form_opens_a_room_at_the_pace_chosen(chosen, pace) -> None:  # type: ignore[no-untyped-def]
    form = {"name": "Ana", "preset": "official", "seats": "2", "turn_seconds": "60"}
    if chosen is not None:
        form["bot_pace"] = chosen
    HttpClient().post("/", form)
    assert Game.objects.get().bot_pace == pace


def test_the_home_form_refuses_a_pace_it_does_not_offer() -> None:
    form = {"name": "Ana", "preset": "official", "seats": "2", "bot_pace": "slow"}
    response = HttpClient().post("/", form)
    assert "bot_pace" in response.context["form"].errors
    assert not Game.objects.exists()
