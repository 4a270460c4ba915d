"""Limits on how often one browser, address or seat may do something: counters in the cache.

Each limit is a list of :class:`Rate` (so many in so many seconds). An attempt is
counted in a fixed window of each rate, in the ``limits`` cache, which is Redis
when ``REDIS_URL`` is set, so every server process counts together. The figures are
settings (``LIMIT_*`` in ``yahtzee_site/settings.py``, with why they are what they
are). Logins are django-axes' work (``AXES_*``); this module counts the rest.

If the cache cannot be reached, an attempt is allowed: a Redis blip must not stop
people playing, and the channel layer has the same Redis anyway.
"""

from __future__ import annotations

import ipaddress
import logging
import math
import time
from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.http import HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

log = logging.getLogger(__name__)

#: The cache alias the counters live in (``CACHES`` in the settings).
CACHE = "limits"


#: ``(count, seconds)``: so many attempts in each window of so many seconds.
Rate = tuple[int, int]


def now() -> float:
    """The time the windows are counted in (a test moves it on)."""
    return time.time()


def hit(scope: str, key: str, rates: Sequence[Rate]) -> int:
    """Count one attempt of ``key`` at ``scope``; 0 if it is allowed, else the seconds to wait.

    A refused attempt counts too: a script that keeps trying stays refused until its
    window ends, where a person who waits is let through.
    """
    if not settings.YAHTZEE_RATE_LIMITS:
        return 0
    return _wait(scope, key, rates, add=1)


def waiting(scope: str, key: str, rates: Sequence[Rate]) -> int:
    """The seconds ``key`` must wait at ``scope`` (0: none), counting nothing."""
    if not settings.YAHTZEE_RATE_LIMITS:
        return 0
    return _wait(scope, key, rates, add=0)


def take(scope: str, key: str, allowance: int, *, seconds: int) -> bool:
    """Take one of ``allowance`` attempts that ``key`` has at ``scope`` for ``seconds``.

    Unlike :func:`hit`, always on: an allowance is a limit on what may be kept (chat
    in a game that is over), not on a rate.
    """
    return _wait(scope, key, [(allowance, seconds)], add=1, aligned=False) == 0


def _key(scope: str, key: str, seconds: int, *, aligned: bool) -> str:
    window = int(now() // seconds) if aligned else 0
    return f"{scope}:{key}:{seconds}:{window}"


def _wait(scope: str, key: str, rates: Sequence[Rate], *, add: int, aligned: bool = True) -> int:
    cache = caches[CACHE]
    wait = 0
    for count_allowed, seconds in rates:
        cache_key = _key(scope, key, seconds, aligned=aligned)
        try:
            if add:
                # add() only creates the counter; incr() is atomic in Redis and locally.
                cache.add(cache_key, 0, timeout=seconds + 1)
                count = cache.incr(cache_key, add)
            else:
                count = int(cache.get(cache_key, 0)) + 1
        except ValueError:  # The counter expired between add() and incr(): a new window.
            continue
        except Exception:  # The cache is away: see the module's docstring.
            log.warning("limits: the cache is unavailable; allowing %s", scope, exc_info=True)
            return 0
        if count > count_allowed:
            ends = (now() // seconds + 1) * seconds if aligned else now() + seconds
            wait = max(wait, math.ceil(ends - now()))
    return max(wait, 1) if wait else 0


def slowed(scope: str, key: str, *, free: int, window: int, most: int) -> int:
    """The seconds ``key`` must still wait at ``scope`` before its next try (0: none).

    A growing delay rather than a ban: past ``free`` failures (:func:`failed`) within
    ``window`` seconds, each failure makes the next try wait 2, 4, 8 ... seconds (at
    most ``most``) after it. A person sharing the address waits seconds, not an hour;
    a script that tries thousands of accounts gets a few dozen tries an hour.
    """
    if not settings.YAHTZEE_RATE_LIMITS:
        return 0
    cache = caches[CACHE]
    try:
        count = int(cache.get(_key(scope, key, window, aligned=False), 0))
        last = float(cache.get(f"{scope}:{key}:last", 0.0))
    except Exception:  # The cache is away: see the module's docstring.
        log.warning("limits: the cache is unavailable; allowing %s", scope, exc_info=True)
        return 0
    if count <= free:
        return 0
    delay: int = min(most, 2 ** (count - free))
    return max(0, math.ceil(last + delay - now()))


def failed(scope: str, key: str, *, window: int) -> None:
    """Count a failure of ``key`` at ``scope``, and when it came, for :func:`slowed`."""
    if not settings.YAHTZEE_RATE_LIMITS:
        return
    _wait(scope, key, [(0, window)], add=1, aligned=False)
    try:
        caches[CACHE].set(f"{scope}:{key}:last", now(), timeout=window)
    except Exception:
        log.warning("limits: the cache is unavailable; not counting %s", scope, exc_info=True)


def opening_a_room(address: str, session_key: str | None = None) -> int:
    """Count a room opened from ``address`` (and a browser's session, when it has one);
    0 if it may be opened, else the seconds to wait."""
    wait = hit("rooms-address", address, settings.LIMIT_ROOMS_PER_ADDRESS)
    if session_key:
        wait = max(wait, hit("rooms-session", session_key, settings.LIMIT_ROOMS_PER_SESSION))
    return wait


def rooms_refusal(wait: int) -> str:
    """Why a room was not opened, for people."""
    return _("You have opened a lot of rooms just now: try again in %(wait)s.") % {
        "wait": wait_text(wait)
    }


def client_address(request: HttpRequest) -> str:
    """The address a request came from, as the limits and django-axes count it.

    Behind a proxy every request comes from the proxy: ``CLIENT_ADDRESS_HEADER`` names
    the header in which the proxy passes on the client's address (the last address of
    a list, the one our proxy added). An IPv6 address counts as its /64, which one
    household or machine usually holds whole.
    """
    header = settings.CLIENT_ADDRESS_HEADER
    forwarded = request.META.get("HTTP_" + header.upper().replace("-", "_"), "") if header else ""
    return _counted(request.META.get("REMOTE_ADDR") or "", forwarded)


def socket_address(scope: Mapping[str, Any]) -> str:
    """The address a websocket came from (its ASGI ``scope``), as :func:`client_address`."""
    client = scope.get("client") or ("",)
    header = settings.CLIENT_ADDRESS_HEADER.lower().encode()
    headers = dict(scope.get("headers") or ()) if header else {}
    forwarded = headers.get(header, b"").decode("latin-1")
    return _counted(str(client[0] or ""), forwarded)


def _counted(address: str, forwarded: str) -> str:
    address = forwarded.split(",")[-1].strip() or address
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6:
        return str(ipaddress.ip_network(f"{ip}/64", strict=False).network_address) + "/64"
    return str(ip)


def wait_text(seconds: int) -> str:
    """``seconds`` as a person reads a wait: "a minute", "5 minutes", "30 seconds"."""
    if seconds >= 90:
        minutes = math.ceil(seconds / 60)
        return ngettext("%(count)s minute", "%(count)s minutes", minutes) % {"count": minutes}
    if seconds > 45:
        return _("a minute")
    if seconds == 1:
        return _("a second")
    return ngettext("%(count)s second", "%(count)s seconds", seconds) % {"count": seconds}
