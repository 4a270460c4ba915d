"""The commands of a game, applied on the server: one function per command.

Each command runs in one short transaction that locks the game's row, so two
commands on one game never interleave (``select_for_update`` on PostgreSQL; on
SQLite every write transaction takes the database's write lock when it
begins). It loads the state from the tables, applies the rules engine, appends
its events to the log with the next sequence numbers, stores the new state,
and broadcasts the events to the room only once the transaction has committed,
so nobody is ever told about a change that was rolled back.

Errors are :class:`CommandError` (or the rules engine's
:class:`~games.rules.RuleError`); both carry a stable ``code`` for clients.
Nothing is written when a command fails.
"""

from __future__ import annotations

import json
import unicodedata
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from games import dice, rules
from games.models import NAME_MAX_LENGTH, FilledBox, Game, GameEvent, Player

CHAT_MAX_LENGTH = 500
#: Events a snapshot carries, so a page can show what just happened.
RECENT_EVENTS = 50


#: What a command may change on the game's row (presence counts are kept apart).
GAME_STATE_FIELDS = [
    "status",
    "started_at",
    "finished_at",
    "version",
    "state_version",
    "current_seat",
    "dice",
    "rolls_used",
    "held",
    "roll_off",
]


class CommandError(Exception):
    """A command the server refuses, with a stable ``code`` and a message for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


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
) -> tuple[Game, Player | None]:
    """A new room in its lobby; with ``host_name``, its creator takes seat 0 as host.

    The seat belongs to the browser's ``session_key``, and to the account ``user_id``
    when its creator is logged in. The coach is on by default in a solo room and
    off otherwise (the host can change it in the lobby: :func:`set_coach`).
    """
    rules.get_rules(preset)  # Raises unknown_rules.
    if isinstance(seats, bool) or not isinstance(seats, int) or not 1 <= seats <= rules.MAX_PLAYERS:
        raise CommandError("invalid_seats", f"a game has 1 to {rules.MAX_PLAYERS} seats")
    name = clean_name(host_name) if host_name is not None else None
    coach = seats == 1 if coach is None else bool(coach)
    with transaction.atomic():
        game = Game.objects.create(preset=preset, seats=seats, coach=coach)
        created = {"preset": preset, "seats": seats, "coach": coach}
        events = [_append(game, GameEvent.Kind.CREATED, created)]
        player = None
        if name is not None:
            player, joined = _seat(game, [], name, session_key, user_id)
            events.append(joined)
        _save(game, events)
    return game, player


def join_game(code: str, name: str, *, session_key: str = "", user_id: int | None = None) -> Player:
    """Take the next free seat under ``name``.

    A browser session (or a logged-in account) that already has a seat here gets
    that seat back. A game
    that has started, or whose seats are full, refuses with ``game_started`` or
    ``game_full``: the caller watches instead.
    """
    name = clean_name(name)
    with transaction.atomic():
        game = _lock(code)
        players = list(game.players.all())
        for player in players:
            if _owns(player, session_key, user_id) and not player.has_left:
                return player
        if game.status != Game.Status.LOBBY:
            raise CommandError("game_started", "the game has started: you are watching it")
        if len(players) >= game.seats:
            raise CommandError("game_full", "every seat is taken: you are watching the game")
        if any(p.name.casefold() == name.casefold() for p in players):
            raise CommandError("name_taken", f"someone here is already called {name}")
        player, joined = _seat(game, players, name, session_key, user_id)
        _save(game, [joined])
    return player


def leave_game(code: str, player_id: int | None, *, as_seat: int | None = None) -> bool:
    """Give up a seat; whether a bot is now on turn (:func:`bot_on_turn`).

    In the lobby the seat is freed, the seats after it move up one, and the
    host's role passes on if the host left. In play the seat is marked as left:
    its turns are skipped and its score stands.
    """
    with transaction.atomic():
        game = _lock(code)
        players = list(game.players.all())
        player = _player(players, player_id, as_seat)
        if game.status == Game.Status.LOBBY:
            events = [_free_seat(game, players, player)]
            players = [p for p in players if p is not player]
            # Bots wait only with people: when the last person goes, so do they (last seat first).
            while players and all(p.bot for p in players):
                events.append(_free_seat(game, players, players[-1]))
                players.pop()
            _save(game, events)
            return False
        state = _rules_state(game, players)
        # Bots play on only while a person is at the table: with the last one, they go too.
        leaving = [player]
        if not any(p.pk != player.pk and not p.has_left and not p.bot for p in players):
            leaving += [p for p in players if p.bot and not p.has_left]
        events = []
        for gone in leaving:
            state = state.leave(gone.seat)  # Raises game_over or already_left, before any change.
            gone.has_left = True
            gone.save(update_fields=["has_left"])
            next_seat = None if state.is_over else state.current
            payload = {"seat": gone.seat, "name": gone.name, "next": next_seat}
            events.append(_append(game, GameEvent.Kind.LEFT, payload))
        _store(game, state)
        events += _finish_if_over(game, state)
        _save(game, events)
    return bot_on_turn(players, state)


# --------------------------------------------------------------------------
# Playing
# --------------------------------------------------------------------------


def start_game(
    code: str, player_id: int | None, *, version: object, as_seat: int | None = None
) -> bool:
    """The host starts the game: the server throws the roll-off until one seat wins it.

    Returns whether a bot won it (:func:`bot_on_turn`)."""
    with transaction.atomic():
        game, players, _ = _host(code, player_id, as_seat, "start the game")
        if game.status != Game.Status.LOBBY:
            raise CommandError("already_started", "the game has already started")
        _check_version(game, version)
        state = rules.Game.new(len(players), game.rules)
        events = [
            _append(
                game,
                GameEvent.Kind.STARTED,
                {"players": [p.name for p in players], "first": state.current},
            )
        ]
        while state.current is None:
            throws = {seat: dice.roll(rules.DICE_COUNT) for seat in state.roll_off.contenders}
            state = state.throw_roll_off(throws)
            payload = {
                "throws": [[seat, faces] for seat, faces in throws.items()],
                "contenders": list(state.roll_off.contenders),
                "first": state.current,
            }
            events.append(_append(game, GameEvent.Kind.ROLL_OFF, payload))
        game.status = Game.Status.PLAYING
        game.started_at = timezone.now()
        _store(game, state)
        _save(game, events)
    return bot_on_turn(players, state)


def roll(
    code: str,
    player_id: int | None,
    hold: Iterable[int] = (),
    *,
    version: object,
    as_seat: int | None = None,
) -> None:
    """The player on turn keeps the dice at positions ``hold`` (0 to 4) and throws the rest."""
    with transaction.atomic():
        game, players, player, state = _load_turn(code, player_id, version, as_seat)
        kept = rules.parse_hold(hold)
        # Dice are thrown only for the player on turn; for anyone else the rules say why not.
        fresh = dice.roll(state.turn.to_throw(kept)) if state.current == player.seat else []
        state = state.roll(player.seat, fresh, kept)  # Raises not_your_turn, no_rolls_left...
        _store(game, state)
        payload = {
            "seat": player.seat,
            "dice": list(state.turn.dice or ()),
            "held": sorted(kept),
            "rolls_left": state.turn.rolls_left,
            # The legal moves, as the snapshot's turn.options: a client needs no rules for them.
            "options": _options_json(state.cards[player.seat], state.turn.dice),
        }
        _save(game, [_append(game, GameEvent.Kind.ROLLED, payload)])
        recent_states.put_after_commit(game, players, state)


def hold(
    code: str, player_id: int | None, hold: Iterable[int], *, as_seat: int | None = None
) -> None:
    """The player on turn shows which dice (positions 0 to 4) it means to keep for the next roll.

    It carries no version and makes no other command stale, like chat: a player
    clicking dice one after another must never be told the game has moved on. The
    next ``roll`` still names the dice it keeps.
    """
    with transaction.atomic():
        game, players, player, state = _load_play(code, player_id, as_seat)
        state = state.hold(player.seat, hold)  # Raises not_your_turn, invalid_hold...
        _store(game, state)
        payload = {"seat": player.seat, "held": sorted(state.turn.held)}
        _save(game, [_append(game, GameEvent.Kind.HELD, payload, changes_play=False)])
        recent_states.put_after_commit(game, players, state)


def score(
    code: str, player_id: int | None, category: str, *, version: object, as_seat: int | None = None
) -> bool:
    """The player on turn writes the dice in ``category``; the turn passes on.

    Returns whether it passes to a bot (:func:`bot_on_turn`)."""
    with transaction.atomic():
        game, players, player, before = _load_turn(code, player_id, version, as_seat)
        box = rules.Category.parse(category)
        state = before.score(player.seat, box)  # Raises box_filled, joker_forced, not_rolled...
        card, old_card = state.cards[player.seat], before.cards[player.seat]
        points = card[box]
        assert points is not None
        bonus = card.yahtzee_bonus_count > old_card.yahtzee_bonus_count
        FilledBox.objects.create(
            player=player,
            category=box.value,
            points=points,
            round=len(old_card.filled) + 1,
            dice=list(before.turn.dice or ()),
            yahtzee_bonus=bonus,
        )
        _store(game, state)
        payload = {
            "seat": player.seat,
            "category": box.value,
            "points": points,
            "dice": list(before.turn.dice or ()),
            "yahtzee_bonus": bonus,
            "total": card.total,
            "next": None if state.is_over else state.current,
            "round": state.round,
            # The whole card, as the snapshot shows it, so a client need not add up the totals.
            "card": card_json(card),
        }
        events = [_append(game, GameEvent.Kind.SCORED, payload)]
        events += _finish_if_over(game, state)
        _save(game, events)
        recent_states.put_after_commit(game, players, state)
    return bot_on_turn(players, state)


def bot_on_turn(players: Sequence[Player], state: rules.Game) -> bool:
    """Whether a bot is on turn: the commands that pass the turn say so, and the
    caller starts a bot's driver (:func:`games.bots.kick`) only then."""
    if state.is_over or state.current is None:
        return False
    return any(p.seat == state.current and p.bot and not p.has_left for p in players)


