"""A game against bots with the coach on, in a real Chromium, watched from a phone."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.live import services
from games.strategy import load
from tests.browser.test_room import click_box, create_room, open_room, set_switch
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop

pytestmark = pytest.mark.browser

MY_TURN = "(() => { const s = window.yahtzeeRoom.state; return s.game.status === 'playing'"
MY_TURN += " && s.turn && s.you && s.turn.seat === s.you.seat && !s.turn.dice; })()"
OVER = "window.yahtzeeRoom.state.game.status === 'finished'"
#: Every hold the page sent has come back from the server as its `held` event.
HOLDS_ECHOED = "() => window.yahtzeeRoom.holdsInFlight === 0"
TURN_PASSED = "(() => { const s = window.yahtzeeRoom.state; return !s.turn || !s.turn.dice"
TURN_PASSED += " || s.turn.seat !== s.you.seat; })()"


@pytest.fixture(autouse=True)
def _strategy_ready() -> None:
    """Load the official table before the server is forked, so its first advice is quick."""
    load("official")


def advice(page: Page) -> dict:
    """The coach's advice for the dice on the table, once the page shows it."""
    page.wait_for_function(
        """() => {
            const room = window.yahtzeeRoom, a = room.advice, t = room.state.turn;
            return a && t && t.dice && a.dice.join() === t.dice.join()
                && a.rolls_left === t.rolls_left;
        }"""
    )
    expect(page.locator("#coach .coach__row--best")).to_be_visible()
    return page.evaluate("window.yahtzeeRoom.advice")  # type: ignore[no-any-return]


def follow_the_coach(page: Page, code: str, checked: list[str], *, rolled: bool = False) -> None:
    """Play one turn as the coach advises: keep what it says, roll, and score where it says.

    The first three pieces of advice are checked against the engine in the test process.
    """
    if not rolled:
        page.click("#roll-button")
    while True:
        shown = advice(page)
        best = shown["choices"][0]
        # The page shows what the server's engine says for this very position.
        if len(checked) < 3:
            _, _players, state = off_the_loop(services.rules_state, code)
            card = state.cards[state.current]
            engine = load("official").advise(card, state.turn.dice, state.turn.rolls_left)
            assert best["label"] == engine[0].label
            assert best["expected"] == pytest.approx(engine[0].expected, abs=1e-4)
            checked.append(best["label"])
        expect(page.locator("#coach-best")).to_contain_text(best["label"])
        if best["kind"] == "score":
            click_box(page, page.locator(f'button[data-focus="box-{best["category"]}"]'))
            page.wait_for_function(f"() => {TURN_PASSED}")
            return
        held = set(page.evaluate("window.yahtzeeRoom.state.turn.held"))
        # Click each die whose hold must change, releasing before keeping: the page
        # refuses a fifth held die, as a roll must throw at least one.
        for position in sorted(held - set(best["hold"])) + sorted(set(best["hold"]) - held):
            page.click(f'.die-button[data-position="{position}"]')
            # Each hold answered before the next click: a person's pace, one message in
            # flight, well under the server's limit of 10 a second from a socket.
            page.wait_for_function(HOLDS_ECHOED)
        page.wait_for_function(
            "want => window.yahtzeeRoom.state.turn.held.join() === want",
            arg=",".join(map(str, sorted(best["hold"]))),
        )
        expect(page.locator("#coach-yours")).to_contain_text("is the best keep")
        rolls_left = page.evaluate("window.yahtzeeRoom.state.turn.rolls_left")
        page.click("#roll-button")
        page.wait_for_function(
            "n => window.yahtzeeRoom.state.turn.rolls_left === n - 1", arg=rolls_left
        )


def test_a_game_against_bots_with_the_coach_on(browser, live_server_url, screenshot_dir):  # type: ignore[no-untyped-def]
    # Without the dice's tumble and the smooth scrolls (prefers-reduced-motion), as some
    # players ask: this game is about the coach and the bots, and the motion is the room's
    # tests' (test_room.py's whole game, test_clock.py's turns played at once, test_table.py
    # and test_phone_first.py). It took a quarter of the browser's CPU here (36 s -> 27 s).
    ana = browser.new_page(viewport=VIEWPORTS["desktop"], reduced_motion="reduce")
    phone = browser.new_page(viewport=VIEWPORTS["phone"], reduced_motion="reduce")
    watch = PageWatch.on(ana, phone)
    url = create_room(ana, live_server_url, "Ana", seats=3)
    code = url.rstrip("/").rsplit("/", 1)[-1]

    # In the lobby: the host turns the coach on and seats an Optimal and a Casual bot.
    expect(ana.locator("#coach-toggle")).not_to_be_checked()  # Off by default with others.
    set_switch(ana, "#coach-toggle", True)
    ana.click("[data-bot=optimal]")
    ana.click("[data-bot=casual]")
    expect(ana.locator("#seats .badge--bot")).to_have_count(2)
    expect(ana.locator("#add-bots")).to_be_hidden()  # Every seat is taken.
    open_room(phone, url)
    expect(phone.locator("#coach-state")).to_have_text(
        "Coach on: the player on turn sees the best move."
    )
    expect(phone.locator("#add-bots")).to_be_hidden()  # Only the host seats bots.
    expect(phone.locator("#seats .seat")).to_have_text(
        [re.compile(name) for name in ("Ana", "Optimal bot", "Casual bot")]
    )

    ana.click("#start-button")
    checked: list[str] = []
    turns = 0
    while True:
        ana.wait_for_function(f"() => {MY_TURN} || {OVER}", timeout=30_000)
        if ana.evaluate(OVER):
            break
        follow_the_coach(ana, code, checked)
        turns += 1
        if turns == 2:
            ana.evaluate("scrollTo(0, 0)")
            ana.click("#roll-button")
            advice(ana)
            ana.wait_for_selector(".die-button--rolling", state="detached")
            ana.screenshot(path=screenshot_dir / "coach-desktop.png")
            phone.screenshot(path=screenshot_dir / "bots-watcher-phone.png", full_page=True)
            ana.reload()  # Take the turn up again from a fresh page.
            ana.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
            advice(ana)  # A reload asks again.
            follow_the_coach(ana, code, checked, rolled=True)
            turns += 1

    assert turns == 13
    # The watcher's phone followed the whole game live, the bots' moves too.
    phone.wait_for_function(f"() => {OVER}")
    totals = [int(t) for t in phone.locator(".scorecard__total").all_inner_texts()]
    _, _, state = off_the_loop(services.rules_state, code)
    assert totals == [card.total for card in state.cards]
    assert all(card.is_complete for card in state.cards)
    feed = phone.locator("#feed").inner_text()
    assert "Optimal bot scored" in feed
    assert "Casual bot kept" in feed
    expect(ana.locator("#finish")).to_be_visible()
    expect(ana.locator("#coach")).to_be_hidden()
    assert phone.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]
    watch.assert_clean(live_server_url)
