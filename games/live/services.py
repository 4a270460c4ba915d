"""The live room's commands and questions in one place, for the consumer, the bots and the pages.

Each lives in the module of its role; this one only names them:

- :mod:`games.live.pipeline`: the one way a command changes a game (load, apply, save
  with its events at its version, tell the room once committed), and :class:`CommandError`;
- :mod:`games.live.store`: the one statement that saves a game at its version;
- :mod:`games.live.commands`: one function per command of a game;
- :mod:`games.live.queries`: the snapshot, the log, the coach's and the odds' questions;
- :mod:`games.live.presence` and :mod:`games.live.arrivals`: who is here, and a socket
  arriving in a room;
- :mod:`games.live.watchers`: the watchers' chat.
"""

from __future__ import annotations

from games.live.arrivals import (
    Arrival,
    arrive,
    arrive_from,
    claim_guest_seats,
    resume,
    seat_of,
    session_key_of,
)
from games.live.commands import (
    add_bot,
    chat,
    chat_text,
    clean_name,
    come_back,
    create_game,
    hand_to_bot,
    hold,
    join_game,
    leave_game,
    rematch,
    remove_bot,
    remove_player,
    roll,
    score,
    set_bot_pace,
    set_coach,
    set_show_odds,
    start_game,
    wake,
)
from games.live.pipeline import CommandError, Table, copies
from games.live.presence import connected, move_connection, presence, release, tell_presence
from games.live.queries import (
    RECENT_EVENTS,
    check_seat,
    coach_position,
    coach_view,
    game_json,
    log,
    odds_game,
    replay_events,
    rules_state,
    snapshot,
    table,
)
from games.live.watchers import WATCHER_CHAT, watcher_chat, watcher_name

__all__ = [
    "RECENT_EVENTS",
    "WATCHER_CHAT",
    "Arrival",
    "CommandError",
    "Table",
    "add_bot",
    "arrive",
    "arrive_from",
    "chat",
    "chat_text",
    "check_seat",
    "claim_guest_seats",
    "clean_name",
    "coach_position",
    "coach_view",
    "come_back",
    "connected",
    "copies",
    "create_game",
    "game_json",
    "hand_to_bot",
    "hold",
    "join_game",
    "leave_game",
    "log",
    "move_connection",
    "odds_game",
    "presence",
    "release",
    "rematch",
    "remove_bot",
    "remove_player",
    "replay_events",
    "resume",
    "roll",
    "rules_state",
    "score",
    "seat_of",
    "session_key_of",
    "set_bot_pace",
    "set_coach",
    "set_show_odds",
    "snapshot",
    "start_game",
    "table",
    "tell_presence",
    "wake",
    "watcher_chat",
    "watcher_name",
]
