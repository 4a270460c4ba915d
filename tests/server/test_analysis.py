"""Post-game analysis: decisions judged against optimal solitaire play, on games played for real.

The known answers come from the last turn of a game where only Chance is open
and the Yahtzee box holds 0 (so no bonus can come): every die then counts on
its own. With one roll left a die is worth keeping when it beats a fresh one's
3.5 on average; with two left, when it beats 4.25 (a fresh die kept if 4 or
more, else thrown again: (3 * 3.5 + 4 + 5 + 6) / 6).
"""

import random

import msgspec
import pytest

from games.engine import events, replay
from games.engine.events import AnyEvent
from games.engine.rules import OFFICIAL
from games.insight import analysis
from games.live import services
from games.strategy import load
from games.web import review_words
from tests.server.helpers import Table, abandoned_with_stand_ins, play_out

pytestmark = pytest.mark.django_db

# Twelve turns filling every box but Chance, the Yahtzee box with 0: 63 in the upper
# section (and the 35 bonus), then 21 + 0 + 25 + 30 + 40 + 0 below: 214 in all.
ALL_BUT_CHANCE = [
    ((1, 1, 1, 2, 3), "ones"),
    ((2, 2, 2, 1, 3), "twos"),
    ((3, 3, 3, 1, 2), "threes"),
    ((4, 4, 4, 1, 2), "fours"),
    ((5, 5, 5, 1, 2), "fives"),
    ((6, 6, 6, 1, 2), "sixes"),
    ((6, 6, 6, 1, 2), "three_of_a_kind"),
    ((1, 2, 3, 4, 6), "four_of_a_kind"),
    ((2, 2, 3, 3, 3), "full_house"),
    ((1, 2, 3, 4, 6), "small_straight"),
    ((1, 2, 3, 4, 5), "large_straight"),
    ((1, 2, 3, 4, 6), "yahtzee"),
]
BEFORE_CHANCE = 214
LAST_ROLL = (6, 5, 4, 2, 1)


def events_of(code: str) -> list[AnyEvent]:
    return services.replay_events(code)


def chance_left(fixed_dice) -> Table:  # type: ignore[no-untyped-def]
    """Ana's solo game with twelve boxes filled (by first rolls: no decision but the score)."""
    table = Table("ana")
    table.start()
    for faces, box in ALL_BUT_CHANCE:
        fixed_dice.load(*faces)
        table.roll("ana")
        table.score("ana", box)
    assert table.state().cards[0].total == BEFORE_CHANCE
    return table


def chance_for_18(fixed_dice) -> Table:  # type: ignore[no-untyped-def]
    """Ana's solo game, ended by keeping 6 5 4 of 6 5 4 2 1 and, with 6 5 4 2 1 again,
    scoring 18 in Chance with a roll left: 14 decisions, the last two known."""
    table = chance_left(fixed_dice)
    fixed_dice.load(*LAST_ROLL)
    table.roll("ana")
    fixed_dice.load(2, 1)
    table.roll("ana", [0, 1, 2])  # 6 5 4 kept, where 6 5 was best: 0.25 given up.
    table.score("ana", "chance")  # 18 now, where 6 5 4 and a last roll make 22: 4 given up.
    return table


def last_turn(fixed_dice, hold: list[int] | None) -> analysis.Decision:  # type: ignore[no-untyped-def]
    """The last turn: 6 5 4 2 1, kept 6 5 4 and thrown to 6 5 4 2 1 again (1 roll left),
    then ``hold`` kept for the last roll (its dice all come up 1), or Chance scored if
    ``None``. The decision judged is that last one."""
    table = chance_left(fixed_dice)
    fixed_dice.load(*LAST_ROLL)
    table.roll("ana")
    fixed_dice.load(2, 1)
    table.roll("ana", [0, 1, 2])
    if hold is None:
        table.score("ana", "chance")
    else:
        fixed_dice.load(*[1] * (5 - len(hold)))
        table.roll("ana", hold)
    judged = analysis.analyse(events_of(table.code))
    last = judged.decisions[-1]
    assert (last.dice, last.rolls_left, last.round) == (LAST_ROLL, 1, 13)
    return last


# -- known answers -----------------------------------------------------------------------------


