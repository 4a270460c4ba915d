"""Past games: the move-by-move review, the list's summaries, seats by account, and rematches."""

import pytest
from django.contrib.auth.models import User

from games.engine import replay, rules
from games.engine.events import Finished
from games.insight import review
from games.live import services
from games.live.services import CommandError
from games.models import Game, GameEvent, Player
from games.web import history, review_words
from games.wire import presentation
from games.words import worded_rows
from tests.server.helpers import SOLO_RUNNING, Table, abandoned_with_stand_ins, play_solo
from tests.server.test_replay import play_randomly

pytestmark = pytest.mark.django_db

ANA_FIRST = (6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # Roll-off throws: ana (seat 0), then ben.


@pytest.fixture
def opened(fixed_dice) -> Table:  # type: ignore[no-untyped-def]
    """Ana and Ben, started: Ana rolls 3 3 3 5 5, keeps the threes, rolls a Yahtzee;
    Ben rolls a large straight."""
    table = Table("ana", "ben")
    fixed_dice.load(*ANA_FIRST)
    table.start()
    fixed_dice.load(3, 3, 3, 5, 5)
    table.roll("ana")
    table.hold("ana", [0, 1, 2])
    fixed_dice.load(3, 3)
    table.roll("ana", [0, 1, 2])
    table.score("ana", "yahtzee")
    fixed_dice.load(1, 2, 3, 4, 5)
    table.roll("ben")
    table.score("ben", "large_straight")
    return table


def finished(fixed_dice, *names: str, faces: list[int] | None = None) -> Table:  # type: ignore[no-untyped-def]
    """A game played to the end with every turn's dice chosen (all fives by default)."""
    table = Table(*names)
    if len(names) > 1:  # A roll-off the first seat wins.
        fixed_dice.load(*ANA_FIRST[:5], *[1] * 5 * (len(names) - 1))
    table.start()
    turns = faces or [5] * 5 * 13 * len(names)
    fixed_dice.load(*turns)
    table.play_out(rolls=1)
    return table


# -- the review: moments from the log ---------------------------------------------------------


def reviewed(code: str) -> review.Review:
    """The review the page builds, from the game's log."""
    return review.build(services.replay_events(code))


def said(told: review.Review, moment: review.Moment) -> str:
    """A moment in words, as the review page tells it (in English, as every test starts)."""
    return review_words.moment_text(told, told.moments.index(moment))


def test_it_tells_each_move_with_the_dice_and_the_cards_of_that_moment(opened: Table) -> None:
    told = reviewed(opened.code)

    assert [m.kind for m in told.moments] == [
        "start", "rolled", "held", "rolled", "scored", "rolled", "scored",
    ]  # fmt: skip
    assert [said(told, m) for m in told.moments] == [
        "ana and ben sit down; ana won the roll-off and starts.",
        "ana rolled 3 3 3 5 5 (2 rolls left).",
        "ana kept 3 3 3.",
        "ana rolled 3 3 3 3 3, keeping 3 3 3 (1 roll left).",
        "ana scored 50 in Yahtzee.",
        "ben rolled 1 2 3 4 5 (2 rolls left).",
        "ben scored 40 in Large straight.",
    ]
    start, rolled, held, second, scored, _, last = told.moments
    assert (start.dice, start.turn, start.round, start.rolls_left) == (None, 0, 1, 3)
    assert (held.dice, held.held, held.rolls_left) == ((3, 3, 3, 5, 5), (0, 1, 2), 2)
    assert (second.dice, second.held, second.rolls_left) == ((3, 3, 3, 3, 3), (0, 1, 2), 1)
    # A score leaves its dice on show, the box named, and the turn with the next player.
    assert (scored.dice, scored.category, scored.seat, scored.turn) == ((3,) * 5, "yahtzee", 0, 1)
    assert [c.total for c in rolled.cards] == [0, 0]
    assert [c.total for c in scored.cards] == [50, 0]
    assert [c.total for c in last.cards] == [50, 40]
    assert last.round == 2


def test_a_link_to_an_event_opens_the_last_moment_at_or_before_it(opened: Table) -> None:
    told = reviewed(opened.code)
    seqs = [m.seq for m in told.moments]

    assert told.at(str(seqs[2])) == 2
    assert told.at(str(seqs[2] + 0)) == 2
    assert told.at("1") == 0  # Before the start: the start.
    assert told.at("") == len(seqs) - 1  # No moment named: the end.
    assert told.at("nonsense") == len(seqs) - 1
    assert told.at("99999") == len(seqs) - 1


def test_the_script_gets_every_card_at_the_start_then_each_score_s_points_and_totals(
    opened: Table,
) -> None:
    moments = review_words.moments_json(reviewed(opened.code))

    assert [c["total"] for c in moments[0]["cards"]] == [0, 0]
    assert [("card" in m) for m in moments] == [False, False, False, False, True, False, True]
    assert (moments[4]["category"], moments[4]["points"], moments[4]["card"]["total"]) == (
        "yahtzee", 50, 50,
    )  # fmt: skip
    ben = presentation.card_json(opened.state().cards[1])
    assert moments[6]["card"] == {key: value for key, value in ben.items() if key != "boxes"}


def test_a_finished_solo_game_ends_on_its_score_with_the_last_dice_shown(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)

    told = reviewed(table.code)
    end = told.moments[-1]

    assert [m.kind for m in told.moments] == ["start"] + ["rolled", "scored"] * 13 + ["finished"]
    assert said(told, told.moments[0]) == "ana starts a solo game."
    assert (end.kind, said(told, end), end.turn) == ("finished", "ana finished with 293.", None)
    assert end.dice == (6, 6, 6, 6, 5)
    assert [c.total for c in end.cards] == [293]


def test_a_shared_win_is_told_as_one() -> None:
    finished = Finished(winners=(0, 2), totals=(200, 150, 200))
    end = review.Moment(
        seq=9, kind="finished", seat=None, turn=None, round=13, dice=None, held=(),
        rolls_left=0, cards=(), event=finished,
    )  # fmt: skip
    told = review.Review(names=("ana", "ben", "cat"), moments=(end,))

    assert said(told, end) == "ana and cat share the win with 200."


def test_running_totals_count_each_round_and_the_bonus_when_it_is_earned(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = play_solo(fixed_dice)

    assert reviewed(table.code).running_totals() == [SOLO_RUNNING]
    assert table.state().cards[0].total == 293


# -- moves made for a player, and a game abandoned ---------------------------------------------


def test_a_turn_the_clock_finished_says_the_time_ran_out_then_that_the_clock_played_on(
    fixed_dice, fake_clock
) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", turn_seconds=30)
    fixed_dice.load(*ANA_FIRST)
    table.start()
    fixed_dice.load(6, 6, 6, 6, 6)
    table.roll("ana")
    table.score("ana", "yahtzee")
    fixed_dice.load(*[2] * 15)  # Whatever the clock throws for Ben: twos.
    fake_clock.until(table.game.deadline)
    services.wake(table.code)

    told = reviewed(table.code)
    moments = told.moments
    clock = [m for m in moments if m.by == "clock"]
    scored = GameEvent.objects.get(game__code=table.code, kind="scored", payload__by="clock")
    label = rules.Category(scored.payload["category"]).label

    assert [m.seat for m in clock] == [1] * len(clock)
    assert said(told, clock[0]) == (
        "ben's time ran out: the clock rolled 2 2 2 2 2 (2 rolls left)."
    )
    assert all(said(told, m).startswith("The clock, playing on for ben, ") for m in clock[1:])
    assert said(told, clock[-1]).endswith(f"scored {scored.payload['points']} in {label}.")
    before = moments[moments.index(clock[0]) - 1]
    assert (said(told, before), before.as_json()["by"], clock[0].as_json()["by"]) == (
        "ana scored 50 in Yahtzee.", None, "clock",
    )  # fmt: skip


def test_a_score_the_clock_made_alone_says_whose_time_ran_out(fixed_dice, fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", turn_seconds=30)
    fixed_dice.load(*ANA_FIRST)
    table.start()
    fixed_dice.load(2, 3, 5, 6, 2)
    table.roll("ana")
    fixed_dice.load(1, 1, 1)
    table.roll("ana", [0, 1])
    fixed_dice.load(4, 4, 4)
    table.roll("ana", [0, 1])  # No roll left: the clock has only the box to choose.
    fake_clock.until(table.game.deadline)
    services.wake(table.code)

    scored = GameEvent.objects.get(game__code=table.code, kind="scored")
    label = rules.Category(scored.payload["category"]).label
    told = reviewed(table.code)
    end = told.moments[-1]

    assert (end.kind, end.by) == ("scored", "clock")
    assert (
        said(told, end)
        == f"ana's time ran out: the clock scored {scored.payload['points']} in {label}."
    )


def test_an_abandoned_game_tells_who_played_for_whom_and_how_it_ended(fake_clock) -> None:  # type: ignore[no-untyped-def]
    table = abandoned_with_stand_ins(fake_clock)

    told = reviewed(table.code)
    moments = told.moments
    by_kind = {m.kind: said(told, m) for m in moments}
    texts = [said(told, m) for m in moments]

    away = [said(told, m) for m in moments if m.kind == "away"]
    assert away[0] == (
        "ben is away: the clock played ben's last turns, so a bot plays for ben until ben is back."
    )
    assert all(
        said(told, m).startswith("A bot, playing for ben (away), ")
        for m in moments
        if m.by == "bot" and m.seat == 1
    )
    assert by_kind["back"] == "ben is back: the bot stops playing for ben."
    assert by_kind["handed"] == (
        "ana, the host, handed cy's seat to a bot for the rest of the game."
    )
    assert all(
        said(told, m).startswith("The bot in cy's seat ")
        for m in moments
        if m.by == "bot" and m.seat == 2
    )
    assert "ana, the host, removed ben from the game; ben's score stands." in texts
    assert next(m for m in moments if m.kind == "left").by == "host"
    end = moments[-1]
    assert (end.kind, said(told, end), end.turn, end.seat) == (
        "abandoned",
        "The game was abandoned: nobody played for a long while.",
        None,
        None,
    )
    assert end.dice == moments[-2].dice  # The table as it was left.
    assert [c.total for c in end.cards] == [c.total for c in table.state().cards]
    assert not table.state().is_over


def test_it_refuses_to_review_a_game_that_has_not_started() -> None:
    table = Table("ana")
    with pytest.raises(replay.ReplayError, match="not started"):
        reviewed(table.code)


def test_the_card_rows_leave_an_unearned_bonus_blank_and_keep_card_order(opened: Table) -> None:
    cards = [presentation.card_json(c) for c in opened.state().cards]
    rows = worded_rows(review.card_rows(cards), rules.OFFICIAL)

    assert [r["key"] for r in rows] == [
        *(c.value for c in rules.UPPER), "upper_total", "upper_bonus",
        *(c.value for c in rules.LOWER), "yahtzee_bonus", "lower_total",
    ]  # fmt: skip
    by_key = {r["key"]: r for r in rows}
    assert by_key["yahtzee"]["cells"] == [50, None]
    assert by_key["upper_bonus"] == {
        "key": "upper_bonus", "label": "Bonus (35)", "box": False, "blank_zero": True,
        "cells": [0, 0],
    }  # fmt: skip


# -- the history list --------------------------------------------------------------------------


def test_summaries_give_totals_and_winners_from_the_rules(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    done = finished(fixed_dice, "ana", "ben", faces=[5] * 65 + [6] * 65)
    playing = Table("cat", "dan")
    fixed_dice.load(*ANA_FIRST)
    playing.start()

    first, second = history.summaries([done.game, playing.game])

    over = done.last_event().payload
    assert [s.total for s in first.seats] == over["totals"]
    assert [s.player.seat for s in first.winners] == over["winners"]
    assert first.is_finished
    assert [s.total for s in second.seats] == [0, 0]
    assert second.winners == ()  # Nobody has won a game still being played.


def test_a_player_who_left_is_never_a_winner(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben")
    fixed_dice.load(*ANA_FIRST)
    table.start()
    fixed_dice.load(6, 6, 6, 6, 6)
    table.roll("ana")
    table.score("ana", "yahtzee")
    table.leave("ana")  # 50 points, then gone: ben plays alone.
    fixed_dice.load(*[1] * 5 * 13)
    table.play_out(rolls=1)

    (summary,) = history.summaries([table.game])

    assert [(s.name, s.is_winner) for s in summary.seats] == [("ana", False), ("ben", True)]


def test_summaries_take_a_fixed_number_of_queries(fixed_dice, django_assert_num_queries) -> None:  # type: ignore[no-untyped-def]
    for _ in range(4):
        finished(fixed_dice, "ana", "ben")
    games = list(history.listed_games())

    with django_assert_num_queries(1):  # The seats; the cards are in the games' records.
        history.summaries(games)


def test_the_list_leaves_out_lobbies_and_puts_the_newest_first(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    Table("lobby")
    older = finished(fixed_dice, "ana")
    newer = finished(fixed_dice, "ben")

    assert [g.code for g in history.listed_games()] == [newer.code, older.code]


def test_my_games_are_the_ones_with_my_session_or_my_account(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    mine = finished(fixed_dice, "ana", "ben")
    other = finished(fixed_dice, "cat")
    user = User.objects.create_user("bengt")
    Player.objects.filter(game__code=other.code).update(user=user)

    assert [g.code for g in history.games_of(session_key="session-ana")] == [mine.code]
    assert [g.code for g in history.games_of(user_id=user.pk)] == [other.code]
    assert list(history.games_of()) == []


# -- seats held by an account ------------------------------------------------------------------


def test_an_account_takes_its_seat_back_in_any_browser() -> None:
    user = User.objects.create_user("ana")
    game, host = services.create_game(host_name="ana", session_key="laptop", user_id=user.pk)
    assert host is not None

    assert services.arrive(game.code, session_key="phone", user_id=user.pk).player_id == host.pk
    assert services.arrive(game.code, session_key="phone").player_id is None
    assert services.join_game(game.code, "ana2", session_key="phone", user_id=user.pk) == host


# -- rematch -----------------------------------------------------------------------------------


def test_a_rematch_seats_the_same_players_in_the_same_seats_with_the_same_rules(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", "cat", preset="free_joker", turn_seconds=120)
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    table.start()
    fixed_dice.load(*[5] * 5 * 13 * 3)
    user = User.objects.create_user("benny")
    Player.objects.filter(pk=table.id("ben")).update(user=user)
    table.play_out(rolls=1)

    new = services.rematch(table.code, table.id("ben"))

    assert (new.preset, new.seats, new.status, new.rematch_of.code) == (  # type: ignore[union-attr]
        "free_joker", 6, "lobby", table.code,
    )  # fmt: skip
    assert new.turn_seconds == 120
    seats = list(new.players.values_list("seat", "name", "is_host", "session_key", "user_id"))
    assert seats == [
        (0, "ana", True, "session-ana", None),
        (1, "ben", False, "session-ben", user.pk),
        (2, "cat", False, "session-cat", None),
    ]
    assert [e.kind for e in new.events.all()] == ["created", "joined", "joined", "joined"]
    told = table.last_event()
    assert (told.kind, told.payload) == ("rematch", {"code": new.code, "seat": 1, "name": "ben"})
    assert services.snapshot(table.code)["rematch"] == new.code
    # The old game still replays, and still counts as finished.
    assert replay.replay(services.replay_events(table.code)).status == "finished"


def test_asking_twice_gives_the_same_rematch(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = finished(fixed_dice, "ana", "ben")

    first = services.rematch(table.code, table.id("ana"))
    second = services.rematch(table.code, table.id("ben"))

    assert first == second
    assert Game.objects.filter(rematch_of__code=table.code).count() == 1
    assert table.kinds().count("rematch") == 1


def test_a_rematch_leaves_out_who_left_and_refuses_them(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "ben", "cat")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    table.start()
    table.leave("ben")
    fixed_dice.load(*[4] * 5 * 13 * 2)
    table.play_out(rolls=1)

    with pytest.raises(CommandError) as error:
        services.rematch(table.code, table.id("ben"))
    assert error.value.code == "not_a_player"
    new = services.rematch(table.code, table.id("cat"))
    assert list(new.players.values_list("seat", "name", "is_host")) == [
        (0, "ana", True),
        (1, "cat", False),
    ]


@pytest.mark.parametrize("who", [None, "stranger"])
def test_watchers_cannot_ask_for_a_rematch(fixed_dice, who: str | None) -> None:  # type: ignore[no-untyped-def]
    table = finished(fixed_dice, "ana")
    other = Table("stranger")
    before = table.version

    with pytest.raises(CommandError) as error:
        services.rematch(table.code, other.id(who))

    assert error.value.code == "not_a_player"
    assert table.version == before
    assert not Game.objects.filter(rematch_of__code=table.code).exists()


def test_a_rematch_waits_for_the_end_of_the_game(opened: Table) -> None:
    before = opened.version
    with pytest.raises(CommandError) as error:
        services.rematch(opened.code, opened.id("ana"))
    assert error.value.code == "not_finished"
    assert opened.version == before


@pytest.mark.django_db(transaction=True)
def test_the_review_of_any_game_ends_on_the_cards_that_are_stored() -> None:
    """Random games (leaves, holds, chat, refusals, rematches) reviewed from their logs."""
    for seed in range(8):
        table, _ = play_randomly(seed)
        told = reviewed(table.code)
        stored = table.state()
        assert told.moments[-1].kind == "finished"
        assert told.moments[-1].cards == stored.cards, f"seed {seed}"
        for seat, totals in enumerate(told.running_totals()):
            assert totals == sorted(totals)  # A running total never goes down.
            if totals:  # A player who left before scoring has none.
                assert totals[-1] == stored.cards[seat].total
        seqs = [m.seq for m in told.moments]
        assert seqs == sorted(set(seqs))
