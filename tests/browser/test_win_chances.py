"""Who is likely to win (issue 18), in a real Chromium: the bar in the room, for watchers
and (when the host chose so) players, moving after every roll and score; and the graph in
the review, whose clicks jump to their moment.

The server throws scripted dice (``server_dice``); the chances the pages must show are
worked out in the test process with the same engine, from the game the server saved.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.insight import chances, review
from games.live import services
from games.models import Game
from games.web import charts, review_words
from tests.browser.test_room import click_box, create_room, expect_dice, expect_my_turn, open_room
from tests.browser.watch import CALM, ONE_VISIT, VIEWPORTS, PageWatch, off_the_loop
from tests.server.helpers import play_as_bots

pytestmark = pytest.mark.browser

# The roll-off (Ana 30, the bot 5), Ana's five sixes, the Casual bot's small straight
# (it takes it at once), and Ana's first roll of round 2.
DICE = [6] * 5 + [1] * 5 + [6] * 5 + [1, 2, 3, 4, 6] + [2, 2, 3, 4, 5]
SHOWN = (
    "() => [...document.querySelectorAll('.win-chance__text')]"
    ".every(t => t.textContent !== '\N{HORIZONTAL ELLIPSIS}')"
)


def percent(win: float) -> str:
    return f"{round(win * 100)}%"


def engine_says(code: str) -> list[str]:
    """Each seat's chance as the page must write it, for the game as the server saved it."""
    _, _, state = off_the_loop(services.rules_state, code)
    return [percent(win) for win in chances.win_chances(state)]


def bar_texts(page: Page) -> list[str]:
    page.wait_for_function(SHOWN)
    return page.locator(".win-chance__text").all_text_contents()


def expect_bar(page: Page, code: str) -> list[str]:
    """The page's bar shows what the engine says now (once its answer has come)."""
    want = engine_says(code)
    texts = page.locator(".win-chance__text")
    for seat, text in enumerate(want):
        expect(texts.nth(seat)).to_have_text(text)
    return want


def start_against_a_bot(page: Page, base: str, show_odds: bool) -> str:
    room = create_room(page, base, "Ana", seats=2, show_odds=show_odds)
    page.click("[data-bot=casual]")
    expect(page.locator("#seats .badge--bot")).to_have_count(1)
    page.click("#start-button")
    expect_my_turn(page)
    return room


@pytest.mark.parametrize("server_dice", [DICE])
def test_watchers_see_the_bar_move_and_players_do_not_when_it_is_hidden(
    browser, live_server_url, screenshot_dir
):  # type: ignore[no-untyped-def]
    contexts = [
        browser.new_context(viewport=VIEWPORTS["desktop"], **CALM),
        browser.new_context(viewport=VIEWPORTS["desktop"], **CALM),
        browser.new_context(viewport=VIEWPORTS["phone"], is_mobile=True, has_touch=True, **CALM),
    ]
    ana, watcher, phone = (context.new_page() for context in contexts)
    watch = PageWatch.on(ana, watcher, phone)
    room = start_against_a_bot(ana, live_server_url, show_odds=False)
    code = room.rstrip("/").rsplit("/", 1)[1]
    for page in (watcher, phone):
        open_room(page, room)
        expect(page.locator(".scorecard__odds th")).to_contain_text("Chance to win")
        assert bar_texts(page) == ["50%", "50%"]

    ana.click("#roll-button")
    expect_dice(ana, [6, 6, 6, 6, 6])
    after_roll = expect_bar(watcher, code)
    assert after_roll[0] != "50%"  # The bar moved with the roll (five sixes: Ana leads).
    assert int(after_roll[0].rstrip("%")) > 70
    expect(watcher.locator(".win-chance--leading")).to_have_attribute("data-win-seat", "0")

    click_box(ana, ana.locator('button[data-focus="box-yahtzee"]'))
    # The bot takes its straight at once; then it is Ana's turn again, and she rolls. Round 2
    # is the sign the bot has played: "your turn" alone is still true before her score's
    # event comes back, and the engine, read then, gave the chances of a move behind.
    expect(ana.locator("#room-status")).to_contain_text("Round 2 of 13 · your turn")
    expect_my_turn(ana)
    expect(watcher.locator("#room-status")).to_contain_text("Round 2 of 13 · Ana's turn")
    expect(watcher.locator("#turn-heading")).to_have_text("Ana's turn")
    after_turns = expect_bar(watcher, code)
    # The end of the bot's turn was read out, as the bar shows it.
    expect(watcher.locator("#odds-announcer")).to_have_text(
        f"Chances to win: Ana {after_turns[0]}, Casual bot {after_turns[1]}."
    )
    ana.click("#roll-button")
    expect_dice(watcher, [2, 2, 3, 4, 5])
    expect_bar(watcher, code)
    expect_bar(phone, code)

    # Ana plays in a room whose host (she) did not show the odds: no bar, ever.
    expect(ana.locator(".scorecard__odds")).to_have_count(0)
    expect(ana.locator(".win-chance")).to_have_count(0)

    expect(phone.locator(".die-button--rolling")).to_have_count(0)
    expect(watcher.locator(".die-button--rolling")).to_have_count(0)
    watcher.screenshot(path=screenshot_dir / "win-chances-watching-desktop.png")
    phone.screenshot(path=screenshot_dir / "win-chances-watching-phone.png")
    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()


