"""The review page read in German in a real browser (issue 31): the server's words (the moves,
the verdicts, the turning points, the charts) arrive in the reader's language, and the
page's script shows the German words the server gave it as the replay moves."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_win_chances import finished_game
from tests.browser.watch import ONE_VISIT, VIEWPORTS, PageWatch, off_the_loop

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("server_dice", [[]])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_review_reads_in_german(browser, live_server_url, screenshot_dir, viewport) -> None:  # type: ignore[no-untyped-def]
    code = off_the_loop(finished_game, 3)
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale="de-DE", **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)
    page.goto(f"{live_server_url}/g/{code}/review/")

    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("#replay-text")).to_have_text(
        re.compile(r"^(Ana|Ben)( und Ben teilen sich den Sieg| gewinnt) mit \d+\.$")
    )
    expect(page.locator("#chances-chart svg > title")).to_have_text("Siegchancen, Zug um Zug")
    expect(page.locator("#totals-title")).to_have_text("Punktverlauf nach Runden")
    expect(page.locator("#turning-points li").first).to_contain_text(
        re.compile(r"^(Wurf|Entscheidung)Runde \d+: (Ana|Ben) ")
    )
    page.screenshot(path=screenshot_dir / f"review-de-{viewport}.png", full_page=True)
    # The first move of the list: the replay shows it in the server's German words.
    page.locator("#moves-list .moves__move").nth(1).click()
    expect(page.locator("#replay-text")).to_have_text(
        re.compile(r"^Ana würfelte [1-6]( [1-6]){4} \(noch 2 Würfe\)\.$")
    )
    expect(page.locator("#replay-analysis")).to_be_hidden()  # A first roll decides nothing.
    decision = ".moves__move:has(.moves__best), .moves__move:has(.moves__loss)"
    page.locator("#moves-list").locator(decision).first.click()
    expect(page.locator("#replay-analysis")).to_have_text(re.compile(r"^Am besten: .+ erwartet\."))
    watch.assert_clean(live_server_url)
    context.close()
