"""The phone first (issue 27), in a real Chromium at 1280x800 and at 390x844: what a
player must reach first is on the screen without a scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_home_page import in_view
from tests.browser.test_room import create_room
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
