"""Bots: seated by the host, playing through the same services as people, each move once."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import OperationalError

from games.engine import rules
from games.engine.events import Held, Rolled, Scored
from games.engine.replay import replay
from games.live import bots, outbox, services
from games.live.services import CommandError
from games.models import Game, GameEvent, Player
from tests.server.helpers import Table, fingerprint

pytestmark = pytest.mark.django_db(transaction=True)


def play_bots(code: str) -> int:
    """Let the bots on turn move until a person is on turn or the game ends; how many moves."""
    moves = 0
    while (plan := bots.next_plan(code)) is not None:
        assert bots.make(plan)
        moves += 1
    return moves


def bot_turns(code: str, seat: int) -> list[list[str]]:
    """The kinds of ``seat``'s events, turn by turn (a turn ends with its score)."""
    turns: list[list[str]] = [[]]
    for event in services.replay_events(code):
        if isinstance(event, Rolled | Held | Scored) and event.seat == seat:
            turns[-1].append(event.kind)
            if isinstance(event, Scored):
                turns.append([])
    return turns[:-1]


# -- seating bots --------------------------------------------------------------


def test_the_host_seats_bots_in_the_empty_seats() -> None:
    table = Table("ana", seats=4)
    first = services.add_bot(table.code, table.id("ana"), "optimal")
    second = services.add_bot(table.code, table.id("ana"), "optimal")
    casual = services.add_bot(table.code, table.id("ana"), "casual")

    assert [(p.seat, p.name, p.bot) for p in (first, second, casual)] == [
        (1, "Optimal bot", "optimal"),
        (2, "Optimal bot 2", "optimal"),
        (3, "Casual bot", "casual"),
    ]
    assert not any(p.is_host or p.session_key for p in (first, second, casual))
    joined = table.last_event()
    assert joined.payload == {"seat": 3, "name": "Casual bot", "host": False, "bot": "casual"}
    snapshot = services.snapshot(table.code)
    assert [p["bot"] for p in snapshot["players"]] == [None, "optimal", "optimal", "casual"]


def test_a_bot_takes_a_number_beside_a_player_who_looks_like_it() -> None:
    table = Table("ana", seats=3)
    table.join("Optimal b\u043et")  # CYRILLIC SMALL LETTER O
    bot = services.add_bot(table.code, table.id("ana"), "optimal")
    assert bot.name == "Optimal bot 2"


@pytest.mark.parametrize(
    ("setup", "who", "level", "code"),
    [
        (lambda t: None, "ben", "optimal", "not_host"),
        (lambda t: None, None, "optimal", "not_a_player"),
        (lambda t: None, "ana", "genius", "invalid_bot"),
        (lambda t: None, "ana", None, "invalid_bot"),
        (lambda t: t.start(), "ana", "optimal", "game_started"),
        (lambda t: t.join("cat"), "ana", "casual", "game_full"),
    ],
)
def test_seating_a_bot_is_refused_with_a_reason_and_changes_nothing(
    setup, who, level, code
) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", seats=3)
    setup(table)
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as refused:
        services.add_bot(table.code, table.id(who), level)
    assert refused.value.code == code
    assert fingerprint(table.code) == before


def test_the_host_takes_a_bot_off_its_seat_and_the_seats_move_up() -> None:
    table = Table("ana", seats=4)
    bot = services.add_bot(table.code, table.id("ana"), "casual")
    table.join("ben")

    for who, seat, code in [("ben", bot.seat, "not_host"), ("ana", 2, "not_a_bot")]:
        with pytest.raises(CommandError) as refused:
            services.remove_bot(table.code, table.id(who), seat)
        assert refused.value.code == code
    services.remove_bot(table.code, table.id("ana"), bot.seat)

    assert table.seats() == {"ana": 0, "ben": 1}
    assert table.last_event().payload == {"seat": 1, "name": "Casual bot", "host": 0}


def test_bots_leave_the_lobby_with_the_last_person() -> None:
    table = Table("ana", "ben", seats=4)
    services.add_bot(table.code, table.id("ana"), "optimal")
    services.add_bot(table.code, table.id("ana"), "casual")

    table.leave("ana")  # Ben, a person, becomes host; the bots stay.
    assert table.seats() == {"ben": 0, "Optimal bot": 1, "Casual bot": 2}
    assert Player.objects.get(game__code=table.code, name="ben").is_host

    table.leave("ben")
    assert table.seats() == {}
    assert table.kinds()[-3:] == ["unseated", "unseated", "unseated"]
    assert replay(services.replay_events(table.code)).players == ()


# -- playing -------------------------------------------------------------------


