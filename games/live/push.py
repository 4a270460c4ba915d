"""Web Push: telling a browser of its games while no tab of the room is open.

A browser opts in from the room (:mod:`games.web.app`), one kind of news at a time: its
turn, in games whose clock is an hour or more or that have none; a game it sits in
has started; a rematch it was invited to. Each is a :class:`Notice`, found in what a
command saved (:func:`notices`, no query) and sent to every subscription of the seat's
browser session or account, unless the seat has the room open (a socket of it seen
within the heartbeat's expiry, :mod:`games.live.heartbeat`): that player sees the turn
or the start on the page.

**Sending never blocks or slows the command pipeline.** :func:`games.live.pipeline.save`
hands the notices of a command to :func:`post` once its transaction has committed;
:func:`post` puts them on a queue, in memory, and returns: no query, no network. One
daemon thread of each process, the sender (:class:`Sender`), takes them off the queue
one command's worth at a time: it reads the subscriptions of the seats' browsers on a
database connection of its own (after each batch, back to PostgreSQL's pool; kept open
on SQLite, as the command threads keep theirs), encrypts each message to its
browser (RFC 8291, aes128gcm), signs it with the site's VAPID key (RFC 8292) and posts it
to the browser's push service, waiting at most ``settings.PUSH_TIMEOUT`` seconds. A push
service that answers 404 or 410 no longer knows the subscription: its row is deleted.
Any other failure is logged and that message dropped: a notice is news, not state (the
room shows the game as it is when it is opened), so it is never retried. A queue that is
full (a push service hanging while thousands of turns start) drops new notices with a
warning rather than holding a command.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import threading
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.conf import settings
from django.db import close_old_connections
from django.db.models import Q
from django.utils import translation
from django.utils.functional import Promise
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from games.engine import events
from games.engine.room import Room
from games.live import heartbeat
from games.models import Connection, Game, Player, PushSubscription

if TYPE_CHECKING:
    import requests

logger = logging.getLogger(__name__)

#: A turn clock this long or longer (seconds), or none, makes a game one played across
#: hours or days, whose players are told their turn has come.
SLOW_CLOCK = 60 * 60

#: The kinds of news, each the subscription's field that opts in to it.
TURN, STARTED, REMATCH = "turns", "starts", "rematches"


@dataclass(frozen=True)
class Notice:
    """One piece of news for the browsers of one seat."""

    #: Which opt-in it needs: :data:`TURN`, :data:`STARTED` or :data:`REMATCH`.
    kind: str
    #: The room it is about (a rematch's: the new room), and the seat there it is for.
    code: str
    seat: int
    #: Worded when sent, in the language of the browser it is sent to (lazy translations).
    title: Promise | str
    body: Promise | str
    #: The seat's browser session and account, whose subscriptions receive it.
    session_key: str
    user_id: int | None
    #: When the command that caused it was saved.
    at: datetime

    def payload(self) -> str:
        """The message as the browser's service worker reads it (``static/js/sw.js``)."""
        message = {
            "kind": self.kind,
            "game": self.code,
            "seat": self.seat,
            "title": str(self.title),
            "body": str(self.body),
            "url": f"/g/{self.code}/",
            "at": self.at.isoformat(),
        }
        return json.dumps(message)


def enabled() -> bool:
    """Whether this site sends Web Push at all (it has a VAPID key, and ``PUSH_SENDING``)."""
    return bool(settings.VAPID_PRIVATE_KEY) and settings.PUSH_SENDING


