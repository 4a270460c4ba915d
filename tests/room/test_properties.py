"""Properties of the room over random commands, legal and not (hypothesis): whatever was
played, the events it gave replay to the same room, step by step."""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import events
from games.engine.replay import replay, steps
from games.engine.room import BOT_NAMES, BOT_PACES, Room, RoomProgress, Status
from games.engine.rules import PRESETS, YAHTZEE_BOXES, Category, RuleError

GAMES = settings(max_examples=120, deadline=None)
NAMES = ("ana", "ben", "cy", "dee", "eve")
BYS = (None, None, None, events.BY_CLOCK, events.BY_BOT)


def _dice(rng: random.Random, count: int = 5) -> list[int]:
    return [rng.randint(1, 6) for _ in range(count)]


def _seat(rng: random.Random, room: Room) -> int:
    """A seat of the room mostly, now and then one that is not there."""
    return rng.randrange(len(room.seated) + 1)


def _on_turn(rng: random.Random, room: Room) -> int:
    """The seat on turn mostly, else any seat."""
    seat = room.game.on_turn if room.game is not None else None
    return seat if seat is not None and rng.random() < 0.85 else _seat(rng, room)


def _host(rng: random.Random, room: Room) -> int:
    return room.host if room.host is not None and rng.random() < 0.85 else _seat(rng, room)


def _roll(rng: random.Random, room: Room) -> RoomProgress:
    seat = _on_turn(rng, room)
    hold = rng.sample(range(5), rng.randint(0, 4)) if rng.random() < 0.5 else []
    count = 5 - len(hold)
    return room.roll(seat, _dice(rng, count), hold, by=rng.choice(BYS))


def _box(rng: random.Random, room: Room, seat: int) -> Category:
    """A box the dice on the table may go in mostly, else any box."""
    game, boxes = room.game, list(YAHTZEE_BOXES)
    if game is not None and game.turn.dice is not None and seat < game.players:
        boxes = list(game.cards[seat].options(game.turn.dice)) or boxes
    return rng.choice(boxes)


def _score(rng: random.Random, room: Room) -> RoomProgress:
    seat = _on_turn(rng, room)
    return room.score(seat, _box(rng, room, seat), by=rng.choice(BYS))


def _clock_turn(rng: random.Random, room: Room) -> RoomProgress:
    """The clock plays the rest of the turn on turn: a roll if none yet, then a box."""
    seat = _on_turn(rng, room)
    progress = RoomProgress(room, (), ())
    if room.game is not None and room.game.turn.dice is None:
        progress = room.roll(seat, _dice(rng), by=events.BY_CLOCK)
    box = _box(rng, progress.room, seat)
    return progress.then(progress.room.score(seat, box, by=events.BY_CLOCK))


def _throw_roll_off(rng: random.Random, room: Room) -> RoomProgress:
    contenders = room.game.roll_off.contenders if room.game is not None else (0,)
    return room.throw_roll_off({seat: _dice(rng) for seat in contenders})


Command = Callable[[random.Random, Room], RoomProgress]

LOBBY: list[Command] = [
    lambda rng, room: room.join(rng.choice(NAMES)),
    lambda rng, room: room.join(rng.choice(NAMES)),
    lambda rng, room: room.add_bot(_host(rng, room), rng.choice([*BOT_NAMES, "genius"])),
    lambda rng, room: room.remove_bot(_host(rng, room), _seat(rng, room)),
    lambda rng, room: room.leave(_seat(rng, room)),
    lambda rng, room: room.start(_host(rng, room)),
    lambda rng, room: room.start(_host(rng, room)),
]
PLAY: list[Command] = [
    _throw_roll_off,
    _roll,
    _roll,
    _roll,
    _score,
    _score,
    _score,
    _clock_turn,
    _clock_turn,
    lambda rng, room: room.hold(_on_turn(rng, room), rng.sample(range(5), 2), by=rng.choice(BYS)),
    lambda rng, room: room.leave(_seat(rng, room)) if rng.random() < 0.2 else room.abandon(),
    lambda rng, room: room.come_back(_seat(rng, room)),
    lambda rng, room: room.hand_to_bot(
        _host(rng, room), _seat(rng, room), connected=rng.random() < 0.5
    ),
    lambda rng, room: (
        room.remove_player(_host(rng, room), _seat(rng, room), connected=rng.random() < 0.5)
        if rng.random() < 0.3
        else room.open_rematch(_seat(rng, room), f"code-{rng.randint(1, 3)}")
    ),
]
ANY_TIME: list[Command] = [
    lambda rng, room: room.chat(_seat(rng, room), "hello"),
    lambda rng, room: room.set_coach(_host(rng, room), rng.random() < 0.5),
    lambda rng, room: room.set_bot_pace(_host(rng, room), rng.choice(BOT_PACES)),
    lambda rng, room: room.set_show_odds(_host(rng, room), rng.random() < 0.5),
]


def play(seed: int) -> tuple[list[RoomProgress], int]:
    """A room that random commands were given to: the progress of each one applied, and
    how many were refused. Every refusal leaves the room as it was (it is a value)."""
    rng = random.Random(seed)
    made = [
        Room.create(
            rng.choice(list(PRESETS)),
            rng.randint(1, 5),
            coach=rng.random() < 0.5,
            bot_pace=rng.choice(BOT_PACES),
            show_odds=rng.random() < 0.5,
        )
    ]
    room, refused = made[0].room, 0
    for _ in range(rng.randint(0, 150)):
        commands = (LOBBY if room.status is Status.LOBBY else PLAY * 3) + ANY_TIME
        before = room
        try:
            progress = rng.choice(commands)(rng, room)
        except RuleError:
            refused += 1
            assert room == before
            continue
        assert len(progress.after) == len(progress.events)
        if progress.events:
            assert progress.after[-1] == progress.room
        else:  # Nothing told, nothing changed: there would be nothing to save.
            assert progress.room == before
        made.append(progress)
        room = progress.room
    return made, refused


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_any_commands_replay_from_their_events_to_the_same_room(seed: int) -> None:
    made, _ = play(seed)
    log = [event for progress in made for event in progress.events]
    assert replay(log) == made[-1].room


@GAMES
@given(st.integers(0, 2**32 - 1))
def test_each_event_replays_to_the_room_just_after_it(seed: int) -> None:
    made, _ = play(seed)
    log = [event for progress in made for event in progress.events]
    rooms = [room for progress in made for room in progress.after]
    assert [step.room for step in steps(log)] == rooms


def test_the_random_rooms_meet_every_event_and_end() -> None:
    kinds: set[type[events.Event]] = set()
    statuses: set[Status] = set()
    refused = 0
    for seed in range(150):
        made, refusals = play(seed)
        refused += refusals
        kinds.update(type(event) for progress in made for event in progress.events)
        statuses.add(made[-1].room.status)
    assert kinds == set(events.EVENT_TYPES)
    assert statuses == set(Status)
    assert refused > 150
