"""What goes over the websocket and the API: the messages both ways, their JSON Schema
(``python -m games.wire.protocol``) and what a browser is sent beside an event's facts.

No Django: it builds on the engine only.
"""
