"""The commands of a game, applied on the server: one function per command.

Every command goes through one pipeline, :func:`_command`: in one short
transaction it locks the game's row (``select_for_update`` on PostgreSQL; on
SQLite every write transaction takes the database's write lock when it
begins), loads the saved game, lets the command apply the rules engine, and
:func:`_save` appends the events to the log with the next sequence numbers,
saves the new record, and, once the transaction has committed, hands the
messages for the room and any bot now on turn to :mod:`games.live.outbox`. So
nobody is told of a change that was rolled back, and a command is a few lines
on top of the pipeline.

Errors are :class:`CommandError` (or the rules engine's
:class:`~games.engine.rules.RuleError`); both carry a stable ``code`` for clients.
Nothing is written when a command fails.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.db.models import QuerySet

from games.engine import codec, events, names, rules
from games.engine.room import Options, Room, RoomError, RoomProgress, Seat, Status, check_bot_pace
from games.live import clock, dice, heartbeat, limits, outbox, store
from games.models import NAME_MAX_LENGTH, Connection, Game, GameEvent, Player, new_invite_code
from games.strategy import policies
from games.strategy.policies import Move
from games.wire import presentation

CHAT_MAX_LENGTH = 500
#: Events a snapshot carries, so a page can show what just happened.
RECENT_EVENTS = 50
#: What a command may change on the game's row (presence counts are kept apart).
R = TypeVar("R")
SAVED_FIELDS = [
    "status",
    "started_at",
    "finished_at",
    "version",
    "state_version",
    "record",
    "coach",
    "bot_pace",
    "deadline",
    "wake_at",
    "acted_at",
    "attendance",
]


class CommandError(Exception):
    """A command the server refuses, with a stable ``code`` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# --------------------------------------------------------------------------
# The pipeline
# --------------------------------------------------------------------------


@dataclass
class Table:
    """A game as a command sees it: the row, its seats, the game in play, what happened."""

    game: Game
    #: The seats in seat order.
    players: list[Player]
    #: The rules engine's game, ``None`` in the lobby.
    state: rules.Game | None
    #: The events the command caused, in order, saved and broadcast by :func:`_save`.
    happened: list[events.AnyEvent] = field(default_factory=list)
    #: The game just after each event of play in :attr:`happened`, by its index there: a
    #: command may make several (the clock plays a whole turn), and each event's message
    #: shows the game as that event left it.
    after: dict[int, rules.Game] = field(default_factory=dict)
    #: The game in play as it was read (or last saved), before this command.
    before: rules.Game | None = None

    def __post_init__(self) -> None:
        if self.before is None:
            self.before = self.state

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.players]

    def has_left(self, player: Player) -> bool:
        """Whether ``player`` left the game in play (a seat left in the lobby is gone)."""
        return self.state is not None and player.seat in self.state.left

    @property
    def attendance(self) -> clock.Attendance:
        """Who plays which seat beside its player (saved on the game's row)."""
        return clock.Attendance.from_json(self.game.attendance)

    @attendance.setter
    def attendance(self, attendance: clock.Attendance) -> None:
        self.game.attendance = attendance.to_json()

    def room(self, *, links: bool = False) -> Room:
        """The room as the row, its seats and the game in play hold it (:mod:`games.engine.room`).

        With ``links``, the codes of the room's rematch and of the game it is the rematch
        of, read from their rows; else ``None`` (no command of the room needs them).
        """
        game, attendance = self.game, self.attendance
        rematch_of = game.rematch_of.code if links and game.rematch_of is not None else None
        return Room(
            rules=game.rules,
            seats=game.seats,
            seated=tuple(
                Seat(
                    p.name,
                    p.level,
                    away=p.seat in attendance.away,
                    handed=p.seat in attendance.handed,
                    ran_out=attendance.ran_out.get(p.seat, 0),
                )
                for p in self.players
            ),
            host=next((p.seat for p in self.players if p.is_host), None),
            options=Options(
                game.coach, events.BotPace(game.bot_pace), game.show_odds, game.turn_seconds
            ),
            status=Status(game.status),
            game=self.state,
            rematch_of=rematch_of,
            rematch=_rematch_code(game) if links else None,
        )

    def seat(self, player_id: int | None, as_seat: int | None = None) -> Player:
        """The seat ``player_id`` holds, still in the game; ``as_seat`` must be that seat.

        Who may do what from that seat is the room's to say (:meth:`decide`).
        """
        for player in self.players:
            if player.pk == player_id:
                if self.has_left(player):
                    raise CommandError("not_a_player", "you have left this game")
                if as_seat is not None and as_seat != player.seat:
                    raise CommandError("not_your_seat", "you can only act for your own seat")
                return player
        raise CommandError(
            "not_a_player", "only players in this game can do that; you are watching"
        )

    def decide(
        self,
        command: Callable[[Room], RoomProgress],
        *,
        acting: Player | None = None,
        owners: Iterable[tuple[str, int | None]] = (),
        links: bool = False,
    ) -> RoomProgress:
        """Apply the room ``command`` to this game's room (:meth:`room`, with ``links``) and
        :meth:`take` what it did.

        The room's refusals are :class:`CommandError`\\ s with the room's code.
        """
        with _room_refusals():
            progress = command(self.room(links=links))
        return self.take(progress, acting=acting, owners=owners)

    def take(
        self,
        progress: RoomProgress,
        *,
        acting: Player | None = None,
        owners: Iterable[tuple[str, int | None]] = (),
    ) -> RoomProgress:
        """Take what a room command did: its events to save, the game in play, the options,
        who is away, and the seats it freed or filled (each filled one belongs to the next
        browser session and account of ``owners``, or to nobody). A person ``acting`` means
        the game is not idle."""
        if acting is not None and not acting.bot:
            self.game.acted_at = clock.now()
        owner = iter(owners)
        for event, after in zip(progress.events, progress.after, strict=True):
            if isinstance(event, events.Joined):
                self.players.append(_seat_row(self.game, event, *next(owner, ("", None))))
            elif isinstance(event, events.Unseated):
                _free_seat_row(self.players, event)
            self.happened.append(event)
            if after.game is not None:
                self.after[len(self.happened) - 1] = after.game
        room = progress.room
        self.state = room.game
        self.game.coach, self.game.bot_pace = room.options.coach, room.options.bot_pace
        self.attendance = clock.Attendance.of(room.seated)
        return progress

    def player(
        self,
        player_id: int | None,
        as_seat: int | None = None,
        *,
        by: str | None = None,
        returning: bool = True,
    ) -> Player:
        """The seat ``player_id`` holds, still in the game, for a question of that seat (the
        coach's, the odds'); ``as_seat`` must be that seat, and the room must let the seat
        act (:meth:`games.engine.room.Room.acting`: an away player asking is back).
        """
        player = self.seat(player_id, as_seat)
        self.decide(
            lambda room: room.acting(player.seat, by=by, returning=returning),
            acting=_person(player, by),
        )
        return player

    def in_play(self) -> rules.Game:
        """The game in play; refused in the lobby and once it is over."""
        if self.state is None:
            raise CommandError("not_started", "the game has not started yet")
        if self.state.is_over:
            raise rules.IllegalMoveError("the game is over", code="game_over")
        if self.game.status == Game.Status.ABANDONED:
            raise rules.IllegalMoveError("the game is over: it was abandoned", code="game_over")
        return self.state

    def bot_on_turn(self) -> bool:
        """Whether a bot is on turn (a bot's seat, or a bot standing in for an away player):
        the one answer for the pipeline, the bots and a new socket."""
        return self.room().bot_on_turn()

    def copy(self) -> Table:
        """A copy to apply a command to, leaving this one as it was if the command fails."""
        return Table(copy.copy(self.game), list(self.players), self.state)


