"""Any game can be rebuilt from its event log with the rules engine alone."""

import random

import pytest

from games.engine import rules
from games.engine.events import Joined
from games.engine.replay import ReplayError, Room, replay
from games.live import bots, services
from games.live.services import CommandError
from games.models import GameEvent, Player
from tests.server.helpers import Table

# Committed transactions, so that the services keep their recent states between commands.
pytestmark = pytest.mark.django_db(transaction=True)

#: Random games through the services, each checked against its stored log. The rules' own
#: random commands are explored by the pure room's properties (tests/room/test_properties.py:
#: 240 hypothesis games and 150 seeds); these check what the services add (the saving, the
#: codec, the bots, the rematch) and must meet every kind of event. The server's dice are
#: not seeded, so a game's course differs from run to run: the rarest kind left to chance
#: is the rematch, so the first game someone stays to the end of always asks for one.
#: 8 games: 20 cost 30 s of CPU for the same kinds.
GAMES = 8
#: The kinds only the turn clock and the host's handling of away players make.
CLOCK_KINDS = {"away", "back", "handed", "abandoned"}


def stored_room(code: str) -> Room:
    """The room as the tables hold it, with no turn clock: the log does not record it."""
    return services.table(code).room


def replayed_room(code: str) -> Room:
    return replay(services.replay_events(code))


def play_randomly(seed: int, rematch: bool = False) -> tuple[Table, int]:
    """A game of random commands, legal and not, through the services; returns the refusals.
    A player who stayed asks for a rematch half the time, or always with ``rematch``."""
    rng = random.Random(seed)
    names = ["ana", "ben", "cat", "dan", "eve"][: rng.randint(1, 4)]
    table = Table(*names, preset=rng.choice(list(rules.PRESETS)))
    if rng.random() < 0.3:
        table.leave(rng.choice(names))  # Someone leaves the lobby; the seats move up.
        names = list(table.seats())
        if not names:
            table.join("fay")
            names = ["fay"]
    host = next(n for n, p in table.players.items() if p.is_host and n in names)
    if rng.random() < 0.4:
        # Bots take empty seats, and now and then one is taken off again.
        for _ in range(rng.randint(1, 2)):
            bot = services.add_bot(table.code, table.id(host), rng.choice(["optimal", "casual"]))
            table.players[bot.name] = bot
        if rng.random() < 0.3:
            services.remove_bot(table.code, table.id(host), bot.seat)
            del table.players[bot.name]
    table.start(host)
    refused = 0
    while table.game.status != "finished":
        state = table.state()
        seats = {seat: name for name, seat in table.seats().items()}
        on_turn = seats[state.current]  # type: ignore[index]
        if table.players[on_turn].bot and rng.random() < 0.9:
            plan = bots.next_plan(table.code)  # The bot's move, through the same services.
            assert plan is not None
            assert bots.make(plan)
            continue
        actor = on_turn if rng.random() < 0.9 else rng.choice(list(seats.values()))
        roll_now = state.turn.rolls_left > 0 and (not state.turn.has_rolled or rng.random() < 0.5)
        try:
            if rng.random() < 0.01:
                table.leave(actor)
            elif rng.random() < 0.02:
                services.set_coach(table.code, table.id(actor), rng.random() < 0.5)
            elif rng.random() < 0.02:
                pace = rng.choice(["instant", "quick", "natural"])
                services.set_bot_pace(table.code, table.id(actor), pace)
            elif rng.random() < 0.02:
                services.set_show_odds(table.code, table.id(actor), rng.random() < 0.5)
            elif rng.random() < 0.03:
                services.chat(table.code, table.id(actor), f"seed {seed}")
            elif rng.random() < 0.2:
                # Holds die by die between rolls, now and then one the rules refuse.
                table.hold(actor, rng.sample(range(5), rng.randint(0, 5)))
            elif roll_now or rng.random() < 0.05:
                hold = rng.sample(range(5), rng.randint(0, 4)) if state.turn.has_rolled else []
                table.roll(actor, hold)
            elif state.turn.dice is not None and rng.random() < 0.9:
                open_boxes = list(state.cards[state.current].options(state.turn.dice))  # type: ignore[index]
                table.score(actor, rng.choice(open_boxes).value)
            else:
                table.score(actor, rng.choice(list(rules.YAHTZEE_BOXES)).value)
        except (CommandError, rules.RuleError):
            refused += 1
        if rng.random() < 0.05:
            assert replayed_room(table.code) == stored_room(table.code)
    left = table.state().left
    stayed = [p for p in Player.objects.filter(game__code=table.code) if p.seat not in left]
    if stayed and (rng.random() < 0.5 or rematch):
        services.rematch(table.code, rng.choice(stayed).pk)  # The log goes on after the end.
    return table, refused


