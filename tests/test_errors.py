"""A request that fails answers 503 with Retry-After while the database is away, 500 otherwise."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from django.test import Client

from games.web import api, views


@pytest.fixture
def client() -> Client:
    # The test client raises a view's exception unless told to answer as the site would.
    return Client(raise_request_exception=False)


def database_away(*args: object, **kwargs: object) -> None:
    raise OperationalError("connection to server at 127.0.0.1, port 5432 failed")


def boom(*args: object, **kwargs: object) -> None:
    raise ValueError("a bug")


@pytest.mark.django_db
def test_the_api_answers_503_unavailable_while_the_database_is_away(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(api.services, "create_game", database_away)

    response = client.post("/api/games/", {"name": "Ann"}, content_type="application/json")

    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert response.json()["error"]["code"] == "unavailable"


@pytest.mark.django_db
def test_a_page_answers_503_while_the_database_is_away(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(views, "get_object_or_404", database_away)

    response = client.get("/g/abcdefgh/")

    assert response.status_code == 503
    assert response["Retry-After"] == "2"
    assert "Back in a moment" in response.content.decode()


@pytest.mark.django_db
def test_a_bug_is_still_a_500(client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setattr(api.services, "create_game", boom)

    response = client.post("/api/games/", {"name": "Ann"}, content_type="application/json")

    assert response.status_code == 500
    assert "Retry-After" not in response
    assert response.json()["error"]["code"] == "server_error"