#: This process's copies of the games it moved last (:class:`games.live.store.Copies`).
copies = store.Copies()
#: How often a move is tried again when another process moved the game first.
MOVE_TRIES = 5
#: For a command that carries no version.
UNVERSIONED = object()


def _move(code: str, act: Callable[[Table], R], *, version: object = UNVERSIONED) -> R:
    """Apply ``act`` to game ``code`` and save what happened: the path of every move of play.

    A move changes no seat, only the game's record and its log, so it is saved in one
    statement that succeeds only if nobody moved the game since it was read
    (:func:`games.live.store.save_move`): no transaction and no row lock. It is applied to
    this process's copy of the game when there is one (no read at all), else to the
    game read afresh in one query. When the save finds the game moved on, or the copy
    refuses the move (it may be out of date), the game is read again and the move
    applied to that: a refusal is only ever answered from the game as it is saved.

    A command sent with the ``version`` of the game its sender saw is refused as
    ``stale`` if the play has changed since.
    """
    table = copies.get(code)
    for _ in range(MOVE_TRIES):
        fresh = table is None
        table = _load(code) if table is None else table.copy()
        try:
            if version is not UNVERSIONED:
                _check_version(table.game, version)
            result = act(table)
        except (CommandError, rules.RuleError):
            if fresh:
                raise
            table = None  # The copy may be out of date: ask the database.
            continue
        if _save(table, in_one_statement=True):
            return result
        table = None  # Another process moved the game first.
    raise CommandError("busy", "the game is changing too fast: try again")


@contextmanager
def _command(code: str, *, version: object = None, versioned: bool = False) -> Iterator[Table]:
    """Lock game ``code``, load it, let the block apply a command, then save what happened.

    For the commands that change the seats (join, leave, bots, rematch): they write
    several tables, so they take the row lock in a transaction. With ``versioned``,
    the command carries the ``version`` of the game its sender saw, and is refused
    as ``stale`` if the play has changed since.
    """
    with transaction.atomic():
        table = _load(code, lock=True)
        if versioned:
            _check_version(table.game, version)
        yield table
        _save(table)


def _load(code: str, *, lock: bool = False) -> Table:
    """The game and its seats: one query (two for a game without seats, or with the lock)."""
    players = [] if lock else list(Player.objects.filter(game__code=code).select_related("game"))
    if players:
        game = players[0].game
        for player in players:
            player.game = game  # One row, shared.
        return Table(game, players, game.state)
    games = Game.objects.select_for_update() if lock else Game.objects
    try:  # Locked, or a lobby everyone left.
        game = games.get(code=code)
    except Game.DoesNotExist:
        raise CommandError("no_such_game", "there is no game at this link") from None
    return Table(game, list(game.players.all()) if lock else [], game.state)


def _save(table: Table, *, in_one_statement: bool = False) -> bool:
    """Append what happened to the log, save the record, and tell the room once committed.

    ``in_one_statement``: save with :func:`games.live.store.save_move`, only if the game has
    not moved since the table was read; whether it was saved. Otherwise with the ORM,
    in the caller's transaction (which holds the row lock).
    """
    if not table.happened:
        return True
    game, state, now = table.game, table.state, clock.now()
    expected, deadline = game.version, game.deadline
    if state is not None:
        game.record = codec.encode_game(state)
        if game.status == Game.Status.LOBBY:
            game.status, game.started_at = Game.Status.PLAYING, now
        if state.is_over and game.status != Game.Status.FINISHED:
            game.status, game.finished_at = Game.Status.FINISHED, now
    came_back = any(
        isinstance(e, events.CameBack) and state is not None and e.seat == state.on_turn
        for e in table.happened
    )
    clock.schedule(game, table.room(), before=table.before, at=now, restart=came_back)
    rows = []
    for event in table.happened:
        game.version += 1
        if event.changes_play:
            game.state_version = game.version
        kind, payload = codec.encode_event(event)
        rows.append((game.version, kind, payload))
    if in_one_statement:
        if not store.save_move(game, expected, rows, now):
            return False
    else:
        game.save(update_fields=SAVED_FIELDS)
        GameEvent.objects.bulk_create(
            GameEvent(game=game, seq=seq, kind=kind, payload=payload, created_at=now)
            for seq, kind, payload in rows
        )
    names = table.names
    messages = [
        presentation.event_message(seq, e, now, names, table.after.get(i, state), facts=payload)
        for i, ((seq, _, payload), e) in enumerate(zip(rows, table.happened, strict=True))
    ]
    if game.deadline != deadline:  # The clock changed: the last message says how.
        messages[-1]["clock"] = clock.clock_json(game, state, now)
    bot = table.bot_on_turn()
    table.happened, table.after = [], {}
    kept = table.copy()
    code = game.code

    def committed() -> None:
        copies.put(code, kept)
        outbox.post(code, "game.event", messages, bot=bot)

    transaction.on_commit(committed)
    return True


