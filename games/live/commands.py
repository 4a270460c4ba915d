"""The commands of a game, one function each, every one through :func:`games.live.pipeline.run`.

Each checks what it was sent, names the room's command to apply (a few lines), and
leaves loading, saving, telling the room and trying again to the pipeline. Seats,
moves, options, rematches, players away and back, the clock's turns: one way.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings

from games.engine import events, names, rules
from games.engine.grid import Grid
from games.engine.room import Room, RoomProgress, check_bot_pace, check_show_odds
from games.live import clock, dice, limits
from games.live.pipeline import CommandError, Table, open_room, person, room_refusals, run, save
from games.live.presence import connected_seat
from games.models import NAME_MAX_LENGTH, Game, Player, new_invite_code
from games.strategy import policies
from games.strategy.policies import Move

CHAT_MAX_LENGTH = 500


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


def _joined(table: Table) -> Player:
    """The seat the command saved on ``table`` filled."""
    joined = next(e for e in table.happened if isinstance(e, events.Joined))
    return table.players[joined.seat]


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
    with room_refusals():  # Raises unknown_rules, invalid_bot_pace, invalid_seats...
        created = Room.create(
            preset,
            seats,
            coach=coach,
            bot_pace=bot_pace,
            show_odds=show_odds,
            turn_seconds=turn_seconds,
        )
        if host_name is not None:
            name = clean_name(host_name)
            created = created.then(created.room.join(name))
    table = open_room(created, owners=[(session_key, user_id)])
    save(table)
    return table.game, table.players[0] if table.players else None


def join_game(code: str, name: str, *, session_key: str = "", user_id: int | None = None) -> Player:
    """Take the next free seat under ``name``.

    A browser session (or a logged-in account) that already has a seat here gets
    that seat back. A game that has started, or whose seats are full, refuses
    with ``game_started`` or ``game_full``: the caller watches instead.
    """
    name = clean_name(name)

    def sit(table: Table) -> None:
        if table.held_by(session_key, user_id) is None:
            table.decide(
                lambda room: room.join(name, clash=names.clash), owners=[(session_key, user_id)]
            )

    table = run(code, sit)
    return table.held_by(session_key, user_id) or _joined(table)


def leave_game(code: str, player_id: int | None, *, as_seat: int | None = None) -> None:
    """Give up a seat.

    In the lobby the seat is freed, the seats after it move up one, and the
    host's role passes on if the host left. In play the seat is marked as left:
    its turns are skipped and its score stands. Bots play on only while a person
    is at the table: when the last one goes, so do they (:meth:`games.engine.room.Room.leave`).
    """

    def leave(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.leave(player.seat), acting=person(player))

    run(code, leave)


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------


def start_game(
    code: str, player_id: int | None, *, version: object, as_seat: int | None = None
) -> None:
    """The host starts the game: the server throws the roll-off until one seat wins it."""

    def start(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: _started(room, player.seat), acting=person(player))

    run(code, start, version=version)


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
        table.decide(
            lambda room: _rolled(room, player.seat, kept, by, table.grid),
            acting=person(player, by),
        )

    run(code, throw, version=version)


def _rolled(
    room: Room, seat: int, kept: frozenset[int], by: str | None, grid: Grid | None
) -> RoomProgress:
    """``seat`` keeps the dice at ``kept`` and throws the rest, if the room allows: the dice
    are thrown only then, fresh, or taken from the game's ``grid`` (the duplicate dice)."""
    count = room.to_throw(seat, kept, by=by)  # Refuses a roll the room does not allow.
    fresh = dice.roll(count) if grid is None else list(grid.throw(room._in_play(), seat, kept))
    return room.roll(seat, fresh, kept, by=by)


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
        table.decide(lambda room: room.hold(player.seat, kept, by=by), acting=person(player, by))

    run(code, show)


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
        table.decide(lambda room: room.score(player.seat, box, by=by), acting=person(player, by))

    run(code, write, version=version)


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
    # The pipeline may apply say() again to the game read afresh: the line is counted once.
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

        table.decide(said, acting=person(player))

    run(code, say)


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
    The new room is saved in the same transaction as the old one's event.
    """
    fresh_code = new_invite_code()

    def open_rematch(table: Table) -> None:
        player = table.seat(player_id, as_seat)  # Raises not_a_player for watchers.
        opened = table.decide(
            lambda room: room.open_rematch(player.seat, fresh_code), acting=person(player)
        )
        if opened.events:
            stayed = [p for p in table.players if not table.has_left(p)]
            new = open_room(
                opened.room.rematch_room(table.game.code),
                owners=[(p.session_key, p.user_id) for p in stayed],
                code=fresh_code,
                rematch_of=table.game,
            )
            table.opened.append(new)

    table = run(code, open_rematch)
    if table.opened:
        return table.opened[0].game
    return Game.objects.get(code=table.room.rematch)  # Opened already: the same new room.


# --------------------------------------------------------------------------
# Room options: the coach and the bots
# --------------------------------------------------------------------------


def set_coach(code: str, player_id: int | None, on: object, *, as_seat: int | None = None) -> None:
    """The host turns the coach on or off (in the lobby, or during the game)."""
    if not isinstance(on, bool):  # Before the game is read: a malformed message.
        raise CommandError("invalid_message", "say whether the coach is on: true or false")

    def switch(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        if on and table.game.grid:
            raise CommandError(
                "no_coach_on_duplicate_dice",
                "a game on shared dice is played without the coach, so it compares fairly",
            )
        table.decide(lambda room: room.set_coach(host.seat, on), acting=person(host))

    run(code, switch)


def set_bot_pace(
    code: str, player_id: int | None, pace: object, *, as_seat: int | None = None
) -> None:
    """The host sets how long the bots take over their moves (in the lobby, or during the
    game): ``instant``, ``quick`` or ``natural`` (:func:`games.live.bots.pause`)."""
    with room_refusals():  # Before the game is read: a malformed message.
        chosen = check_bot_pace(pace)

    def set_pace(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.set_bot_pace(host.seat, chosen), acting=person(host))

    run(code, set_pace)


def set_show_odds(
    code: str, player_id: int | None, show: object, *, as_seat: int | None = None
) -> None:
    """The host chooses whether the players see each seat's chance to win (in the lobby, or
    during the game; watchers always see them): the ``odds`` requests follow at once."""
    with room_refusals():  # Before the game is read: a malformed message.
        chosen = check_show_odds(show)

    def choose(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.set_show_odds(host.seat, chosen), acting=person(host))

    run(code, choose)


def add_bot(
    code: str, player_id: int | None, level: object, *, as_seat: int | None = None
) -> Player:
    """The host seats a bot of ``level`` (``optimal``, ``casual`` or ``win``) in the next empty
    seat."""

    def seat_bot(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        table.decide(
            lambda room: room.add_bot(host.seat, level, clash=names.clash), acting=person(host)
        )

    return _joined(run(code, seat_bot))


def remove_bot(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host takes the bot in seat ``seat`` off the table before the game starts."""

    def unseat(table: Table) -> None:
        host = table.seat(player_id, as_seat)
        table.decide(lambda room: room.remove_bot(host.seat, seat), acting=person(host))

    run(code, unseat)


