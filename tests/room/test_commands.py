"""The room's commands: known answers for each, and each refusal's code (the room unchanged)."""

from __future__ import annotations

import copy
from collections.abc import Callable

import pytest

from games.engine import events
from games.engine.events import (
    Abandoned,
    BotPaceSet,
    CameBack,
    Chat,
    CoachSwitched,
    Created,
    Finished,
    Handed,
    Joined,
    Left,
    OddsShown,
    RematchOpened,
    Rolled,
    Started,
    Unseated,
    WentAway,
)
from games.engine.room import AWAY_AFTER, Options, Room, RoomError, Seat, Status
from games.engine.rules import FREE_JOKER, YAHTZEE_BOXES, Category, RuleError

SIXES = (6, 6, 6, 6, 6)
ONES = (1, 1, 1, 1, 1)


def lobby(*names: str, bots: tuple[str, ...] = (), seats: int = 6) -> Room:
    """A room whose first name is the host, then the other names, then bots of ``bots``."""
    room = Room.create("official", seats).room
    for name in names:
        room = room.join(name).room
    for level in bots:
        room = room.add_bot(0, level).room
    return room


def started(*names: str, bots: tuple[str, ...] = (), first: int = 0) -> Room:
    """The room of :func:`lobby`, started, with ``first`` winning the roll-off at once."""
    room = lobby(*names, bots=bots).start(0).room
    if room.game is not None and room.game.current is None:
        throws = {s: SIXES if s == first else ONES for s in room.game.roll_off.contenders}
        room = room.throw_roll_off(throws).room
    return room


def clock_turn(room: Room) -> tuple[Room, tuple[events.AnyEvent, ...]]:
    """The clock plays the turn on turn: one roll, then the first open box."""
    assert room.game is not None
    assert room.game.on_turn is not None
    seat = room.game.on_turn
    box = room.game.cards[seat].empty[0]
    rolled = room.roll(seat, (2, 3, 4, 6, 6), by=events.BY_CLOCK)
    scored = rolled.room.score(seat, box, by=events.BY_CLOCK)
    return scored.room, rolled.events + scored.events


def refused(room: Room, command: Callable[[Room], object], code: str) -> None:
    """``command`` on ``room`` is refused with ``code``, and the room is as it was."""
    before = copy.deepcopy(room)
    with pytest.raises(RuleError) as caught:
        command(room)
    assert caught.value.code == code
    assert room == before


# -- creating a room ----------------------------------------------------------------------


def test_it_creates_a_lobby_with_the_coach_on_only_when_solo() -> None:
    solo, told, after = Room.create("free_joker", 1, turn_seconds=60)
    assert told == (Created(preset="free_joker", seats=1, coach=True),)  # No clock.
    assert after == (solo,)
    assert (solo.rules, solo.status, solo.seated, solo.host, solo.game) == (
        FREE_JOKER,
        Status.LOBBY,
        (),
        None,
        None,
    )
    assert solo.options == Options(coach=True, turn_seconds=None)  # Nobody waits: no clock.
    room, told, _ = Room.create("official", 4, bot_pace="quick", show_odds=True, turn_seconds=30)
    assert room.options == Options(coach=False, bot_pace="quick", show_odds=True, turn_seconds=30)
    assert told == (  # The clock too: a replayed room has it.
        Created(
            preset="official",
            seats=4,
            coach=False,
            bot_pace="quick",
            show_odds=True,
            turn_seconds=30,
        ),
    )


@pytest.mark.parametrize(
    ("arguments", "code"),
    [
        ({"preset": "yahtzee", "seats": 2}, "unknown_rules"),
        ({"preset": "official", "seats": 0}, "invalid_seats"),
        ({"preset": "official", "seats": 7}, "invalid_seats"),
        ({"preset": "official", "seats": True}, "invalid_seats"),
        ({"preset": "official", "seats": 2, "bot_pace": "slow"}, "invalid_bot_pace"),
        ({"preset": "official", "seats": 2, "show_odds": "yes"}, "invalid_show_odds"),
        ({"preset": "official", "seats": 2, "turn_seconds": 5}, "invalid_turn_seconds"),
        ({"preset": "official", "seats": 2, "turn_seconds": 1.5}, "invalid_turn_seconds"),
    ],
)
def test_it_refuses_a_room_it_cannot_open(arguments: dict[str, object], code: str) -> None:
    with pytest.raises(RuleError) as caught:
        Room.create(**arguments)  # type: ignore[arg-type]
    assert caught.value.code == code


# -- the lobby ----------------------------------------------------------------------------


