"""Computer opponents: bots take their turns through the same services as people.

A bot's seat is a :class:`~games.models.Player` with a ``bot`` level; how each
level chooses is :mod:`games.strategy.policies`. When a bot is on turn, a
*driver* (an asyncio task in a server process) plays its turns one move at a
time, with a short pause before each so the room can follow: the first roll,
the dice it keeps (a ``hold``, shown like a person's), the next roll, the box.

A bot also keeps an away player's seat warm (:mod:`games.clock`): it plays that
seat's turns, marked ``by: "bot"``, at the Optimal level, until the player comes back.

Who drives: whichever process handled the command that made a bot's turn come
(the start, a score, someone leaving), any process where a browser opens
the room while a bot is on turn, and any process whose clock watch
(:mod:`games.watch`) finds a bot on turn that has not moved for a while (so a
game picks up again after its process was killed or every process restarted).
With several processes two drivers may chase one game; each move is
still made exactly once, because a driver makes a move only if the play is
exactly as it was when it chose the move (the same ``state_version`` and the
same held dice, checked under the game's row lock). The driver that finds the
game moved on stops; the one that moved it goes on.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction

from games import clock, events, outbox, rules, services
from games.models import Game, Player
from games.strategy import odds
from games.strategy.policies import Move, choose, others_of

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Plan:
    """A bot's next move, and the play it was chosen for."""

    code: str
    player_id: int
    seat: int
    state_version: int
    held: tuple[int, ...]
    move: Move
    #: Whether the move is only to show the dice kept (a ``hold``) before the roll.
    show_hold: bool
    #: ``"bot"`` when the bot plays for an away player's seat; ``None`` on its own seat.
    by: str | None = None


@dataclass(frozen=True)
class _OnTurn:
    """The bot on turn in a game: who it is, the play it sees, and its position."""

    code: str
    player_id: int
    level: str
    state_version: int
    position: rules.Position
    by: str | None
    #: Every seat's card and the seats that left: what the To-win bot plays against.
    cards: tuple[rules.Scorecard, ...] = ()
    left: frozenset[int] = frozenset()


def _on_turn(code: str) -> _OnTurn | None:
    """The bot on turn in ``code`` and its position, or ``None`` if no bot is on turn."""
    table = services.table(code)
    position = table.state.position() if table.state is not None else None
    if not table.bot_on_turn() or position is None:
        return None
    player = table.players[position.seat]
    return _OnTurn(
        code=code,
        player_id=player.pk,
        # An away player's seat is kept warm by the best bot, for the player's sake.
        level=player.bot or Player.Bot.OPTIMAL,
        state_version=table.game.state_version,
        position=position,
        by=None if player.bot else events.BY_BOT,
        cards=table.state.cards if table.state is not None else (),
        left=table.state.left if table.state is not None else frozenset(),
    )


def _plan(bot: _OnTurn) -> Plan:
    """What the bot does next (pure apart from loading a strategy table)."""
    position = bot.position
    others: list[odds.Seat] = []
    if bot.level == Player.Bot.WIN and position.has_rolled:
        # The other seats' final totals as the odds see them (loading the odds table).
        table = odds.load(position.rules)
        others = others_of(table, bot.cards, position.seat, bot.left)
    # Before the first roll: the roll, throwing all five.
    move = choose(bot.level, position, others)
    show_hold = (
        position.has_rolled and not move.is_score and tuple(sorted(move.hold)) != position.held
    )
    return Plan(
        code=bot.code,
        player_id=bot.player_id,
        seat=position.seat,
        state_version=bot.state_version,
        held=position.held,
        move=move,
        show_hold=show_hold,
        by=bot.by,
    )


def next_plan(code: str) -> Plan | None:
    """The next move of the bot on turn in ``code``, or ``None`` if no bot is on turn."""
    bot = _on_turn(code)
    return None if bot is None else _plan(bot)


def make(plan: Plan) -> bool:
    """Make ``plan``'s move if the play is still as it was planned for; ``False`` if not.

    The check and the move share one transaction under the game's row lock, so of
    two drivers with the same plan exactly one moves.
    """
    with transaction.atomic():
        game = Game.objects.select_for_update().get(code=plan.code)
        state = game.state
        held = tuple(sorted(state.turn.held)) if state is not None else ()
        if game.state_version != plan.state_version or held != plan.held:
            logger.info(
                "bot in %s: the move was made elsewhere first; this driver stops", plan.code
            )
            return False
        if plan.by is not None and not clock.Attendance.from_json(game.attendance).is_away(
            plan.seat
        ):
            return False  # The away player came back: the seat is theirs again.
        move, by = plan.move, plan.by
        if move.category is not None:
            services.score(
                plan.code, plan.player_id, move.category.value, version=game.version, by=by
            )
        elif plan.show_hold:
            services.hold(plan.code, plan.player_id, move.hold, by=by)
        else:
            services.roll(plan.code, plan.player_id, move.hold, version=game.version, by=by)
    return True


# --------------------------------------------------------------------------
# Drivers: one asyncio task per game a bot is playing in, in this process
# --------------------------------------------------------------------------

_driving: dict[str, asyncio.Task[None]] = {}


async def drive(code: str) -> None:
    """Play the bots' turns in ``code`` until a person is on turn or the game is over."""
    while True:
        bot = await outbox.on_database_thread(_on_turn, code)(code)
        if bot is None:
            return
        # Choosing may load a strategy table: off the event loop, and off the database thread.
        plan = await sync_to_async(_plan, thread_sensitive=False)(bot)
        await asyncio.sleep(settings.YAHTZEE_BOT_PAUSE)  # Seconds, so people can follow.
        if not await outbox.run(make, plan):
            return  # Another driver moved first; it goes on.


def kick(code: str) -> None:
    """Start a driver for ``code`` in this process unless one runs (call from the event loop)."""
    task = _driving.get(code)
    if task is not None and not task.done():
        return
    task = asyncio.get_running_loop().create_task(_run(code))
    _driving[code] = task


#: How long a driver waits out an outage of the database or Redis, in seconds, before it
#: stops (the clock's watch starts a stalled bot again later, :mod:`games.watch`).
OUTAGE_PATIENCE = 60.0
#: Seconds between its tries meanwhile.
OUTAGE_RETRY = 0.5


async def _run(code: str) -> None:
    loop = asyncio.get_running_loop()
    give_up_at = loop.time() + OUTAGE_PATIENCE
    try:
        while True:
            try:
                await drive(code)
                return
            except outbox.UNAVAILABLE as error:  # PostgreSQL or Redis restarting: wait.
                if loop.time() >= give_up_at:
                    logger.warning("bot in %s stopped: the outage goes on (%s)", code, error)
                    return
                logger.info("bot in %s waits for the database or Redis: %s", code, error)
            await asyncio.sleep(OUTAGE_RETRY)
    except (services.CommandError, rules.RuleError) as error:
        # The game changed under the bot in a way the check did not see; the next kick resumes.
        logger.warning("bot in %s stopped: %s", code, error)
    except Exception:
        logger.exception("bot in %s failed", code)
    finally:
        if _driving.get(code) is asyncio.current_task():
            del _driving[code]


async def settle() -> None:
    """Wait until no driver runs in this process (for tests and shutdown)."""
    while _driving:
        await asyncio.gather(*list(_driving.values()), return_exceptions=True)
