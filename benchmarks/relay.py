"""The floor of ``ws_load.py --mode floor``: a bare relay with no database.

Served by Daphne exactly as the site is (``daphne benchmarks.relay:application``
from the project's root, with the site's settings, so the same channel layer:
in-memory, or channels-redis when ``REDIS_URL`` is set, shared by every
process). A socket at ``/ws/relay/<room>/`` joins the room's group and gets a
``snapshot``; every text it sends is relayed unchanged, with one ``group_send``,
to every socket in the room (the sender too), the way a game command's event
reaches the room. ``{"type": "ping"}`` is answered with a ``pong`` to the sender
alone, as the game consumer does.

So a run of the same client against it measures what one message relayed to a
room of three sockets costs: Daphne, Channels and the channel layer, without
the game (services, database, rules, JSON of the events).
"""

from __future__ import annotations

import json
import os
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
django.setup()  # The site's settings, for CHANNEL_LAYERS.

from channels.consumer import get_handler_name  # noqa: E402
from channels.generic.websocket import AsyncWebsocketConsumer  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.core.asgi import get_asgi_application  # noqa: E402
from django.urls import re_path  # noqa: E402


class RelayConsumer(AsyncWebsocketConsumer):
    """Joins a room's group and relays every message it receives to the whole room."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        # As GameConsumer.dispatch: no hop to the database thread before each message
        # (Channels' stock dispatch closes stale database connections there first).
        await getattr(self, get_handler_name(message))(message)

    async def connect(self) -> None:
        self.group = f"relay.{self.scope['url_route']['kwargs']['room']}"
        await self.channel_layer.group_add(self.group, self.channel_name)
        await self.accept()
        await self.send(text_data='{"type": "snapshot", "version": 0}')

    async def disconnect(self, code: int) -> None:
        await self.channel_layer.group_discard(self.group, self.channel_name)

    async def receive(self, text_data: str | None = None, bytes_data: bytes | None = None) -> None:
        message: Any = json.loads(text_data or "{}")
        if message.get("type") == "ping":
            await self.send(text_data=json.dumps({"type": "pong", "id": message.get("id")}))
            return
        await self.channel_layer.group_send(
            self.group,
            {"type": "room.message", "version": message.get("version"), "text": text_data},
        )

    async def room_message(self, message: dict[str, Any]) -> None:
        await self.send(text_data=message["text"])


application = ProtocolTypeRouter(
    {
        "http": get_asgi_application(),  # /health/, so the benchmark sees it is up.
        "websocket": URLRouter(
            [re_path(r"^ws/relay/(?P<room>[\w-]{1,64})/$", RelayConsumer.as_asgi())]
        ),
    }
)
