"""Which web pages may ask this site to act: one rule for the JSON API and the websockets.

An origin is a scheme, a host and a port. A page is the site's own when its origin
is the one the request itself was made to: the scheme as Django sees it (so behind
a proxy that terminates TLS, ``SECURE_PROXY_SSL_HEADER`` makes it https), the host
and the port of the ``Host`` header, which must be one of ``ALLOWED_HOSTS``. The
origins in ``CSRF_TRUSTED_ORIGINS`` (``https://*.example.com`` included, as Django
reads them) are trusted too. Anything else is another site, whatever its host: a
page on ``http://127.0.0.1:9000`` is not the site on ``http://127.0.0.1:8000``.
"""

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain

DEFAULT_PORTS = {"http": 80, "https": 443}

#: (scheme, host, port), the host in lower case, the port filled in when left out.
Origin = tuple[str, str, int]

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Any, Any], Awaitable[None]]


def parse(text: str) -> Origin | None:
    """``"http://Example.com"`` as ``("http", "example.com", 80)``; ``None`` if it is no
    http(s) origin (``"null"``, a bad port, another scheme)."""
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return scheme, parts.hostname, port or DEFAULT_PORTS[scheme]


def is_trusted(origin: str, *, scheme: str, host: str) -> bool:
    """Whether a page at ``origin`` may act on the site as reached at ``scheme://host``.

    ``host`` is the ``Host`` header (with its port, if any); ``scheme`` is ``http`` or
    ``https``, as the page that was served from there would have.
    """
    seen = parse(origin)
    if seen is None:
        return False
    if seen == parse(f"{scheme}://{host}"):
        return True
    return any(_matches(seen, pattern) for pattern in settings.CSRF_TRUSTED_ORIGINS)


def _matches(seen: Origin, pattern: str) -> bool:
    # urlsplit cannot read "*" in a host name as a port-less host, so drop it first.
    wildcard = "://*." in pattern
    trusted = parse(pattern.replace("://*.", "://", 1))
    if trusted is None:
        return False
    scheme, host, port = trusted
    if seen[0] != scheme or seen[2] != port:
        return False
    return is_same_domain(seen[1], f".{host}") if wildcard else seen[1] == host


def is_allowed_host(host: str) -> bool:
    """Whether the ``Host`` header names a host the site serves (``ALLOWED_HOSTS``).

    Django checks this for every HTTP request; a websocket must check it itself, or a
    page on a rebound domain (DNS rebinding) would be its own origin.
    """
    allowed = settings.ALLOWED_HOSTS
    if settings.DEBUG and not allowed:
        allowed = [".localhost", "127.0.0.1", "[::1]"]
    domain, _ = split_domain_port(host)
    return bool(domain) and validate_host(domain, allowed)


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def _is_secure(scope: Scope) -> bool:
    """Whether the page that opens this socket came over https, as ``request.is_secure()``."""
    if scope.get("scheme") == "wss":
        return True
    proxy: tuple[str, str] | None = getattr(settings, "SECURE_PROXY_SSL_HEADER", None)
    if proxy is None:
        return False
    meta_name, secure_value = proxy
    header = meta_name.removeprefix("HTTP_").lower().replace("_", "-").encode()
    value = _header(scope, header)
    return value is not None and value.split(",", 1)[0].strip() == secure_value


class SameOriginValidator:
    """Refuse (HTTP 403 on the handshake) a websocket whose ``Origin`` is not the site's own.

    The socket's scheme stands for its page's (``ws`` for ``http``, ``wss`` for
    ``https``); with no ``Origin``, no ``Host`` or a host the site does not serve the
    socket is refused too, before the application sees it.
    """

    def __init__(self, application: ASGIApp) -> None:
        self.application = application

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if self.allows(scope):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)  # type: ignore[no-any-return]

    @staticmethod
    def allows(scope: Scope) -> bool:
        origin, host = _header(scope, b"origin"), _header(scope, b"host")
        if origin is None or host is None or not is_allowed_host(host):
            return False
        return is_trusted(origin, scheme="https" if _is_secure(scope) else "http", host=host)