def _check_version(game: Game, version: object) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise CommandError("invalid_message", "send the version of the game you last saw")
    if version < game.state_version or version > game.version:
        raise CommandError(
            "stale",
            f"the game has moved on (version {game.version}, you sent {version}): "
            "the command was not applied",
        )


# --------------------------------------------------------------------------
# Creating, joining and leaving
# --------------------------------------------------------------------------


def create_game(
    *,
    preset: str = rules.OFFICIAL.name,
    seats: int = rules.MAX_PLAYERS,
    host_name: str | None = None,
    session_key: str = "",
    user_id: int | None = None,
    coach: bool | None = None,
    turn_seconds: object = clock.DEFAULT_TURN_SECONDS,
    bot_pace: object = Game.BotPace.NATURAL,
    show_odds: object = False,
) -> tuple[Game, Player | None]:
    """A new room in its lobby; with ``host_name``, its creator takes seat 0 as host.

    The seat belongs to the browser's ``session_key``, and to the account ``user_id``
    when its creator is logged in. The coach is on by default in a solo room and
    off otherwise (the host can change it in the lobby: :func:`set_coach`). The turn
    clock is ``turn_seconds`` a turn (``None``: no clock; :mod:`games.live.clock`); a solo
    room has none, as nobody waits for its player. The bots take their time as
    ``bot_pace`` says (:func:`set_bot_pace`). With ``show_odds`` the players see each
    seat's chance to win as the game goes (watchers always do; :mod:`games.insight.chances`);
    it is chosen here, once.
    """
    with _room_refusals():  # Raises unknown_rules, invalid_bot_pace, invalid_seats...
        created = Room.create(
            preset,
            seats,
            coach=coach,
            bot_pace=bot_pace,
            show_odds=show_odds,
            turn_seconds=turn_seconds,
        )
    name = clean_name(host_name) if host_name is not None else None
    with transaction.atomic():
        table = _opened(created)
        if name is not None:
            table.decide(lambda room: room.join(name), owners=[(session_key, user_id)])
        _save(table)
    return table.game, table.players[0] if table.players else None


def join_game(code: str, name: str, *, session_key: str = "", user_id: int | None = None) -> Player:
    """Take the next free seat under ``name``.

    A browser session (or a logged-in account) that already has a seat here gets
    that seat back. A game that has started, or whose seats are full, refuses
    with ``game_started`` or ``game_full``: the caller watches instead.
    """
    name = clean_name(name)
    with _command(code) as table:
        for player in table.players:
            if _owns(player, session_key, user_id) and not table.has_left(player):
                return player
        table.decide(
            lambda room: room.join(name, clash=names.clash), owners=[(session_key, user_id)]
        )
        return table.players[-1]


def leave_game(code: str, player_id: int | None, *, as_seat: int | None = None) -> None:
    """Give up a seat.

    In the lobby the seat is freed, the seats after it move up one, and the
    host's role passes on if the host left. In play the seat is marked as left:
    its turns are skipped and its score stands. Bots play on only while a person
    is at the table: when the last one goes, so do they (:meth:`games.engine.room.Room.leave`).
    """
    with _command(code) as table:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.leave(player.seat), acting=player)


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------


def start_game(
    code: str, player_id: int | None, *, version: object, as_seat: int | None = None
) -> None:
    """The host starts the game: the server throws the roll-off until one seat wins it."""

    def start(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: _started(room, player.seat), acting=player)

    _move(code, start, version=version)


def _started(room: Room, host: int) -> RoomProgress:
    """``room`` started by ``host``, with the roll-off thrown until it is decided."""
    progress = room.start(host)
    game = progress.room.game
    while game is not None and game.phase is rules.Phase.ROLL_OFF:
        throws = {seat: dice.roll(rules.DICE_COUNT) for seat in game.roll_off.contenders}
        progress = progress.then(progress.room.throw_roll_off(throws))
        game = progress.room.game
    return progress


def roll(
    code: str,
    player_id: int | None,
    hold: Iterable[int] = (),
    *,
    version: object,
    as_seat: int | None = None,
    by: str | None = None,
) -> None:
    """The player on turn keeps the dice at positions ``hold`` (0 to 4) and throws the rest.

    ``by``: who rolls for the seat if not its own player (a bot for an away player).
    """
    kept = rules.parse_hold(hold)

    def throw(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: _rolled(room, player.seat, kept, by), acting=_person(player, by))

    _move(code, throw, version=version)


def _rolled(room: Room, seat: int, kept: frozenset[int], by: str | None) -> RoomProgress:
    """``seat`` keeps the dice at ``kept`` and throws the rest, if the room allows: the dice
    are thrown only then."""
    return room.roll(seat, dice.roll(room.to_throw(seat, kept, by=by)), kept, by=by)


def _person(player: Player, by: str | None) -> Player | None:
    """``player``, acting, if the command is their own (not one a bot or the clock made)."""
    return player if by is None else None


def hold(
    code: str,
    player_id: int | None,
    hold: Iterable[int],
    *,
    as_seat: int | None = None,
    by: str | None = None,
) -> None:
    """The player on turn shows which dice (positions 0 to 4) it means to keep for the next roll.

    It carries no version and makes no other command stale, like chat: a player
    clicking dice one after another must never be told the game has moved on. The
    next ``roll`` still names the dice it keeps.
    """
    kept = rules.parse_hold(hold)

    def show(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.hold(player.seat, kept, by=by), acting=_person(player, by))

    _move(code, show)