def test_scoring_18_in_chance_with_a_roll_left_gives_up_exactly_4(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    decision = last_turn(fixed_dice, None)

    # Keeping 6 5 4 and throwing two dice makes 15 + 2 * 3.5 = 22 on average; 18 now.
    assert decision.kind == "score"
    assert decision.best.label == "Keep 4 5 6"
    assert decision.best.expected == pytest.approx(BEFORE_CHANCE + 22)
    assert decision.chosen.label == "Chance (18)"
    assert decision.chosen.expected == pytest.approx(BEFORE_CHANCE + 18)
    assert decision.loss == pytest.approx(4.0)
    assert review_words.decision_text(decision, OFFICIAL) == (
        "Best: Keep 4 5 6, 236.0 expected. Played: Chance (18), 232.0 expected: "
        "gave up 4.00 points."
    )


@pytest.mark.parametrize(
    ("hold", "label", "loss"),
    [
        ([0, 1, 2], "Keep 4 5 6", 0.0),  # 15 + 2 * 3.5 = 22: the best.
        ([0, 1, 2, 3], "Keep 2 4 5 6", 1.5),  # 17 + 3.5 = 20.5
        ([0], "Keep 6", 2.0),  # 6 + 4 * 3.5 = 20
        ([], "Throw all", 4.5),  # 5 * 3.5 = 17.5
        ([4, 3, 2], "Keep 1 2 4", 8.0),  # 7 + 2 * 3.5 = 14
    ],
)
def test_each_keep_with_one_roll_left_gives_up_what_the_dice_it_throws_lose(
    fixed_dice, hold: list[int], label: str, loss: float
) -> None:  # type: ignore[no-untyped-def]
    decision = last_turn(fixed_dice, hold)

    assert decision.kind == "keep"
    assert decision.chosen.label == label
    assert decision.chosen.expected == pytest.approx(BEFORE_CHANCE + 22 - loss)
    assert decision.loss == pytest.approx(loss)
    assert decision.is_optimal == (loss == 0)
    if loss == 0:
        assert decision.loss == 0  # Exactly: an optimal move gives up nothing.
        assert review_words.decision_text(decision, OFFICIAL) == (
            "Best: Keep 4 5 6, 236.0 expected. Played: Keep 4 5 6, the best choice."
        )


def test_with_two_rolls_left_only_the_fives_and_sixes_are_worth_keeping(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = chance_left(fixed_dice)
    fixed_dice.load(*LAST_ROLL)
    table.roll("ana")
    fixed_dice.load(2, 1)
    table.roll("ana", [0, 1, 2])  # Keeps 6 5 4 where 6 5 was best.
    fixed_dice.load(1, 1)
    table.roll("ana", [0, 1, 2])  # Keeps 6 5 4 again, now the best.
    table.score("ana", "chance")  # 17, with no roll left: the only choice.

    *_, keep, again, chance = analysis.analyse(events_of(table.code)).decisions

    # 6 5 kept, three dice thrown worth 4.25 each: 11 + 12.75 = 23.75; 6 5 4 makes 23.5.
    assert (keep.rolls_left, keep.best.label, keep.chosen.label) == (2, "Keep 5 6", "Keep 4 5 6")
    assert keep.best.expected == pytest.approx(BEFORE_CHANCE + 23.75)
    assert keep.loss == pytest.approx(0.25)
    assert (again.rolls_left, again.loss) == (1, 0)
    assert (chance.rolls_left, chance.chosen.label, chance.loss) == (0, "Chance (17)", 0)
    assert chance.chosen.expected == BEFORE_CHANCE + 17


# -- what counts as a decision -----------------------------------------------------------------


def test_first_rolls_and_holds_are_not_decisions_the_hold_a_roll_makes_is(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")
    table.start()
    fixed_dice.load(3, 3, 3, 5, 5)
    table.roll("ana")  # The first roll: not a decision.
    table.hold("ana", [3, 4])  # Shows a plan: not a decision.
    table.hold("ana", [0])
    fixed_dice.load(3, 3)
    table.roll("ana", [0, 1, 2])  # The decision: kept 3 3 3 from 3 3 3 5 5, 2 rolls left.
    table.score("ana", "yahtzee")  # The second: 50 in Yahtzee with 1 roll left.
    fixed_dice.load(1, 2, 3, 4, 5)
    table.roll("ana")
    table.score("ana", "large_straight")  # The third.
    events = events_of(table.code)

    decisions = analysis.analyse(events).decisions

    kinds = {seq: event.kind for seq, event in enumerate(events, start=1)}
    assert [kinds[d.seq] for d in decisions] == ["rolled", "scored", "scored"]
    keep, yahtzee, straight = decisions
    assert (keep.kind, keep.dice, keep.rolls_left, keep.chosen.label) == (
        "keep", (3, 3, 3, 5, 5), 2, "Keep 3 3 3",
    )  # fmt: skip
    assert (yahtzee.kind, yahtzee.dice, yahtzee.rolls_left) == ("score", (3,) * 5, 1)
    assert yahtzee.chosen.label == "Yahtzee (50)"
    assert (straight.round, straight.rolls_left) == (2, 2)
    # A Yahtzee in the Yahtzee box, a large straight in its own: nothing better was open.
    assert yahtzee.is_optimal
    assert straight.is_optimal


def test_each_decision_is_judged_from_the_position_on_turn_before_it(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # The roll-off: Ana starts.
    table.start()
    rng = random.Random(5)
    fixed_dice.load(*rng.choices(range(1, 7), k=2 * 13 * 15))
    play_out(table.code, rolls=lambda: rng.randint(1, 3))
    events = events_of(table.code)
    strategy = load("official")

    decisions = analysis.analyse(events, strategy).decisions

    assert len(decisions) >= 2 * 13  # Every score is one, and so is every roll but the first.
    rooms = [step.room for step in replay.steps(events)]
    for decision in decisions:
        position = rooms[decision.seq - 2].game.position()  # type: ignore[union-attr]
        assert position is not None
        assert (position.seat, position.dice, position.rolls_left) == (
            decision.seat, decision.dice, decision.rolls_left,
        )  # fmt: skip
        assert decision.best == strategy.advise_position(position)[0]


def test_every_turn_of_three_rolls_makes_three_decisions(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # The roll-off: Ana starts.
    table.start()
    fixed_dice.load(*random.Random(3).choices(range(1, 7), k=2 * 13 * 15))
    play_out(table.code, rolls=lambda: 3)  # Each roll throws all five dice again.

    judged = analysis.analyse(events_of(table.code))

    assert len(judged.decisions) == 2 * 13 * 3
    assert [p.decisions for p in judged.players] == [39, 39]
    rolls = [d for d in judged.decisions if d.kind == "keep"]
    assert {d.chosen.label for d in rolls} == {"Throw all"}
    assert sorted({d.rolls_left for d in rolls}) == [1, 2]
    for player in judged.players:
        own = [d for d in judged.decisions if d.seat == player.seat]
        assert player.total_loss == pytest.approx(sum(d.loss for d in own))
        assert player.average_loss == pytest.approx(sum(d.loss for d in own) / len(own))
        assert player.optimal == sum(d.is_optimal for d in own)
        assert player.optimal_share == pytest.approx(player.optimal / 39)
        assert player.biggest is not None
        assert player.biggest.loss == max(d.loss for d in own)
        assert player.biggest.seat == player.seat
        assert player.total_loss > 0  # Throwing everything away is rarely right.


# -- optimal play, and players who leave -------------------------------------------------------


def play_best(table: Table, name: str, dice: random.Random, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    """``name``'s turn, played the way the strategy engine advises."""
    strategy = load(table.game.preset)
    seat = table.seats()[name]
    fixed_dice.load(*dice.choices(range(1, 7), k=5))
    table.roll(name)
    while True:
        state = table.state()
        assert state.turn.dice is not None
        best = strategy.best(state.cards[seat], state.turn.dice, state.turn.rolls_left)
        if best.kind == "score":
            assert best.category is not None
            table.score(name, best.category.value)
            return
        fixed_dice.load(*dice.choices(range(1, 7), k=5 - len(best.hold)))
        table.roll(name, best.hold)


def test_a_game_played_by_the_engine_gives_up_nothing(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")
    table.start()
    dice = random.Random(11)
    for _ in range(13):
        play_best(table, "ana", dice, fixed_dice)

    judged = analysis.analyse(events_of(table.code))

    (ana,) = judged.players
    assert all(d.loss == 0 for d in judged.decisions)
    assert all(d.chosen.expected == pytest.approx(d.best.expected) for d in judged.decisions)
    assert (ana.total_loss, ana.average_loss, ana.optimal_share, ana.biggest) == (0, 0, 1, None)
    assert ana.decisions == len(judged.decisions) >= 13
    assert any(d.kind == "keep" for d in judged.decisions)


def test_a_player_who_left_is_judged_up_to_leaving(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", "cat")
    fixed_dice.load(6, 6, 6, 6, 6, *[1] * 10)  # Ana, then Ben, then Cat.
    table.start()
    dice = random.Random(5)
    for name in ("ana", "ben", "cat"):  # Round 1, played well.
        play_best(table, name, dice, fixed_dice)
    play_best(table, "ana", dice, fixed_dice)
    fixed_dice.load(1, 1, 2, 3, 6)
    table.roll("ben")
    fixed_dice.load(1, 1, 1)
    table.roll("ben", [0, 1])  # A decision, judged though Ben leaves before scoring.
    table.leave("ben")
    while table.game.status != "finished":
        turn = table.state().current
        play_best(table, {0: "ana", 2: "cat"}[turn], dice, fixed_dice)

    events = events_of(table.code)
    judged = analysis.analyse(events)

    ana, ben, cat = judged.players
    assert (ana.left, ben.left, cat.left) == (False, True, False)
    (left_at,) = [seq for seq, event in enumerate(events, start=1) if event.kind == "left"]
    bens = [d for d in judged.decisions if d.seat == 1]
    assert ben.decisions == len(bens) >= 2
    assert all(d.seq < left_at for d in bens)
    assert bens[-1].chosen.label == "Keep 1 1"
    assert ben.biggest is bens[-1]  # Round 1 was played by the engine: no loss there.
    assert ben.total_loss == pytest.approx(bens[-1].loss)
    assert ben.total_loss > 0
    # The others play on to the end, and lose nothing.
    scores = [d for d in judged.decisions if d.kind == "score"]
    assert [sum(d.seat == seat for d in scores) for seat in range(3)] == [13, 1, 13]
    assert ana.total_loss == cat.total_loss == 0


# -- moves made for a player --------------------------------------------------------------------


@pytest.mark.parametrize(("by", "whom"), [("clock", "the clock"), ("bot", "a bot")])
def test_a_decision_the_clock_or_a_bot_made_is_marked_and_not_counted_as_the_player_s(
    fixed_dice, by: str, whom: str
) -> None:  # type: ignore[no-untyped-def]
    log = events_of(chance_for_18(fixed_dice).code)
    before = analysis.analyse(log)
    own = before.players[0]
    # The same game, with its last score (18 in Chance: 4 given up) made for Ana.
    last = max(i for i, event in enumerate(log) if isinstance(event, events.Scored))
    log[last] = msgspec.structs.replace(log[last], by=by)

    judged = analysis.analyse(log)
    ana = judged.players[0]

    made_for = judged.decisions[-1]
    assert (made_for.by, made_for.loss) == (by, pytest.approx(4.0))
    assert review_words.decision_text(made_for, OFFICIAL) == (
        f"Played by {whom}, not counted in the player's figures. Best: Keep 4 5 6, 236.0 "
        "expected. Played: Chance (18), 232.0 expected: gave up 4.00 points."
    )
    assert made_for.as_json()["by"] == by
    assert judged.made_for_players
    assert not before.made_for_players
    assert ana.decisions == own.decisions - 1
    assert ana.total_loss == pytest.approx(own.total_loss - 4.0)
    assert ana.biggest is not None
    assert ana.biggest.by is None
    assert (ana.by_clock, ana.by_bot) == ((1, 0) if by == "clock" else (0, 1))


def test_an_abandoned_game_s_stand_ins_are_judged_apart_from_each_player(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = abandoned_with_stand_ins(fake_clock)
    log = events_of(table.code)
    made_by = {
        seq: event.by
        for seq, event in enumerate(log, start=1)
        if isinstance(event, events.Rolled | events.Scored)
    }

    judged = analysis.analyse(log)

    assert all(d.by == made_by[d.seq] for d in judged.decisions)
    for player in judged.players:
        seats = [d for d in judged.decisions if d.seat == player.seat]
        own = [d for d in seats if d.by is None]
        assert player.decisions == len(own)
        assert player.total_loss == pytest.approx(sum(d.loss for d in own))
        assert player.by_clock == sum(d.by == "clock" for d in seats)
        assert player.by_bot == sum(d.by == "bot" for d in seats)
    ana, ben, cy = judged.players
    assert ana.by_clock
    assert ben.by_clock
    assert ben.by_bot
    assert cy.by_bot
    assert (ana.by_bot, cy.by_clock) == (0, 0)
    assert ben.left
    assert not ana.left


def test_an_analysis_refuses_a_game_not_started() -> None:
    table = Table("ana")
    with pytest.raises(replay.ReplayError, match="not started"):
        analysis.analyse(events_of(table.code))


def test_a_tiny_loss_is_not_written_as_nothing() -> None:
    assert review_words.points_given_up(4.0) == "4.00"
    assert review_words.points_given_up(0.004) == "less than 0.01"
    assert review_words.points_given_up(0.0) == "0.00"
