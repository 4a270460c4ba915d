"""The ASGI application: websockets from other sites are refused at the door."""

import pytest
from channels.testing import WebsocketCommunicator

from yahtzee_site.asgi import application


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_it_refuses_a_websocket_from_another_origin():
    communicator = WebsocketCommunicator(
        application, "/ws/games/anything/", headers=[(b"origin", b"https://evil.example")]
    )

    connected, _ = await communicator.connect()

    assert connected is False
    await communicator.disconnect()


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_it_refuses_a_websocket_without_an_origin():
    communicator = WebsocketCommunicator(application, "/ws/games/anything/")

    connected, _ = await communicator.connect()

    assert connected is False
    await communicator.disconnect()