def score(
    code: str,
    player_id: int | None,
    category: str,
    *,
    version: object,
    as_seat: int | None = None,
    by: str | None = None,
) -> None:
    """The player on turn writes the dice in ``category``; the turn passes on."""
    box = rules.Category.parse(category)

    def write(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.score(player.seat, box, by=by), acting=_person(player, by))

    _move(code, write, version=version)


def chat_text(text: object) -> str:
    """A chat line as the room shows it, stripped; ``invalid_message`` if it holds no
    text, ``chat_too_long`` past :data:`CHAT_MAX_LENGTH` (the players' and the watchers' chat)."""
    if not isinstance(text, str) or not text.strip():
        raise CommandError("invalid_message", "chat needs some text")
    text = text.strip()
    if len(text) > CHAT_MAX_LENGTH:
        raise CommandError(
            "chat_too_long", f"chat messages are {CHAT_MAX_LENGTH} characters at most"
        )
    return text


def chat(code: str, player_id: int | None, text: object, *, as_seat: int | None = None) -> None:
    """A seated player says something to the room.

    Within limits, whichever of the seat's sockets it comes from: so many lines in a
    while (``chat_rate_limited``), a few once the game is over (``chat_closed``), and
    none once the game's log is full (``log_full``), so chat cannot grow a game without
    end. A refused line changes nothing in the game.
    """
    text = chat_text(text)
    # _move may apply say() again to a fresh copy of the game: the line is counted once.
    counted: list[CommandError | None] = []

    def say(table: Table) -> None:
        player = table.seat(player_id, as_seat)

        def said(room: Room) -> RoomProgress:
            progress = room.chat(player.seat, text)  # Raises handed_to_bot before any count.
            if table.game.version >= settings.LIMIT_LOG_EVENTS:
                raise CommandError("log_full", "this game's record is full: chat is closed")
            if not counted:
                counted.append(_count_chat(player, table.game.status))
            if counted[0] is not None:
                raise counted[0]
            return progress

        table.decide(said, acting=player)

    _move(code, say)


def _count_chat(player: Player, status: str) -> CommandError | None:
    """Count a line of ``player``'s chat against the limits; why it is refused, or ``None``."""
    wait = limits.hit("chat", str(player.pk), settings.LIMIT_CHAT_PER_SEAT)
    if wait:
        return CommandError(
            "chat_rate_limited", f"too many chat messages: wait {limits.wait_text(wait)}"
        )
    over = status in (Game.Status.FINISHED, Game.Status.ABANDONED)
    allowance = settings.LIMIT_CHAT_AFTER_END
    seconds = settings.LIMIT_CHAT_AFTER_END_SECONDS
    if over and not limits.take("chat-after-end", str(player.pk), allowance, seconds=seconds):
        return CommandError("chat_closed", "the game is over and its chat is closed")
    return None


def rematch(code: str, player_id: int | None, *, as_seat: int | None = None) -> Game:
    """A player of a finished game opens a new room with the same players, seats and preset.

    Everyone who stayed to the end is seated again, in the same order, each seat
    held by the same browser session and account (or the same bot), so every
    player's browser is seated on arrival; the coach, the turn clock, the bots' pace and
    whether the players see the odds stay as they were. The old room is told with a
    ``rematch`` event naming the new room, and every browser still in it (watchers too)
    goes there. Asked again (two players clicking at once), it gives the same new room.
    """
    with _command(code) as table:
        player = table.seat(player_id, as_seat)  # Raises not_a_player for watchers.
        fresh_code = new_invite_code()
        opened = table.decide(
            lambda room: room.open_rematch(player.seat, fresh_code), acting=player, links=True
        )
        old = table.game
        if not any(isinstance(event, events.RematchOpened) for event in opened.events):
            rematch = Game.objects.get(rematch_of=old)  # Opened already: the same new room.
            return rematch
        stayed = [p for p in table.players if not table.has_left(p)]
        new = _opened(
            opened.room.rematch_room(old.code),
            owners=[(p.session_key, p.user_id) for p in stayed],
            code=fresh_code,
            rematch_of=old,
        )
        _save(new)
    return new.game


def _opened(
    created: RoomProgress,
    *,
    owners: Iterable[tuple[str, int | None]] = (),
    code: str | None = None,
    rematch_of: Game | None = None,
) -> Table:
    """The row of the room just ``created`` (with invite ``code``, or a fresh one), and its
    seats, each held by the next of ``owners``: the table to save."""
    room, options = created.room, created.room.options
    row = Game(
        preset=room.preset,
        seats=room.seats,
        coach=options.coach,
        turn_seconds=options.turn_seconds,
        bot_pace=options.bot_pace,
        show_odds=options.show_odds,
        rematch_of=rematch_of,
    )
    if code is not None:
        row.code = code
    row.save(force_insert=True)
    table = Table(row, [], None)
    table.take(created, owners=owners)
    return table


# --------------------------------------------------------------------------
# Room options: the coach and the bots
# --------------------------------------------------------------------------


def set_coach(code: str, player_id: int | None, on: object, *, as_seat: int | None = None) -> None:
    """The host turns the coach on or off (in the lobby, or during the game)."""
    if not isinstance(on, bool):  # Before the game is read: a malformed message.
        raise CommandError("invalid_message", "say whether the coach is on: true or false")

    def switch(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.set_coach(host.seat, on), acting=host)

    _move(code, switch)


def set_bot_pace(
    code: str, player_id: int | None, pace: object, *, as_seat: int | None = None
) -> None:
    """The host sets how long the bots take over their moves (in the lobby, or during the
    game): ``instant``, ``quick`` or ``natural`` (:func:`games.live.bots.pause`).

    Saved with the row lock and the ORM (a move's one statement does not write the
    pace): the event it appends moves the version on, so any process's copy of the
    game from before it is read again at its next move.
    """
    with _room_refusals():  # Before the game is read: a malformed message.
        chosen = check_bot_pace(pace)
    with _command(code) as table:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.set_bot_pace(host.seat, chosen), acting=host)


def add_bot(
    code: str, player_id: int | None, level: object, *, as_seat: int | None = None
) -> Player:
    """The host seats a bot of ``level`` (``optimal``, ``casual`` or ``win``) in the next empty
    seat."""
    with _command(code) as table:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.add_bot(host.seat, level, clash=names.clash), acting=host)
        return table.players[-1]


