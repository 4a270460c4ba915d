"""What the room tells those who ask: the snapshot, the log, and the coach's and the odds'
questions. Nothing here writes.
"""

from __future__ import annotations

import functools
from typing import Any

from games.engine import codec, events, rules
from games.live import clock
from games.live.pipeline import CommandError, Table, load
from games.live.presence import connected, is_here
from games.models import Game, GameEvent, Player
from games.wire import presentation

#: Events a snapshot carries, so a page can show what just happened.
RECENT_EVENTS = 50


def table(code: str) -> Table:
    """The saved game as a command sees it, read afresh (for reading only)."""
    return load(code)


def rules_state(code: str) -> tuple[Game, list[Player], rules.Game | None]:
    """The saved game: its row, its seats, and the rules engine's game once started."""
    read = load(code)
    return read.game, read.players, read.state


def snapshot(code: str, player_id: int | None = None) -> dict[str, Any]:
    """Everything a client needs to draw the room, as of ``version``.

    Its ``recent`` events carry their facts (and a name for a seat that left), not
    what a live event adds from the game after it: the snapshot has that as it is now.
    """
    read = load(code)
    return snapshot_of(read, player_id, connected(read.game))


def snapshot_of(table: Table, player_id: int | None, here: tuple[set[int], int]) -> dict[str, Any]:
    """The snapshot of ``table`` for the seat ``player_id``, with who is ``here``
    (:func:`games.live.presence.connected`)."""
    game, room, state = table.game, table.room, table.state
    you = next((p for p in table.players if p.pk == player_id), None)
    outcome = state.outcome() if state else None
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
                "connected": is_here(p, seats),
                "left": table.has_left(p),
                "bot": p.bot or None,
                "card": presentation.card_json(
                    state.cards[p.seat] if state else rules.Scorecard(game.rules)
                ),
                "place": outcome.places[p.seat] if outcome else None,
                "away": room.seated[p.seat].stood_in,
                "handed": room.seated[p.seat].handed,
            }
            for p in table.players
        ],
        "watchers": watchers,
        "turn": presentation.turn_json(state),
        "clock": clock.clock_json(game, state, clock.now()),
        "roll_off": presentation.roll_off_json(state.roll_off) if state else None,
        "winners": list(outcome.winners) if outcome else [],
        "rematch": room.rematch,
        "recent": _recent(game.pk, game.code, game.version, table.names),
    }


@functools.lru_cache(maxsize=256)
def _recent(game_id: int, code: str, version: int, names: tuple[str, ...]) -> list[dict[str, Any]]:
    """The last :data:`RECENT_EVENTS` events of game ``code`` up to ``version`` as a snapshot
    carries them (``names``: its seats' names at that version, for the seats that left).

    The log is append-only and the event numbered ``version`` is the last of that version,
    so what is read for a version never changes, even while a later one is saved: this
    process keeps the last ones read, by the game's code (random, never reused), not
    only its id. A crowd's every join, and each socket of a burst, read one room at one
    version. Each snapshot of that version shares the list: never to be changed.
    """
    logged = GameEvent.objects.filter(game_id=game_id, seq__lte=version)
    recent = logged.order_by("-seq")[:RECENT_EVENTS]
    return [presentation.logged_message(_logged(e), names) for e in reversed(recent)]


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


def log(code: str) -> list[events.Logged]:
    """The log of a game, in order: each event with its number and time."""
    return [_logged(row) for row in GameEvent.objects.filter(game__code=code).order_by("seq")]


def _logged(row: GameEvent) -> events.Logged:
    return events.Logged(row.seq, codec.decode_event(row.kind, row.payload), row.created_at)


def replay_events(code: str) -> list[events.AnyEvent]:
    """The events of a game's log, in order (:func:`games.engine.replay.replay` takes them)."""
    return [logged.event for logged in log(code)]


def check_seat(code: str, player_id: int | None, as_seat: int | None) -> None:
    """Refuse, as a command of a seat is refused, unless ``player_id`` holds a seat still in
    the game and ``as_seat`` is that seat (for a preference that changes nothing saved)."""
    load(code).player(player_id, as_seat, returning=False)


def coach_view(
    code: str, player_id: int | None, *, as_seat: int | None = None
) -> tuple[rules.Position, int, tuple[rules.Scorecard, ...], frozenset[int]]:
    """:func:`coach_position`, with every seat's card and the seats that left (the coach
    weighs the chance to win against them)."""
    position, version = coach_position(code, player_id, as_seat=as_seat)
    state = load(code).in_play()
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
    read = load(code)  # One row: its record and its versions belong to one moment.
    player = read.player(player_id, as_seat)
    state = read.in_play()
    if not read.game.coach:
        raise CommandError("coach_off", "the coach is off in this room")
    position = state.position()
    if position is None or position.seat != player.seat:
        raise rules.IllegalMoveError("it is not your turn", code="not_your_turn")
    if not position.has_rolled:
        raise rules.IllegalMoveError("roll first: the coach looks at the dice", code="not_rolled")
    return position, read.game.state_version


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
    read = load(code)  # One row: its record and its versions belong to one moment.
    seated = next((p for p in read.players if p.pk == player_id), None)
    if seated is not None and not read.has_left(seated):
        read.player(player_id, as_seat)  # Its own seat only.
        if not read.game.show_odds:
            raise CommandError(
                "odds_hidden",
                "in this room the players do not see who is likely to win (the host chose "
                "so when it opened); watchers do",
            )
    elif as_seat is not None:
        raise CommandError("not_your_seat", "a watcher acts for no seat")
    if read.state is None:
        raise CommandError("not_started", "the game has not started yet")
    game = read.game
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
    return read.state, game.state_version
