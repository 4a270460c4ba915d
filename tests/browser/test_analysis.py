"""The analysis on the review page, in a real Chromium: stepping shows each decision's."""

import random
import re

import pytest
from playwright.sync_api import expect

from games.models import Game, GameEvent
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop
from tests.server.helpers import Table, play_out
from tests.server.test_analysis import chance_for_18

pytestmark = pytest.mark.browser

DESKTOP, PHONE = VIEWPORTS["desktop"], VIEWPORTS["phone"]

KEEP = "Best: Keep 5 6, 237.8 expected. Played: Keep 4 5 6, 237.5 expected: gave up 0.25 points."
CHANCE = (
    "Best: Keep 4 5 6, 236.0 expected. Played: Chance (18), 232.0 expected: gave up 4.00 points."
)


def seqs(code: str, kind: str) -> list[int]:
    return list(
        GameEvent.objects.filter(game__code=code, kind=kind)
        .order_by("seq")
        .values_list("seq", flat=True)
    )


def six_players(dice: random.Random) -> str:
    """A six-player game with long names, played to the end with two rolls a turn."""
    names = ["Anastasia Papadopoulou", "Bartholomew", "Cat", "Dan", "Eve", "Fay"]
    table = Table(*names)
    table.start()
    play_out(table.code, rolls=lambda: dice.choice([1, 2, 2, 3]))
    assert table.game.status == Game.Status.FINISHED
    return table.code


def test_stepping_through_a_review_shows_each_decision_s_analysis(
    browser, live_server_url, screenshot_dir, fixed_dice
):
    table = off_the_loop(chance_for_18, fixed_dice)
    keep_seq = off_the_loop(seqs, table.code, "rolled")[-1]
    page = browser.new_context(viewport=DESKTOP).new_page()
    watch = PageWatch.on(page)
    line = page.locator("#replay-analysis")

    # Opened at the keep: the server draws its analysis.
    page.goto(f"{live_server_url}/g/{table.code}/review/?at={keep_seq}")
    expect(page.locator("#replay-text")).to_have_text(
        "ana rolled 6 5 4 2 1, keeping 6 5 4 (1 roll left)."
    )
    expect(line).to_have_text(KEEP)
    expect(line).to_have_class(re.compile(r"replay__analysis--loss"))

    # One step on, the score, and its analysis; then the end, which decided nothing.
    page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-text")).to_have_text("ana scored 18 in Chance.")
    expect(line).to_have_text(CHANCE)
    page.screenshot(path=screenshot_dir / "analysis-desktop.png", full_page=True)
    page.keyboard.press("ArrowRight")
    expect(line).to_be_hidden()
    # Back past the keep to the turn's first roll: no decision there either.
    for _ in range(3):
        page.click('[data-step="prev"]')
    expect(page.locator("#replay-text")).to_have_text("ana rolled 6 5 4 2 1 (2 rolls left).")
    expect(line).to_be_hidden()
    # The scores before were decisions too.
    page.click('[data-step="prev"]')
    expect(page.locator("#replay-text")).to_have_text("ana scored 0 in Yahtzee.")
    expect(line).to_contain_text("Best: ")
    expect(line).to_contain_text("Played: Yahtzee (0)")

    # The analysis table; its biggest mistake steps the replay there, without a reload.
    row = page.locator('#analysis-table tr[data-seat="0"]')
    expect(row.locator("td").first).to_have_text("14")
    mistake = row.locator("a[data-at]")
    mistake_seq = int(mistake.get_attribute("data-at"))
    page.evaluate("window.notReloaded = true")
    mistake.click()
    expect(page).to_have_url(re.compile(rf"\?at={mistake_seq}$"))
    expect(line).to_be_visible()
    expect(line).to_contain_text("gave up")
    assert page.evaluate("window.notReloaded") is True
    expect(page.locator("#replay-heading")).to_be_focused()
    watch.assert_clean(live_server_url)


def test_the_analysis_of_six_players_fits_a_phone(browser, live_server_url, screenshot_dir):
    code = off_the_loop(six_players, random.Random(4))
    watch = PageWatch()
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        phone = name == "phone"
        context = browser.new_context(viewport=viewport, is_mobile=phone, has_touch=phone)
        page = context.new_page()
        watch.add(page)
        page.goto(f"{live_server_url}/g/{code}/review/")
        expect(page.locator("#analysis-table tbody tr")).to_have_count(6)
        page.keyboard.press("Home")
        page.click('[data-step="next-turn"]')  # The first score: a decision.
        expect(page.locator("#replay-analysis")).to_be_visible()
        page.screenshot(path=screenshot_dir / f"analysis-six-{name}.png", full_page=True)
        page.locator("#analysis").screenshot(path=screenshot_dir / f"analysis-table-{name}.png")
        page.locator("#replay").screenshot(path=screenshot_dir / f"analysis-replay-{name}.png")
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    watch.assert_clean(live_server_url)
