"""Websocket routes: one room per game, at its invite code."""

from django.urls import URLPattern, re_path

from games.live.consumers import GameConsumer, NoRoomConsumer

websocket_urlpatterns: list[URLPattern] = [
    re_path(r"^ws/games/(?P<code>[^/]{1,64})/$", GameConsumer.as_asgi()),
    re_path(r"", NoRoomConsumer.as_asgi()),  # Anything else: closed with 4404, not an error.
]
