"""The review page in a real Chromium: the list of every move, links to a moment, the chart.

The game is Ana's solo game of tests/server/test_analysis.py: twelve boxes filled by
first rolls, then 6 5 4 2 1, 6 5 4 kept (0.25 points given up) and 18 scored in
Chance with a roll left (4.00 given up, her biggest mistake). Its moments: the start,
a roll and a score in each of the first twelve rounds, two rolls and the score in the
last, and the end: 29 in all.
"""

import re

import pytest
from playwright.sync_api import Page, expect

from games.models import GameEvent
from tests.browser.watch import ONE_VISIT, VIEWPORTS, PageWatch, off_the_loop
from tests.server.test_analysis import chance_for_18

pytestmark = pytest.mark.browser

MOMENTS = 29


def seqs(code: str, kind: str) -> list[int]:
    return list(
        GameEvent.objects.filter(game__code=code, kind=kind)
        .order_by("seq")
        .values_list("seq", flat=True)
    )


def replay_text(page: Page):  # type: ignore[no-untyped-def]
    return expect(page.locator("#replay-text"))


def seen_in_the_list(link) -> bool:  # type: ignore[no-untyped-def]
    """Whether a move's link is within the part of the move list scrolled into view."""
    return link.evaluate(
        """(a) => {
            const list = document.getElementById("moves-list");
            return list.scrollTop <= a.offsetTop
                && a.offsetTop + a.offsetHeight <= list.scrollTop + list.clientHeight;
        }"""
    )


def chart_point(page: Page, seat: int, round: int):  # type: ignore[no-untyped-def]
    return page.locator(f'#chart .chart__point[data-seat="{seat}"][data-round="{round}"]')


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_list_of_every_move_steps_the_replay_and_marks_the_mistakes(
    browser, live_server_url, screenshot_dir, fixed_dice, viewport
):
    code = off_the_loop(chance_for_18, fixed_dice).code
    context = browser.new_context(viewport=VIEWPORTS[viewport], **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)
    page.goto(f"{live_server_url}/g/{code}/review/")
    moves = page.locator("#moves-list a[data-index]")

    # Every moment, in turns: the start, Ana's thirteen turns, the end.
    expect(moves).to_have_count(MOMENTS)
    whos = page.locator("#moves-list .moves__who")
    expect(whos).to_have_count(13)
    expect(whos.first).to_have_text("Round 1 · ana")
    expect(whos.last).to_have_text("Round 13 · ana")
    last_turn = page.locator("#moves-list > li").nth(13).locator("a")
    expect(last_turn).to_have_count(3)
    expect(last_turn.nth(0).locator(".moves__text")).to_have_text(
        "Rolled 6 5 4 2 1 (2 rolls left)."
    )
    # Opened at the end: the last move is the current one, scrolled into the list's view.
    expect(moves.last).to_have_attribute("aria-current", "step")
    assert seen_in_the_list(moves.last)
    assert not seen_in_the_list(moves.first)

    # The keep gave up 0.25, the Chance 4.00; the first roll of a turn decided nothing.
    keep, chance = last_turn.nth(1), last_turn.nth(2)
    expect(keep.locator(".moves__loss")).to_have_text("\N{MINUS SIGN}0.25 points given up")
    expect(chance.locator(".moves__loss")).to_have_text("\N{MINUS SIGN}4.00 points given up")
    expect(last_turn.nth(0).locator(".moves__loss, .moves__best")).to_have_count(0)
    # Scoring on a first roll, with two rolls left, gave up far more: her three biggest
    # mistakes are the zero in Four of a kind (18.60), Three of a kind, then Twos. Full
    # house, 25 at once, was the best choice.
    marked = page.locator("#moves-list .moves__move--mistake")
    expect(marked).to_have_count(3)
    expect(marked.locator(".moves__text")).to_have_text(
        ["Scored 6 in Twos.", "Scored 21 in Three of a kind.", "Scored 0 in Four of a kind."]
    )
    expect(marked.locator(".moves__mistake")).to_have_text(
        [
            "Big mistake: ana's third biggest mistake",
            "Big mistake: ana's second biggest mistake",
            "Big mistake: ana's biggest mistake",
        ]
    )
    expect(marked.nth(2).locator(".moves__loss")).to_have_text(
        "\N{MINUS SIGN}18.60 points given up"
    )
    expect(marked.nth(2).locator(".moves__mistake")).to_be_visible()
    full_house = page.locator("#moves-list a", has_text="Scored 25 in Full house.")
    expect(full_house.locator(".moves__best")).to_have_text("best choice")
    expect(chance.locator(".moves__mistake")).to_have_count(0)

    # A click shows the move, without a reload; the link to the moment follows.
    page.evaluate("window.notReloaded = true")
    keep.click()
    replay_text(page).to_have_text("ana rolled 6 5 4 2 1, keeping 6 5 4 (1 roll left).")
    expect(page.locator("#replay-analysis")).to_contain_text("gave up 0.25 points")
    expect(keep).to_have_attribute("aria-current", "step")
    expect(moves.last).not_to_have_attribute("aria-current", "step")
    keep_seq = off_the_loop(seqs, code, "rolled")[-1]
    expect(page).to_have_url(re.compile(rf"\?at={keep_seq}$"))
    expect(page.locator("#replay-text")).to_be_in_viewport()
    assert page.evaluate("window.notReloaded") is True

    # The keyboard goes on down the list; stepping the replay moves the list's mark too.
    expect(keep).to_be_focused()
    page.keyboard.press("Tab")
    expect(chance).to_be_focused()
    page.keyboard.press("Enter")
    replay_text(page).to_have_text("ana scored 18 in Chance.")
    page.click('[data-step="first"]')
    expect(moves.first).to_have_attribute("aria-current", "step")
    assert seen_in_the_list(moves.first)
    page.screenshot(path=screenshot_dir / f"review-moves-{viewport}.png", full_page=True)
    page.locator("#moves").screenshot(path=screenshot_dir / f"review-move-list-{viewport}.png")
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[viewport]["width"]
    watch.assert_clean(live_server_url)
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_link_to_a_moment_opens_there_focused(browser, live_server_url, fixed_dice, viewport):
    code = off_the_loop(chance_for_18, fixed_dice).code
    keep_seq = off_the_loop(seqs, code, "rolled")[-1]
    page = browser.new_context(viewport=VIEWPORTS[viewport]).new_page()

    # A link as shared: ?at= alone, no #replay to scroll by.
    page.goto(f"{live_server_url}/g/{code}/review/?at={keep_seq}")

    replay_text(page).to_have_text("ana rolled 6 5 4 2 1, keeping 6 5 4 (1 roll left).")
    expect(page.locator("#replay-heading")).to_be_focused()
    top = page.locator("#replay").evaluate("el => el.getBoundingClientRect().top")
    assert abs(top) <= 2  # The replay at the top of the window, not 1,000 px below it.
    assert page.evaluate("window.scrollY") > 300
    expect(page.locator("#replay-text")).to_be_in_viewport()
    # The move it names is the current one in the list.
    expect(page.locator(f'#moves-list a[data-at="{keep_seq}"]')).to_have_attribute(
        "aria-current", "step"
    )

    # The page numbers each moment as its link does: its place in the game's log.
    page.click('[data-step="last"]')
    expect(page).not_to_have_url(re.compile(rf"\?at={keep_seq}$"))
    last_seq = int(re.search(r"\?at=(\d+)$", page.url).group(1))  # type: ignore[union-attr]
    expect(page.locator("#replay-where")).to_contain_text(f"moment {last_seq} of {last_seq}")
    page.goto(f"{live_server_url}/g/{code}/review/?at={keep_seq}")
    expect(page.locator("#replay-where")).to_contain_text(f"moment {keep_seq} of {last_seq}")

    # Without ?at=, the page opens at its top.
    page.goto(f"{live_server_url}/g/{code}/review/")
    assert page.evaluate("window.scrollY") == 0
    page.context.close()