def test_the_first_person_to_sit_is_the_host_and_seats_follow_in_order() -> None:
    room = lobby("ana")
    room, told, _ = room.join("ben")
    assert told == (Joined(seat=1, name="ben", host=False),)
    assert (room.players, room.host) == (("ana", "ben"), 0)


def test_a_bot_is_never_the_host_and_the_first_person_after_it_is() -> None:
    room = Room.create("official", 3).room.join("Optimal bot", bot="optimal").room
    assert room.host is None
    room, told, _ = room.join("ana")  # As the rematch of a game whose seat 0 was a bot seats it.
    assert told == (Joined(seat=1, name="ana", host=True),)
    room, told, _ = room.join("ben")
    assert told == (Joined(seat=2, name="ben", host=False),)
    assert room.host == 1
    assert room.start(1).room.status is Status.PLAYING


def test_a_rematch_saved_with_no_host_still_replays_without_one() -> None:
    room = Room.create("official", 3).room.join("Optimal bot", bot="optimal").room
    room, told, _ = room.apply(Joined(seat=1, name="ana", host=False))
    assert told == (Joined(seat=1, name="ana", host=False),)
    assert room.host is None


def test_join_refuses_a_full_room_a_started_one_and_a_name_that_looks_taken() -> None:
    refused(lobby("ana", seats=1), lambda r: r.join("ben"), "game_full")
    refused(started("ana"), lambda r: r.join("ben"), "game_started")
    refused(lobby("ana"), lambda r: r.join("ana"), "name_taken")
    refused(
        lobby("ana"),
        lambda r: r.join("ANA", clash=lambda a, b: a.lower() == b.lower()),
        "name_taken",
    )
    assert lobby("ana").join("ana", clash=None).room.players == ("ana", "ana")


def test_the_host_seats_bots_under_the_first_free_name() -> None:
    room = lobby("ana")
    room, told, _ = room.add_bot(0, "optimal")
    assert told == (Joined(seat=1, name="Optimal bot", host=False, bot="optimal"),)
    room, told, _ = room.add_bot(0, "optimal")
    assert told == (Joined(seat=2, name="Optimal bot 2", host=False, bot="optimal"),)
    room = room.add_bot(0, "win").room
    assert room.seated[3] == Seat("To-win bot", "win")


def test_add_bot_refusals() -> None:
    room = lobby("ana", "ben")
    refused(room, lambda r: r.add_bot(0, "genius"), "invalid_bot")
    refused(room, lambda r: r.add_bot(1, "casual"), "not_host")
    refused(room, lambda r: r.add_bot(5, "casual"), "not_a_player")
    refused(lobby("ana", seats=1), lambda r: r.add_bot(0, "casual"), "game_full")
    refused(started("ana"), lambda r: r.add_bot(0, "casual"), "game_started")


def test_the_host_takes_a_bot_off_and_the_seats_after_it_move_up() -> None:
    room = lobby("ana", bots=("optimal", "casual"))
    room, told, _ = room.remove_bot(0, 1)
    assert told == (Unseated(seat=1, name="Optimal bot", host=0),)
    assert room.players == ("ana", "Casual bot")


def test_remove_bot_refusals() -> None:
    room = lobby("ana", "ben", bots=("optimal",))
    refused(room, lambda r: r.remove_bot(0, "2"), "invalid_message")
    refused(room, lambda r: r.remove_bot(0, 1), "not_a_bot")
    refused(room, lambda r: r.remove_bot(0, 9), "not_a_bot")
    refused(room, lambda r: r.remove_bot(1, 2), "not_host")
    refused(started("ana", bots=("optimal",)), lambda r: r.remove_bot(0, 1), "game_started")


def test_leaving_the_lobby_moves_the_seats_up_and_passes_the_host_to_a_person_first() -> None:
    room = lobby("ana", bots=("optimal",)).join("ben").room
    room, told, after = room.leave(0)
    assert told == (Unseated(seat=0, name="ana", host=1),)
    assert (room.players, room.host) == (("Optimal bot", "ben"), 1)
    assert after == (room,)


def test_the_bots_leave_the_lobby_with_its_last_person_last_seat_first() -> None:
    room = lobby("ana", bots=("optimal", "casual"))
    room, told, after = room.leave(0)
    assert told == (
        Unseated(seat=0, name="ana", host=0),
        Unseated(seat=1, name="Casual bot", host=0),
        Unseated(seat=0, name="Optimal bot", host=None),
    )
    assert [a.players for a in after] == [("Optimal bot", "Casual bot"), ("Optimal bot",), ()]
    assert (room.seated, room.host) == ((), None)


