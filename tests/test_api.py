"""``POST /api/games/`` takes JSON from the site's own pages or from clients with no Origin.

Another web site cannot make its visitors' browsers create rooms: the request a
browser sends across sites without asking first (a form, ``text/plain``) is
refused for its type, and any request from another site's page for its origin.
"""

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from games.live import outbox
from games.models import Game

pytestmark = pytest.mark.django_db

BODY = '{"name": "Ann", "seats": 2}'


def post(client, content_type="application/json", **headers):  # type: ignore[no-untyped-def]
    # The test client serves http://testserver.
    return client.post("/api/games/", BODY, content_type=content_type, headers=headers)


def refusal(response) -> tuple[int, str]:  # type: ignore[no-untyped-def]
    return response.status_code, response.json()["error"]["code"]


def test_it_creates_a_room_for_a_client_with_no_origin(client) -> None:  # type: ignore[no-untyped-def]
    assert post(client).status_code == 201


def test_it_creates_a_room_for_the_sites_own_page(client) -> None:  # type: ignore[no-untyped-def]
    assert post(client, Origin="http://testserver").status_code == 201


def test_it_takes_an_empty_body_with_no_type(client) -> None:  # type: ignore[no-untyped-def]
    # Nothing to mistype: an empty room, as with "{}".
    response = client.post("/api/games/", b"", content_type="")

    assert (response.status_code, response.json()["seat"]) == (201, None)


def test_it_takes_json_with_a_charset(client) -> None:  # type: ignore[no-untyped-def]
    assert post(client, content_type="application/json; charset=utf-8").status_code == 201


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data", ""]
)
def test_it_refuses_a_body_that_is_not_json(client, content_type) -> None:  # type: ignore[no-untyped-def]
    response = post(client, content_type=content_type)

    assert refusal(response) == (415, "unsupported_media_type")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "origin",
    [
        "https://evil.example",
        "http://testserver:8080",  # Same host, another port.
        "https://testserver",  # Same host, another scheme.
        "null",  # A sandboxed frame or a file.
    ],
)
def test_it_refuses_a_page_from_another_origin(client, origin) -> None:  # type: ignore[no-untyped-def]
    assert refusal(post(client, Origin=origin)) == (403, "forbidden_origin")
    assert not Game.objects.exists()


def test_it_refuses_a_simple_cross_site_request_for_its_origin(client) -> None:  # type: ignore[no-untyped-def]
    # What a form or fetch(..., {mode: "no-cors"}) on another site sends.
    response = post(client, content_type="text/plain", Origin="https://evil.example")

    assert refusal(response) == (403, "forbidden_origin")
    assert not Game.objects.exists()


def test_it_trusts_the_origin_of_a_tls_proxy(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

    # The proxy passes the Host on (the test client would otherwise make one up, with :80).
    response = post(
        client, Origin="https://testserver", Host="testserver", X_Forwarded_Proto="https"
    )

    assert response.status_code == 201


@pytest.mark.parametrize(
    ("trusted", "origin"),
    [
        ("https://yahtzee.example", "https://yahtzee.example"),
        ("https://yahtzee.example", "https://yahtzee.example:443"),
        ("https://*.example.com", "https://play.example.com"),
    ],
)
def test_it_trusts_csrf_trusted_origins(client, settings, trusted, origin) -> None:  # type: ignore[no-untyped-def]
    settings.CSRF_TRUSTED_ORIGINS = [trusted]

    assert post(client, Origin=origin).status_code == 201


def test_trusted_origins_keep_their_scheme_and_port(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.CSRF_TRUSTED_ORIGINS = ["https://yahtzee.example", "https://*.example.com"]

    for origin in ("http://yahtzee.example", "https://yahtzee.example:8443", "https://example.org"):
        assert refusal(post(client, Origin=origin)) == (403, "forbidden_origin")


def test_a_room_is_opened_while_redis_is_away(  # type: ignore[no-untyped-def]
    client, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The room is saved before its news goes to the channel layer: Redis away (a restart)
    costs the news, which nobody is there to hear yet, not the room. It answered 500 in a
    soak that opened rooms while Redis restarted, with the room saved and its code unsaid."""
    sent = []

    async def redis_away(code: str, handler: str, messages: list[dict[str, object]]) -> None:
        sent.append(code)
        raise RedisConnectionError("Error 111 connecting to 127.0.0.1:21001. Connection refused.")

    monkeypatch.setattr(outbox, "_group_send", redis_away)
    with django_capture_on_commit_callbacks(execute=True):
        response = post(client)

    assert response.status_code == 201
    code = response.json()["code"]
    assert sent == [code]
    assert Game.objects.filter(code=code).exists()
