"""Loose ends of the room's page (issue 27, item 5), in a real Chromium at both sizes: the host
shows the players who is likely to win during the game and hides it again (the switch
among the seat's tools, or the command line), every browser following live; and the
command line's commands for the bots' pace and the watchers' chat.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_room import command, create_room, expect_my_turn, join, set_switch
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser

# The roll-off: Ana 30, Ben 5, so Ana plays first.
ROLL_OFF = [6] * 5 + [1] * 5


def screen(viewport: str) -> dict[str, object]:
    """A browser context's options for one of VIEWPORTS: a phone is touched, not clicked."""
    phone = viewport == "phone"
    return {"viewport": VIEWPORTS[viewport], "is_mobile": phone, "has_touch": phone}


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
