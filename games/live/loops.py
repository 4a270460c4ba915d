"""Tasks kept in a module's state belong to the event loop that started them.

A server has one event loop for as long as its process lives. A process that runs one loop
after another (the tests: one loop a test; ``asyncio.run``) can close a loop while a task
kept in module state is still pending on it: that task never ends, awaiting it from another
loop raises "attached to a different loop", and cancelling it from there fails. So a module
that keeps a task to reuse or wait for (the presence release, the bots' drivers, the clock's
watch) asks :func:`runs_here` first: a task of another loop counts as gone, and the running
loop starts its own.
"""

from __future__ import annotations

import asyncio
from typing import Any, TypeGuard


def runs_here(task: asyncio.Future[Any] | None) -> TypeGuard[asyncio.Future[Any]]:
    """Whether ``task`` is still running on the running event loop (call from a loop)."""
    return task is not None and not task.done() and task.get_loop() is asyncio.get_running_loop()