# --------------------------------------------------------------------------
# The turn clock, and players who are away (games/live/clock.py)
# --------------------------------------------------------------------------


def come_back(code: str, player_id: int | None, *, as_seat: int | None = None) -> None:
    """An away player is back ("I'm back"): their turns wait for them again.

    Any command of theirs does the same (:meth:`games.engine.room.Room.acting`); this one
    does only that.
    """

    def back(table: Table) -> None:
        player = table.seat(player_id, as_seat)
        table.decide(lambda room: room.come_back(player.seat), acting=person(player))

    run(code, back)


def remove_player(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host takes an away (or disconnected) player out of the game; their score stands."""

    def remove(table: Table) -> None:
        host, here = table.seat(player_id, as_seat), connected_seat(table, seat)
        table.decide(
            lambda room: room.remove_player(host.seat, seat, connected=here), acting=person(host)
        )

    run(code, remove)


def hand_to_bot(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host hands an away (or disconnected) player's seat to a bot for the rest of the game."""

    def hand(table: Table) -> None:
        host, here = table.seat(player_id, as_seat), connected_seat(table, seat)
        table.decide(
            lambda room: room.hand_to_bot(host.seat, seat, connected=here), acting=person(host)
        )

    run(code, hand)


def wake(code: str) -> None:
    """Do what is due in game ``code`` now that its ``wake_at`` has come: exactly once.

    What is due: the game is abandoned (nobody has played for too long); or the turn's
    deadline has passed, and the clock plays the rest of the turn for its player (the
    optimal strategy's rolls, then its box, each marked ``by: "clock"``), after which
    a seat the clock played :data:`~games.live.clock.AWAY_AFTER` turns in a row for is away;
    or a bot on turn has not moved (its server process stopped), and its driver is
    started again here.

    Exactly once, whichever processes wake the game and however often: the game is read
    afresh and saved at its version like any command, so of two wakers that read it at
    one version only one saves; the other reads it again and finds its new ``wake_at``
    not yet come. A player's own move races it the same way: a move saved first gave
    the game a new deadline (nothing is due any more); a move made on the version
    before the wake-up is refused when it is saved, and tried again on the game as
    the clock left it.
    """

    def due(table: Table) -> None:
        game, at = table.game, clock.now()
        if game.wake_at is None or game.wake_at > at:
            return  # Woken elsewhere already, or a move moved the time on.
        if table.state is None or game.status != Game.Status.PLAYING:
            table.touched = True  # Nothing is due any more: no wake-up time.
        elif clock.abandoned_at(game, at) <= at:
            table.decide(lambda room: room.abandon())
        elif game.deadline is not None and game.deadline <= at:
            _clock_plays(table)
        else:  # A bot on turn that should have moved: its driver stopped with its process.
            table.touched = True
            table.kick_bot = table.bot_on_turn()

    run(code, due, fresh=True)


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
    table.decide(lambda room: _rolled(room, seat, kept, by, table.grid))
    return False
