"""Accounts in a real Chromium: a guest's games follow them into a new account."""

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine import rules
from games.live import services
from games.models import Game, Player
from tests import dice
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
# Every turn throws 2 3 4 5 5, written in the boxes in card order: twos 2, threes 3,
# fours 4, fives 10, small straight 30, chance 19, zero elsewhere.
FACES = [2, 3, 4, 5, 5]
BOXES = [c.value for c in rules.YAHTZEE_BOXES]  # Card order.
FINAL_TOTAL = 68


def open_solo_room(page: Page, base: str, name: str) -> str:
    """The guest opens a room for one through the home page's form; its invite code."""
    page.goto(base + "/")
    page.fill("#id_name", name)
    page.click(".new-game__more > summary")  # The seats are among its options.
    page.select_option("#id_seats", "1")
    page.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    return page.url.rstrip("/").rsplit("/", 1)[1]


def play_to_the_end(code: str) -> None:
    """Play the guest's seat through the services, as the room's socket would, on known dice."""
    player = Player.objects.get(game__code=code)
    services.start_game(code, player.pk, version=Game.objects.get(code=code).version)
    for box in BOXES:
        dice.load(*FACES)
        services.roll(code, player.pk, version=Game.objects.get(code=code).version)
        services.score(code, player.pk, box, version=Game.objects.get(code=code).version)
    assert Game.objects.get(code=code).status == Game.Status.FINISHED


def expect_profile_with_the_game(page: Page, code: str) -> None:
    """The profile of "ana" after her one game: its figures, its row, its bar."""
    expect(page.get_by_role("heading", level=1)).to_have_text("ana")
    tiles = page.locator(".stat-tile")
    expect(tiles.filter(has_text="Games").locator("dd")).to_have_text("1")
    expect(tiles.filter(has_text="Best score").locator("dd")).to_have_text(str(FINAL_TOTAL))
    games = page.locator(".profile-game")
    expect(games).to_have_count(1)
    expect(games.first).to_have_attribute("href", f"/g/{code}/review/")
    expect(games.first.locator(".profile-game__score")).to_have_text(f"Score {FINAL_TOTAL}")
    bar = page.locator('.chart--histogram .chart__bar[data-count="1"]')
    expect(bar).to_have_count(1)  # The others of the six bins are empty.
    expect(bar).to_have_attribute("data-from", str(FINAL_TOTAL // 25 * 25))


def fits_sideways(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_guests_games_follow_them_into_a_new_account(
    browser, live_server_url, screenshot_dir, settings
):
    # The dice of the games played here, in this process; the server's are its own.
    settings.YAHTZEE_DICE = "tests.dice.scripted_roll"
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    page = context.new_page()
    watch = PageWatch.on(page)

    # A guest opens a room and plays it to the end.
    code = open_solo_room(page, live_server_url, "Ana")
    off_the_loop(play_to_the_end, code)

    # From the room, they sign up in the header; they come back to the game, told.
    page.get_by_role("navigation", name="Account").get_by_role("link", name="Sign up").click()
    expect(page.get_by_role("heading", name="Create an account")).to_be_visible()
    page.screenshot(path=screenshot_dir / "signup-desktop.png", full_page=True)
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    # A finished game's room shows its review.
    page.wait_for_url(re.compile(rf"/g/{re.escape(code)}/(review/)?$"))
    expect(page.locator(".messages")).to_have_text(
        "1 game you played in this browser is now on your account."
    )

    # Their profile shows the game, its score, and a link to its review.
    page.get_by_role("navigation", name="Account").get_by_role("link", name="ana").click()
    page.wait_for_url(f"{live_server_url}/players/ana/")
    expect_profile_with_the_game(page, code)
    page.screenshot(path=screenshot_dir / "profile-desktop.png", full_page=True)
    page.set_viewport_size(VIEWPORTS["phone"])
    page.screenshot(path=screenshot_dir / "profile-phone.png", full_page=True)
    assert fits_sideways(page)

    # They log out with the header's button, and the header offers to log in again.
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server_url}/")
    account = page.get_by_role("navigation", name="Account")
    expect(account.get_by_role("link", name="Log in")).to_be_visible()
    page.screenshot(path=screenshot_dir / "header-guest-phone.png")
    assert fits_sideways(page)

    # Logging in again brings them back where they were, and the game is still theirs.
    page.set_viewport_size(VIEWPORTS["desktop"])
    account.get_by_role("link", name="Log in").click()
    # The login page, drawn: a screenshot taken while the page navigates fails in Chromium.
    expect(page.get_by_label("Username")).to_be_visible()
    page.screenshot(path=screenshot_dir / "login-desktop.png")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server_url}/")
    expect(page.locator(".messages")).to_have_count(0)  # No new game joined the account.
    page.goto(f"{live_server_url}/players/ana/")
    expect_profile_with_the_game(page, code)
    watch.assert_clean(live_server_url)
    context.close()