def test_leave_refuses_a_seat_that_is_not_there() -> None:
    refused(lobby("ana"), lambda r: r.leave(1), "not_a_player")


# -- the start and the play ---------------------------------------------------------------


def test_a_solo_game_starts_at_once() -> None:
    room, told, _ = lobby("ana").start(0)
    assert told == (Started(players=("ana",), first=0),)
    assert room.status is Status.PLAYING
    assert room.game is not None
    assert room.game.on_turn == 0


def test_the_roll_off_decides_who_starts() -> None:
    room = lobby("ana", "ben").start(0).room
    assert room.game is not None
    assert room.game.current is None
    room, told, _ = room.throw_roll_off({0: ONES, 1: SIXES})
    assert told == (events.RollOffThrown(((0, ONES), (1, SIXES)), (1,), 1),)
    assert room.game is not None
    assert room.game.on_turn == 1


def test_start_refusals() -> None:
    refused(lobby("ana", "ben"), lambda r: r.start(1), "not_host")
    refused(started("ana"), lambda r: r.start(0), "already_started")
    refused(lobby("ana", "ben"), lambda r: r.throw_roll_off({0: ONES}), "not_started")
    refused(started("ana", "ben"), lambda r: r.throw_roll_off({0: ONES}), "roll_off_decided")


def test_a_play_command_goes_through_to_the_rules_marked_by_whom_made_it() -> None:
    room = started("ana", "ben")
    room, told, _ = room.roll(0, SIXES)
    assert told == (Rolled(seat=0, dice=SIXES, held=()),)
    room, told, _ = room.hold(0, [0, 1], by=events.BY_CLOCK)
    assert told == (events.Held(seat=0, held=(0, 1), by="clock"),)
    room, told, _ = room.score(0, "yahtzee")
    assert told[0] == events.Scored(0, Category.YAHTZEE, 50, SIXES, False, 1)
    refused(room, lambda r: r.roll(0, SIXES), "not_your_turn")
    refused(room, lambda r: r.roll(2, SIXES), "not_a_player")
    refused(room, lambda r: r.roll(1, SIXES, by=events.BY_BOT), "not_away")
    refused(lobby("ana"), lambda r: r.roll(0, SIXES), "not_started")


def test_the_last_score_finishes_the_game() -> None:
    room = started("ana")
    for box in YAHTZEE_BOXES:
        room = room.roll(0, SIXES).room
        progress = room.score(0, box)
        room = progress.room
    assert room.status is Status.FINISHED
    assert isinstance(progress.events[-1], Finished)
    assert progress.after[0].status is Status.PLAYING  # The score, then the end.
    refused(room, lambda r: r.roll(0, SIXES), "game_over")


def test_leaving_in_play_skips_the_seat_and_the_bots_go_with_the_last_person() -> None:
    room = started("ana", "ben", bots=("optimal",))
    room, told, _ = room.leave(1)
    assert told == (Left(seat=1, next=0),)
    room, told, after = room.leave(0)
    assert told == (Left(seat=0, next=2), Left(seat=2, next=None), Finished((), (0, 0, 0)))
    assert room.status is Status.FINISHED
    assert [a.status for a in after] == [Status.PLAYING, Status.PLAYING, Status.FINISHED]
    refused(room, lambda r: r.leave(0), "not_a_player")


def test_the_bots_do_not_leave_a_game_their_last_person_ended_by_leaving() -> None:
    room = started("ana", bots=("optimal",), first=1)
    for box in YAHTZEE_BOXES:  # The bot fills its card; Ana has one box to go.
        room = room.roll(1, SIXES).room.score(1, box).room
        if box is not Category.CHANCE:
            room = room.roll(0, ONES).room.score(0, box).room
    room, told, _ = room.leave(0)
    assert room.game is not None
    totals = tuple(card.total for card in room.game.cards)
    assert told == (Left(seat=0, next=None), Finished((1,), totals))  # Not the bot's leave.


# -- the host's options, talk and the rematch ---------------------------------------------


def test_the_host_switches_the_coach_and_the_bots_pace_and_a_repeat_changes_nothing() -> None:
    room = lobby("ana", "ben")
    room, told, _ = room.set_coach(0, True)
    assert told == (CoachSwitched(on=True, seat=0, name="ana"),)
    assert room.set_coach(0, True) == (room, (), ())
    room, told, _ = room.set_bot_pace(0, "instant")
    assert told == (BotPaceSet(pace="instant", seat=0, name="ana"),)
    assert room.options == Options(coach=True, bot_pace="instant")
    assert room.set_bot_pace(0, "instant") == (room, (), ())
    room, told, _ = room.set_show_odds(0, True)
    assert told == (OddsShown(show=True, seat=0, name="ana"),)
    assert room.options == Options(coach=True, bot_pace="instant", show_odds=True)
    assert room.set_show_odds(0, True) == (room, (), ())


