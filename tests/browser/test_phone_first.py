"""The phone first (issue 27), in a real Chromium at 1280x800 and at 390x844: what a
player must reach first is on the screen without a scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import failing, violations
from tests.browser.test_home_page import in_view
from tests.browser.test_room import create_room, open_room, set_switch
from tests.browser.test_watchers import say
from tests.browser.watch import VIEWPORTS

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_host_finds_the_invite_above_the_fold(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    phone = viewport == "phone"
    context = browser.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone)
    page: Page = context.new_page()
    create_room(page, live_server_url, "Ana", seats=3)
    expect(page.locator("#start-button")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    for part in ("#invite-heading", "#invite-url", "#copy-button", "#invite .invite__qr svg"):
        assert in_view(page, part), part
    if page.evaluate("typeof navigator.share === 'function'"):
        assert in_view(page, "#share-button")
    if phone:
        # One column: the invite comes before the seats, the coach, the bots and the start.
        invite_top = page.eval_on_selector("#invite", "el => el.getBoundingClientRect().top")
        seats_top = page.eval_on_selector("#seats", "el => el.getBoundingClientRect().top")
        assert invite_top < seats_top
    page.screenshot(path=screenshot_dir / f"lobby-invite-{viewport}.png")
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_watchers_chat_reads_well_in_the_dark_theme(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    phone = viewport == "phone"
    size = {"viewport": VIEWPORTS[viewport], "is_mobile": phone, "has_touch": phone}
    contexts = [browser.new_context(color_scheme="dark", **size) for _ in range(2)]
    ana, watcher = (context.new_page() for context in contexts)
    url = create_room(ana, live_server_url, "Ana", seats=2)
    open_room(watcher, url)
    say(watcher, "who wins this?")
    set_switch(ana, "#watchers-read", True)
    say(watcher, "Ana, surely")
    expect(ana.locator("#watchers-lines")).to_contain_text("Ana, surely")
    for page, who in ((watcher, "watcher"), (ana, "player")):
        page.locator("#watchers-lines").scroll_into_view_if_needed()
        page.screenshot(path=screenshot_dir / f"watchers-chat-dark-{who}-{viewport}.png")
        # The lines' text, time and name, on the panel's dark surface: no serious finding.
        assert failing(violations(page)) == [], who
    for context in contexts:
        context.close()