def remove_bot(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host takes the bot in seat ``seat`` off the table before the game starts."""
    with _command(code) as table:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.remove_bot(host.seat, seat), acting=host)


# --------------------------------------------------------------------------
# The turn clock, and players who are away (games/live/clock.py)
# --------------------------------------------------------------------------


def come_back(code: str, player_id: int | None, *, as_seat: int | None = None) -> None:
    """An away player is back ("I'm back"): their turns wait for them again.

    Any command of theirs does the same (:meth:`games.engine.room.Room.acting`); this one does only
    that.
    """

    def back(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.come_back(player.seat), acting=player)

    _move(code, back)


def remove_player(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host takes an away (or disconnected) player out of the game; their score stands."""
    with _command(code) as table:
        host, here = table.seat(player_id, as_seat), _connected_seat(table, seat)
        table.decide(lambda room: room.remove_player(host.seat, seat, connected=here), acting=host)


def hand_to_bot(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host hands an away (or disconnected) player's seat to a bot for the rest of the game."""
    with _command(code) as table:
        host, here = table.seat(player_id, as_seat), _connected_seat(table, seat)
        table.decide(lambda room: room.hand_to_bot(host.seat, seat, connected=here), acting=host)


def _connected_seat(table: Table, seat: object) -> bool:
    """Whether the seat ``seat`` of ``table`` has a live connection now."""
    other = next((p for p in table.players if p.seat == seat), None)
    return other is not None and other.pk in connected(table.game)[0]


def wake(code: str) -> None:
    """Do what is due in game ``code`` now that its ``wake_at`` has come: exactly once.

    What is due: the game is abandoned (nobody has played for too long); or the turn's
    deadline has passed, and the clock plays the rest of the turn for its player (the
    optimal strategy's rolls, then its box, each marked ``by: "clock"``), after which
    a seat the clock played :data:`~games.live.clock.AWAY_AFTER` turns in a row for is away;
    or a bot on turn has not moved (its server process stopped), and its driver is
    started again here.

    Exactly once, whichever processes wake the game and however often: this runs under
    the game's row lock (``select_for_update`` on PostgreSQL; SQLite's write lock) and
    acts only if ``wake_at`` has still come as read under that lock. Acting saves a new
    ``wake_at`` in the same transaction, so a second waker, which waits for the lock,
    then finds nothing due. A player's own move races it through the version: a move
    saved first gave the game a new deadline (nothing is due any more); a move made on
    the version before the wake-up is refused when it is saved
    (:func:`games.live.store.save_move`), and tried again on the game as the clock left it.
    """
    with _command(code) as table:
        game, state, at = table.game, table.state, clock.now()
        if game.wake_at is None or game.wake_at > at:
            return  # Woken elsewhere already, or a move moved the time on.
        if state is None or game.status != Game.Status.PLAYING:
            game.wake_at = None
            game.save(update_fields=["wake_at"])
            return
        if clock.abandoned_at(game, at) <= at:
            table.decide(lambda room: room.abandon())
            game.status, game.finished_at = Game.Status.ABANDONED, at
        elif game.deadline is not None and game.deadline <= at:
            _clock_plays(table)
        else:  # A bot on turn that should have moved: its driver stopped with its process.
            clock.schedule(game, table.room(), before=state, at=at)
            game.save(update_fields=["wake_at"])
            if table.bot_on_turn():
                transaction.on_commit(lambda: outbox.post(code, "game.event", [], bot=True))


def _clock_plays(table: Table) -> None:
    """The turn's time ran out: play the rest of it as the optimal strategy would."""
    position = table.in_play().position()
    assert position is not None  # A deadline runs only while a seat is on turn.
    optimal = events.BotLevel.OPTIMAL
    while not _clock_moves(table, position.seat, policies.choose(optimal, position)):
        position = table.in_play().position()
        assert position is not None


def _clock_moves(table: Table, seat: int, move: Move) -> bool:
    """The clock makes ``move`` for ``seat``; whether it ended the turn (a score, which the
    room counts: after enough of them in a row the seat is away)."""
    box, by = move.category, events.BY_CLOCK
    if box is not None:
        table.decide(lambda room: room.score(seat, box, by=by))
        return True
    kept = frozenset(move.hold)
    table.decide(lambda room: _rolled(room, seat, kept, by))
    return False


def coach_view(
    code: str, player_id: int | None, *, as_seat: int | None = None
) -> tuple[rules.Position, int, tuple[rules.Scorecard, ...], frozenset[int]]:
    """:func:`coach_position`, with every seat's card and the seats that left (the coach
    weighs the chance to win against them)."""
    position, version = coach_position(code, player_id, as_seat=as_seat)
    state = _load(code).in_play()
    return position, version, state.cards, state.left


def coach_position(
    code: str, player_id: int | None, *, as_seat: int | None = None
) -> tuple[rules.Position, int]:
    """What the coach looks at: the position of the player on turn, and the version of the
    play it is for.

    Refused when the coach is off (``coach_off``), to anyone but the player on turn
    (``not_your_turn``; watchers ``not_a_player``) and before the turn's first roll
    (``not_rolled``). The advice itself is :func:`games.insight.coach.advice`.
    """
    table = _load(code)  # One row: its record and its versions belong to one moment.
    player = table.player(player_id, as_seat)
    state = table.in_play()
    if not table.game.coach:
        raise CommandError("coach_off", "the coach is off in this room")
    position = state.position()
    if position is None or position.seat != player.seat:
        raise rules.IllegalMoveError("it is not your turn", code="not_your_turn")
    if not position.has_rolled:
        raise rules.IllegalMoveError("roll first: the coach looks at the dice", code="not_rolled")
    return position, table.game.state_version


def odds_game(
    code: str, player_id: int | None, version: object, *, as_seat: int | None = None
) -> tuple[rules.Game, int]:
    """What the chances to win are worked out from: the game as it stands, and the version
    of its play (the last event that changed it), for a connection that asked with the
    ``version`` it has seen.

    Watchers always may ask (and a player whose seat left the game, who watches now);
    a seated player only if the host chose so when the room opened (``odds_hidden``).
    Refused in the lobby (``not_started``), and when ``version`` is not one at which the
    play stood as it does now (``stale``: the asker has not seen the last move yet, and
    will ask again when it has). The chances themselves are
    :func:`games.insight.chances.odds_message`, the same for everyone at one version.
    """
    table = _load(code)  # One row: its record and its versions belong to one moment.
    seated = next((p for p in table.players if p.pk == player_id), None)
    if seated is not None and not table.has_left(seated):
        table.player(player_id, as_seat)  # Its own seat only.
        if not table.game.show_odds:
            raise CommandError(
                "odds_hidden",
                "in this room the players do not see who is likely to win (the host chose "
                "so when it opened); watchers do",
            )
    elif as_seat is not None:
        raise CommandError("not_your_seat", "a watcher acts for no seat")
    if table.state is None:
        raise CommandError("not_started", "the game has not started yet")
    game = table.game
    if isinstance(version, bool) or not isinstance(version, int):
        raise CommandError("invalid_message", "send the version of the game you last saw")
    if version < game.state_version:
        raise CommandError(
            "stale",
            f"the play has moved on since version {version} (its last move is version "
            f"{game.state_version}): ask again with the version of the last move you have seen",
        )
    if version > game.version:
        raise CommandError(
            "stale", f"the game is at version {game.version}; version {version} has not happened"
        )
    return table.state, game.state_version


# --------------------------------------------------------------------------
# Who is here
# --------------------------------------------------------------------------


def arrive(
    code: str, *, session_key: str = "", user_id: int | None = None
) -> tuple[int | None, int, str | None, dict[str, Any]]:
    """A new connection to the room: the id of its seat (``None`` to watch), the id of its
    row, the name it watches under (the first free ``Watcher N``; ``None`` for a seat),
    and the room's snapshot for it.

    The seat is the one this browser session took, or the one its logged-in
    account holds (taken in another browser). The connection's row makes it count
    for presence (:mod:`games.live.heartbeat`) and the room is told; a bot on turn with
    no driver (after a restart) is started again. One transaction, one trip to the
    database thread: in a burst of reconnections every socket makes one.
    """
    with transaction.atomic():
        table = _load(code, lock=True)  # Raises no_such_game. Presence leaves in order.
        player = _seat_of(table, session_key, user_id)
        player_id = player.pk if player else None
        others = list(_live(table.game).values_list("player_id", "name"))
        name = None
        if player_id is None:
            name = _free_watcher_name(table, [n for seat, n in others if seat is None and n])
        row = Connection.objects.create(
            game=table.game, player_id=player_id, name=name or "", seen_at=clock.now()
        )
        seats: list[int | None] = [seat for seat, _ in others]
        here = _tally([*seats, player_id])
        _tell_presence(table, here, bot=table.bot_on_turn())
        snapshot = _snapshot(table, player_id, here)
    return player_id, row.pk, name, snapshot


def resume(code: str, token: str, *, connection_id: int) -> tuple[int, dict[str, Any]]:
    """Take a seat back with its token (for clients without the browser's session): the
    seat's id, and the room's snapshot for it (one transaction, as :func:`arrive`)."""
    with transaction.atomic():
        table = _load(code, lock=True)
        player = None
        if isinstance(token, str) and token:
            player = next((p for p in table.players if p.token == token), None)
        if player is None or table.has_left(player):
            raise CommandError("invalid_token", "no seat in this game has that token")
        _connection_moves(table, connection_id, player.pk)
        return player.pk, _snapshot(table, player.pk, connected(table.game))


def seat_of(code: str, *, session_key: str = "", user_id: int | None = None) -> Player | None:
    """The seat in this game held by this browser session or this account, if any."""
    return _seat_of(_load(code), session_key, user_id)


def _seat_of(table: Table, session_key: str, user_id: int | None) -> Player | None:
    if not session_key and user_id is None:
        return None
    return next(
        (p for p in table.players if _owns(p, session_key, user_id) and not table.has_left(p)),
        None,
    )


def claim_guest_seats(old_session_key: str, new_session_key: str, user_id: int) -> int:
    """A guest who logs in or signs up keeps their seats, and their games join the account.

    Logging in gives the browser a new session key (Django cycles it against
    session fixation). The seats taken under the old key that no account holds
    yet become the account's, and the account's seats move to the new key. A
    seat another account holds stays where it is: that account reaches it. Returns
    how many games joined the account.
    """
    if not old_session_key:
        return 0
    with transaction.atomic():
        seats = Player.objects.filter(session_key=old_session_key)
        claimed = seats.filter(user__isnull=True).update(user_id=user_id)
        if new_session_key and new_session_key != old_session_key:
            seats.filter(user_id=user_id).update(session_key=new_session_key)
    return claimed


def disconnect(code: str, connection_id: int) -> None:
    """A connection closed: its row goes, and the room is told."""
    with transaction.atomic():
        table = _load(code, lock=True)
        Connection.objects.filter(pk=connection_id).delete()
        _tell_presence(table)


def move_connection(code: str, connection_id: int, player_id: int | None) -> None:
    """A connection that took a seat (``player_id``), or gave one up (``None``)."""
    with transaction.atomic():
        _connection_moves(_load(code, lock=True), connection_id, player_id)


def _connection_moves(table: Table, connection_id: int, player_id: int | None) -> None:
    """:func:`move_connection` in the caller's transaction, the game locked."""
    Connection.objects.filter(pk=connection_id).update(player_id=player_id, seen_at=clock.now())
    _tell_presence(table)


def tell_presence(code: str) -> None:
    """Tell the room who is here now (after the heartbeat swept or wrote back rows)."""
    with transaction.atomic():
        _tell_presence(_load(code, lock=True))


def _tell_presence(
    table: Table, here: tuple[set[int], int] | None = None, *, bot: bool = False
) -> None:
    """Once committed, tell the room who is ``here`` (read now if not given), and start its
    bot's driver if ``bot``."""
    message = presence(table.game, table.players, here)
    code = table.game.code
    transaction.on_commit(lambda: outbox.post(code, "game.presence", [message], bot=bot))


def connected(game: Game) -> tuple[set[int], int]:
    """The seats (player ids) with a live connection to ``game``, and how many watch."""
    return _tally(list(_live(game).values_list("player_id", flat=True)))


def _live(game: Game) -> QuerySet[Connection]:
    """The rows of the connections to ``game`` that are alive (:mod:`games.live.heartbeat`)."""
    return Connection.objects.filter(game=game, seen_at__gte=heartbeat.fresh_since())


def _tally(seats: list[int | None]) -> tuple[set[int], int]:
    """:func:`connected` from the seat of each live connection (``None``: it watches)."""
    return {seat for seat in seats if seat is not None}, sum(seat is None for seat in seats)


# --------------------------------------------------------------------------
# Watchers: a chat of their own
# --------------------------------------------------------------------------
#
# Watchers talk among themselves in the watchers' chat; players read it only if they
# choose to (a preference of each connection, kept by the consumer), so that people
# watching neither distract nor spoil the game. It is no event of the game: it is sent
# to the room's sockets and kept nowhere. Watchers are anonymous and unlimited in
# number: their talk is not part of the game's record, and kept in its log it could
# fill the log (LIMIT_LOG_EVENTS) and close the players' own chat.

#: A watcher's name until it chooses one: the first number free in the room.
WATCHER_DEFAULT_NAME = "Watcher {}"
#: The handler of the consumers that relay a line of the watchers' chat.
WATCHER_CHAT = "game.watcher_chat"


def watcher_name(code: str, connection_id: int, name: object = None) -> str:
    """The name the watching connection ``connection_id`` goes by in the watchers' chat.

    With ``name``, it takes that name (:func:`clean_name`), refused as ``name_taken``
    when a player of the game or another watcher here has it, or one that looks the
    same (:func:`games.engine.names.clash`). Without it, it keeps the name it has, unless a
    player now has one that looks the same (someone sat down under it): then, as when
    it has none yet, it gets the first free ``Watcher N``. So no watcher ever speaks
    under a player's name. Refused as ``not_a_watcher`` for a connection with a seat.
    Under the game's row lock, so two watchers never take the same name at once.
    """
    chosen = clean_name(name) if name is not None else None
    with transaction.atomic():
        table = _load(code, lock=True)
        return _name_watcher(table, _watching(table, connection_id), chosen)


def _name_watcher(table: Table, row: Connection, chosen: str | None = None) -> str:
    """:func:`watcher_name` for the watching connection ``row`` of ``table``'s game, locked."""
    players = [p.name for p in table.players]
    if chosen is None and row.name and not any(names.clash(p, row.name) for p in players):
        return row.name
    watchers = list(
        _live(table.game)
        .filter(player__isnull=True)
        .exclude(pk=row.pk)
        .exclude(name="")
        .values_list("name", flat=True)
    )
    if chosen is None:
        chosen = _free_watcher_name(table, watchers)
    elif any(names.clash(taken, chosen) for taken in players + watchers):
        raise CommandError(
            "name_taken", f"someone here is already called {chosen}, or a name that looks the same"
        )
    row.name = chosen
    row.save(update_fields=["name"])
    return chosen


def _free_watcher_name(table: Table, watchers: list[str]) -> str:
    """The first ``Watcher N`` that looks like no player's name of ``table`` nor ``watchers``."""
    taken = [p.name for p in table.players] + watchers
    number = 1
    while any(names.clash(name, WATCHER_DEFAULT_NAME.format(number)) for name in taken):
        number += 1
    return WATCHER_DEFAULT_NAME.format(number)


def check_seat(code: str, player_id: int | None, as_seat: int | None) -> None:
    """Refuse, as a command of a seat is refused, unless ``player_id`` holds a seat still in
    the game and ``as_seat`` is that seat (for a preference that changes nothing saved)."""
    _load(code).player(player_id, as_seat, returning=False)


def _watching(table: Table, connection_id: int) -> Connection:
    """The row of a connection to ``table``'s game that watches (it holds no seat)."""
    row = Connection.objects.filter(pk=connection_id, game=table.game).first()
    if row is None or row.player_id is not None:
        raise CommandError(
            "not_a_watcher",
            "the watchers' chat is for watchers: players talk in the players' chat",
        )
    return row


def watcher_chat(code: str, connection_id: int, text: object, *, sender: str) -> str:
    """The watcher ``connection_id`` says ``text`` in the watchers' chat; the name it said it
    under (:func:`watcher_name`: it may have changed).

    The line goes to every watcher of the room and to the players who read the watchers'
    chat; it is kept nowhere. Within limits: per ``sender`` (the watcher's browser
    session, else its socket) and per room, ``chat_rate_limited`` past either. The
    text is checked as the players' chat's (``invalid_message``, ``chat_too_long``).
    """
    text = chat_text(text)
    name = watcher_name(code, connection_id)  # Raises not_a_watcher, no_such_game.
    wait = limits.hit("watcher-chat", sender, settings.LIMIT_WATCHER_CHAT_PER_WATCHER)
    if wait:
        raise CommandError(
            "chat_rate_limited", f"too many chat messages: wait {limits.wait_text(wait)}"
        )
    wait = limits.hit("watcher-chat-room", code, settings.LIMIT_WATCHER_CHAT_PER_ROOM)
    if wait:
        raise CommandError(
            "chat_rate_limited",
            f"the watchers' chat is busy: wait {limits.wait_text(wait)} and say it again",
        )
    line = {"type": "watcher_message", "name": name, "text": text, "at": clock.now().isoformat()}
    outbox.post(code, WATCHER_CHAT, [line])
    return name


# --------------------------------------------------------------------------
# What clients see
# --------------------------------------------------------------------------


def snapshot(code: str, player_id: int | None = None) -> dict[str, Any]:
    """Everything a client needs to draw the room, as of ``version``.

    Its ``recent`` events carry their facts (and a name for a seat that left), not
    what a live event adds from the game after it: the snapshot has that as it is now.
    """
    table = _load(code)
    return _snapshot(table, player_id, connected(table.game))


def _snapshot(table: Table, player_id: int | None, here: tuple[set[int], int]) -> dict[str, Any]:
    """The snapshot of ``table`` for the seat ``player_id``, with who is ``here``
    (:func:`connected`)."""
    game, state = table.game, table.state
    you = next((p for p in table.players if p.pk == player_id), None)
    recent = reversed(game.events.order_by("-seq")[:RECENT_EVENTS])
    outcome = state.outcome() if state else None
    attendance = table.attendance
    seats, watchers = here
    return {
        "type": "snapshot",
        "version": game.version,
        "game": {**game_json(game), "round": state.round if state else None},
        "you": None if you is None else {"seat": you.seat, "name": you.name, "host": you.is_host},
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "host": p.is_host,
                "connected": _here(p, seats),
                "left": table.has_left(p),
                "bot": p.bot or None,
                "card": presentation.card_json(
                    state.cards[p.seat] if state else rules.Scorecard(game.rules)
                ),
                "place": outcome.places[p.seat] if outcome else None,
                "away": attendance.is_away(p.seat),
                "handed": p.seat in attendance.handed,
            }
            for p in table.players
        ],
        "watchers": watchers,
        "turn": presentation.turn_json(state),
        "clock": clock.clock_json(game, state, clock.now()),
        "roll_off": presentation.roll_off_json(state.roll_off) if state else None,
        "winners": list(outcome.winners) if outcome else [],
        "rematch": _rematch_code(game),
        "recent": [presentation.logged_message(_logged(e), table.names) for e in recent],
    }