def test_bots_play_a_whole_game_beside_a_person() -> None:
    table = Table("ana", seats=3)
    services.add_bot(table.code, table.id("ana"), "optimal")
    services.add_bot(table.code, table.id("ana"), "casual")
    table.start()

    moves = 0
    while table.game.status == Game.Status.PLAYING:
        moves += play_bots(table.code)
        if table.game.status == Game.Status.PLAYING:  # Ana's turn: one roll, the best box.
            table.roll("ana")
            state = table.state()
            options = state.cards[0].options(state.turn.dice or ())
            table.score("ana", max(options, key=lambda c: options[c]).value)

    room = replay(services.replay_events(table.code))
    assert room.status == "finished"
    assert all(card.is_complete for card in room.game.cards)  # type: ignore[union-attr]
    for seat in (1, 2):
        turns = bot_turns(table.code, seat)
        assert len(turns) == len(rules.YAHTZEE_BOXES)
        for turn in turns:
            # A roll, then at most two more, each after showing what it keeps, then a score.
            assert turn[0] == "rolled"
            assert turn[-1] == "scored"
            assert turn.count("rolled") <= rules.ROLLS_PER_TURN
            assert turn.count("held") <= turn.count("rolled") - 1
    assert moves == sum(len(t) for seat in (1, 2) for t in bot_turns(table.code, seat))


def test_a_to_win_bot_plays_a_whole_game_against_an_optimal_bot() -> None:
    table = Table("ana", seats=3)
    services.add_bot(table.code, table.id("ana"), "win")
    services.add_bot(table.code, table.id("ana"), "optimal")
    table.start()
    while table.game.status == Game.Status.PLAYING:
        play_bots(table.code)
        if table.game.status == Game.Status.PLAYING:
            table.roll("ana")
            state = table.state()
            table.score("ana", next(iter(state.cards[0].options(state.turn.dice or ()))).value)

    room = replay(services.replay_events(table.code))
    assert room.status == "finished"
    assert [p.name for p in Player.objects.filter(game=table.game).order_by("seat")] == [
        "ana",
        "To-win bot",
        "Optimal bot",
    ]
    assert len(bot_turns(table.code, 1)) == len(rules.YAHTZEE_BOXES)