def chat(code: str, player_id: int | None, text: object, *, as_seat: int | None = None) -> None:
    """A seated player says something to the room."""
    if not isinstance(text, str) or not text.strip():
        raise CommandError("invalid_message", "chat needs some text")
    text = text.strip()
    if len(text) > CHAT_MAX_LENGTH:
        raise CommandError(
            "chat_too_long", f"chat messages are {CHAT_MAX_LENGTH} characters at most"
        )
    with transaction.atomic():
        game = _lock(code)
        player = _player(list(game.players.all()), player_id, as_seat)
        payload = {"seat": player.seat, "name": player.name, "text": text}
        _save(game, [_append(game, GameEvent.Kind.CHAT, payload, changes_play=False)])


def rematch(code: str, player_id: int | None, *, as_seat: int | None = None) -> Game:
    """A player of a finished game opens a new room with the same players, seats and preset.

    Everyone who stayed to the end is seated again, in the same order, each seat
    held by the same browser session and account (or the same bot), so every
    player's browser is seated on arrival; the coach stays as it was. The old
    room is told with a ``rematch`` event naming the new room, and every browser
    still in it (watchers too) goes there. Asked again (two players clicking at
    once), it gives the same new room.
    """
    with transaction.atomic():
        game = _lock(code)
        players = list(game.players.all())
        player = _player(players, player_id, as_seat)  # Raises not_a_player for watchers.
        if game.status != Game.Status.FINISHED:
            raise CommandError("not_finished", "a rematch can start once the game is over")
        existing = Game.objects.filter(rematch_of=game).first()
        if existing is not None:
            return existing
        new = Game.objects.create(
            preset=game.preset, seats=game.seats, coach=game.coach, rematch_of=game
        )
        created = {
            "preset": new.preset,
            "seats": new.seats,
            "coach": new.coach,
            "rematch_of": game.code,
        }
        events = [_append(new, GameEvent.Kind.CREATED, created)]
        seated: list[Player] = []
        for old in players:
            if not old.has_left:
                seat, joined = _seat(
                    new, seated, old.name, old.session_key, old.user_id, bot=old.bot
                )
                seated.append(seat)
                events.append(joined)
        _save(new, events)
        payload = {"code": new.code, "seat": player.seat, "name": player.name}
        _save(game, [_append(game, GameEvent.Kind.REMATCH, payload, changes_play=False)])
    return new


