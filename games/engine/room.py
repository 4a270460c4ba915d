"""A game room as a pure value: its seats, its host, its options, and the game in play.

:class:`Room` is to the room what :class:`games.engine.rules.Game` is to the play. It
imports nothing from Django and rolls no dice: a command checks who gives it and
whether the room allows it, and returns a :class:`RoomProgress`, the new room and
the events it caused, or raises a :class:`RoomError` (or the rules' own
:class:`~games.engine.rules.RuleError`), each with a stable ``code``. A play command
(roll, hold, score, leave) goes through the room to the rules' game::

    >>> room = Room.create("official", 2).room
    >>> room = room.join("ana").room.join("ben").room
    >>> room.players, room.host
    (('ana', 'ben'), 0)
    >>> room.start(1)
    Traceback (most recent call last):
    ...
    games.engine.room.RoomError: only the host can start the game
    >>> room, happened, _ = room.start(0)
    >>> happened
    (Started(players=('ana', 'ben'), first=None),)
    >>> room = room.throw_roll_off({0: [6, 6, 6, 6, 6], 1: [1, 1, 1, 1, 1]}).room
    >>> room.roll(0, [2, 2, 5, 5, 1]).events
    (Rolled(seat=0, dice=(2, 2, 5, 5, 1), held=(), by=None),)

What the server alone knows comes in from outside, as the dice do: the roll-off's
and the rolls' dice, whether a player has a live connection, the invite code of a
rematch, whether a name looks like another (:func:`games.engine.names.clash`).

A room replays from its log: :meth:`Room.apply` gives the command a logged event
records, and :mod:`games.engine.replay` folds a whole log through it.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final, NamedTuple

import msgspec

from games.engine import events
from games.engine.rules import (
    MAX_PLAYERS,
    Category,
    Game,
    IllegalMoveError,
    Progress,
    RuleError,
    Rules,
    get_rules,
)

#: After this many turns in a row played by the clock, a seat is away: a bot plays it.
AWAY_AFTER: Final = 2
#: The clocks a room may be given, in seconds.
TURN_SECONDS_MIN: Final = 10
TURN_SECONDS_MAX: Final = 24 * 60 * 60
#: How long the bots take over their moves (:func:`games.live.bots.pause`).
BOT_PACES: Final = tuple(events.BotPace)
#: The bots a host may seat, and the name each sits down under (numbered when taken).
BOT_NAMES: Final = {
    events.BotLevel.OPTIMAL: "Optimal bot",
    events.BotLevel.CASUAL: "Casual bot",
    events.BotLevel.WIN: "To-win bot",
}

NameClash = Callable[[str, str], bool]
"""Whether two names are too alike to share a room (:func:`games.engine.names.clash`)."""


class RoomError(RuleError):
    """A command the room refuses, with a stable ``code`` and a message for people."""

    code = "room_error"


class Status(enum.StrEnum):
    """Where a room stands (the values are those the game's row saves)."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
    #: Nobody played for a long while: the game ended unfinished, as it stood.
    ABANDONED = "abandoned"


@dataclass(frozen=True)
class Seat:
    """Who sits in a seat: a name, a bot's level (``None`` for a person), and while the game
    is played, whether a bot stands in for the person.

    ``ran_out``: how many turns in a row the clock has played for the seat (any command
    of its player starts it again from none). ``away``: a bot plays its turns until the
    player comes back. ``handed``: the host handed it to a bot for the rest of the game.
    """

    name: str
    bot: events.BotLevel | None = None
    away: bool = False
    handed: bool = False
    ran_out: int = 0

    @property
    def stood_in(self) -> bool:
        """Whether a bot plays this person's turns (away, or handed to a bot)."""
        return self.away or self.handed


@dataclass(frozen=True)
class Options:
    """What the host chooses: the coach, the bots' pace, whether the players see the
    chances to win, and the turn clock (seconds a turn, ``None`` for none)."""

    coach: bool = False
    bot_pace: events.BotPace = events.BotPace.NATURAL
    show_odds: bool = False
    turn_seconds: int | None = None


class RoomProgress(NamedTuple):
    """What a room command did: the room after it, the events it caused in order, and the
    room just after each of those events (the last is :attr:`room`)."""

    room: Room
    events: tuple[events.AnyEvent, ...]
    after: tuple[Room, ...]

    def then(self, more: RoomProgress) -> RoomProgress:
        """This progress followed by ``more``, a command applied to :attr:`room`.

        A change ``more`` tells nobody of (the clock's count) belongs to the last event.
        """
        after = self.after + more.after
        if not more.events and after:
            after = (*after[:-1], more.room)
        return RoomProgress(more.room, self.events + more.events, after)

    def or_nothing(self, before: Room) -> RoomProgress:
        """This progress if it told anything, else ``before`` as it was: a command that
        changes nothing anyone is told of changes nothing at all (nothing is saved)."""
        return self if self.events else _told(before)


def _told(room: Room, *happened: events.AnyEvent) -> RoomProgress:
    """``room`` after ``happened``, each of which leaves it as it is."""
    return RoomProgress(room, happened, (room,) * len(happened))


def _by(event: events.PlayEvent, by: str | None) -> events.PlayEvent:
    """``event`` marked as made for its seat ``by`` the clock, a bot or the host."""
    if by is None or not isinstance(
        event, events.Rolled | events.Held | events.Scored | events.Left
    ):
        return event
    return msgspec.structs.replace(event, by=events.By(by))


def _same_name(taken: str, name: str) -> bool:
    return taken == name


def check_turn_seconds(value: object) -> int | None:
    """``value`` as a room's clock: ``None`` (no clock) or whole seconds in range.

    Raises :class:`RoomError` (``invalid_turn_seconds``) otherwise.
    """
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise RoomError(
            "turn_seconds is null (no clock) or a whole number of seconds",
            code="invalid_turn_seconds",
        )
    if not TURN_SECONDS_MIN <= value <= TURN_SECONDS_MAX:
        raise RoomError(
            f"a turn lasts {TURN_SECONDS_MIN} to {TURN_SECONDS_MAX} seconds (or null: no clock)",
            code="invalid_turn_seconds",
        )
    return value


def check_show_odds(show: object) -> bool:
    """``show`` as whether the players see the odds, or ``invalid_show_odds``."""
    if not isinstance(show, bool):
        raise RoomError("say whether players see the odds: true or false", code="invalid_show_odds")
    return show


def check_bot_pace(pace: object) -> events.BotPace:
    """``pace`` as the bots' pace, one of :data:`BOT_PACES`, or ``invalid_bot_pace``."""
    if not isinstance(pace, str) or pace not in BOT_PACES:
        raise RoomError(f"the bots' pace is one of {', '.join(BOT_PACES)}", code="invalid_bot_pace")
    return events.BotPace(pace)


def _seat_number(seat: object, what: str) -> int:
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RoomError(f"name the {what}'s seat (a whole number)", code="invalid_message")
    return seat


@dataclass(frozen=True)
class Room:
    """A game room from its lobby to its end: who sits where, who hosts, the host's options,
    and the rules' game once it has started.

    Start one with :meth:`create`. Seats are numbered from 0 in the order people sat
    down; in the lobby a seat freed lets the seats after it move up, and once the game
    starts the seats stay as they are (a seat that left is in :attr:`Game.left
    <games.engine.rules.Game.left>`).
    """

    rules: Rules
    #: How many may sit down (1 to 6).
    seats: int
    seated: tuple[Seat, ...] = ()
    #: The host's seat: the first person to sit down, until they leave the lobby.
    host: int | None = None
    options: Options = Options()
    status: Status = Status.LOBBY
    #: The rules' game, from the start; ``None`` in the lobby.
    game: Game | None = None
    #: The invite code of the finished game this room is the rematch of.
    rematch_of: str | None = None
    #: The invite code of this room's rematch, once a player opened it.
    rematch: str | None = None

    # -- what the room holds ------------------------------------------------

    @property
    def preset(self) -> str:
        """The rules preset's name (``official`` or ``free_joker``)."""
        return self.rules.name

    @property
    def players(self) -> tuple[str, ...]:
        """The seated names, in seat order."""
        return tuple(seat.name for seat in self.seated)

    def has_left(self, seat: int) -> bool:
        """Whether ``seat`` left the game in play (a seat left in the lobby is gone)."""
        return self.game is not None and seat in self.game.left

    def people_present(self) -> tuple[int, ...]:
        """The seats of people still playing for themselves: not bots, not gone, not away."""
        return tuple(
            i
            for i, seat in enumerate(self.seated)
            if seat.bot is None and not self.has_left(i) and not seat.stood_in
        )

    def bot_on_turn(self) -> bool:
        """Whether a bot plays the turn in play: a bot's seat, or a bot standing in for an
        away person while someone is still at the table to play with (else the game waits)."""
        seat = self.game.on_turn if self.game is not None else None
        if seat is None:
            return False
        sitting = self.seated[seat]
        return sitting.bot is not None or (sitting.stood_in and bool(self.people_present()))

    # -- the lobby ------------------------------------------------------------

    @classmethod
    def create(
        cls,
        preset: str,
        seats: int,
        *,
        coach: bool | None = None,
        bot_pace: object = "natural",
        show_odds: object = False,
        turn_seconds: object = None,
        rematch_of: str | None = None,
    ) -> RoomProgress:
        """A new room in its lobby, nobody seated.

        The coach is on by default in a solo room and off otherwise; a solo room has no
        turn clock (nobody waits for its player), whatever ``turn_seconds`` says.
        """
        rules = get_rules(preset)  # Raises unknown_rules.
        pace = check_bot_pace(bot_pace)
        show_odds = check_show_odds(show_odds)
        if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= MAX_PLAYERS:
            raise RoomError(f"a game has 1 to {MAX_PLAYERS} seats", code="invalid_seats")
        clock = check_turn_seconds(turn_seconds) if seats > 1 else None
        on = seats == 1 if coach is None else bool(coach)
        room = cls(rules, seats, options=Options(on, pace, show_odds, clock), rematch_of=rematch_of)
        created = events.Created(
            preset=rules.name,
            seats=seats,
            coach=on,
            rematch_of=rematch_of,
            bot_pace=pace,
            show_odds=show_odds,
            turn_seconds=clock,
        )
        return _told(room, created)

    def join(
        self,
        name: str,
        *,
        bot: str | None = None,
        clash: NameClash | None = _same_name,
        host: bool | None = None,
    ) -> RoomProgress:
        """``name`` (a bot of level ``bot``) takes the next seat; the first person is the host
        (in a rematch whose first seats are bots, the first person after them).

        ``clash`` says whether two names are too alike to share the room (``None``: the
        names were checked already, as in a replayed log). ``host``: whether the seat is the
        host's, as a replayed log says (a rematch saved before the first person after its
        bots was made host has none).
        """
        if self.status is not Status.LOBBY:
            raise RoomError("the game has started: you are watching it", code="game_started")
        if len(self.seated) >= self.seats:
            raise RoomError("every seat is taken: you are watching the game", code="game_full")
        if clash is not None and any(clash(seat.name, name) for seat in self.seated):
            raise RoomError(
                f"someone here is already called {name}, or a name that looks the same",
                code="name_taken",
            )
        seat, level = len(self.seated), events.BotLevel(bot) if bot is not None else None
        is_host = self.host is None and level is None if host is None else host
        room = dataclasses.replace(
            self, seated=(*self.seated, Seat(name, level)), host=seat if is_host else self.host
        )
        return _told(room, events.Joined(seat=seat, name=name, host=is_host, bot=level))

    def add_bot(self, seat: int, level: object, *, clash: NameClash = _same_name) -> RoomProgress:
        """The host (``seat``) seats a bot of ``level`` in the next seat, under the first of
        its names (``Optimal bot``, ``Optimal bot 2``...) that is free."""
        if not isinstance(level, str) or level not in BOT_NAMES:
            raise RoomError(f"a bot is one of {', '.join(BOT_NAMES)}", code="invalid_bot")
        bot = events.BotLevel(level)
        acted = self._host(seat, "seat a bot")
        room = acted.room
        if room.game is not None:
            raise RoomError("bots take their seats before the game starts", code="game_started")
        if len(room.seated) >= room.seats:
            raise RoomError("every seat is taken", code="game_full")
        name, number = BOT_NAMES[bot], 1
        while any(clash(taken.name, name) for taken in room.seated):
            number += 1
            name = f"{BOT_NAMES[bot]} {number}"
        return acted.then(room.join(name, bot=bot, clash=None))

    def remove_bot(self, seat: int, bot_seat: object) -> RoomProgress:
        """The host (``seat``) takes the bot in ``bot_seat`` off the table before the start."""
        gone = _seat_number(bot_seat, "bot")
        acted = self._host(seat, "take a bot off its seat")
        room = acted.room
        if room.game is not None:
            raise RoomError("bots keep their seats once the game starts", code="game_started")
        if not 0 <= gone < len(room.seated) or room.seated[gone].bot is None:
            raise RoomError(f"no bot sits in seat {gone}", code="not_a_bot")
        return acted.then(room._unseat(gone))

    def leave(self, seat: int) -> RoomProgress:
        """``seat`` gives up its seat.

        In the lobby the seat is freed, the seats after it move up one, and the host's
        role passes on (to a person first) if the host left. In play the seat leaves the
        game: its turns are skipped and its card stands. Bots play on only while a person
        is at the table: when the last one goes, so do they (until the game is over).
        """
        progress = self.acting(seat, returning=False)
        room = progress.room
        if room.game is None:
            progress = progress.then(room._unseat(seat))
            while progress.room.seated and all(s.bot for s in progress.room.seated):
                progress = progress.then(progress.room._unseat(len(progress.room.seated) - 1))
            return progress
        room._in_play()
        leaving = [seat]
        if not any(
            i != seat and s.bot is None and not room.has_left(i) for i, s in enumerate(room.seated)
        ):
            leaving += [i for i, s in enumerate(room.seated) if s.bot and not room.has_left(i)]
        for gone in leaving:
            game = progress.room._in_play()
            progress = progress.then(progress.room._played(game.leave(gone)))
            if progress.room.status is not Status.PLAYING:
                break  # The last seat with boxes to fill left: nothing is left to leave.
        return progress

    def start(self, seat: int) -> RoomProgress:
        """The host (``seat``) starts the game with the seated players.

        With one player, play starts at once; otherwise the roll-off decides who starts:
        the server throws it with :meth:`throw_roll_off` until one seat wins it.
        """
        acted = self._host(seat, "start the game")
        room = acted.room
        if room.game is not None:
            raise RoomError("the game has already started", code="already_started")
        game = Game.new(len(room.seated), room.rules)
        started = dataclasses.replace(room, status=Status.PLAYING, game=game)
        return acted.then(_told(started, events.Started(players=room.players, first=game.current)))

    def throw_roll_off(self, dice_by_seat: Mapping[int, Iterable[int]]) -> RoomProgress:
        """One round of the roll-off, with the dice each contender threw."""
        return self._played(self._in_play().throw_roll_off(dice_by_seat))

    def rematch_room(self, code: str) -> RoomProgress:
        """The rematch of this room, whose invite code is ``code``: a new lobby with the same
        rules, seats and options, and everyone who stayed to the end seated again in order
        (bots too, under their names)."""
        options = self.options
        progress = Room.create(
            self.preset,
            self.seats,
            coach=options.coach,
            bot_pace=options.bot_pace,
            show_odds=options.show_odds,
            turn_seconds=options.turn_seconds,
            rematch_of=code,
        )
        for i, seat in enumerate(self.seated):
            if not self.has_left(i):
                progress = progress.then(progress.room.join(seat.name, bot=seat.bot, clash=None))
        return progress

    # -- play -----------------------------------------------------------------

    def roll(
        self, seat: int, fresh: Iterable[int], hold: Iterable[int] = (), *, by: str | None = None
    ) -> RoomProgress:
        """``seat`` keeps the dice at ``hold`` and throws the rest, which land as ``fresh``
        (the server throws ``game.turn.to_throw(hold)`` dice). ``by``: who rolls for the seat
        if not its own player (:data:`~games.engine.events.BY_CLOCK`,
        :data:`~games.engine.events.BY_BOT`)."""
        return self._move(seat, by, lambda game: game.roll(seat, fresh, hold))

    def to_throw(self, seat: int, hold: Iterable[int] = (), *, by: str | None = None) -> int:
        """How many fresh dice ``seat``'s :meth:`roll` keeping ``hold`` needs: the server
        throws them. Refused as that roll would be, before any die is thrown."""
        game = self.acting(seat, by=by).room._in_play()
        if game.on_turn != seat:
            game.roll(seat, (), hold)  # Raises not_your_turn, roll_off_pending.
        return game.turn.to_throw(hold)

    def hold(self, seat: int, hold: Iterable[int], *, by: str | None = None) -> RoomProgress:
        """``seat`` shows the dice (positions 0 to 4) it means to keep for its next roll."""
        return self._move(seat, by, lambda game: game.hold(seat, hold))

    def score(self, seat: int, category: Category | str, *, by: str | None = None) -> RoomProgress:
        """``seat`` writes the dice in ``category``; the turn passes on.

        Written by the clock (``by`` :data:`~games.engine.events.BY_CLOCK`), it ends a turn the
        clock played for the seat: after :data:`AWAY_AFTER` such turns in a row the seat is
        away (:class:`~games.engine.events.WentAway`), unless the game is over.
        """
        return self._move(seat, by, lambda game: game.score(seat, category))

    def _move(
        self, seat: int, by: str | None, move: Callable[[Game], Progress], *, logged: bool = False
    ) -> RoomProgress:
        """``seat``'s ``move`` of play, made ``by`` someone else for it or by its own player;
        ``logged``: replayed from the log (see :meth:`acting`)."""
        acted = self.acting(seat, by=by, logged=logged)
        progress = acted.then(acted.room._played(move(acted.room._in_play()), by))
        if by != events.BY_CLOCK or not isinstance(progress.events[-1], events.Scored):
            return progress
        room = progress.room
        sitting = room.seated[seat]
        counted = dataclasses.replace(sitting, ran_out=sitting.ran_out + 1)
        goes_away = not counted.away and counted.ran_out >= AWAY_AFTER
        if not goes_away or room.status is not Status.PLAYING:
            return progress.then(RoomProgress(room._with(seat, counted), (), ()))
        away = room._with(seat, dataclasses.replace(counted, away=True))
        return progress.then(_told(away, events.WentAway(seat=seat, name=sitting.name)))

    # -- the host's options and the table's talk --------------------------------

    def set_coach(self, seat: int, on: object) -> RoomProgress:
        """The host (``seat``) turns the coach on or off, in the lobby or in play. Already so:
        nothing happens."""
        if not isinstance(on, bool):
            raise RoomError("say whether the coach is on: true or false", code="invalid_message")
        acted = self._host(seat, "change the coach")
        room = acted.room
        if room.status is Status.FINISHED:
            raise IllegalMoveError("the game is over", code="game_over")
        if room.options.coach == on:
            return acted.or_nothing(self)
        options = dataclasses.replace(room.options, coach=on)
        switched = dataclasses.replace(room, options=options)
        name = room.seated[seat].name
        return acted.then(_told(switched, events.CoachSwitched(on=on, seat=seat, name=name)))

    def set_bot_pace(self, seat: int, pace: object) -> RoomProgress:
        """The host (``seat``) sets how long the bots take over their moves. Already so:
        nothing happens."""
        chosen = check_bot_pace(pace)
        return self._set_option(
            seat,
            "change the bots' pace",
            dataclasses.replace(self.options, bot_pace=chosen),
            lambda name: events.BotPaceSet(pace=chosen, seat=seat, name=name),
        )

    def set_show_odds(self, seat: int, show: object) -> RoomProgress:
        """The host (``seat``) chooses whether the players see each seat's chance to win, in
        the lobby or in play (watchers always do). Already so: nothing happens."""
        chosen = check_show_odds(show)
        return self._set_option(
            seat,
            "change who sees the chances",
            dataclasses.replace(self.options, show_odds=chosen),
            lambda name: events.OddsShown(show=chosen, seat=seat, name=name),
        )

    def _set_option(
        self, seat: int, doing: str, options: Options, told: Callable[[str], events.AnyEvent]
    ) -> RoomProgress:
        """The host (``seat``, ``doing`` it) sets the room's ``options``, told by ``told`` of
        the host's name; refused once the game is over, and nothing when already so."""
        acted = self._host(seat, doing)
        room = acted.room
        if room.status in (Status.FINISHED, Status.ABANDONED):
            raise IllegalMoveError("the game is over", code="game_over")
        if room.options == options:
            return acted.or_nothing(self)
        changed = dataclasses.replace(room, options=options)
        return acted.then(_told(changed, told(room.seated[seat].name)))

    def chat(self, seat: int, text: str) -> RoomProgress:
        """``seat`` says ``text`` (checked and stripped by the server) to the table."""
        acted = self.acting(seat)
        name = acted.room.seated[seat].name
        return acted.then(_told(acted.room, events.Chat(seat=seat, name=name, text=text)))

    def open_rematch(self, seat: int, code: str) -> RoomProgress:
        """``seat`` opens the finished game's rematch, the room ``code``
        (:meth:`rematch_room`). Opened already: nothing more happens."""
        acted = self.acting(seat)
        room = acted.room
        if room.status is not Status.FINISHED:
            raise RoomError("a rematch can start once the game is over", code="not_finished")
        if room.rematch is not None:
            return acted.or_nothing(self)
        opened = dataclasses.replace(room, rematch=code)
        name = room.seated[seat].name
        return acted.then(_told(opened, events.RematchOpened(code=code, seat=seat, name=name)))

    # -- players who are away ---------------------------------------------------

    def come_back(self, seat: int) -> RoomProgress:
        """The away player of ``seat`` is back: their turns wait for them again. (Any command
        of theirs does the same; this one does only that.)"""
        acted = self.acting(seat)
        if not acted.events:
            raise RoomError("you are not away: the game waits for your turns", code="not_away")
        return acted

    def hand_to_bot(self, seat: int, other: object, *, connected: bool = False) -> RoomProgress:
        """The host (``seat``) hands ``other``'s seat to a bot for the rest of the game.

        ``other`` must be another person in the game in play who is away or has no live
        connection (``connected``, the server's to say): nobody is put out while playing.
        """
        acted, gone = self._host_over(seat, other, connected, "hand a seat to a bot")
        room = acted.room
        sitting = room.seated[gone]
        handed = room._with(gone, dataclasses.replace(sitting, handed=True, away=False))
        told = events.Handed(seat=gone, name=sitting.name, host=seat)
        return acted.then(_told(handed, told))

    def remove_player(self, seat: int, other: object, *, connected: bool = False) -> RoomProgress:
        """The host (``seat``) takes ``other`` (as for :meth:`hand_to_bot`) out of the game;
        their card stands."""
        acted, gone = self._host_over(seat, other, connected, "remove a player")
        game = acted.room._in_play()
        return acted.then(acted.room._played(game.leave(gone), events.BY_HOST))

    def abandon(self) -> RoomProgress:
        """Nobody played for a long while: the game ends unfinished, as it stands."""
        self._in_play()
        return _told(dataclasses.replace(self, status=Status.ABANDONED), events.Abandoned())

    # -- replay -----------------------------------------------------------------

    def apply(self, event: events.AnyEvent) -> RoomProgress:
        """The command ``event`` records, given again: a roll with the logged dice, a score in
        the logged box, a chat with the logged text, by the logged seat.

        Its first event is the one the log should hold; the rest are the log's next ones.
        The names were checked, and the connections looked at, when it happened. Raises
        :class:`RoomError` (``does_not_follow``) for an event no command begins with.
        """
        match event:
            case events.Joined(name=name, bot=bot, host=host):
                return self.join(name, bot=bot, clash=None, host=host)
            case events.Unseated(seat=seat) if self._is_bot(seat):
                return self.remove_bot(self._host_seat(), seat)
            case events.Unseated(seat=seat) | events.Left(seat=seat, by=None):
                return self.leave(seat)
            case events.Left(seat=seat, by=events.BY_HOST):
                return self.remove_player(self._host_seat(), seat)
            case events.Started():
                return self.start(self._host_seat())
            case events.RollOffThrown(throws=throws):
                return self.throw_roll_off(dict(throws))
            case events.Rolled(seat=seat, dice=dice, held=held, by=by):
                fresh = [face for i, face in enumerate(dice) if i not in held]
                return self._move(seat, by, lambda game: game.roll(seat, fresh, held), logged=True)
            case events.Held(seat=seat, held=held, by=by):
                return self._move(seat, by, lambda game: game.hold(seat, held), logged=True)
            case events.Scored(seat=seat, category=category, by=by):
                return self._move(seat, by, lambda game: game.score(seat, category), logged=True)
            case events.Chat(seat=seat, text=text):
                return self.chat(seat, text)
            case events.CoachSwitched(seat=seat, on=on):
                return self.set_coach(seat, on)
            case events.BotPaceSet(seat=seat, pace=pace):
                return self.set_bot_pace(seat, pace)
            case events.OddsShown(seat=seat, show=show):
                return self.set_show_odds(seat, show)
            case events.RematchOpened(seat=seat, code=code):
                return self.open_rematch(seat, code)
            case events.CameBack(seat=seat):
                return self.come_back(seat)
            case events.Handed(seat=seat, host=host):
                return self.hand_to_bot(host, seat)
            case events.Abandoned():
                return self.abandon()
        raise RoomError(f"{event.kind!r} does not follow a command", code="does_not_follow")

    # -- helpers ----------------------------------------------------------------

    def _is_bot(self, seat: int) -> bool:
        return 0 <= seat < len(self.seated) and self.seated[seat].bot is not None

    def _host_seat(self) -> int:
        if self.host is None:
            raise RoomError("the room has no host", code="not_host")
        return self.host

    def _with(self, seat: int, sitting: Seat) -> Room:
        seated = (*self.seated[:seat], sitting, *self.seated[seat + 1 :])
        return dataclasses.replace(self, seated=seated)

    def acting(
        self, seat: int, *, by: str | None = None, returning: bool = True, logged: bool = False
    ) -> RoomProgress:
        """The room once ``seat`` gives a command, or its refusal.

        A command of the seat's own player (``by`` is ``None``) is a person at the table:
        the clock's count for the seat starts again, and an away player is back (a
        :class:`~games.engine.events.CameBack`), unless ``returning`` is false (leaving is not
        coming back). A bot may play for the seat (``by`` :data:`~games.engine.events.BY_BOT`)
        only while a bot stands in for it; a seat handed to a bot is the bot's alone. A move
        replayed from the log (``logged``) is taken as made by whom the log says: the server
        checked it when it was made.
        """
        if not 0 <= seat < len(self.seated):
            raise RoomError(
                "only players in this game can do that; you are watching", code="not_a_player"
            )
        if self.has_left(seat):
            raise RoomError("you have left this game", code="not_a_player")
        sitting = self.seated[seat]
        if by == events.BY_BOT and not sitting.stood_in and not logged:
            raise RoomError(f"{sitting.name} is playing for themselves", code="not_away")
        if by is None and sitting.handed:
            raise RoomError(
                "the host handed your seat to a bot for this game", code="handed_to_bot"
            )
        if by is not None or sitting.bot is not None or not returning:
            return _told(self)
        if not sitting.away and not sitting.ran_out:
            return _told(self)  # Nothing to start again: the same room.
        room = self._with(seat, dataclasses.replace(sitting, away=False, ran_out=0))
        if sitting.away:
            return _told(room, events.CameBack(seat=seat, name=sitting.name))
        return _told(room)

    def _host(self, seat: int, doing: str) -> RoomProgress:
        acted = self.acting(seat)
        if seat != self.host:
            raise RoomError(f"only the host can {doing}", code="not_host")
        return acted

    def _host_over(
        self, seat: int, other: object, connected: bool, doing: str
    ) -> tuple[RoomProgress, int]:
        """The host's command over ``other``, another person in the game in play who is away
        or not connected; and ``other``'s seat."""
        gone = _seat_number(other, "player")
        acted = self._host(seat, doing)
        room = acted.room
        room._in_play()
        if (
            not 0 <= gone < len(room.seated)
            or gone == seat
            or room.seated[gone].bot is not None
            or room.has_left(gone)
        ):
            raise RoomError(f"seat {gone} is not another person in this game", code="not_a_player")
        sitting = room.seated[gone]
        if sitting.handed:
            raise RoomError(f"a bot already plays {sitting.name}'s seat", code="handed_to_bot")
        if connected and not sitting.stood_in:
            raise RoomError(
                f"{sitting.name} is here and playing: only an away player can be",
                code="not_away",
            )
        return acted, gone

    def _in_play(self) -> Game:
        """The game in play; refused in the lobby and once it is over."""
        if self.game is None:
            raise RoomError("the game has not started yet", code="not_started")
        if self.game.is_over:
            raise IllegalMoveError("the game is over", code="game_over")
        if self.status is Status.ABANDONED:
            raise IllegalMoveError("the game is over: it was abandoned", code="game_over")
        return self.game

    def _played(self, progress: Progress, by: str | None = None) -> RoomProgress:
        """The room with the rules' new game, and its events, the command's own marked ``by``."""
        made, *more = progress.events
        told = (_by(made, by), *more)
        playing = dataclasses.replace(self, game=progress.game)
        if not progress.game.is_over:
            return _told(playing, *told)
        over = dataclasses.replace(playing, status=Status.FINISHED)
        after = tuple(over if isinstance(e, events.Finished) else playing for e in told)
        return RoomProgress(over, told, after)

    def _unseat(self, seat: int) -> RoomProgress:
        """Free ``seat`` in the lobby: the seats after it move up, the host passes on."""
        gone = self.seated[seat]
        seated = (*self.seated[:seat], *self.seated[seat + 1 :])
        host = self.host
        if host is not None and host > seat:
            host -= 1
        elif host == seat:
            host = None
        if host is None and seated:
            host = next((i for i, s in enumerate(seated) if s.bot is None), 0)  # A person first.
        room = dataclasses.replace(self, seated=seated, host=host)
        return _told(room, events.Unseated(seat=seat, name=gone.name, host=host))
