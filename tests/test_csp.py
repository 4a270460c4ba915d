"""The Content-Security-Policy header (yahtzee_site/csp.py); Chromium's verdict on the pages
is in tests/browser/test_security_policy.py."""

import pytest

from yahtzee_site.csp import header_value

pytestmark = pytest.mark.django_db

POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self' {socket}; object-src 'none'; base-uri 'self'; form-action 'self'; "
    "frame-ancestors 'none'"
)


@pytest.mark.parametrize("path", ["/", "/rules/", "/accounts/login/", "/api/games/nosuchgame1/"])
def test_it_sends_the_policy_on_every_response(client, path) -> None:  # type: ignore[no-untyped-def]
    response = client.get(path)

    assert response["Content-Security-Policy"] == POLICY.format(socket="ws://testserver")


def test_it_names_the_secure_socket_of_a_page_served_over_https(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    settings.ALLOWED_HOSTS = ["yahtzee.example"]

    response = client.get("/", headers={"Host": "yahtzee.example", "X-Forwarded-Proto": "https"})

    assert response["Content-Security-Policy"] == POLICY.format(socket="wss://yahtzee.example")


def test_it_keeps_the_port(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/", headers={"Host": "127.0.0.1:8000"})

    assert "connect-src 'self' ws://127.0.0.1:8000;" in response["Content-Security-Policy"]


def test_it_sends_the_policy_without_a_socket_on_a_refused_host(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/", headers={"Host": "evil.example"})

    assert response.status_code == 400
    assert "connect-src 'self';" in response["Content-Security-Policy"]


def test_it_leaves_djangos_debug_error_pages_alone(client, settings) -> None:  # type: ignore[no-untyped-def]
    # They style and script themselves inline; a deployed site never shows them.
    settings.DEBUG = True

    response = client.get("/no/such/page/")

    assert response.status_code == 404
    assert "Content-Security-Policy" not in response


def test_the_header_lists_directives_in_order() -> None:
    policy = {"default-src": ["'self'"], "connect-src": ["'self'"]}

    assert header_value(policy) == "default-src 'self'; connect-src 'self'"
    assert header_value(policy, "ws://h") == "default-src 'self'; connect-src 'self' ws://h"
    assert policy["connect-src"] == ["'self'"]  # Left as it was.