# --------------------------------------------------------------------------
# Room options: the coach and the bots
# --------------------------------------------------------------------------

BOT_NAMES = {Player.Bot.OPTIMAL: "Optimal bot", Player.Bot.CASUAL: "Casual bot"}


def set_coach(code: str, player_id: int | None, on: object, *, as_seat: int | None = None) -> None:
    """The host turns the coach on or off (in the lobby, or during the game)."""
    if not isinstance(on, bool):
        raise CommandError("invalid_message", "say whether the coach is on: true or false")
    with transaction.atomic():
        game, _, host = _host(code, player_id, as_seat, "change the coach")
        if game.status == Game.Status.FINISHED:
            raise rules.IllegalMoveError("the game is over", code="game_over")
        if game.coach == on:
            return  # Already so: nothing happens, nobody is told.
        game.coach = on
        game.save(update_fields=["coach"])
        payload = {"on": on, "seat": host.seat, "name": host.name}
        _save(game, [_append(game, GameEvent.Kind.COACH, payload, changes_play=False)])


def add_bot(
    code: str, player_id: int | None, level: object, *, as_seat: int | None = None
) -> Player:
    """The host seats a bot of ``level`` (``optimal`` or ``casual``) in the next empty seat."""
    if level not in Player.Bot.values:
        raise CommandError("invalid_bot", f"a bot is one of {', '.join(Player.Bot.values)}")
    bot = Player.Bot(level)
    with transaction.atomic():
        game, players, _ = _host(code, player_id, as_seat, "seat a bot")
        if game.status != Game.Status.LOBBY:
            raise CommandError("game_started", "bots take their seats before the game starts")
        if len(players) >= game.seats:
            raise CommandError("game_full", "every seat is taken")
        taken = {p.name.casefold() for p in players}
        name = BOT_NAMES[bot]
        number = 1
        while name.casefold() in taken:
            number += 1
            name = f"{BOT_NAMES[bot]} {number}"
        seated, joined = _seat(game, players, name, "", bot=bot)
        _save(game, [joined])
    return seated