def test_the_host_shows_and_hides_the_chances_during_the_game() -> None:
    room = started("ana", "ben")
    room, told, _ = room.set_show_odds(0, True)
    assert (told, room.options.show_odds) == ((OddsShown(show=True, seat=0, name="ana"),), True)
    room, told, _ = room.set_show_odds(0, False)
    assert (told, room.options.show_odds) == ((OddsShown(show=False, seat=0, name="ana"),), False)


def test_option_refusals() -> None:
    room = lobby("ana", "ben")
    refused(room, lambda r: r.set_coach(0, "on"), "invalid_message")
    refused(room, lambda r: r.set_coach(1, True), "not_host")
    refused(room, lambda r: r.set_bot_pace(0, "slow"), "invalid_bot_pace")
    refused(room, lambda r: r.set_bot_pace(1, "quick"), "not_host")
    refused(room, lambda r: r.set_show_odds(0, "yes"), "invalid_show_odds")
    refused(room, lambda r: r.set_show_odds(1, True), "not_host")
    refused(started("ana", "ben"), lambda r: r.set_show_odds(1, True), "not_host")
    over = started("ana").leave(0).room
    refused(over, lambda r: r.set_coach(0, True), "not_a_player")
    finished = started("ana", "ben").leave(1).room
    for box in YAHTZEE_BOXES:
        finished = finished.roll(0, SIXES).room.score(0, box).room
    refused(finished, lambda r: r.set_coach(0, True), "game_over")
    refused(finished, lambda r: r.set_bot_pace(0, "quick"), "game_over")
    refused(finished, lambda r: r.set_show_odds(0, True), "game_over")


def test_a_player_chats() -> None:
    room = lobby("ana", "ben")
    assert room.chat(1, "hi").events == (Chat(seat=1, name="ben", text="hi"),)
    refused(room, lambda r: r.chat(2, "hi"), "not_a_player")


def finished_duo() -> Room:
    room = started("ana", "ben", bots=("casual",))
    room = room.leave(1).room
    while room.status is Status.PLAYING:
        assert room.game is not None
        assert room.game.on_turn is not None
        seat = room.game.on_turn
        room = room.roll(seat, ONES).room
        room = room.score(seat, room.game.cards[seat].empty[0]).room  # type: ignore[union-attr]
    return room


def test_a_player_opens_the_rematch_once_and_it_seats_everyone_who_stayed() -> None:
    refused(started("ana"), lambda r: r.open_rematch(0, "new"), "not_finished")
    room = finished_duo()
    refused(room, lambda r: r.open_rematch(1, "new"), "not_a_player")  # Ben left.
    room, told, _ = room.open_rematch(0, "new")
    assert told == (RematchOpened(code="new", seat=0, name="ana"),)
    assert room.rematch == "new"
    assert room.open_rematch(0, "other") == (room, (), ())
    rematch, told, _ = room.rematch_room("old")
    assert told == (
        Created(preset="official", seats=6, coach=False, rematch_of="old"),
        Joined(seat=0, name="ana", host=True),
        Joined(seat=1, name="Casual bot", host=False, bot="casual"),
    )
    assert (rematch.rematch_of, rematch.players, rematch.status) == (
        "old",
        ("ana", "Casual bot"),
        Status.LOBBY,
    )


def test_abandon() -> None:
    room, told, _ = started("ana", "ben").abandon()
    assert told == (Abandoned(),)
    assert room.status is Status.ABANDONED
    refused(room, lambda r: r.roll(0, SIXES), "game_over")
    refused(room, lambda r: r.abandon(), "game_over")
    refused(lobby("ana"), lambda r: r.abandon(), "not_started")


# -- the clock and players who are away --------------------------------------------------


def test_after_two_turns_the_clock_played_in_a_row_a_seat_is_away() -> None:
    room = started("ana", "ben")
    room, _ = clock_turn(room)
    assert room.seated[0].ran_out == 1
    assert not room.seated[0].away
    room = room.roll(1, SIXES).room.score(1, "yahtzee").room
    room, told = clock_turn(room)
    assert AWAY_AFTER == 2
    assert told[-1] == WentAway(seat=0, name="ana")
    assert room.seated[0] == Seat("ana", away=True, ran_out=2)
    assert room.people_present() == (1,)


