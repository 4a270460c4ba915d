"""The one way a command changes a game: load, apply, save with its events, then tell.

Every command of a game (a move, a seat taken or freed, an option, a rematch, a
player away or back, the clock's turn, a bot's move) is a function that takes a
:class:`Table` and applies a command of its :class:`~games.engine.room.Room`
(:meth:`Table.decide`). :func:`run` does the rest, the same for all of them:

1. **Load** the game: this process's copy of it when it has one (no read at all,
   :data:`copies`), else the row, its seats and the room built from them, in one query.
2. **Apply** the command to the room: its new room and its events, or a refusal.
3. **Save** the new room with its events, only if the game is still at the version it
   was loaded at (:mod:`games.live.store`): one statement for a move; one short
   transaction when seats change too. The version is the lock: no row is locked
   while the command is applied.
4. **Tell** the room once committed: the messages are built once, from the events
   and the rooms they left, and handed to :mod:`games.live.outbox` with whether a bot
   is now on turn; the turn clock's deadline and wake-up time were saved with the
   row (:func:`games.live.clock.schedule`).

A save that finds the game moved on (another process saved first), and a refusal or
a command that changed nothing on a copy (which may be out of date), go back to step
1 with the game read afresh: a refusal is only ever answered from the game as it is
saved. That retry is here and nowhere else.

Errors are :class:`CommandError` (or the rules engine's
:class:`~games.engine.rules.RuleError`); both carry a stable ``code`` for clients.
Nothing is written when a command fails.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction

from games.engine import codec, events, rules
from games.engine.grid import Grid
from games.engine.room import Options, Room, RoomError, RoomProgress, Seat, Status
from games.live import clock, outbox, push, store
from games.models import Game, GameEvent, Player
from games.wire import presentation


class CommandError(Exception):
    """A command the server refuses, with a stable ``code`` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@contextmanager
def room_refusals() -> Iterator[None]:
    """The room's refusals (:class:`games.engine.room.RoomError`) as the services' own; the
    rules' (a finished game, not your turn) stay as they are."""
    try:
        yield
    except RoomError as error:
        raise CommandError(error.code, str(error)) from None


#: Who holds a seat taken by a command: a browser session and an account (or nobody).
Owner = tuple[str, int | None]


@dataclass
class Table:
    """A game as a command sees it: its row, its seats, and its room, built once when the
    game is loaded; then what the command did, to be saved."""

    game: Game
    #: The seats in seat order (their rows: who holds each).
    players: list[Player]
    #: The room as it stands: as loaded, then as each command of it left it.
    room: Room
    #: The room as loaded, before this command.
    before: Room
    #: The events the command caused, in order, and the room just after each.
    happened: list[events.AnyEvent] = field(default_factory=list)
    after: list[Room] = field(default_factory=list)
    #: Who holds each seat the command's ``joined`` events fill, in order.
    owners: list[Owner] = field(default_factory=list)
    #: A person gave the command (not a bot or the clock): the game is not idle.
    acted: bool = False
    #: Save the row even without an event (the clock's wake-up time moved), and start the
    #: room's bot once saved (its driver stopped with its process).
    touched: bool = False
    kick_bot: bool = False
    #: New rooms the command opened (a rematch), saved in the same transaction.
    opened: list[Table] = field(default_factory=list)

    @property
    def state(self) -> rules.Game | None:
        """The rules engine's game in play, ``None`` in the lobby."""
        return self.room.game

    @property
    def grid(self) -> Grid | None:
        """The duplicate dice the game rolls (:mod:`games.engine.grid`), ``None`` for fresh dice."""
        return Grid.parse(self.game.grid) if self.game.grid else None

    @property
    def names(self) -> tuple[str, ...]:
        return self.room.players

    def has_left(self, player: Player) -> bool:
        """Whether ``player`` left the game in play (a seat left in the lobby is gone)."""
        return self.room.has_left(player.seat)

    def held_by(self, session_key: str, user_id: int | None) -> Player | None:
        """The seat still in the game that the browser session ``session_key`` or the account
        ``user_id`` holds, if any."""
        if not session_key and user_id is None:
            return None
        return next(
            (p for p in self.players if owns(p, session_key, user_id) and not self.has_left(p)),
            None,
        )

    def bot_on_turn(self) -> bool:
        """Whether a bot is on turn (a bot's seat, or a bot standing in for an away player):
        the one answer for the pipeline, the bots and a new socket."""
        return self.room.bot_on_turn()

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
            acting=person(player, by),
        )
        return player

    def in_play(self) -> rules.Game:
        """The game in play; refused in the lobby and once it is over."""
        with room_refusals():
            return self.room._in_play()

    def decide(
        self,
        command: Callable[[Room], RoomProgress],
        *,
        acting: bool = False,
        owners: Iterable[Owner] = (),
    ) -> RoomProgress:
        """Apply the room ``command`` to the room and keep what it did, to be saved: its
        events, the room after each, and who holds each seat it fills (``owners``, in
        order). ``acting``: a person gave it. The room's refusals are
        :class:`CommandError`\\ s with the room's code."""
        with room_refusals():
            progress = command(self.room)
        self.happened += progress.events
        self.after += progress.after
        self.owners += owners
        self.room = progress.room
        self.acted = self.acted or acting
        return progress

    def copy(self) -> Table:
        """A copy to apply a command to, leaving this one as it was if the command fails."""
        game = copy.copy(self.game)
        players = [copy.copy(p) for p in self.players]
        for player in players:
            player.game = game
        return Table(game, players, self.room, self.room)