def remove_bot(
    code: str, player_id: int | None, seat: object, *, as_seat: int | None = None
) -> None:
    """The host takes the bot in seat ``seat`` off the table before the game starts."""
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise CommandError("invalid_message", "name the bot's seat (a whole number)")
    with transaction.atomic():
        game, players, _ = _host(code, player_id, as_seat, "take a bot off its seat")
        if game.status != Game.Status.LOBBY:
            raise CommandError("game_started", "bots keep their seats once the game starts")
        bot = next((p for p in players if p.seat == seat and p.bot), None)
        if bot is None:
            raise CommandError("not_a_bot", f"no bot sits in seat {seat}")
        _save(game, [_free_seat(game, players, bot)])


def coach_position(
    code: str, player_id: int | None, *, as_seat: int | None = None
) -> tuple[rules.Rules, rules.Scorecard, rules.Dice, int, int]:
    """What the coach looks at for the player on turn: the rules, their card, the dice,
    the rolls left and the version of the play.

    Refused when the coach is off (``coach_off``), to anyone but the player on turn
    (``not_your_turn``; watchers ``not_a_player``) and before the turn's first roll
    (``not_rolled``). The advice itself is :func:`games.coach.advice`.
    """
    # Read under the row lock, as a command does, so that the dice on the row and the
    # cards read after it belong to the same moment of play.
    with transaction.atomic():
        game, _players, player, state = _load_play(code, player_id, as_seat)
    if not game.coach:
        raise CommandError("coach_off", "the coach is off in this room")
    if state.current != player.seat:
        raise rules.IllegalMoveError("it is not your turn", code="not_your_turn")
    if state.turn.dice is None:
        raise rules.IllegalMoveError("roll first: the coach looks at the dice", code="not_rolled")
    card = state.cards[player.seat]
    return game.rules, card, state.turn.dice, state.turn.rolls_left, game.state_version


