"""The home page in a real Chromium, on a desktop and on a phone."""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.watch import ONE_VISIT, VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_it_renders_styled_and_self_contained(browser, live_server_url, screenshot_dir, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport], **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)

    page.goto(live_server_url + "/")
    page.screenshot(path=screenshot_dir / f"home-{viewport}.png", full_page=True)

    assert page.title() == "Yahtzee Live: play Yahtzee with friends"
    assert page.get_by_role("heading", level=1).is_visible()
    # The stylesheet arrived and applies: the header is the felt green, not the default.
    header_colour = page.eval_on_selector(
        ".site-header", "el => getComputedStyle(el).backgroundColor"
    )
    assert header_colour == "rgb(11, 59, 31)"
    # Five dice drawn with pips, showing the full house 3 3 3 5 5.
    dice = page.locator(".hero .die")
    assert dice.count() == 5
    assert [dice.nth(i).get_attribute("aria-label") for i in range(5)] == list("33355")
    visible_pips = page.locator(".hero .die--5 .die__pip").evaluate_all(
        "pips => pips.filter(p => getComputedStyle(p).visibility === 'visible').length"
    )
    assert visible_pips == 2 * 5
    # All thirteen boxes are listed.
    assert page.locator(".box-table tbody tr").count() == 13
    watch.assert_clean(live_server_url)
    # No sideways scrolling on a phone.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    context.close()


def in_view(page: Page, selector: str) -> bool:
    """Whether the whole of the element is inside the viewport as the page stands."""
    return bool(
        page.eval_on_selector(
            selector,
            """el => { const box = el.getBoundingClientRect();
                return box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight
                    && box.right <= innerWidth && box.height > 0; }""",
        )
    )


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_main_action_is_above_the_fold(browser, live_server_url, screenshot_dir, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport], **ONE_VISIT)
    page = context.new_page()
    page.goto(live_server_url + "/")
    submit = "form.new-game button[type=submit]"
    expect(page.locator(submit)).to_be_visible()
    # The name and the rules come with it; nothing needs a scroll to open a room.
    assert in_view(page, submit)
    assert in_view(page, "#id_name")
    page.screenshot(path=screenshot_dir / f"home-fold-{viewport}.png")
    # The other options are one click away, and the button follows them.
    page.click(".new-game__more > summary")
    expect(page.locator("#id_seats")).to_be_visible()
    page.screenshot(path=screenshot_dir / f"home-options-{viewport}.png")
    context.close()


def test_it_can_be_read_with_the_keyboard(browser, live_server_url):
    page = browser.new_page(**ONE_VISIT)
    page.goto(live_server_url + "/")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent") == "Skip to content"
    page.keyboard.press("Enter")
    assert page.evaluate("location.hash") == "#main"
    page.close()