@pytest.mark.parametrize("server_dice", [DICE])
def test_players_see_the_bar_when_the_host_shows_it(browser, live_server_url, screenshot_dir):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=VIEWPORTS["desktop"], **CALM)
    ana = context.new_page()
    watch = PageWatch.on(ana)
    room = start_against_a_bot(ana, live_server_url, show_odds=True)
    code = room.rstrip("/").rsplit("/", 1)[1]
    assert bar_texts(ana) == ["50%", "50%"]
    ana.click("#roll-button")
    expect_dice(ana, [6, 6, 6, 6, 6])
    expect_bar(ana, code)
    ana.screenshot(path=screenshot_dir / "win-chances-player-desktop.png")
    watch.assert_clean(live_server_url)
    context.close()


def finished_game(seed: int) -> str:
    """A whole game of Ana (playing as the Optimal bot would) against a Casual bot's moves."""
    game, host = services.create_game(seats=2, host_name="Ana", session_key="s-ana")
    assert host is not None
    services.join_game(game.code, "Ben", session_key="s-ben")
    from tests import dice

    dice.load(*[6] * 5, *[1] * 5)
    services.start_game(game.code, host.pk, version=Game.objects.get(code=game.code).version)
    play_as_bots(game.code, seed)
    return game.code


@pytest.mark.parametrize("server_dice", [[]])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_review_graph_draws_the_game_and_a_click_jumps_to_its_moment(
    browser, live_server_url, screenshot_dir, scheme
):  # type: ignore[no-untyped-def]
    code = off_the_loop(finished_game, 3)
    events = off_the_loop(services.replay_events, code)
    told = review.build(events)
    want = chances.over_the_game(told)
    turning = want.turning_points()
    context = browser.new_context(viewport=VIEWPORTS["desktop"], color_scheme=scheme, **ONE_VISIT)
    page = context.new_page()
    watch = PageWatch.on(page)
    page.goto(f"{live_server_url}/g/{code}/review/")

    graph = page.locator("#chances-chart svg")
    expect(graph).to_be_visible()
    expect(graph.locator(".chart__line")).to_have_count(2)
    expect(graph.locator(".chart__turn")).to_have_count(len(turning))
    items = page.locator("#turning-points li")
    expect(items).to_have_count(len(turning))
    for number, point in enumerate(turning):
        expect(items.nth(number)).to_contain_text(review_words.swing_text(point, told))
        expect(items.nth(number)).to_contain_text("Roll" if point.cause == "roll" else "Decision")

    # A turning point's mark on the graph goes to its moment.
    first = turning[0]
    graph.locator('.chart__turn[data-number="1"]').click()
    expect(page.locator("#replay-slider")).to_have_value(str(first.index))
    assert f"at={first.seq}" in page.url
    expect(page.locator("#replay-chances [data-seat='0'] strong")).to_have_text(
        percent(want.chances[first.index][0])
    )
    # A click anywhere on the graph goes to the moment under it (away from the marks, each
    # of which goes to its own).
    moment = next(
        m
        for m in range(len(want.chances) * 2 // 3, len(want.chances))
        if all(abs(m - p.index) > 4 for p in turning)
    )
    graph.scroll_into_view_if_needed()
    box = graph.bounding_box()
    assert box is not None
    width, height = (float(v) for v in graph.get_attribute("viewBox").split()[2:])
    plot = charts.CHANCES_PLOT
    x = plot.left + plot.width * moment / (len(want.chances) - 1)
    graph.click(position={"x": x * box["width"] / width, "y": 120 * box["height"] / height})
    expect(page.locator("#replay-slider")).to_have_value(str(moment))
    cursor = graph.locator(".chart__cursor")
    expect(cursor).to_have_attribute("visibility", "visible")
    assert float(cursor.get_attribute("x1")) == pytest.approx(x, abs=0.01)
    # A turning point in the list steps the replay there too, without a reload.
    last = turning[-1]
    items.nth(len(turning) - 1).locator("a").click()
    expect(page.locator("#replay-slider")).to_have_value(str(last.index))
    assert re.search(rf"at={last.seq}\b", page.url)

    page.locator("#chances").screenshot(
        path=screenshot_dir / f"review-chances-{scheme}-desktop.png"
    )
    watch.assert_clean(live_server_url)
    context.close()