# --------------------------------------------------------------------------
# Who is here
# --------------------------------------------------------------------------


def arrive(code: str, *, session_key: str = "", user_id: int | None = None) -> int | None:
    """A new connection to the room: the id of its seat, or ``None`` to watch.

    The seat is the one this browser session took, or the one its logged-in
    account holds (taken in another browser). The connection is counted (for
    presence) and the room is told.
    """
    _get(code)  # Raises no_such_game.
    player = seat_of(code, session_key=session_key, user_id=user_id)
    player_id = player.pk if player else None
    _count_connection(code, player_id, +1)
    return player_id


def resume(code: str, token: str, *, current_player_id: int | None) -> int:
    """Take a seat back with its token (for clients without the browser's session)."""
    player = None
    if isinstance(token, str) and token:
        player = Player.objects.filter(game__code=code, token=token, has_left=False).first()
    if player is None:
        raise CommandError("invalid_token", "no seat in this game has that token")
    move_connection(code, current_player_id, player.pk)
    return player.pk


def seat_of(code: str, *, session_key: str = "", user_id: int | None = None) -> Player | None:
    """The seat in this game held by this browser session or this account, if any."""
    if not session_key and user_id is None:
        return None
    players = Player.objects.filter(game__code=code, has_left=False)
    return next((p for p in players if _owns(p, session_key, user_id)), None)


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


def disconnect(code: str, player_id: int | None) -> None:
    """Count a connection gone and tell the room."""
    _count_connection(code, player_id, -1)


def _count_connection(code: str, player_id: int | None, change: int) -> None:
    with transaction.atomic():
        game = _lock(code)
        if player_id is None:
            game.watchers = max(0, game.watchers + change)
            game.save(update_fields=["watchers"])
        else:
            # A seat freed in the lobby is gone with its count.
            player = Player.objects.filter(pk=player_id, game=game).first()
            if player is not None:
                player.connections = max(0, player.connections + change)
                player.save(update_fields=["connections"])
        message = presence(game, list(game.players.all()))
        transaction.on_commit(lambda: _send(game.group_name, "game.presence", [message]))


def move_connection(code: str, old_player_id: int | None, new_player_id: int | None) -> None:
    """A connection that took a seat (or gave one up) counts for its new role."""
    if old_player_id != new_player_id:
        with transaction.atomic():
            _count_connection(code, old_player_id, -1)
            _count_connection(code, new_player_id, +1)


# --------------------------------------------------------------------------
# What clients see
# --------------------------------------------------------------------------


def snapshot(code: str, player_id: int | None = None) -> dict[str, Any]:
    """Everything a client needs to draw the room, as of ``version``."""
    game = _get(code)
    players = list(game.players.all())
    state = _rules_state(game, players) if game.status != Game.Status.LOBBY else None
    you = next((p for p in players if p.pk == player_id), None)
    recent = list(game.events.order_by("-seq")[:RECENT_EVENTS])
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
                "connected": p.is_connected,
                "left": p.has_left,
                "bot": p.bot or None,
                "card": card_json(state.cards[p.seat] if state else rules.Scorecard(game.rules)),
            }
            for p in players
        ],
        "watchers": game.watchers,
        "turn": _turn_json(state),
        "roll_off": _roll_off_json(state.roll_off) if state else None,
        "winners": list(state.winners) if state else [],
        "rematch": _rematch_code(game),
        "recent": [event_message(e) for e in reversed(recent)],
    }