def notices(
    game: Game,
    people: list[Player],
    on_turn: int | None,
    happened: Iterable[tuple[events.AnyEvent, Room]],
    at: datetime,
) -> list[Notice]:
    """What a command that saved the events ``happened`` (each with the room just after it)
    in ``game`` tells the browsers of ``people``, the seats still held by persons (not
    bots, not left); ``on_turn`` is the seat that was on turn before the command.

    The turn that started, when the game's clock is :data:`SLOW_CLOCK` or more or it has
    none (a turn a bot plays for an away player tells nobody); the game that started, to
    everyone but the host who started it; the rematch that was opened, to everyone but
    the player who opened it. No query: :func:`games.live.pipeline.save` calls it as it
    saves, and :func:`post` sends what it finds once the command has committed.
    """
    if not enabled():
        return []
    by_seat = {p.seat: p for p in people}
    slow = game.turn_seconds is None or game.turn_seconds >= SLOW_CLOCK
    found: list[Notice] = []

    def tell(
        kind: str,
        seat: int,
        title: Promise | str,
        body: Promise | str,
        *,
        code: str = game.code,
        as_seat: int = -1,
    ) -> None:
        player = by_seat.get(seat)
        if player is not None and (player.session_key or player.user_id is not None):
            there = seat if as_seat < 0 else as_seat
            found.append(
                Notice(kind, code, there, title, body, player.session_key, player.user_id, at)
            )

    for event, room in happened:
        if isinstance(event, events.Started):
            for seat in by_seat:
                if seat != room.host:
                    tell(
                        STARTED,
                        seat,
                        _("Your game has started"),
                        format_lazy(_("Playing: {players}."), players=", ".join(event.players)),
                    )
        elif isinstance(event, events.RematchOpened):
            # Everyone who stayed to the end is seated again, in order (bots too).
            stayed = [seat for seat in range(len(room.seated)) if not room.has_left(seat)]
            for seat in by_seat:
                if seat != event.seat:
                    body = format_lazy(
                        _("{name} opened a rematch: your seat is waiting."), name=event.name
                    )
                    again = stayed.index(seat)
                    tell(REMATCH, seat, _("A rematch!"), body, code=event.code, as_seat=again)
        now_on_turn = room.game.on_turn if room.game is not None else None
        # A score starts a turn even for the same seat (a solo game); otherwise a turn starts
        # when the seat on turn changes (the roll-off decided, a player left on turn).
        started = isinstance(event, events.Scored) or now_on_turn != on_turn
        if now_on_turn is not None and started and slow and not room.bot_on_turn():
            clock = time_words(game.turn_seconds)
            body = format_lazy(
                _("{name}, the dice are yours ({clock})."),
                name=room.players[now_on_turn],
                clock=clock,
            )
            tell(TURN, now_on_turn, _("Your turn"), body)
        on_turn = now_on_turn
    return found


def claim_guest_subscriptions(old_session_key: str, new_session_key: str, user_id: int) -> int:
    """A guest who logs in or signs up keeps the notifications this browser asked for.

    Logging in gives the browser a new session key (Django cycles it), so a subscription
    kept under the old one would reach neither the guest's seats (moved to the new key,
    :func:`games.live.arrivals.claim_guest_seats`) nor the account's. Each subscription
    of the old session that no account holds becomes the account's, and those of the
    account move to the new key: the account's notices reach this browser from then on.
    One another account made here stays that account's. Returns how many moved."""
    if not old_session_key:
        return 0
    mine = Q(user__isnull=True) | Q(user_id=user_id)
    return PushSubscription.objects.filter(mine, session_key=old_session_key).update(
        session_key=new_session_key, user_id=user_id
    )


def time_words(seconds: int | None) -> Promise | str:
    """A slow game's clock, for a person: "no clock", "1 hour a turn", "2 days a turn"
    (lazy: worded in the language of the browser it is sent to)."""
    if seconds is None:
        return _("no clock")
    hours = max(1, round(seconds / 3600))
    if hours % 24 == 0:
        days = hours // 24
        return format_lazy(ngettext_lazy("{n} day a turn", "{n} days a turn", days), n=days)
    return format_lazy(ngettext_lazy("{n} hour a turn", "{n} hours a turn", hours), n=hours)


#: Notices waiting for the sender, a command's at a time. Bounded: a push service that
#: hangs must not let them grow without end.
QUEUE_SIZE = 10_000


def post(found: list[Notice]) -> None:
    """Send these notices from the sender thread: call once committed. Never waits: the
    notices go on a queue in memory (dropped, with a warning, if it is full)."""
    if not found:
        return
    sender = Sender.running()
    try:
        sender.queue.put_nowait(found)
    except queue.Full:
        logger.warning("push queue full: %d notices of %s dropped", len(found), found[0].code)