def owns(player: Player, session_key: str, user_id: int | None) -> bool:
    """Whether the browser with this session (and this account, if logged in) holds the seat."""
    by_session = bool(session_key) and player.session_key == session_key
    return by_session or (user_id is not None and player.user_id == user_id)


def person(player: Player, by: str | None = None) -> bool:
    """Whether a command of ``player``'s seat is a person's (not a bot's, nor one a bot or the
    clock made for the seat, ``by``)."""
    return by is None and not player.bot


def room_of(game: Game, players: list[Player]) -> Room:
    """The room as the game's row and its seats' rows save it."""
    attendance = clock.Attendance.from_json(game.attendance)
    rematch_of = game.rematch_of.code if game.rematch_of is not None else None
    rematch = None
    if game.status == Game.Status.FINISHED:
        rematch = Game.objects.filter(rematch_of=game).values_list("code", flat=True).first()
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
            for p in players
        ),
        host=next((p.seat for p in players if p.is_host), None),
        options=Options(
            game.coach, events.BotPace(game.bot_pace), game.show_odds, game.turn_seconds
        ),
        status=Status(game.status),
        game=game.state,
        rematch_of=rematch_of,
        rematch=rematch,
    )


def load(code: str, *, lock: bool = False) -> Table:
    """Game ``code`` read afresh: its row and its seats in one query (two for a game without
    seats, or with ``lock``, the row locked in the caller's transaction)."""
    players = []
    if not lock:
        players = list(
            Player.objects.filter(game__code=code).select_related("game", "game__rematch_of")
        )
    if players:
        game = players[0].game
        for player in players:
            player.game = game  # One row, shared.
    else:  # Locked (PostgreSQL locks no row through an outer join), or a lobby everyone left.
        games = (
            Game.objects.select_for_update() if lock else Game.objects.select_related("rematch_of")
        )
        try:
            game = games.get(code=code)
        except Game.DoesNotExist:
            raise CommandError("no_such_game", "there is no game at this link") from None
        players = list(game.players.all()) if lock else []
    room = room_of(game, players)
    return Table(game, players, room, room)


#: This process's copies of the games it saved last (:class:`games.live.store.Copies`).
copies = store.Copies()
#: How often a command is tried again when another process saved the game first.
TRIES = 5
#: For a command that carries no version.
UNVERSIONED = object()


def run(
    code: str,
    command: Callable[[Table], None],
    *,
    version: object = UNVERSIONED,
    fresh: bool = False,
) -> Table:
    """Apply ``command`` to game ``code``, save what it did, and tell the room once committed
    (the steps of the module's docstring); the table as saved.

    A command sent with the ``version`` of the game its sender saw is refused as
    ``stale`` if the play has changed since. With ``fresh`` the game is always read
    afresh (the clock's wake-up, which must see the row as saved).
    """
    table = None if fresh else copies.get(code)
    for _ in range(TRIES):
        from_copy = table is not None
        table = load(code) if table is None else table.copy()
        try:
            if version is not UNVERSIONED:
                check_version(table.game, version)
            command(table)
        except (CommandError, rules.RuleError):
            if not from_copy:
                raise
            table = None  # The copy may be out of date: ask the database.
            continue
        if from_copy and not (table.happened or table.touched):
            table = None  # Nothing to save, said from a copy: say it from the saved game.
            continue
        if save(table):
            return table
        table = None  # Another process saved the game first.
    raise CommandError("busy", "the game is changing too fast: try again")


def open_room(
    created: RoomProgress,
    *,
    owners: Iterable[Owner] = (),
    code: str | None = None,
    rematch_of: Game | None = None,
    grid: Grid | None = None,
) -> Table:
    """The table of the room just ``created`` (with invite ``code``, or a fresh one), each
    seat it fills held by the next of ``owners``: to :func:`save`, which inserts it. With
    ``grid`` its dice come from that grid (:mod:`games.engine.grid`) instead of fresh."""
    room, options = created.room, created.room.options
    row = Game(
        preset=room.preset,
        seats=room.seats,
        coach=options.coach,
        turn_seconds=options.turn_seconds,
        bot_pace=options.bot_pace,
        show_odds=options.show_odds,
        rematch_of=rematch_of,
        grid=grid.text() if grid is not None else "",
    )
    if code is not None:
        row.code = code
    empty = Room(room.rules, room.seats)
    table = Table(row, [], empty, empty)
    table.decide(lambda _: created, owners=owners)
    return table


