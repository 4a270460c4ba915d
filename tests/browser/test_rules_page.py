"""The rules page in a real Chromium, on a desktop and on a phone."""

import pytest

from tests.browser.watch import ONE_VISIT, VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_it_renders_styled_and_self_contained(browser, live_server_url, screenshot_dir, viewport):
    context = browser.new_context(viewport=VIEWPORTS[viewport], **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)

    page.goto(live_server_url + "/rules/")
    page.screenshot(path=screenshot_dir / f"rules-{viewport}.png", full_page=True)

    assert page.title() == "Rules: Yahtzee Live"
    assert page.get_by_role("heading", level=1, name="The rules of Yahtzee").is_visible()
    assert (
        page.get_by_role("link", name="Rules", exact=True).get_attribute("aria-current") == "page"
    )
    # The stylesheet arrived and the rules section of it applies.
    assert (
        page.eval_on_selector(".site-header", "el => getComputedStyle(el).backgroundColor")
        == "rgb(11, 59, 31)"
    )
    assert page.eval_on_selector(".rules-result", "el => getComputedStyle(el).fontWeight") == "700"
    # The examples' dice are drawn with pips: a full house shows 3 + 3 + 3 + 5 + 5 pips.
    full_house = page.locator(".rules-box", has=page.get_by_role("heading", name="Full house"))
    dice = full_house.locator(".die")
    assert [dice.nth(i).get_attribute("aria-label") for i in range(5)] == list("33355")
    visible_pips = full_house.locator(".die__pip").evaluate_all(
        "pips => pips.filter(p => getComputedStyle(p).visibility === 'visible').length"
    )
    assert visible_pips == 19
    # Each example die is smaller than the home page's, and all of it is on screen.
    box = dice.first.bounding_box()
    assert box is not None
    assert 24 <= box["width"] <= 40
    # Every box of the card is there.
    assert page.locator(".rules-box").count() == 7
    assert page.locator("#boxes table tbody tr").count() == 6
    watch.assert_clean(live_server_url)
    # No sideways scrolling, and nothing sticks out of the page on its own.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    too_wide = page.evaluate(
        """() => [...document.querySelectorAll('.rules-body *')]
            .filter(el => el.getBoundingClientRect().right > window.innerWidth + 0.5)
            .map(el => el.tagName + '.' + el.className)"""
    )
    assert too_wide == []
    context.close()


def test_the_contents_list_jumps_to_each_section(browser, live_server_url):
    page = browser.new_page(viewport=VIEWPORTS["phone"], **ONE_VISIT)
    page.goto(live_server_url + "/rules/")
    contents = page.get_by_role("navigation", name="On this page")
    links = contents.get_by_role("link")

    assert links.count() == 10  # Yahtzee's nine sections and Yatzy
    for i in range(links.count()):
        link = links.nth(i)
        target = link.get_attribute("href")
        assert target is not None
        link.click()
        assert page.evaluate("location.hash") == target
        heading = page.locator(f"{target} h2")
        assert heading.is_visible()
        top = heading.evaluate("el => el.getBoundingClientRect().top")
        assert 0 <= top < 844
    page.close()
