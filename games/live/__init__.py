"""The live room: the command pipeline and its commands, the outbox that tells the rooms
after commit, the bots, the turn clock and its watch, presence, the websocket consumer.

It builds on the engine, the strategy, the wire and the models; the pages (games.web)
call it, it never calls them.
"""