def game_json(game: Game) -> dict[str, Any]:
    """A game room as clients and exports describe it: its code, rules, seats, status, times."""
    return {
        "code": game.code,
        "preset": game.preset,
        "preset_label": game.rules.label,
        "seats": game.seats,
        "coach": game.coach,
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


def card_json(card: rules.Scorecard) -> dict[str, Any]:
    """A scorecard as clients see it: every box, and the totals."""
    return {
        "boxes": {c.value: card[c] for c in rules.Category},
        "upper_total": card.upper_total,
        "upper_bonus": card.upper_bonus,
        "yahtzee_bonus_count": card.yahtzee_bonus_count,
        "yahtzee_bonus": card.yahtzee_bonus,
        "lower_total": card.lower_total,
        "total": card.total,
    }


def _turn_json(state: rules.Game | None) -> dict[str, Any] | None:
    if state is None or state.current is None or state.is_over:
        return None
    dice = state.turn.dice
    card = state.cards[state.current]
    return {
        "seat": state.current,
        "dice": list(dice) if dice else None,
        "held": sorted(state.turn.held),
        "rolls_left": state.turn.rolls_left,
        "options": _options_json(card, dice),
    }


def _options_json(card: rules.Scorecard, dice: rules.Dice | None) -> dict[str, int]:
    # What each open box would score with these dice (only the allowed boxes under a Joker).
    return {c.value: points for c, points in card.options(dice).items()} if dice else {}


def _roll_off_json(roll_off: rules.RollOff) -> dict[str, Any]:
    return {
        "contenders": list(roll_off.contenders),
        "rounds": [[[seat, list(dice)] for seat, dice in rnd] for rnd in roll_off.rounds],
        "winner": roll_off.winner,
    }


def presence(game: Game, players: Sequence[Player]) -> dict[str, Any]:
    """Who is connected: each seat, and how many watch."""
    return {
        "type": "presence",
        "players": [{"seat": p.seat, "connected": p.is_connected} for p in players],
        "watchers": game.watchers,
    }


def event_message(event: GameEvent) -> dict[str, Any]:
    """An event as it is broadcast: its kind, its data and the version it brings the room to."""
    return {
        "type": "event",
        "version": event.seq,
        "kind": event.kind,
        "data": event.payload,
        "at": event.created_at.isoformat(),
    }


def replay_events(code: str) -> list[tuple[str, dict[str, Any]]]:
    """The log of a game, as :func:`games.replay.replay` takes it."""
    return [(e.kind, e.payload) for e in GameEvent.objects.filter(game__code=code).order_by("seq")]


def rules_state(code: str) -> tuple[Game, list[Player], rules.Game | None]:
    """The stored state of a game: its row, its seats, and the rules engine's game once started."""
    game = _get(code)
    players = list(game.players.all())
    return game, players, _rules_state(game, players) if game.status != Game.Status.LOBBY else None


def clean_name(name: object) -> str:
    """A display name with spaces tidied, or ``invalid_name`` if it is empty, long or odd."""
    if not isinstance(name, str):
        raise CommandError("invalid_name", "a name is some text")
    name = " ".join(name.split())
    if not name:
        raise CommandError("invalid_name", "choose a name")
    if len(name) > NAME_MAX_LENGTH:
        raise CommandError("invalid_name", f"a name is {NAME_MAX_LENGTH} characters at most")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise CommandError("invalid_name", "a name cannot hold control characters")
    return name


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------


def _get(code: str) -> Game:
    try:
        return Game.objects.get(code=code)
    except Game.DoesNotExist:
        raise CommandError("no_such_game", "there is no game at this link") from None


def _lock(code: str) -> Game:
    # The row lock makes commands on one game take turns; see the module docstring.
    try:
        return Game.objects.select_for_update().get(code=code)
    except Game.DoesNotExist:
        raise CommandError("no_such_game", "there is no game at this link") from None


def _player(players: Sequence[Player], player_id: int | None, as_seat: int | None = None) -> Player:
    for player in players:
        if player.pk == player_id:
            if player.has_left:
                raise CommandError("not_a_player", "you have left this game")
            if as_seat is not None and as_seat != player.seat:
                raise CommandError("not_your_seat", "you can only act for your own seat")
            return player
    raise CommandError("not_a_player", "only players in this game can do that; you are watching")


def _host(
    code: str, player_id: int | None, as_seat: int | None, doing: str
) -> tuple[Game, list[Player], Player]:
    """The locked game, its seats and the host, for a command only the host may give."""
    game = _lock(code)
    players = list(game.players.all())
    host = _player(players, player_id, as_seat)
    if not host.is_host:
        raise CommandError("not_host", f"only the host can {doing}")
    return game, players, host


def _check_version(game: Game, version: object) -> None:
    if isinstance(version, bool) or not isinstance(version, int):
        raise CommandError("invalid_message", "send the version of the game you last saw")
    if version < game.state_version or version > game.version:
        raise CommandError(
            "stale",
            f"the game has moved on (version {game.version}, you sent {version}): "
            "the command was not applied",
        )


class RecentStates:
    """The seats and rules state of recently played games, kept between commands.

    A roll or a score needs the game's seats and cards; reading them is most of
    the cost of the command. Every change to a game's play raises its
    ``state_version``, and the game's row is read under its lock first, so an
    entry stored under that game's current ``state_version`` is exactly what the
    tables hold, even when other processes play the same game. The one exception
    is the held dice: a ``hold`` changes them without raising ``state_version``
    (so that it makes no roll stale), so they are always taken from the row.
    Entries are stored only once their transaction commits. Each process keeps
    its own, for the ``size`` games played most recently.
    """

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._entries: OrderedDict[str, tuple[int, list[Player], rules.Game]] = OrderedDict()

    def get(self, game: Game) -> tuple[list[Player], rules.Game] | None:
        entry = self._entries.get(game.code)
        if entry is None or entry[0] != game.state_version:
            return None
        self._entries.move_to_end(game.code)
        players, state = entry[1], entry[2]
        held = frozenset(game.held)
        if state.turn.held != held:  # Another process took a hold since this entry was stored.
            state = replace(state, turn=replace(state.turn, held=held))
        return players, state

    def put_after_commit(self, game: Game, players: list[Player], state: rules.Game) -> None:
        key = (game.code, game.state_version)

        def put() -> None:
            self._entries[key[0]] = (key[1], players, state)
            self._entries.move_to_end(key[0])
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

        transaction.on_commit(put)

    def clear(self) -> None:
        self._entries.clear()


recent_states = RecentStates()


def _load_turn(
    code: str, player_id: int | None, version: object, as_seat: int | None
) -> tuple[Game, list[Player], Player, rules.Game]:
    """:func:`_load_play`, for a command that must carry the version of the play it saw."""
    game, players, player, state = _load_play(code, player_id, as_seat)
    _check_version(game, version)
    return game, players, player, state


def _load_play(
    code: str, player_id: int | None, as_seat: int | None
) -> tuple[Game, list[Player], Player, rules.Game]:
    """The locked game, its seats, the acting player and the rules state of a game in play."""
    game = _lock(code)
    cached = recent_states.get(game)
    players = cached[0] if cached else list(game.players.all())
    player = _player(players, player_id, as_seat)
    if game.status == Game.Status.LOBBY:
        raise CommandError("not_started", "the game has not started yet")
    if game.status == Game.Status.FINISHED:
        raise rules.IllegalMoveError("the game is over", code="game_over")
    return game, players, player, cached[1] if cached else _rules_state(game, players)


def _rules_state(game: Game, players: Sequence[Player]) -> rules.Game:
    """The rules engine's game from the tables (the log gives the same; a test checks)."""
    preset = game.rules
    by_player = cards_of(players)
    cards = tuple(by_player[p.pk] for p in players)
    roll_off = game.roll_off or {"contenders": [], "rounds": []}
    return rules.Game(
        rules=preset,
        cards=cards,
        roll_off=rules.RollOff(
            tuple(roll_off["contenders"]),
            tuple(tuple((s, tuple(d)) for s, d in rnd) for rnd in roll_off["rounds"]),
        ),
        current=game.current_seat,
        turn=rules.Turn(
            tuple(game.dice) if game.dice else None, game.rolls_used, frozenset(game.held)
        ),
        left=frozenset(p.seat for p in players if p.has_left),
    )


def cards_of(players: Sequence[Player]) -> dict[int, rules.Scorecard]:
    """Each player's card (by player id) from their filled boxes, in one query.

    The players may sit at different games; each card follows its game's preset.
    """
    filled: dict[int, dict[str, int]] = {p.pk: {} for p in players}
    bonuses = dict.fromkeys(filled, 0)
    boxes = FilledBox.objects.filter(player__in=list(filled)).values_list(
        "player_id", "category", "points", "yahtzee_bonus"
    )
    for player_id, category, points, bonus in boxes:
        filled[player_id][category] = points
        bonuses[player_id] += bonus
    return {
        p.pk: rules.Scorecard.from_filled(
            filled[p.pk], rules=p.game.rules, yahtzee_bonus_count=bonuses[p.pk]
        )
        for p in players
    }


def _store(game: Game, state: rules.Game) -> None:
    game.current_seat = state.current
    game.dice = list(state.turn.dice) if state.turn.dice else None
    game.rolls_used = state.turn.rolls_used
    game.held = sorted(state.turn.held)
    game.roll_off = _roll_off_json(state.roll_off)


def _owns(player: Player, session_key: str, user_id: int | None) -> bool:
    """Whether the browser with this session (and this account, if logged in) holds the seat."""
    by_session = bool(session_key) and player.session_key == session_key
    return by_session or (user_id is not None and player.user_id == user_id)


def _seat(
    game: Game,
    players: Sequence[Player],
    name: str,
    session_key: str,
    user_id: int | None = None,
    *,
    bot: str = "",
) -> tuple[Player, GameEvent]:
    is_host = not players and not bot
    player = Player.objects.create(
        game=game,
        seat=len(players),
        name=name,
        is_host=is_host,
        session_key=session_key,
        user_id=user_id,
        bot=bot,
    )
    payload: dict[str, Any] = {"seat": player.seat, "name": name, "host": is_host}
    if bot:
        payload["bot"] = bot
    return player, _append(game, GameEvent.Kind.JOINED, payload)


def _free_seat(game: Game, players: list[Player], player: Player) -> GameEvent:
    player.delete()
    rest = [p for p in players if p.pk != player.pk]
    # One row at a time, lowest first, so no two seats are ever equal mid-way.
    for p in rest:
        if p.seat > player.seat:
            p.seat -= 1
            p.save(update_fields=["seat"])
    host = next((p for p in rest if p.is_host), None)
    if host is None and rest:
        host = next((p for p in rest if not p.bot), rest[0])  # A person, while one is left.
        host.is_host = True
        host.save(update_fields=["is_host"])
    payload = {"seat": player.seat, "name": player.name, "host": host.seat if host else None}
    return _append(game, GameEvent.Kind.LEFT, payload)


def _finish_if_over(game: Game, state: rules.Game) -> list[GameEvent]:
    if not state.is_over:
        return []
    game.status = Game.Status.FINISHED
    game.finished_at = timezone.now()
    payload = {"winners": list(state.winners), "totals": [card.total for card in state.cards]}
    return [_append(game, GameEvent.Kind.FINISHED, payload)]


def _append(
    game: Game, kind: str, payload: dict[str, Any], *, changes_play: bool = True
) -> GameEvent:
    game.version += 1
    if changes_play:
        game.state_version = game.version
    return GameEvent.objects.create(game=game, seq=game.version, kind=kind, payload=payload)


def _save(game: Game, events: list[GameEvent]) -> None:
    """Store the game row and broadcast ``events`` once the transaction commits."""
    game.save(update_fields=GAME_STATE_FIELDS)
    messages = [event_message(e) for e in events]
    transaction.on_commit(lambda: _send(game.group_name, "game.event", messages))


def _send(group: str, handler: str, messages: list[dict[str, Any]]) -> None:
    layer = get_channel_layer()
    if layer is None:  # pragma: no cover - the settings always configure one
        return

    async def send_all() -> None:
        for message in messages:
            await layer.group_send(
                group,
                {"type": handler, "version": message.get("version"), "text": json.dumps(message)},
            )

    async_to_sync(send_all)()
