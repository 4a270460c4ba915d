"""The health endpoint reports the database and the channel layer."""

import pytest
from django.db import OperationalError
from django.urls import reverse

from games.web import views

# The view reads the database through database_sync_to_async, which closes connections
# around each call: only a transactional test database survives that.
pytestmark = pytest.mark.django_db(transaction=True)


def test_it_reports_both_parts_healthy(client, settings):
    response = client.get(reverse("health"))

    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["database"]["vendor"] in {"sqlite", "postgresql"}
    assert body["channel_layer"]["ok"] is True
    redis_layers = {"core": "RedisChannelLayer", "pubsub": "PubSubChannelLayer"}
    expected_layer = (
        redis_layers[settings.CHANNEL_LAYER] if settings.REDIS_URL else "InMemoryChannelLayer"
    )
    assert body["channel_layer"]["backend"] == expected_layer
    assert response["Cache-Control"].startswith("max-age=0")


@pytest.mark.asyncio
async def test_it_answers_an_async_client(async_client):
    response = await async_client.get(reverse("health"))

    assert response.status_code == 200


def test_it_fails_with_503_when_the_channel_layer_is_unreachable(client, settings):
    # A Redis nobody listens on: port 1 on loopback refuses at once.
    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},
        }
    }

    response = client.get(reverse("health"))

    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "failing"
    assert body["database"]["ok"] is True
    assert body["channel_layer"]["ok"] is False
    assert "Connection" in body["channel_layer"]["error"]


def test_it_fails_with_503_when_the_database_errors(client, monkeypatch):
    def broken_database() -> dict[str, object]:
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(views, "_check_database", broken_database)

    response = client.get(reverse("health"))

    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "error": "OperationalError: could not connect to server",
        "ms": response.json()["database"]["ms"],
    }


def test_it_is_not_cached_and_only_reads(client):
    assert client.post(reverse("health")).status_code == 405