def game_json(game: Game) -> dict[str, Any]:
    """A game room as clients and exports describe it: its code, rules, seats, status, times."""
    return {
        "code": game.code,
        "preset": game.preset,
        "preset_label": game.rules.label,
        "seats": game.seats,
        "coach": game.coach,
        "bot_pace": game.bot_pace,
        "show_odds": game.show_odds,
        "turn_seconds": game.turn_seconds,
        "status": game.status,
        "created_at": game.created_at.isoformat(),
        "started_at": game.started_at.isoformat() if game.started_at else None,
        "finished_at": game.finished_at.isoformat() if game.finished_at else None,
    }


def _rematch_code(game: Game) -> str | None:
    """The invite code of the game's rematch; only a finished game can have one."""
    if game.status != Game.Status.FINISHED:
        return None
    return Game.objects.filter(rematch_of=game).values_list("code", flat=True).first()


def presence(
    game: Game, players: Sequence[Player], here: tuple[set[int], int] | None = None
) -> dict[str, Any]:
    """Who is connected: each seat (a bot always is), and how many watch."""
    seats, watchers = here or connected(game)
    return {
        "type": "presence",
        "players": [{"seat": p.seat, "connected": _here(p, seats)} for p in players],
        "watchers": watchers,
    }


def _here(player: Player, seats: set[int]) -> bool:
    return bool(player.bot) or player.pk in seats