def save(table: Table) -> bool:
    """Save what the command did to ``table``: the row as its room now says, its events
    with the next numbers, and the seats they fill or free, only if the game is still
    at the version it was loaded at; whether it was. Once committed, this process keeps
    a copy and the room is told.
    """
    if not (table.happened or table.touched):
        return True
    game, room, now = table.game, table.room, clock.now()
    expected, deadline = game.version, game.deadline
    _update_row(table, now)
    rows = []
    for event in table.happened:
        game.version += 1
        if event.changes_play:
            game.state_version = game.version
        kind, payload = codec.encode_event(event)
        rows.append((game.version, kind, payload))
    seats = any(isinstance(e, events.Joined | events.Unseated) for e in table.happened)
    if game.pk is None or seats or table.opened:
        with transaction.atomic():
            if game.pk is None:
                game.save(force_insert=True)
                GameEvent.objects.bulk_create(
                    GameEvent(game=game, seq=seq, kind=kind, payload=payload, created_at=now)
                    for seq, kind, payload in rows
                )
            elif not store.save_game(game, expected, rows, now):
                return False
            _save_seats(table)
            for opened in table.opened:
                save(opened)
    elif not store.save_game(game, expected, rows, now):
        return False
    messages = [
        presentation.event_message(seq, event, now, room.players, after.game, facts=payload)
        for (seq, _, payload), event, after in zip(rows, table.happened, table.after, strict=True)
    ]
    if messages and game.deadline != deadline:  # The clock changed: the last message says how.
        messages[-1]["clock"] = clock.clock_json(game, room.game, now)
    bot = table.kick_bot or (bool(messages) and room.bot_on_turn())
    kept, code = table.copy(), game.code
    told = _notices(table, now)

    def committed() -> None:
        copies.put(code, kept)
        outbox.post(code, "game.event", messages, bot=bot)
        push.post(told)  # Onto the sender thread's queue: no wait (games/live/push.py).

    transaction.on_commit(committed)
    return True


def _notices(table: Table, now: Any) -> list[push.Notice]:
    """What the browsers of the table's people are told of the command (Web Push)."""
    people = [p for p in table.players if not p.bot and not table.has_left(p)]
    on_turn = table.before.game.on_turn if table.before.game is not None else None
    happened = zip(table.happened, table.after, strict=True)
    return push.notices(table.game, people, on_turn, happened, now)


def _update_row(table: Table, now: Any) -> None:
    """The row's saved fields (:data:`games.live.store.SAVED_FIELDS`) as the room says, at
    ``now``: its status and times, the game's record, the options, who is away, and the
    turn clock's deadline and wake-up time."""
    game, room = table.game, table.room
    if room.status is not Status.LOBBY and game.status == Game.Status.LOBBY:
        game.started_at = now
    if room.status in (Status.FINISHED, Status.ABANDONED) and game.status != room.status:
        game.finished_at = now
    game.status = room.status.value
    if room.game is not None:
        game.record = codec.encode_game(room.game)
    game.coach, game.bot_pace = room.options.coach, room.options.bot_pace
    game.show_odds = room.options.show_odds
    game.attendance = clock.Attendance.of(room.seated).to_json()
    if table.acted:
        game.acted_at = now
    on_turn = room.game.on_turn if room.game is not None else None
    came_back = any(isinstance(e, events.CameBack) and e.seat == on_turn for e in table.happened)
    before = table.before.game
    clock.schedule(game, room, before=before, at=now, restart=came_back)


def _save_seats(table: Table) -> None:
    """The seats' rows as the command's events leave them: a seat taken is a new row,
    held by the next of the table's owners; a seat freed in the lobby is deleted, and
    the seats after it move up, the host the one the room says."""
    owners = iter(table.owners)
    players = table.players
    for event in table.happened:
        if isinstance(event, events.Joined):
            session_key, user_id = next(owners, ("", None))
            players.append(
                Player.objects.create(
                    game=table.game,
                    seat=event.seat,
                    name=event.name,
                    is_host=event.host,
                    session_key=session_key,
                    user_id=user_id,
                    bot=event.bot or "",
                )
            )
        elif isinstance(event, events.Unseated):
            players.pop(event.seat).delete()
            # One row at a time, lowest first, so no two seats are ever equal mid-way.
            for player in players[event.seat :]:
                player.seat -= 1
                player.save(update_fields=["seat"])
            for player in players:
                if player.is_host != (player.seat == event.host):
                    player.is_host = player.seat == event.host
                    player.save(update_fields=["is_host"])


def check_version(game: Game, version: object) -> None:
    """Refuse as ``stale`` a command sent by someone who saw the game at ``version``, if its
    play has changed since."""
    if isinstance(version, bool) or not isinstance(version, int):
        raise CommandError("invalid_message", "send the version of the game you last saw")
    if version < game.state_version or version > game.version:
        raise CommandError(
            "stale",
            f"the game has moved on (version {game.version}, you sent {version}): "
            "the command was not applied",
        )