class Sender:
    """The thread that sends the notices (the module's docstring), one per process."""

    _current: Sender | None = None
    _lock = threading.Lock()

    def __init__(self) -> None:
        # What sends is imported here, when a process first has a notice to send, not with
        # the module: pywebpush brings aiohttp, requests and py_vapid's cryptography, a
        # third of a second of CPU or more that every process would pay at its start (each
        # Daphne, each test worker, a site with push off) and most never use.
        import requests
        from py_vapid import Vapid  # type: ignore[import-untyped]  # No type hints.

        self.queue: queue.Queue[list[Notice]] = queue.Queue(QUEUE_SIZE)
        self.vapid = Vapid.from_string(settings.VAPID_PRIVATE_KEY)
        self.session: requests.Session = requests.Session()
        self.thread = threading.Thread(target=self._run, name="web-push", daemon=True)
        self.thread.start()

    @classmethod
    def running(cls) -> Sender:
        """This process's sender, started on first use."""
        with cls._lock:
            if cls._current is None:
                cls._current = Sender()
            return cls._current

    def _run(self) -> None:
        while True:
            found = self.queue.get()
            try:
                self.send(found)
            except Exception:  # The thread must outlive any one batch.
                logger.exception("push notices of %s were not sent", found[0].code)
            finally:
                # This thread's connection, as after a request: back to PostgreSQL's pool;
                # SQLite's stays open (closing it would checkpoint the log, with fsyncs).
                # Checking it may itself fail (the database away): the thread lives on.
                try:
                    close_old_connections()
                except Exception:
                    logger.warning("push: this thread's database connection could not be checked")
                self.queue.task_done()

    def send(self, found: list[Notice]) -> None:
        """Post each notice to every subscription that asked for its kind, but a turn or a
        start to a seat whose room is open (a rematch's room is new: always)."""
        close_old_connections()
        fresh = heartbeat.fresh_since()
        for notice in found:
            if notice.kind != REMATCH and (
                Connection.objects.filter(
                    game__code=notice.code, player__seat=notice.seat, seen_at__gte=fresh
                ).exists()
            ):
                continue  # The room is open in front of that player.
            owner = Q(session_key=notice.session_key) if notice.session_key else Q()
            if notice.user_id is not None:
                owner |= Q(user_id=notice.user_id)
            subscriptions = PushSubscription.objects.filter(owner, **{notice.kind: True})
            for subscription in subscriptions:
                self.deliver(subscription, notice)

    def deliver(self, subscription: PushSubscription, notice: Notice) -> None:
        """Post one notice to one browser's push service; a subscription it no longer knows
        (404, 410) is deleted."""
        import requests
        from pywebpush import WebPushException, webpush  # type: ignore[import-untyped]  # No hints.

        # Worded for this browser: the language its page was in when it subscribed.
        with translation.override(subscription.language or settings.LANGUAGE_CODE):
            data = notice.payload()
        try:
            webpush(
                {
                    "endpoint": subscription.endpoint,
                    "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
                },
                data=data,
                vapid_private_key=self.vapid,
                vapid_claims={"sub": settings.VAPID_SUBJECT},  # A fresh dict: webpush fills it.
                timeout=settings.PUSH_TIMEOUT,
                ttl=settings.PUSH_TTL,
                headers={"Urgency": "high" if notice.kind == TURN else "normal"},
                requests_session=self.session,
            )
        except WebPushException as error:
            status = error.response.status_code if error.response is not None else None
            if status in (404, 410):
                PushSubscription.objects.filter(pk=subscription.pk).delete()
                logger.info("push subscription %s is gone (%s): deleted", subscription.pk, status)
            else:
                logger.warning("push to subscription %s failed: %s", subscription.pk, error)
        except requests.RequestException as error:  # Refused, timed out: this message is lost.
            logger.warning("push to subscription %s failed: %s", subscription.pk, error)

    def wait_until_sent(self) -> None:
        """Return once every notice posted so far has been sent (or given up on)."""
        self.queue.join()


def _forget_sender() -> None:
    # A forked child (a test's server) has none of its parent's threads: it starts its own.
    Sender._current = None
    Sender._lock = threading.Lock()


os.register_at_fork(after_in_child=_forget_sender)