def log(code: str) -> list[events.Logged]:
    """The log of a game, in order: each event with its number and time."""
    return [_logged(row) for row in GameEvent.objects.filter(game__code=code).order_by("seq")]


def _logged(row: GameEvent) -> events.Logged:
    return events.Logged(row.seq, codec.decode_event(row.kind, row.payload), row.created_at)


def replay_events(code: str) -> list[events.AnyEvent]:
    """The events of a game's log, in order (:func:`games.engine.replay.replay` takes them)."""
    return [logged.event for logged in log(code)]


def rules_state(code: str) -> tuple[Game, list[Player], rules.Game | None]:
    """The saved game: its row, its seats, and the rules engine's game once started."""
    table = _load(code)
    return table.game, table.players, table.state


def table(code: str) -> Table:
    """The saved game as a command sees it, read without the lock (for reading only)."""
    return _load(code)


def clean_name(name: object) -> str:
    """A display name normalised (:func:`games.engine.names.check`), or ``invalid_name``.

    Refused: what is not text, empty, longer than ``NAME_MAX_LENGTH`` once
    normalised, or not all visible (control or invisible characters, marks only).
    """
    if not isinstance(name, str):
        raise CommandError("invalid_name", "a name is some text")
    try:
        name = names.check(name)
    except names.InvalidName as error:
        raise CommandError("invalid_name", str(error)) from None
    if len(name) > NAME_MAX_LENGTH:
        raise CommandError("invalid_name", f"a name is {NAME_MAX_LENGTH} characters at most")
    return name