def test_a_command_of_the_player_starts_the_clock_s_count_again() -> None:
    room = started("ana", "ben")
    room, _ = clock_turn(room)
    room = room.roll(1, SIXES).room.chat(0, "sorry").room
    assert room.seated[0].ran_out == 0


def away_ana() -> Room:
    room = started("ana", "ben")
    room, _ = clock_turn(room)
    room = room.roll(1, SIXES).room.score(1, "yahtzee").room
    room, _ = clock_turn(room)
    return room.roll(1, ONES).room.score(1, "ones").room


def test_a_bot_plays_for_an_away_player_until_they_come_back() -> None:
    room = away_ana()
    assert room.bot_on_turn()
    room = room.roll(0, SIXES, by=events.BY_BOT).room
    room, told, _ = room.hold(0, [0], by=None)
    assert told == (CameBack(seat=0, name="ana"), events.Held(seat=0, held=(0,)))
    assert room.seated[0] == Seat("ana")
    assert not room.bot_on_turn()


def test_come_back() -> None:
    room, told, _ = away_ana().come_back(0)
    assert told == (CameBack(seat=0, name="ana"),)
    refused(room, lambda r: r.come_back(0), "not_away")


def test_the_host_hands_an_away_seat_to_a_bot_or_removes_it() -> None:
    room = started("ana", "ben", first=1)
    room, _ = clock_turn(room)
    room = room.roll(0, SIXES).room.score(0, "yahtzee").room
    room, _ = clock_turn(room)  # Ben, not the host, is away.
    handed, told, _ = room.hand_to_bot(0, 1, connected=True)
    assert told == (Handed(seat=1, name="ben", host=0),)
    assert handed.seated[1] == Seat("ben", handed=True, ran_out=2)
    refused(handed, lambda r: r.roll(1, SIXES), "handed_to_bot")
    refused(handed, lambda r: r.come_back(1), "handed_to_bot")
    refused(handed, lambda r: r.hand_to_bot(0, 1), "handed_to_bot")
    told = room.remove_player(0, 1).events
    assert told == (Left(seat=1, next=0, by="host"),)


def test_host_over_refusals() -> None:
    room = started("ana", "ben", "cy", bots=("optimal",))
    refused(room, lambda r: r.hand_to_bot(0, "1"), "invalid_message")
    refused(room, lambda r: r.hand_to_bot(1, 2), "not_host")
    refused(room, lambda r: r.hand_to_bot(0, 0), "not_a_player")  # Themselves.
    refused(room, lambda r: r.hand_to_bot(0, 3), "not_a_player")  # A bot.
    refused(room, lambda r: r.remove_player(0, 7), "not_a_player")
    refused(room, lambda r: r.remove_player(0, 1, connected=True), "not_away")
    refused(room.leave(2).room, lambda r: r.remove_player(0, 2), "not_a_player")  # Gone.
    refused(lobby("ana", "ben"), lambda r: r.hand_to_bot(0, 1), "not_started")


# -- replay ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "event",
    [
        Created(preset="official", seats=2, coach=False),
        Finished((0,), (0,)),
        WentAway(seat=0, name="ana"),
        Left(seat=0, next=None, by="clock"),
    ],
)
def test_an_event_no_command_begins_with_does_not_follow(event: events.AnyEvent) -> None:
    refused(started("ana", "ben"), lambda r: r.apply(event), "does_not_follow")


def test_apply_gives_the_logged_command_again() -> None:
    room = started("ana", "ben")
    logged = Rolled(seat=0, dice=(1, 2, 3, 4, 5), held=())
    assert room.apply(logged) == room.roll(0, (1, 2, 3, 4, 5))
    room = room.apply(logged).room
    again = Rolled(seat=0, dice=(1, 2, 3, 4, 6), held=(0, 1, 2, 3))
    assert room.apply(again).events == (again,)


def test_the_room_s_bot_levels_and_paces_are_the_models_own() -> None:
    from games.engine.events import BotLevel, BotPace
    from games.engine.room import BOT_NAMES, BOT_PACES
    from games.models import Game, Player  # The one test here that reads the models.

    assert Player.Bot is BotLevel
    assert set(BOT_NAMES) == set(BotLevel)
    assert Game.BotPace is BotPace
    assert tuple(BotPace) == BOT_PACES
    assert [s.value for s in Status] == list(Game.Status.values)


def test_refusals_are_room_errors_with_a_code() -> None:
    with pytest.raises(RoomError) as caught:
        lobby("ana", "ben").start(1)
    assert (caught.value.code, str(caught.value)) == (
        "not_host",
        "only the host can start the game",
    )
