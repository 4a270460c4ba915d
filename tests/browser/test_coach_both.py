"""The coach shows both (issue 27), in a real Chromium at 1280x800 and at 390x844: when
the move that wins most often is not the one worth the most points, the player sees the
best for points and the best to win, each with its points and its chance to win.

The position is tests/strategy/test_coach.py's, reached in a real game: Ana has only
Chance left on an empty card; Ben stands on 27 (a Chance of 27) with only the Yahtzee to
play. Ana rolls 1 1 2 3 3, then 6 6 5 4 1 with a roll to go: four dice for points, 5 6 6
to win. The figures are the engine's (the server sends them; the test process checked
them when this test was written: 24.5 and 7.95%, 24.0 and 11.92%).
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.engine.rules import YAHTZEE_BOXES, Category
from games.live import services
from games.models import Game
from tests import dice
from tests.browser.test_phone_first import screen
from tests.browser.test_room import barrier, expect_dice, expect_my_turn, reload_room, set_switch
from tests.browser.watch import CALM, VIEWPORTS, PageWatch, off_the_loop

pytestmark = pytest.mark.browser

# The faces each box is written with for nothing (no face, no pattern it asks for).
NOTHING = {
    Category.ONES: (2, 2, 3, 5, 6),
    Category.TWOS: (1, 1, 3, 5, 6),
    Category.THREES: (1, 1, 2, 5, 6),
    Category.FOURS: (1, 1, 2, 5, 6),
    Category.FIVES: (1, 1, 2, 3, 6),
    Category.SIXES: (1, 1, 2, 3, 5),
}
BEN_CHANCE = (6, 6, 6, 6, 3)  # 27
# Ana's last turn, thrown by the server the browser talks to.
LAST_TURN = [1, 1, 2, 3, 3, 6, 6, 5, 4, 1]


def zero_dice(box: Category) -> tuple[int, ...]:
    return NOTHING.get(box, (1, 1, 2, 3, 5))


def play_twelve_rounds(code: str) -> None:
    """Start the game (Ana wins the roll-off) and play twelve rounds through the services:
    Ana writes 0 in every box but Chance, Ben 27 in Chance and 0 in all but the Yahtzee."""
    _, players, _ = services.rules_state(code)
    ana, ben = sorted(players, key=lambda p: p.seat)
    dice.clear()  # This process's copy of the server's dice: its own throws come from here.
    dice.load(*[6] * 5, *[1] * 5)
    services.start_game(code, ana.pk, version=Game.objects.get(code=code).version)
    anas = [c for c in YAHTZEE_BOXES if c is not Category.CHANCE]
    bens = [
        Category.CHANCE,
        *(c for c in YAHTZEE_BOXES if c not in (Category.CHANCE, Category.YAHTZEE)),
    ]
    for ana_box, ben_box in zip(anas, bens, strict=True):
        for player, box in ((ana, ana_box), (ben, ben_box)):
            dice.load(*(BEN_CHANCE if box is Category.CHANCE else zero_dice(box)))
            services.roll(code, player.pk, [], version=Game.objects.get(code=code).version)
            services.score(code, player.pk, box.value, version=Game.objects.get(code=code).version)


def open_room_without_clock(page: Page, base: str) -> str:
    page.goto(base + "/")
    page.fill("#id_name", "Ana")
    page.click(".new-game__more > summary")
    page.select_option("#id_seats", "2")
    page.select_option("#id_turn_seconds", "")  # Nobody is timed out while the test sets up.
    page.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    return page.url.rstrip("/").rsplit("/", 1)[1]


@pytest.mark.parametrize("server_dice", [LAST_TURN])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_coach_shows_the_best_for_points_and_the_best_to_win(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(**screen(viewport), **CALM)  # It reads the coach.
    ana = context.new_page()
    watch = PageWatch.on(ana)
    code = open_room_without_clock(ana, live_server_url)
    off_the_loop(services.join_game, code, "Ben", session_key="s-ben")
    reload_room(ana)
    expect(ana.locator("#seats .seat__name", has_text="Ben")).to_be_visible()
    set_switch(ana, "#coach-toggle", True)
    barrier(ana)  # The coach is on, as the server has it, before the services play on.
    off_the_loop(play_twelve_rounds, code)
    reload_room(ana)
    expect_my_turn(ana)

    ana.click("#roll-button")
    expect_dice(ana, [1, 1, 2, 3, 3])
    # One box left and nothing to win with 1 1 2 3 3: points and winning agree.
    expect(ana.locator("#coach-best")).to_contain_text("Throw all")
    expect(ana.locator("#coach-both")).to_be_hidden()
    ana.click("#roll-button")
    expect_dice(ana, [6, 6, 5, 4, 1])
    both = ana.locator("#coach-both")
    expect(both).to_be_visible()
    expect(ana.locator("#coach-both-points")).to_have_text(
        "For the most points: keep 4-5-6-6 (about 25 pts, 8% to win)."
    )
    expect(ana.locator("#coach-both-win")).to_have_text(
        "To win this game: keep 5-6-6 (about 24 pts, 12% to win)."
    )
    both.scroll_into_view_if_needed()
    ana.screenshot(path=screenshot_dir / f"coach-both-{viewport}.png")
    watch.assert_clean(live_server_url)
    context.close()
