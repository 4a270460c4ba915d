"""Loose ends of the room's page (issue 27, item 5), in a real Chromium at both sizes: the host
shows the players who is likely to win during the game and hides it again (the switch
among the seat's tools, or the command line), every browser following live; the
command line's commands for the bots' pace and the watchers' chat; and the review's
graph of the chances, and its turning points, by keyboard.
"""

from __future__ import annotations

import base64
import math
import re
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from games.insight import chances, review
from games.live import services
from tests.browser.axe import failing, violations
from tests.browser.test_room import command, create_room, expect_my_turn, join, set_switch
from tests.browser.test_win_chances import finished_game
from tests.browser.watch import ONE_VISIT, VIEWPORTS, PageWatch, off_the_loop

pytestmark = pytest.mark.browser

# The roll-off: Ana 30, Ben 5, so Ana plays first.
ROLL_OFF = [6] * 5 + [1] * 5


def screen(viewport: str) -> dict[str, object]:
    """A browser context's options for one of VIEWPORTS: a phone is touched, not clicked."""
    phone = viewport == "phone"
    return {"viewport": VIEWPORTS[viewport], "is_mobile": phone, "has_touch": phone}


def as_shown(win: float) -> str:
    """A chance as the review writes it (static/js/review.js ``percent``)."""
    if win <= 0 or win >= 1:
        return "0%" if win <= 0 else "100%"
    rounded = math.floor(win * 100 + 0.5)  # As Math.round: a half goes up.
    return "<1%" if rounded < 1 else ">99%" if rounded > 99 else f"{rounded}%"


def expect_chances(page: Page, shown: bool) -> None:
    rows = page.locator(".scorecard__odds")
    if not shown:
        expect(rows).to_have_count(0)
        return
    expect(rows).to_have_count(1)
    for seat in range(2):
        expect(page.locator(".win-chance__text").nth(seat)).to_have_text("50%")


def expect_console(page: Page, text: str) -> None:
    expect(page.locator("#console-output")).to_have_text(text)


