"""The game itself, as pure values: the rules, the room, their events and how they are saved.

Nothing here imports Django, a database or a clock, and nothing here imports any other
package of :mod:`games` (tests/test_architecture.py keeps it so): the live server, the
pages and the analysis all build on it.
"""