def test_an_optimal_bot_makes_the_moves_the_strategy_advises(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", seats=2)
    services.add_bot(table.code, table.id("ana"), "optimal")
    fixed_dice.load(1, 1, 1, 1, 1, 6, 6, 6, 6, 6)  # The roll-off: the bot throws 30 and starts.
    # The start says a bot is on turn: its driver is started once the news is sent.
    with outbox.collecting() as sent:
        services.start_game(table.code, table.id("ana"), version=table.version)
    assert sent.bots == [table.code]

    fixed_dice.load(6, 6, 6, 2, 1)
    assert bots.make(bots.next_plan(table.code))  # type: ignore[arg-type]
    plan = bots.next_plan(table.code)
    assert plan is not None
    assert plan.show_hold
    assert plan.move.hold == (0, 1, 2)  # With a whole card open, three sixes are kept.
    assert bots.make(plan)
    assert table.last_event().payload == {"seat": 1, "held": [0, 1, 2]}

    fixed_dice.load(6, 6)
    assert bots.make(bots.next_plan(table.code))  # type: ignore[arg-type]
    assert table.last_event().payload["dice"] == [6, 6, 6, 6, 6]
    plan = bots.next_plan(table.code)
    assert plan is not None
    assert plan.move.category is rules.Category.YAHTZEE
    assert bots.make(plan)
    assert table.last_event().kind == "scored"
    assert table.state().current == 0  # Ana's turn: the bot waits.
    assert bots.next_plan(table.code) is None
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("ana")
    # Ana's score passes the turn back to the bot, and says so.
    with outbox.collecting() as sent:
        services.score(table.code, table.id("ana"), "chance", version=table.version)
    assert sent.bots == [table.code]


def test_without_bots_no_command_asks_for_a_driver() -> None:
    table = Table("ana", "ben", seats=2)
    with outbox.collecting() as sent:
        services.start_game(table.code, table.id("ana"), version=table.version)
        first = "ana" if table.state().current == 0 else "ben"
        table.roll(first)
        services.score(table.code, table.id(first), "chance", version=table.version)
        services.leave_game(table.code, table.id("ana"))
    assert sent.bots == []
    assert [handler for _, handler, _ in sent.sends] == ["game.event"] * 4


def test_two_drivers_with_the_same_plan_move_once() -> None:
    """Two server processes chasing one bot: the second finds the play moved on."""
    table = Table("ana", seats=2)
    services.add_bot(table.code, table.id("ana"), "casual")
    table.start()
    if table.state().current == 0:
        table.roll("ana")
        table.score("ana", "chance")

    for _ in range(6):  # Rolls, holds and a score.
        first, second = bots.next_plan(table.code), bots.next_plan(table.code)
        if first is None:
            break
        assert first == second
        version = table.version
        assert bots.make(first)
        assert not bots.make(second)
        assert table.version == version + 1 + (
            first.move.is_score and table.game.status != "playing"
        )


def test_the_bots_leave_with_the_last_person_and_the_game_ends() -> None:
    table = Table("ana", seats=3)
    services.add_bot(table.code, table.id("ana"), "optimal")
    services.add_bot(table.code, table.id("ana"), "casual")
    table.start()
    play_bots(table.code)

    table.leave("ana")

    assert table.game.status == Game.Status.FINISHED
    assert table.kinds()[-4:] == ["left", "left", "left", "finished"]
    assert table.last_event().payload["winners"] == []
    assert bots.next_plan(table.code) is None


def test_a_rematch_seats_the_bots_again_and_keeps_the_coach() -> None:
    table = Table("ana", seats=2)
    services.set_coach(table.code, table.id("ana"), True)
    services.add_bot(table.code, table.id("ana"), "casual")
    table.start()
    while table.game.status == Game.Status.PLAYING:
        play_bots(table.code)
        if table.game.status == Game.Status.PLAYING:
            table.roll("ana")
            options = table.state().cards[0].options(table.state().turn.dice or ())
            table.score("ana", next(iter(options)).value)

    new = services.rematch(table.code, table.id("ana"))

    assert new.coach
    assert [(p.name, p.bot, p.is_host) for p in new.players.all()] == [
        ("ana", "", True),
        ("Casual bot", "casual", False),
    ]


# -- the coach switch ----------------------------------------------------------


def test_the_coach_is_on_by_default_only_in_a_solo_room() -> None:
    assert Table("ana", seats=1).game.coach
    assert not Table("ana", seats=2).game.coach
    game, _ = services.create_game(seats=2, coach=True)
    assert game.coach
    assert GameEvent.objects.get(game=game, kind="created").payload["coach"] is True


def test_the_host_switches_the_coach_and_the_room_is_told() -> None:
    table = Table("ana", "ben", seats=2)
    services.set_coach(table.code, table.id("ana"), True)
    assert table.game.coach
    event = table.last_event()
    assert (event.kind, event.payload) == ("coach", {"on": True, "seat": 0, "name": "ana"})
    # It changes no play: a move sent before it is not stale.
    assert table.game.state_version < table.game.version

    version = table.version
    services.set_coach(table.code, table.id("ana"), True)  # Already on: nothing happens.
    assert table.version == version


@pytest.mark.parametrize(
    ("who", "on", "code"),
    [("ben", True, "not_host"), (None, True, "not_a_player"), ("ana", "yes", "invalid_message")],
)
def test_switching_the_coach_is_refused_with_a_reason(who, on, code) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", seats=2)
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as refused:
        services.set_coach(table.code, table.id(who), on)
    assert refused.value.code == code
    assert fingerprint(table.code) == before


def ana_and_a_bot_on_turn() -> tuple[Table, Player]:
    """Ana and an optimal bot, the game started, the bot on turn and no driver started."""
    table = Table("ana")
    bot = services.add_bot(table.code, table.id("ana"), "optimal")
    table.start("ana")
    if table.state().on_turn != bot.seat:
        table.roll("ana")
        table.score("ana", "chance")
    return table, bot


@pytest.mark.asyncio
async def test_a_bot_waits_out_a_database_restart_and_plays_on(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """PostgreSQL away for a moment: the driver tries again instead of stopping (the clock's
    watch would only start it again some 15 s later)."""
    table, bot = await sync_to_async(ana_and_a_bot_on_turn)()
    real_make = bots.make
    failures = {"left": 3}

    def make_while_away(plan: bots.Plan) -> bool:
        if failures["left"]:
            failures["left"] -= 1
            raise OperationalError("the database system is starting up")
        return real_make(plan)

    monkeypatch.setattr(bots, "make", make_while_away)
    monkeypatch.setattr(bots, "OUTAGE_RETRY", 0.01)
    bots.kick(table.code)
    await bots.settle()

    assert failures["left"] == 0
    turns = await sync_to_async(bot_turns)(table.code, bot.seat)
    assert len(turns) == 1  # Its turn, played to its score; Ana is on turn.
    assert turns[0][-1] == "scored"


@pytest.mark.asyncio
async def test_a_driver_left_on_an_earlier_event_loop_keeps_no_bot_from_playing(
    monkeypatch,
) -> None:  # type: ignore[no-untyped-def]
    """A test's event loop closed with a driver still pending: one started while the loop
    cancelled its tasks at the test's end (a command answered then) never ends. Awaiting it
    from a later loop raised "attached to a different loop" in ``settle``, and ``kick``
    took it for a running driver, so the later loop's bot never played."""
    table, bot = await sync_to_async(ana_and_a_bot_on_turn)()
    earlier = asyncio.new_event_loop()
    try:
        never_ends = earlier.create_future()  # Its loop is not running: it cannot end.
        monkeypatch.setitem(bots._driving, "a-room-of-an-earlier-test", never_ends)
        monkeypatch.setitem(bots._driving, table.code, never_ends)
        await bots.settle()  # Nothing of this loop runs.

        bots.kick(table.code)
        await bots.settle()

        turns = await sync_to_async(bot_turns)(table.code, bot.seat)
        assert len(turns) == 1  # Its turn, played to its score; Ana is on turn.
        assert turns[0][-1] == "scored"
        assert bots._driving.get(table.code) is None  # This loop's driver ended.
    finally:
        earlier.close()