# --------------------------------------------------------------------------
# Seats
# --------------------------------------------------------------------------


def _owns(player: Player, session_key: str, user_id: int | None) -> bool:
    """Whether the browser with this session (and this account, if logged in) holds the seat."""
    by_session = bool(session_key) and player.session_key == session_key
    return by_session or (user_id is not None and player.user_id == user_id)


def _seat_row(game: Game, joined: events.Joined, session_key: str, user_id: int | None) -> Player:
    """The row of the seat ``joined`` took, held by the browser ``session_key`` and the
    account ``user_id`` (a bot's by nobody)."""
    return Player.objects.create(
        game=game,
        seat=joined.seat,
        name=joined.name,
        is_host=joined.host,
        session_key=session_key,
        user_id=user_id,
        bot=joined.bot or "",
    )


def _free_seat_row(players: list[Player], unseated: events.Unseated) -> None:
    """Delete the row of the seat freed in the lobby; the seats after it move up, and the
    host is the one the room says."""
    gone = players.pop(unseated.seat)
    gone.delete()
    # One row at a time, lowest first, so no two seats are ever equal mid-way.
    for player in players[unseated.seat :]:
        player.seat -= 1
        player.save(update_fields=["seat"])
    for player in players:
        if player.is_host != (player.seat == unseated.host):
            player.is_host = player.seat == unseated.host
            player.save(update_fields=["is_host"])


@contextmanager
def _room_refusals() -> Iterator[None]:
    """The room's refusals (:class:`games.engine.room.RoomError`) as the services' own; the rules'
    (a finished game, not your turn) stay as they are."""
    try:
        yield
    except RoomError as error:
        raise CommandError(error.code, str(error)) from None
