"""A Yatzy room in a real Chromium, on a phone (390x844) and a desktop: its card of fifteen
boxes with their names, all on one screen on your turn, as the Yahtzee tables are.

The server throws scripted dice (``server_dice``), so the roll below is a known answer.
"""

import pytest
from playwright.sync_api import Page, expect

from games.engine import rules
from games.strategy import load, odds
from tests.browser.test_room import click_box, create_room, expect_dice, expect_my_turn, set_switch
from tests.browser.test_table import OFF_SCREEN, roll_off, seat_bots
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser

STRAIGHT = [6, 5, 3, 2, 4]  # Yatzy's large straight, 2-6: 20; its small one, 1-5: 0.


@pytest.fixture(autouse=True)
def _yatzy_ready(kept_tables: None) -> None:
    """Yatzy's tables in memory before the server is forked: the coach and the bot answer at
    once."""
    load("yatzy")
    odds.load("yatzy")


def off_screen(page: Page, shot) -> list[str]:  # type: ignore[no-untyped-def]
    """What of the dice, Roll and this player's open boxes is not on screen (see test_table)."""
    found = page.evaluate(OFF_SCREEN)
    assert found["open"] == 15  # The first turn: every box of Yatzy's card is open.
    if found["missing"]:
        page.screenshot(path=shot)
    return found["missing"]  # type: ignore[no-any-return]


@pytest.mark.parametrize("server_dice", [roll_off(2) + STRAIGHT + [1]])
@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_yatzy_card_shows_its_fifteen_boxes_on_one_screen(
    browser, live_server_url, screenshot_dir, size
):  # type: ignore[no-untyped-def]
    phone = size == "phone"
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=phone, is_mobile=phone)
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=2, preset="yatzy")
    set_switch(page, "#coach-toggle", True)
    seat_bots(page, 1)
    page.click("#start-button")
    expect_my_turn(page)

    # The card's rows: Yatzy's boxes, in its order, with their names; a 50 bonus, and no
    # Yahtzee bonus row.
    labels = page.locator("#scorecard tbody tr th").all_text_contents()
    boxes = page.locator('#scorecard td[data-seat="0"][data-box]')
    expect(boxes).to_have_count(15)
    assert [boxes.nth(i).get_attribute("data-box") for i in range(15)] == [
        c.value for c in rules.YATZY.boxes
    ]
    for category in rules.YATZY.boxes:
        row = page.locator(f"#scorecard tr.scorecard__box--{category.value} th")
        expect(row).to_contain_text(category.label)  # The whole label (a phone shows it short).
    assert any(label.startswith("Bonus (50)") for label in labels), labels
    assert not any("Yahtzee" in label for label in labels), labels

    failed = screenshot_dir / f"yatzy-{size}-off-screen.png"
    assert off_screen(page, failed) == []
    page.click("#roll-button")
    expect_dice(page, STRAIGHT)
    page.wait_for_function("() => window.yahtzeeRoom.advice !== null")
    expect(page.locator("#coach-best")).to_contain_text("Best:")
    expect(page.locator(".die-button--rolling")).to_have_count(0)
    # The options are Yatzy's: the large straight 2-6 scores 20, the small one nothing.
    expect(page.locator('#scorecard td[data-seat="0"][data-box="large_straight"]')).to_contain_text(
        "20"
    )
    assert off_screen(page, failed) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]
    page.screenshot(path=screenshot_dir / f"yatzy-table-{size}.png")

    click_box(page, page.locator('#scorecard td[data-seat="0"][data-box="large_straight"] button'))
    expect(page.locator('#scorecard td[data-seat="0"][data-box="large_straight"]')).to_have_text(
        "20"
    )
    watch.assert_clean(live_server_url)
    context.close()
