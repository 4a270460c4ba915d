"""The saved record's format: a game and its events to JSON and back, both ways."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import codec, events
from games.engine.replay import replay
from games.engine.rules import FREE_JOKER, OFFICIAL, Game, Rules

from .test_properties import play_turn, roll_for

GAMES = settings(max_examples=60, deadline=None)


@st.composite
def games_with_their_events(draw: st.DrawFn) -> tuple[Game, list[events.AnyEvent]]:
    """A game stopped anywhere (roll-off, mid-turn, after someone left, the end), and its log."""
    rnd = random.Random(draw(st.integers(0, 2**32)))
    rules: Rules = draw(st.sampled_from([OFFICIAL, FREE_JOKER]))
    players = draw(st.integers(1, 6))
    names = tuple(f"p{seat}" for seat in range(players))
    game = Game.new(players, rules)
    log: list[events.AnyEvent] = [events.Created(rules.name, players, coach=False)]
    log += [events.Joined(seat, name, seat == 0) for seat, name in enumerate(names)]
    log.append(events.Started(names, game.current))
    for _ in range(draw(st.integers(0, 40))):
        if game.is_over:
            break
        if game.current is None:
            progress = game.throw_roll_off({s: roll_for(rnd, 5) for s in game.roll_off.contenders})
        elif rnd.random() < 0.03:
            progress = game.leave(rnd.choice(game.active))
        elif rnd.random() < 0.3 and game.turn.dice is not None and game.turn.rolls_left:
            progress = game.hold(game.current, rnd.sample(range(5), rnd.randint(0, 4)))
        elif game.turn.rolls_left and (game.turn.dice is None or rnd.random() < 0.5):
            hold = rnd.sample(range(5), rnd.randint(0, 4)) if game.turn.dice else []
            progress = game.roll(game.current, roll_for(rnd, 5 - len(hold)), hold)
        else:
            seat = game.current
            box = rnd.choice(list(game.cards[seat].options(game.turn.dice or ())))
            progress = game.score(seat, box)
        game = progress.game
        log += progress.events
    return game, log


@GAMES
@given(games_with_their_events())
def test_a_game_comes_back_from_its_document_as_it_was(
    played: tuple[Game, list[events.AnyEvent]],
) -> None:
    game, _ = played
    document = json.loads(json.dumps(codec.encode_game(game)))  # Through real JSON.
    assert codec.decode_game(document) == game
    assert codec.encode_game(codec.decode_game(document)) == document


@GAMES
@given(games_with_their_events())
def test_events_come_back_from_the_log_as_they_were_and_replay_to_the_game(
    played: tuple[Game, list[events.AnyEvent]],
) -> None:
    game, log = played
    saved = [json.loads(json.dumps(codec.encode_event(event))) for event in log]
    decoded = [codec.decode_event(kind, payload) for kind, payload in saved]
    assert decoded == log
    assert replay(decoded).game == game


def test_a_whole_game_is_a_small_document() -> None:
    game = Game.new(2).throw_roll_off({0: [6] * 5, 1: [1] * 5}).game
    while not game.is_over:
        game = play_turn(game, random.Random(7))
    document = codec.encode_game(game)
    assert document["format"] == codec.GAME_FORMAT
    assert len(json.dumps(document)) < 600


def test_every_kind_of_event_is_saved_under_its_kind() -> None:
    assert {cls.kind for cls in events.EVENT_TYPES} == {
        "created", "joined", "unseated", "started", "roll_off", "rolled", "held", "scored",
        "left", "finished", "rematch", "coach", "bot_pace", "show_odds", "chat", "away", "back",
        "handed", "abandoned",
    }  # fmt: skip
    assert codec.decode_event("left", {"seat": 0, "next": None}) == events.Left(0, None)
    assert codec.encode_event(events.Unseated(0, "a", 1)) == (
        "unseated",
        {"seat": 0, "name": "a", "host": 1},
    )
    assert codec.decode_event("unseated", {"seat": 0, "name": "a", "host": None}) == (
        events.Unseated(0, "a", None)
    )


def test_a_lobby_leave_saved_before_it_had_its_own_kind_reads_as_before() -> None:
    # Logs written before "unseated" called it "left"; only a leave in play names "next".
    assert codec.decode_event("left", {"seat": 0, "name": "a", "host": 1}) == events.Unseated(
        0, "a", 1
    )
    assert codec.decode_event("left", {"seat": 2, "name": "b", "host": None}) == (
        events.Unseated(2, "b", None)
    )
    assert codec.decode_event("left", {"seat": 1, "next": 0, "by": "host"}) == events.Left(
        1, 0, events.By.HOST
    )


def test_a_field_left_at_its_default_is_not_saved() -> None:
    assert codec.encode_event(events.Created("official", 2, False)) == (
        "created",
        {"preset": "official", "seats": 2, "coach": False},  # The natural bot pace.
    )
    quick = events.Created("official", 2, False, bot_pace="quick")
    assert codec.decode_event(*codec.encode_event(quick)) == quick
    assert codec.encode_event(events.Joined(1, "ben", False)) == (
        "joined",
        {"seat": 1, "name": "ben", "host": False},
    )
    assert codec.encode_event(events.Joined(1, "Optimal bot", False, "optimal"))[1]["bot"] == (
        "optimal"
    )


@pytest.mark.parametrize(
    "document",
    [
        {},
        {"format": 2, "rules": "official"},
        {"format": 1, "rules": "house"},
        {"format": 1, "rules": "official", "cards": "no"},
        [],
    ],
)
def test_a_document_that_is_no_game_is_refused(document: object) -> None:
    with pytest.raises(codec.CodecError):
        codec.decode_game(document)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("tea", {}),
        ("rolled", {"seat": 0}),
        ("scored", {"seat": 0, "category": "sevens", "points": 1, "dice": [1] * 5,
                    "yahtzee_bonus": False, "next": None}),
        ("roll_off", {"throws": 3, "contenders": [], "first": None}),
        ("rolled", {"seat": True, "dice": [1] * 5, "held": []}),
        ("joined", {"seat": 0, "name": "a", "host": False, "bot": "genius"}),
        ("left", {"seat": 0, "next": None, "by": "nobody"}),
    ],
)  # fmt: skip
def test_an_event_that_is_no_event_is_refused(kind: str, payload: dict[str, object]) -> None:
    with pytest.raises(codec.CodecError):
        codec.decode_event(kind, payload)