@pytest.mark.parametrize("server_dice", [ROLL_OFF])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_host_shows_and_hides_the_chances_during_the_game(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    # Ana hosts on this size, Ben plays on the other.
    other = "phone" if viewport == "desktop" else "desktop"
    contexts = [browser.new_context(**screen(viewport)), browser.new_context(**screen(other))]
    ana, ben = (context.new_page() for context in contexts)
    watch = PageWatch.on(ana, ben)
    room = create_room(ana, live_server_url, "Ana", seats=2, show_odds=False)
    join(ben, room, "Ben")
    ana.click("#start-button")
    expect_my_turn(ana)
    for page in (ana, ben):
        expect_chances(page, False)
    expect(ben.locator("#show-odds-switch")).to_be_hidden()  # The host's alone.

    set_switch(ana, "#show-odds-toggle", True)
    for page in (ana, ben):
        expect_chances(page, True)
    expect(ben.locator("#feed")).to_contain_text("Ana let the players see who is likely to win.")
    ana.locator("#seat-tools").scroll_into_view_if_needed()
    ana.screenshot(path=screenshot_dir / f"show-odds-host-{viewport}.png")

    command(ben, "chances off")  # Not the host: refused, nothing changes.
    expect_console(ben, "Only the host chooses whether the players see who is likely to win.")
    expect_chances(ben, True)

    command(ana, "chances off")
    expect_console(ana, "The players no longer see who is likely to win.")
    for page in (ana, ben):
        expect_chances(page, False)
    expect(ana.locator("#show-odds-toggle")).not_to_be_checked()
    command(ana, "chances off")  # Already so: said, and nothing sent.
    expect_console(ana, "The players do not see who is likely to win already.")
    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()


@pytest.mark.parametrize("server_dice", [ROLL_OFF])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_command_line_sets_the_bots_pace_and_reads_the_watchers_chat(
    browser, live_server_url, viewport
):  # type: ignore[no-untyped-def]
    contexts = [browser.new_context(**screen(viewport)) for _ in range(2)]
    ana, ben = (context.new_page() for context in contexts)
    watch = PageWatch.on(ana, ben)
    room = create_room(ana, live_server_url, "Ana", seats=2)
    join(ben, room, "Ben")
    ana.click("#start-button")
    expect_my_turn(ana)

    command(ana, "help")
    for line in ("pace quick", "chances on", "watchers on"):
        expect(ana.locator("#console-output")).to_contain_text(line)
    command(ana, "pace instant")
    expect_console(ana, "The bots play instantly now.")
    expect(ben.locator("#feed")).to_contain_text("Ana set the bots to play instantly.")
    command(ben, "pace quick")
    expect_console(ben, "Only the host chooses how the bots play.")
    command(ana, "pace slowly")
    expect_console(ana, "The bots play natural, quick or instant: for example pace quick")

    expect(ben.locator("#watchers-read")).not_to_be_checked()
    command(ben, "watchers on")
    expect_console(ben, "You read the watchers' chat now (its panel, under the feed).")
    expect(ben.locator("#watchers-read")).to_be_checked()
    expect(ben.locator("#watchers-empty")).to_be_visible()
    command(ben, "watchers on")
    expect_console(ben, "You read the watchers' chat already.")
    command(ben, "watchers off")
    expect(ben.locator("#watchers-read")).not_to_be_checked()
    expect(ben.locator("#watchers-lines")).to_be_hidden()
    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()


@pytest.mark.parametrize("server_dice", [[]])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_review_graph_and_its_turning_points_work_by_keyboard(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    code = off_the_loop(finished_game, 3)
    want = chances.over_the_game(review.build(off_the_loop(services.replay_events, code)))
    turning = sorted(want.turning_points(), key=lambda point: point.index)
    assert len(turning) >= 2
    last = len(want.chances) - 1
    context = browser.new_context(**screen(viewport), **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)
    page.goto(f"{live_server_url}/g/{code}/review/")
    graph = page.locator("#chances-chart svg")
    slider = page.locator("#replay-slider")
    graph.focus()  # It takes the focus (tabindex 0), in the page's Tab order.
    expect(graph).to_be_focused()
    expect(graph).to_have_attribute("role", "slider")
    expect(graph).to_have_attribute("aria-valuemax", str(last))
    assert failing(violations(page)) == []

    page.keyboard.press("Home")
    expect(slider).to_have_value("0")
    page.keyboard.press("ArrowRight")
    expect(slider).to_have_value("1")  # One step, not two (the page's own keys stay out).
    page.keyboard.press("PageDown")
    first = turning[0]
    expect(slider).to_have_value(str(first.index))
    assert f"at={first.seq}" in page.url
    mark = graph.locator(".chart__turn--current")
    expect(mark).to_have_count(1)
    number = mark.get_attribute("data-number")
    odds = ", ".join(
        f"{name} {as_shown(win)}"
        for name, win in zip(("Ana", "Ben"), want.chances[first.index], strict=True)
    )
    said = rf"^Moment {first.seq} of \d+: {re.escape(odds)}; turning point {number}\.$"
    expect(graph).to_have_attribute("aria-valuetext", re.compile(said))
    expect(graph).to_have_attribute("aria-valuenow", str(first.index))
    page.keyboard.press("PageDown")
    expect(slider).to_have_value(str(turning[1].index))
    page.keyboard.press("PageUp")
    expect(slider).to_have_value(str(first.index))
    page.keyboard.press("End")
    expect(slider).to_have_value(str(last))
    page.screenshot(path=screenshot_dir / f"review-graph-keyboard-{viewport}.png")
    page.keyboard.press("Enter")  # The replay at that moment, in view and focused.
    expect(page.locator("#replay-heading")).to_be_focused()
    assert failing(violations(page)) == []
    watch.assert_clean(live_server_url)
    context.close()


def hold_still(page: Page) -> None:
    """Stop the page's timers where they are (the message's own, that hides it after a few
    seconds, among them): what shows now stays for the screenshot and the checks."""
    # A moment ahead (the clock moves on while it is asked), in seconds: Python's unit. On a
    # loaded machine the ask itself may take longer than the moment (load 20: "Cannot
    # fast-forward to the past"): then again from the page's new now, a moment twice as far.
    for ahead_ms in (100, 200, 400, 800):
        try:
            page.clock.pause_at((page.evaluate("() => Date.now()") + ahead_ms) / 1000)
            return
        except PlaywrightError as error:
            if "to the past" not in error.message or ahead_ms == 800:
                raise


def still_screenshot(page: Page, path: Path) -> None:
    """The screen as it is, while the page's clock stands still: Playwright's own screenshot
    waits for an animation frame, which a paused clock never gives; Chromium's does not."""
    session = page.context.new_cdp_session(page)
    shot = session.send("Page.captureScreenshot", {"format": "png"})
    path.write_bytes(base64.b64decode(shot["data"]))
    session.detach()


@pytest.mark.parametrize("server_dice", [ROLL_OFF])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_messages_in_their_place_in_the_dark_theme(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(color_scheme="dark", **screen(viewport))
    context.clock.install()  # Time flows as usual until a test pauses it.
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=2)
    page.click("[data-bot=casual]")
    expect(page.locator("#seats .badge--bot")).to_have_count(1)
    page.click("#start-button")
    expect_my_turn(page)
    toast = page.locator("#toast")

    command(page, "score yahtzee")  # An error: in the turn's panel, where the hint was.
    expect(toast).to_have_text("Roll first: a box takes the dice of a roll.")
    hold_still(page)
    expect(page.locator("#turn-say #toast")).to_be_visible()
    page.evaluate("scrollTo(0, 0)")
    still_screenshot(page, screenshot_dir / f"message-error-dark-{viewport}.png")
    page.clock.resume()

    command(page, "leave!")  # A notice: Ana watches now.
    expect(toast).to_have_text("You left the game: you are watching now.")
    hold_still(page)
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("data-kind", "notice")
    page.evaluate("scrollTo(0, 0)")
    still_screenshot(page, screenshot_dir / f"message-notice-dark-{viewport}.png")
    page.clock.resume()
    watch.assert_clean(live_server_url)
    context.close()
