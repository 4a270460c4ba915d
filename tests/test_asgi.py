"""The ASGI application: websockets from other sites are refused at the door.

A page's origin is its scheme, host and port; a socket's page is its own site's
when its origin is the one the socket was opened to (``ws`` for ``http``, ``wss``
for ``https``).
"""

import pytest
from channels.testing import WebsocketCommunicator

from yahtzee_site.asgi import application

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


async def connects(*headers: tuple[bytes, bytes], scheme: str = "ws") -> bool:
    """Whether a socket to no room with these headers is let in (to be closed with 4404)."""
    communicator = WebsocketCommunicator(application, "/ws/games/anything/", headers=headers)
    communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    await communicator.disconnect()
    return bool(connected)


def origin(value: str) -> tuple[bytes, bytes]:
    return (b"origin", value.encode())


def host(value: str) -> tuple[bytes, bytes]:
    return (b"host", value.encode())


async def test_it_refuses_a_websocket_from_another_origin():
    assert not await connects(origin("https://evil.example"), host("127.0.0.1:8000"))


async def test_it_refuses_a_websocket_without_an_origin():
    assert not await connects(host("127.0.0.1:8000"))


async def test_it_accepts_a_page_on_the_same_host_and_port():
    assert await connects(origin("http://127.0.0.1:8000"), host("127.0.0.1:8000"))


async def test_it_accepts_the_default_port_written_or_not():
    assert await connects(origin("http://localhost"), host("localhost:80"))
    assert await connects(origin("http://localhost:80"), host("localhost"))


async def test_it_refuses_a_page_on_another_port_of_the_same_host():
    assert not await connects(origin("http://127.0.0.1:9000"), host("127.0.0.1:8000"))
    assert not await connects(origin("http://127.0.0.1"), host("127.0.0.1:8000"))


async def test_it_refuses_a_page_of_another_scheme():
    # An https page cannot be answered over plain ws, nor an http page over wss.
    assert not await connects(origin("https://127.0.0.1:8000"), host("127.0.0.1:8000"))
    assert not await connects(origin("http://localhost"), host("localhost"), scheme="wss")


async def test_it_accepts_an_https_page_on_wss():
    assert await connects(origin("https://localhost"), host("localhost"), scheme="wss")


async def test_it_refuses_a_host_the_site_does_not_serve():
    # A rebound domain (DNS rebinding) is its own origin: the Host header gives it away.
    assert not await connects(origin("http://evil.example"), host("evil.example"))


async def test_it_refuses_a_socket_without_a_host():
    assert not await connects(origin("http://127.0.0.1"))


async def test_it_accepts_an_https_page_behind_a_tls_proxy(settings):
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # The proxy terminates TLS and speaks plain ws to Daphne.
    proxied = (origin("https://localhost"), host("localhost"))

    assert await connects(*proxied, (b"x-forwarded-proto", b"https"))
    assert not await connects(*proxied)  # Without the header the page would be http.
    assert not await connects(
        origin("http://localhost"), host("localhost"), (b"x-forwarded-proto", b"https")
    )


async def test_it_ignores_the_proxy_header_unless_told_to_trust_it():
    assert not await connects(
        origin("https://localhost"), host("localhost"), (b"x-forwarded-proto", b"https")
    )


async def test_it_accepts_a_trusted_origin(settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://*.example.com"]

    assert await connects(origin("https://play.example.com"), host("127.0.0.1:8000"))
    assert not await connects(origin("https://play.example.com:8443"), host("127.0.0.1:8000"))
    assert not await connects(origin("http://play.example.com"), host("127.0.0.1:8000"))