def test_random_games_replay_to_what_is_stored() -> None:
    refused = 0
    kinds: set[str] = set()
    for seed in range(GAMES):
        table, refusals = play_randomly(seed, rematch="rematch" not in kinds)
        refused += refusals
        kinds.update(table.kinds())
        room = replayed_room(table.code)
        assert room == stored_room(table.code), f"seed {seed}"
        assert room.status == "finished"
        totals = [card.total for card in room.game.cards]  # type: ignore[union-attr]
        finished = GameEvent.objects.get(game__code=table.code, kind="finished")
        assert finished.payload["totals"] == totals
    assert refused > GAMES  # The games tried illegal moves too, and none of them left a trace.
    # Every kind of event came up, holds included; the clock's own are in test_clock.py.
    assert set(GameEvent.KINDS) - CLOCK_KINDS == kinds


def test_a_game_replays_with_the_dice_held_mid_turn(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 2, 3, 4, 6)
    table.start()
    table.roll("ana")
    table.hold("ana", [3, 4])
    room = replayed_room(table.code)
    assert room == stored_room(table.code)
    assert room.game.turn.held == {3, 4}  # type: ignore[union-attr]


def test_a_lobby_replays() -> None:
    table = Table("ana", "ben", "cat")
    table.leave("ana")
    room = replayed_room(table.code)
    assert room == stored_room(table.code)
    assert (room.players, room.host, room.game) == (("ben", "cat"), 0, None)


def test_a_log_that_does_not_follow_the_rules_fails_to_replay(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")
    table.start()
    fixed_dice.load(1, 2, 3, 4, 5)
    table.roll("ana")
    table.score("ana", "large_straight")
    # Forge the log behind the model's back: the straight was a pair of ones.
    GameEvent.objects.filter(game__code=table.code, kind="rolled").update(
        payload={"seat": 0, "dice": [1, 1, 3, 4, 5], "held": [], "rolls_left": 2}
    )
    with pytest.raises(ReplayError, match="scored"):
        replayed_room(table.code)


def forged(code: str, kind: str, **changes: object) -> None:
    """Change the last ``kind`` event's payload behind the model's back."""
    event = GameEvent.objects.filter(game__code=code, kind=kind).latest("seq")
    GameEvent.objects.filter(pk=event.pk).update(payload={**event.payload, **changes})


def test_a_hold_forged_for_the_seat_not_on_turn_fails_to_replay(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 2, 3, 4, 6)
    table.start()
    table.roll("ana")
    table.hold("ana", [0, 1])
    replayed_room(table.code)  # As played, it replays.
    forged(table.code, "held", seat=1)
    with pytest.raises(ReplayError, match=r"\(held\).*not seat 1's"):
        replayed_room(table.code)


@pytest.mark.parametrize(
    ("kind", "changes"),
    [
        ("held", {"held": [0, 1, 2, 3, 4]}),
        ("rolled", {"seat": 1}),
        ("scored", {"points": 99}),
        ("scored", {"next": 0}),
        ("scored", {"yahtzee_bonus": True}),
        ("scored", {"dice": [6, 6, 6, 6, 6]}),
    ],
)
def test_a_log_whose_events_do_not_add_up_fails_to_replay(  # type: ignore[no-untyped-def]
    fixed_dice, kind: str, changes: dict[str, object]
) -> None:
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 1, 2, 3, 4, 6)
    table.start()
    table.roll("ana")
    table.hold("ana", [0, 1])
    table.score("ana", "chance")
    forged(table.code, kind, **changes)
    with pytest.raises(ReplayError, match=kind):
        replayed_room(table.code)


def test_an_empty_log_is_no_game() -> None:
    with pytest.raises(ReplayError):
        replay([])
    with pytest.raises(ReplayError, match="starts with"):
        replay([Joined(seat=0, name="ana", host=True)])
