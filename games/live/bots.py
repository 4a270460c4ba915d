"""Computer opponents: bots take their turns through the same services as people.

A bot's seat is a :class:`~games.models.Player` with a ``bot`` level; how each
level chooses is :mod:`games.strategy.policies`. When a bot is on turn, a
*driver* (an asyncio task in a server process) plays its turns one move at a
time, with a short pause before each so the room can follow: the first roll,
the dice it keeps (a ``hold``, shown like a person's), the next roll, the box.

A bot also keeps an away player's seat warm (:mod:`games.live.clock`): it plays that
seat's turns, marked ``by: "bot"``, at the Optimal level, until the player comes back.

Who drives: whichever process handled the command that made a bot's turn come
(the start, a score, someone leaving), any process where a browser opens
the room while a bot is on turn, and any process whose clock watch
(:mod:`games.live.watch`) finds a bot on turn that has not moved for a while (so a
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
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Protocol

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import transaction

from games.engine import events, rules
from games.live import clock, outbox, services
from games.live.loops import runs_here
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
    #: How long the bots of this room take over their moves (:func:`pause`).
    pace: str = Game.BotPace.NATURAL
    #: Whether the turn's dice are still to be thrown the first time.
    first_roll: bool = False

    @property
    def step(self) -> str:
        """What the move is to a person watching: ``first_roll`` (picking the dice up),
        ``keep`` (looking at them and showing which to keep), ``roll`` (throwing the dice
        not kept, just after showing which), ``reroll`` (throwing all five again: decided
        without showing any kept) or ``score`` (choosing a box on the card)."""
        if self.move.is_score:
            return "score"
        if self.show_hold:
            return "keep"
        if self.first_roll:
            return "first_roll"
        return "roll" if self.held else "reroll"


@dataclass(frozen=True)
class _OnTurn:
    """The bot on turn in a game: who it is, the play it sees, and its position."""

    code: str
    player_id: int
    level: str
    state_version: int
    position: rules.Position
    by: str | None
    pace: str
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
        pace=table.game.bot_pace,
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
        pace=bot.pace,
        first_roll=not position.has_rolled,
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
# The pace: how long a bot takes over each move
# --------------------------------------------------------------------------
#
# The host chooses, per room (``Game.bot_pace``). Before, every move waited 0.9 s,
# and the page then spent most of a second on each roll's animation and the dice
# shown kept: a bot's turn took 8.5 to 10.5 s, and five bots 45 s a round.
#
# - ``instant``: no wait at all (the driver still yields to the event loop between
#   moves), for people who only want the result.
# - ``quick``: 0.3 s before every move: the moves can be told apart, no more.
# - ``natural`` (the default): a pause that follows the decision, as a person's does,
#   varied by a fifth either way so that no two turns beat alike. Picking up the dice is
#   quick, deciding which to keep or choosing a box takes longer, and throwing the dice
#   just shown kept is quick again. Every wait after a roll is longer than the page's
#   roll animation (0.65 s), so the dice are seen before the bot acts on them. A full
#   turn (throw, keep, throw, keep, throw, score) takes 0.5 + 0.9 + 0.35 + 0.9 + 0.35
#   + 1.2 = 4.2 s of pauses; one that scores sooner, less. ``benchmarks/bot_pace.py``
#   measured 3.7 s a turn on average for the Optimal bot (3.5 s for Casual; 90 % of
#   turns from 1.7 to 4.5 s), against 4.8 s of server waits with the old 0.9 s, and
#   3.4 s a turn in a live room on SQLite; ``quick``, 1.6 s; ``instant``, 0.01 s.

#: Seconds a ``quick`` bot waits before each move.
QUICK_PAUSE: Final = 0.3
#: Seconds a ``natural`` bot waits before each kind of move (:attr:`Plan.step`).
NATURAL_PAUSES: Final = {
    "first_roll": 0.5,
    "keep": 0.9,
    "roll": 0.35,
    "reroll": 0.9,
    "score": 1.2,
}
#: How much a ``natural`` pause varies, either way (0.2: from 80 % to 120 %).
NATURAL_SPREAD: Final = 0.2


class Uniform(Protocol):
    """Where a natural pause's variation comes from (:class:`random.Random`, or a test's)."""

    def uniform(self, a: float, b: float, /) -> float: ...


#: Where the natural pauses' variation comes from (a test puts its own).
variation: Uniform = random.Random()
#: How a driver waits (a test puts its own, to read the waits instead of waiting them).
sleep: Callable[[float], Awaitable[object]] = asyncio.sleep


def pause(plan: Plan, rng: Uniform | None = None) -> float:
    """Seconds the bot waits before making ``plan``'s move, at its room's pace.

    ``settings.YAHTZEE_BOT_PAUSE`` (``YAHTZEE_BOT_PAUSE_MS``), when set, is every
    move's wait instead, whatever the pace: the tests' override (0: at once).
    """
    fixed = settings.YAHTZEE_BOT_PAUSE
    if fixed is not None:
        return float(fixed)
    if plan.pace == Game.BotPace.INSTANT:
        return 0.0
    if plan.pace == Game.BotPace.QUICK:
        return QUICK_PAUSE
    spread = (rng or variation).uniform(1 - NATURAL_SPREAD, 1 + NATURAL_SPREAD)
    return round(NATURAL_PAUSES[plan.step] * spread, 3)


# --------------------------------------------------------------------------
# Drivers: one asyncio task per game a bot is playing in, in this process
# --------------------------------------------------------------------------

_driving: dict[str, asyncio.Task[None]] = {}


async def drive(code: str) -> None:
    """Play the bots' turns in ``code`` until a person is on turn or the game is over,
    waiting :func:`pause` before each move."""
    while True:
        bot = await outbox.on_database_thread(_on_turn, code)(code)
        if bot is None:
            return
        # Choosing may load a strategy table: off the event loop, and off the database thread.
        plan = await sync_to_async(_plan, thread_sensitive=False)(bot)
        await sleep(pause(plan))  # asyncio.sleep(0) too yields to the event loop.
        if not await outbox.run(make, plan):
            return  # Another driver moved first; it goes on.


def kick(code: str) -> None:
    """Start a driver for ``code`` in this process unless one runs (call from the event loop).

    Only a driver of the running event loop counts (:mod:`games.live.loops`): one started
    while a test's loop was cancelling its tasks (a command answered during the test's
    teardown) is left pending when that loop closes, and must not keep a later loop's bot
    from playing.
    """
    if runs_here(_driving.get(code)):
        return
    _driving[code] = asyncio.get_running_loop().create_task(_run(code))


#: How long a driver waits out an outage of the database or Redis, in seconds, before it
#: stops (the clock's watch starts a stalled bot again later, :mod:`games.live.watch`).
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
    """Wait until no driver of the running event loop runs (for tests and shutdown).

    A driver left on an earlier, closed loop (see :func:`kick`) is not waited for.
    """
    while running := [t for t in _driving.values() if runs_here(t)]:
        await asyncio.gather(*running, return_exceptions=True)
