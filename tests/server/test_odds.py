"""The chances to win over the websocket (issue 18): watchers ask after every move, and
players in a room that shows them; one computation per move, however many ask.

The refusals are in tests/server/test_show_odds.py; the chances themselves in
tests/test_chances.py.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from games.engine import rules
from games.insight import chances
from games.live import consumers
from games.models import Game
from games.strategy import odds
from tests.server.test_consumer import Client, new_game, seat, stored

pytestmark = [pytest.mark.asyncio, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def fresh_answers(monkeypatch: pytest.MonkeyPatch) -> consumers.SharedAnswers:
    """Every test starts with no answer known, and counts its own computations."""
    answers = consumers.SharedAnswers()
    monkeypatch.setattr(consumers, "odds_answers", answers)
    odds.load(rules.OFFICIAL)  # Loaded (or built) once, before anything is timed or counted.
    return answers


@database_sync_to_async
def state_of(code: str) -> rules.Game:
    state = Game.objects.get(code=code).state
    assert state is not None
    return state


async def two_and_watchers(fixed_dice, watchers: int, show_odds: bool = False):  # type: ignore[no-untyped-def]
    """Ana (on turn) and Ben seated and started, and ``watchers`` watching."""
    code = await new_game(seats=2, show_odds=show_odds)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    lookers = [await Client(code).connect() for _ in range(watchers)]
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1)
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")
    for client in (ana, ben, *lookers):
        await client.drain()
    return code, ana, ben, lookers


async def test_watchers_see_the_chances_move_after_each_roll_and_score(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, ana, _ben, (watcher,) = await two_and_watchers(fixed_dice, 1)
    await watcher.send(type="odds", version=watcher.version, id="odds-1")
    start = await watcher.expect("odds")
    assert start["id"] == "odds-1"
    assert start["version"] == watcher.version
    assert start["over"] is False
    assert start["seats"] == [
        {"seat": 0, "win": 0.5, "left": False},
        {"seat": 1, "win": 0.5, "left": False},
    ]

    fixed_dice.load(6, 6, 6, 6, 6)
    await ana.send(type="roll", version=ana.version)
    await watcher.expect("rolled")
    await watcher.send(type="odds", version=watcher.version, id="odds-2")
    rolled = await watcher.expect("odds")
    expected = chances.odds_message(await state_of(code), watcher.version)
    assert rolled == {**expected, "id": "odds-2"}
    assert rolled["seats"][0]["win"] > 0.7  # Five sixes on the first roll.

    await ana.drain()
    await ana.send(type="score", version=ana.version, category="ones")  # ... in Ones, for 0.
    await watcher.expect("scored")
    await watcher.send(type="odds", version=watcher.version, id="odds-3")
    wasted = await watcher.expect("odds")
    assert wasted["seats"][0]["win"] < 0.5 < rolled["seats"][0]["win"]


async def test_many_watchers_asking_at_once_cost_one_computation(  # type: ignore[no-untyped-def]
    fixed_dice, fresh_answers
) -> None:
    _code, ana, _ben, lookers = await two_and_watchers(fixed_dice, 8)
    fixed_dice.load(2, 3, 4, 5, 6)
    await ana.send(type="roll", version=ana.version)
    for looker in lookers:
        await looker.expect("rolled")
    for number, looker in enumerate(lookers):  # All eight at once, before any answer.
        await looker.send(type="odds", version=looker.version, id=number)
    answers = [await looker.expect("odds") for looker in lookers]
    assert fresh_answers.computed == 1
    assert [a["id"] for a in answers] == list(range(8))
    assert len({str(a["seats"]) for a in answers}) == 1
    # Later askers of the same move are answered from memory, whichever version they saw.
    await lookers[0].send(type="odds", version=lookers[0].version)
    await lookers[0].expect("odds")
    assert fresh_answers.computed == 1


async def test_events_reach_a_watcher_while_its_chances_are_worked_out(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    _code, ana, _ben, (watcher,) = await two_and_watchers(fixed_dice, 1)
    started, release = asyncio.Event(), asyncio.Event()
    loop = asyncio.get_running_loop()
    real = chances.odds_message

    def slow(game: rules.Game, version: int) -> dict[str, object]:
        # As a first answer that loads the table from disk: the same answer, later.
        loop.call_soon_threadsafe(started.set)
        asyncio.run_coroutine_threadsafe(release.wait(), loop).result(timeout=10)
        return real(game, version)

    monkeypatch.setattr(chances, "odds_message", slow)
    asked = watcher.version
    await watcher.send(type="odds", version=asked, id="slow")
    await asyncio.wait_for(started.wait(), timeout=5)
    fixed_dice.load(6, 6, 6, 6, 6)
    await ana.send(type="roll", version=ana.version)
    rolled = await watcher.receive()  # The roll comes first: the socket was not held up.
    while rolled["type"] == "presence":  # Who is here: sent on a timer of its own.
        rolled = await watcher.receive()
    assert (rolled["type"], rolled["kind"]) == ("event", "rolled")
    release.set()
    answer = await watcher.expect("odds")
    assert (answer["id"], answer["version"]) == ("slow", asked)
    assert [s["win"] for s in answer["seats"]] == [0.5, 0.5]  # For the moment it was asked.


async def test_a_chat_moves_the_version_but_not_the_chances(fixed_dice, fresh_answers) -> None:  # type: ignore[no-untyped-def]
    _code, ana, _ben, (watcher,) = await two_and_watchers(fixed_dice, 1)
    before = watcher.version
    await watcher.send(type="odds", version=before)
    first = await watcher.expect("odds")
    await ana.send(type="chat", text="good luck")
    await watcher.expect("chat")
    # The version before the chat still stands for the play, and so does the new one.
    for version in (before, watcher.version):
        await watcher.send(type="odds", version=version)
        answer = await watcher.expect("odds")
        assert (answer["version"], answer["seats"]) == (version, first["seats"])
    assert fresh_answers.computed == 1


async def test_players_see_the_chances_when_the_host_chose_so(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, ana, ben, _ = await two_and_watchers(fixed_dice, 0, show_odds=True)
    before = await stored(code)
    for client in (ana, ben):
        await client.send(type="odds", version=client.version, id="mine")
        answer = await client.expect("odds")
        assert [s["win"] for s in answer["seats"]] == [0.5, 0.5]
    # Nobody else is told, and nothing changes.
    assert await ana.until_pong() == []
    assert await stored(code) == before


async def test_players_see_the_chances_from_the_moment_the_host_shows_them(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    _code, ana, ben, _ = await two_and_watchers(fixed_dice, 0)
    await ben.send(type="odds", version=ben.version, id="before")
    await ben.expect_error("odds_hidden")
    await ana.send(type="show_odds", show=True)
    await ben.expect("show_odds")
    await ben.send(type="odds", version=ben.version, id="after")
    answer = await ben.expect("odds")
    assert (answer["id"], answer["version"]) == ("after", ben.version)
    assert [s["win"] for s in answer["seats"]] == [0.5, 0.5]


async def test_a_seat_that_left_cannot_win_and_its_player_watches(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = await new_game(seats=3)
    ana = await seat(code, "Ana")
    ben = await seat(code, "Ben")
    cy = await seat(code, "Cy")
    fixed_dice.load(6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2)
    await ana.catch_up()
    await ana.send(type="start", version=ana.version)
    await ana.expect("roll_off")
    await cy.drain()
    await cy.send(type="leave")
    await cy.expect("left")
    await cy.send(type="odds", version=cy.version)  # Cy watches now: the room's choice is no bar.
    answer = await cy.expect("odds")
    assert answer["seats"] == [
        {"seat": 0, "win": 0.5, "left": False},
        {"seat": 1, "win": 0.5, "left": False},
        {"seat": 2, "win": 0.0, "left": True},
    ]
    await ben.drain()
    await ben.send(type="odds", version=ben.version)
    await ben.expect_error("odds_hidden")


async def test_the_end_gives_the_result(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code, _ana, _ben, (watcher,) = await two_and_watchers(fixed_dice, 1)
    fixed_dice.load(*[6, 6, 6, 6, 6, 1, 2, 3, 4, 6] * 13)  # Ana's sixes beat Ben's odd dice.
    await database_sync_to_async(_play_to_the_end)(code)
    await watcher.catch_up()
    state = await state_of(code)
    assert state.is_over
    assert state.outcome().winners == (0,)
    await watcher.send(type="odds", version=watcher.version)
    answer = await watcher.expect("odds")
    assert answer["over"] is True
    assert [s["win"] for s in answer["seats"]] == [1, 0]


def _play_to_the_end(code: str) -> None:
    from tests.server.helpers import play_out

    play_out(code)


async def test_an_asker_that_goes_away_does_not_stop_the_others_answer(fresh_answers) -> None:
    started = asyncio.Event()
    release = asyncio.Event()

    async def slow() -> str:
        started.set()
        await release.wait()
        return "answer"

    first = asyncio.ensure_future(fresh_answers.get("key", slow))
    await started.wait()
    second = asyncio.ensure_future(fresh_answers.get("key", slow))
    await asyncio.sleep(0)
    first.cancel()  # Its socket closed while the work went on.
    release.set()
    assert await second == "answer"
    assert fresh_answers.computed == 1
    assert await fresh_answers.get("key", slow) == "answer"  # From memory now.

    async def broken() -> str:
        raise ValueError("no table")

    with pytest.raises(ValueError, match="no table"):
        await fresh_answers.get("other", broken)
    assert await fresh_answers.get("other", slow) == "answer"  # A failure is not kept.
    assert fresh_answers.computed == 3
