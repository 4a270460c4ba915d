"""Where a command's database work runs, and how its news leaves."""

from __future__ import annotations

import threading

import pytest

from games import outbox


@pytest.fixture
def three_threads(settings):  # type: ignore[no-untyped-def]
    settings.DATABASE_THREADS = 3
    yield
    outbox._threads.clear()


def test_a_game_always_goes_to_the_same_database_thread(three_threads: None) -> None:
    codes = [f"game-{n}" for n in range(60)]
    first = [outbox._thread_of(code) for code in codes]
    assert [outbox._thread_of(code) for code in codes] == first
    assert len(set(map(id, first))) == 3  # Sixty games spread over the three threads.


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)  # Channels closes old connections around the call.
async def test_a_command_runs_on_its_game_s_thread_and_one_at_a_time(three_threads: None) -> None:
    def where(code: str) -> str:
        return threading.current_thread().name

    names = {await outbox.run(where, "game-7") for _ in range(5)}
    assert len(names) == 1
    (name,) = names
    assert name.startswith("database-")
    assert outbox._thread_of("game-7")._thread_name_prefix in name  # type: ignore[attr-defined]


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_with_one_database_thread_commands_go_to_channels_own(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DATABASE_THREADS = 1

    def where(code: str) -> str:
        return threading.current_thread().name

    assert not (await outbox.run(where, "game-7")).startswith("database-")
