"""Websocket routes. The game consumer joins them with the game server."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