def test_clicking_the_chart_jumps_to_that_score(browser, live_server_url, fixed_dice):
    code = off_the_loop(chance_for_18, fixed_dice).code
    page = browser.new_context(viewport=VIEWPORTS["desktop"], **ONE_VISIT).new_page()
    watch = PageWatch.on(page)
    page.goto(f"{live_server_url}/g/{code}/review/")
    # At the end, the chart marks the last score: round 13's point.
    expect(chart_point(page, 0, 13)).to_have_class(re.compile("chart__point--current"))

    # Round 6: Sixes, 6 6 6 1 2.
    chart_point(page, 0, 6).click()
    replay_text(page).to_have_text("ana scored 18 in Sixes.")
    expect(page.locator("#replay-heading")).to_be_focused()
    expect(page.locator("#replay-text")).to_be_in_viewport()
    expect(chart_point(page, 0, 6)).to_have_class(re.compile("chart__point--current"))
    expect(chart_point(page, 0, 13)).not_to_have_class(re.compile("chart__point--current"))
    expect(page.locator('#moves-list a[aria-current="step"] .moves__text')).to_have_text(
        "Scored 18 in Sixes."
    )

    # Not on a point but near one: the nearest, round 4's Fours (4 4 4 1 2).
    page.evaluate("scrollTo(0, 0)")
    box = chart_point(page, 0, 4).bounding_box()
    assert box is not None
    page.mouse.click(box["x"] + box["width"] / 2 + 6, box["y"] + box["height"] / 2 + 6)
    replay_text(page).to_have_text("ana scored 12 in Fours.")

    # Round 0, where every line starts: the start of the game.
    chart_point(page, 0, 0).click()
    replay_text(page).to_have_text("ana starts a solo game.")
    expect(page.locator(".chart__point--current")).to_have_count(0)
    watch.assert_clean(live_server_url)
