"""Today's dice in a real Chromium: a player plays the day's game to its end and sees the
board, the engine's score on the same dice and the text to share."""

import re

import pytest
from playwright.sync_api import expect

from games.engine.rules import YAHTZEE_BOXES
from games.live import daily
from games.models import DailyEngine, DailyEntry, Game
from tests.browser.axe import failing, violations
from tests.browser.test_room import expect_dice, expect_my_turn, roll, score
from tests.browser.watch import CALM, VIEWPORTS, off_the_loop
from tests.server.helpers import play_solo, play_solo_as

pytestmark = pytest.mark.browser


def test_a_player_plays_todays_dice_and_sees_the_board(browser, live_server_url, screenshot_dir):
    context = browser.new_context(viewport=VIEWPORTS["desktop"], **CALM)
    page = context.new_page()
    page.goto(live_server_url + "/")
    page.click("text=Today's dice >> nth=-1")
    page.wait_for_url(re.compile(r"/daily/$"))
    page.screenshot(path=screenshot_dir / "daily-before.png", full_page=True)
    page.fill("#daily-name", "Ana")
    page.click("text=Play today's dice")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))

    today = daily.day_grid(daily.today())
    for turn, box in enumerate(YAHTZEE_BOXES, start=1):
        expect_my_turn(page)
        roll(page, "click")
        expect_dice(page, list(today.faces(turn, 1)))  # Everyone's first roll of this turn.
        score(page, 0, box.value, "click")

    expect(page.locator("#finish")).to_be_visible(timeout=15_000)
    # One game a day: the end offers the day's board, not a rematch on fresh dice.
    total = Game.objects.get(daily__isnull=False).state.cards[0].total  # type: ignore[union-attr]
    expect(page.locator("#finish-headline")).to_have_text(f"You scored {total} on today's dice.")
    expect(page.locator("#rematch-button")).to_be_hidden()
    expect(page.locator("#finish-note")).to_be_hidden()
    expect(page.locator("#feed li").last).to_have_text(
        f"Game over: Ana scored {total} on today's dice."
    )
    # The place, the engine's score and the points given away, without a click.
    expect(page.locator("#daily-result-place")).to_have_text("1 of 1")
    entry = DailyEntry.objects.get()
    engine = DailyEngine.objects.get(day=entry.day)
    expect(page.locator("#daily-result-engine")).to_have_text(str(engine.score))
    assert entry.given_away is not None
    expect(page.locator("#daily-result-given")).to_have_text(f"{entry.given_away:.1f}")
    page.locator("#finish").screenshot(path=screenshot_dir / "daily-finished.png")
    page.click("#daily-link")
    page.wait_for_url(re.compile(r"/daily/$"))

    expect(page.locator("#daily-score")).to_have_text(str(entry.score))
    expect(page.locator("#engine-score")).to_have_text(str(engine.score))
    expect(page.locator("#daily-place")).to_have_text("1 of 1")
    expect(page.locator("#board tbody tr")).to_have_count(1)
    expect(page.locator("#board")).to_contain_text("Ana guest")
    share = page.locator("#share-text").input_value()
    assert share.startswith(f"Yahtzee Live daily #{daily.day_number(entry.day)}: {entry.score} ")
    assert f"(engine {engine.score})" in share
    assert entry.card in share
    page.screenshot(path=screenshot_dir / "daily-board.png", full_page=True)

    # A second visit shows the result, not a new game.
    page.goto(live_server_url + "/daily/")
    expect(page.locator("#daily-score")).to_have_text(str(entry.score))
    expect(page.locator("text=Play today's dice")).to_have_count(0)
    context.close()


def test_a_friend_plays_my_dice_from_the_review_and_gets_the_same_first_roll(
    browser, live_server_url, screenshot_dir, fixed_dice
):
    played = off_the_loop(
        play_solo, fixed_dice
    )  # ana's solo game, rolled fresh: (1, 1, 1, 2, 3) first.
    context = browser.new_context(viewport=VIEWPORTS["desktop"], **CALM)
    page = context.new_page()
    page.goto(f"{live_server_url}/g/{played.code}/review/")
    page.fill("#dice-name", "Ben")
    page.click("#play-my-dice")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    expect_my_turn(page)
    roll(page, "click")
    expect_dice(page, [1, 1, 1, 2, 3])

    friend = Game.objects.get(dice_of__code=played.code)
    off_the_loop(play_solo_as, friend, "casual")  # Ben's game to its end, on Ana's dice.
    page.goto(f"{live_server_url}/g/{friend.code}/review/")
    cards = page.locator("#same-dice-cards")
    expect(cards.locator("thead")).to_contain_text("ana")
    expect(cards.locator("thead")).to_contain_text("Ben")
    expect(cards.locator("tfoot td").first).to_have_text("293")
    cards.scroll_into_view_if_needed()
    page.screenshot(path=screenshot_dir / "daily-same-dice.png", full_page=True)
    context.close()


def test_a_daily_game_left_unfinished_is_shown_as_not_ranked(
    browser, live_server_url, screenshot_dir
):
    context = browser.new_context(viewport=VIEWPORTS["desktop"], **CALM)
    page = context.new_page()
    page.goto(live_server_url + "/daily/")
    page.fill("#daily-name", "Ana")
    page.click("text=Play today's dice")
    page.wait_for_url(re.compile(r"/g/[^/]+/$"))
    expect_my_turn(page)
    roll(page, "click")
    expect_dice(page, list(daily.day_grid(daily.today()).faces(1, 1)))
    score(page, 0, "chance", "click")
    expect_my_turn(page)
    # Ana gives up: her seat leaves the game, which is over with one box filled.
    page.click("#leave-game-button")
    page.click("#confirm-yes")

    expect(page.locator("#finish")).to_be_visible(timeout=15_000)
    expect(page.locator("#daily-result-place")).to_have_text("not ranked: not finished")
    chance = sum(daily.day_grid(daily.today()).faces(1, 1))
    expect(page.locator("#daily-result-note")).to_have_text(
        f"Not finished: {chance} after 1 of 13 boxes. It was your attempt for today, "
        "listed under the board without a place."
    )
    expect(page.locator("#daily-result-given")).to_have_text("not counted")
    page.locator("#finish").screenshot(path=screenshot_dir / "daily-unfinished-end.png")
    assert failing(violations(page)) == []  # axe-core: the end panel with its figures.

    page.click("#daily-link")
    page.wait_for_url(re.compile(r"/daily/$"))
    expect(page.locator("#daily-place")).to_have_text("not ranked")
    expect(page.locator("#unfinished tbody tr")).to_have_count(1)
    expect(page.locator("#unfinished")).to_contain_text("Ana guest")
    expect(page.locator("#board")).to_have_count(0)  # Nobody finished: no places.
    expect(page.locator("text=Play today's dice")).to_have_count(0)  # The attempt is spent.
    page.screenshot(path=screenshot_dir / "daily-unfinished-board.png", full_page=True)
    assert failing(violations(page)) == []  # axe-core: the board with its unfinished list.
    context.close()
