"""The turn clock in a real Chromium: two players and a watcher in a room with a 10 s clock.

The live server runs the clock's watch (tests/conftest.py), so a turn nobody plays
is played by the server, as in production. The dice are real: the clock plays as
the optimal strategy would, so how many dice it throws is not known beforehand.
"""

import json
import re
from urllib.request import Request, urlopen

import pytest
from playwright.sync_api import Page, expect

from games.strategy import load
from tests.browser.test_room import click_box, expect_my_turn, join, open_room
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser

TURN_SECONDS = 10
# The clock acts at the deadline; the watch looks at least every 2 s. Some slack on top.
CLOCK_PLAYS_WITHIN_MS = (TURN_SECONDS + 5) * 1000
# The dice are real: a turn may roll a second Yahtzee, whose bonus the line names after
# the box ("... in Ones and a Yahtzee bonus of 100 ...").
BONUS = r"(?: and a Yahtzee bonus of 100)?"
TIME_RAN_OUT = re.compile(rf"^(\w+)'s time ran out: the clock scored (\d+) in (.+?){BONUS}\.$")
BOT_SCORED = re.compile(rf"^A bot scored (\d+) in (.+?){BONUS} for (\w+) \(away\)\.$")


@pytest.fixture(autouse=True)
def _strategy_ready() -> None:
    """Load the official table before the server is forked: the clock plays by it."""
    load("official")


def create_room_through_the_api(base: str) -> str:
    """A room for two with a 10 s clock (the home page offers 30 s at least); nobody seated."""
    body = json.dumps({"seats": 2, "turn_seconds": TURN_SECONDS}).encode()
    request = Request(f"{base}/api/games/", data=body, headers={"Content-Type": "application/json"})
    with urlopen(request) as response:
        assert response.status == 201
        code = json.load(response)["code"]
    return f"{base}/g/{code}/"


def seat_on_turn(page: Page) -> int:
    page.wait_for_function("() => { const s = window.yahtzeeRoom.state; return s && s.turn; }")
    return page.evaluate("window.yahtzeeRoom.state.turn.seat")  # type: ignore[no-any-return]


def box_cell(page: Page, seat: int, label: str):  # type: ignore[no-untyped-def]
    """The card's cell for ``seat`` in the row labelled ``label`` ("Chance", "Large straight")."""
    box = label.lower().replace(" ", "_")
    return page.locator(f'#scorecard td[data-seat="{seat}"][data-box="{box}"]')


def expect_countdown(
    pages: list[Page], seat: int, name: str, own: Page, *, down: bool = True
) -> None:
    """Every page shows the clock for ``seat``, from about 10 s, urgent (the last 10 s),
    and (``down``) counting down."""
    for page in pages:
        box = page.locator("#turn-clock")
        expect(box).to_be_visible()
        expect(box).to_have_class(re.compile(r"\bturn-clock--urgent\b"))
        expect(page.locator("#turn-clock-time")).to_have_text(re.compile(r"^0:(10|0[5-9])$"))
        expect(page.locator("#turn-clock-word")).to_have_text("left: hurry!")
        # The seat on turn has the time beside its name on the card too.
        expect(page.locator(".scorecard__player--turn .seat-clock")).to_be_visible()
        expect(page.locator(".scorecard__player--turn .scorecard__name")).to_have_text(name)
        if page is own:
            expect(box).to_have_class(re.compile(r"\bturn-clock--mine\b"))
            expect(page.locator("#turn-clock-who")).to_have_text("")
        else:
            expect(box).not_to_have_class(re.compile(r"\bturn-clock--mine\b"))
            expect(page.locator("#turn-clock-who")).to_have_text(f"{name}:")
    # And it counts down, everywhere.
    for page in pages if down else []:
        expect(page.locator("#turn-clock-time")).to_have_text(
            re.compile(r"^0:0[0-4]$"), timeout=TURN_SECONDS * 1000
        )
        expect(page.locator(".seat-clock__time")).to_have_text(re.compile(r"^0:0[0-4]$"))


def expect_the_clock_scored(pages: list[Page], seat: int, name: str, count: int) -> None:
    """Every page tells, in the feed, that the clock scored ``name``'s turn (the
    ``count``-th time), and shows the score on the card."""
    lines = []
    for page in pages:
        played = page.locator(".feed__item--scored", has_text="time ran out")
        expect(played).to_have_count(count, timeout=CLOCK_PLAYS_WITHIN_MS)
        lines.append(played.last.inner_text())
    assert len(set(lines)) == 1, lines
    found = TIME_RAN_OUT.match(lines[0])
    assert found, lines[0]
    assert found.group(1) == name
    points, label = found.group(2), found.group(3)
    for page in pages:
        expect(box_cell(page, seat, label)).to_have_text(points)
        # The clock played the whole turn (rolls too), marked as the clock's.
        expect(page.locator(".feed__item--rolled", has_text="The clock rolled")).not_to_have_count(
            0
        )


def play_quickly(page: Page, seat: int) -> None:
    """Roll once and score the first open box, at once."""
    expect_my_turn(page)
    page.click("#roll-button")
    page.wait_for_function("() => { const t = window.yahtzeeRoom.state.turn; return t && t.dice; }")
    button = page.locator(f'#scorecard td[data-seat="{seat}"] button').first
    box = button.get_attribute("data-focus").removeprefix("box-")
    click_box(page, button)
    # Filled: the turn has passed (a bot's turn after it may be over already).
    page.wait_for_function(
        "([seat, box]) => window.yahtzeeRoom.state.players[seat].card.boxes[box] !== null",
        arg=[seat, box],
    )


def test_the_clock_plays_a_silent_turn_and_a_bot_keeps_the_seat_warm(
    browser, live_server_url, screenshot_dir
):  # type: ignore[no-untyped-def]
    contexts = [
        browser.new_context(viewport=VIEWPORTS["desktop"]),
        browser.new_context(viewport=VIEWPORTS["phone"], has_touch=True, is_mobile=True),
        browser.new_context(viewport=VIEWPORTS["desktop"]),
    ]
    ana, bob, watcher = (context.new_page() for context in contexts)
    pages = [ana, bob, watcher]
    watch = PageWatch.on(*pages)

    url = create_room_through_the_api(live_server_url)
    join(ana, url, "Ana")  # The first to sit is the host.
    join(bob, url, "Bob")
    open_room(watcher, url)
    expect(watcher.locator("#lobby-note")).to_have_text(
        "Every seat is taken: you are watching this game."
    )
    for page in pages:
        expect(page.locator("#clock-setting")).to_have_text("10 s a turn")
    ana.click("#start-button")

    # The roll-off (real dice) picks who goes first: that player never touches the page.
    players = {0: ana, 1: bob}
    names = {0: "Ana", 1: "Bob"}
    gone = seat_on_turn(ana)
    here = 1 - gone
    silent, other = players[gone], players[here]
    name = names[gone]
    expect_countdown(pages, gone, name, own=silent)
    watcher.screenshot(path=screenshot_dir / "clock-countdown-watcher.png")
    silent.screenshot(path=screenshot_dir / "clock-countdown-own.png")

    # The time runs out: the clock plays the turn, and every browser says so.
    expect_the_clock_scored(pages, gone, name, count=1)
    for page in pages:
        expect(page.locator(".scorecard__total").nth(gone)).not_to_have_text("")
    watcher.screenshot(path=screenshot_dir / "clock-ran-out-watcher.png", full_page=True)

    # The other player plays at once, with the clock on their own turn.
    expect(other.locator("#turn-clock")).to_have_class(re.compile(r"\bturn-clock--mine\b"))
    expect(watcher.locator("#turn-clock-who")).to_have_text(f"{names[here]}:")
    play_quickly(other, here)

    # A second silent turn: the clock plays it again, and the seat is away.
    expect_countdown(pages, gone, name, own=silent)
    expect_the_clock_scored(pages, gone, name, count=2)
    for page in pages:
        header = page.locator("#scorecard thead th", has_text=name)
        expect(header.locator(".badge--away")).to_have_text("away")
        expect(page.locator("#feed")).to_contain_text(
            f"{name} is away: a bot plays for {name} until {name} comes back."
        )
    expect(silent.locator("#away-notice")).to_be_visible()
    expect(silent.locator("#back-button")).to_have_text("I'm back")
    for page in (other, watcher):
        expect(page.locator("#away-notice")).to_be_hidden()
    silent.evaluate("scrollTo(0, 0)")
    silent.screenshot(path=screenshot_dir / "clock-away-own.png")
    bob.evaluate("scrollTo(0, 0)")
    bob.screenshot(path=screenshot_dir / "clock-away-phone.png", full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]

    # Now a bot plays that seat's turn as soon as it comes, without waiting for the clock.
    play_quickly(other, here)
    for page in pages:
        played = page.locator(".feed__item--scored", has_text="A bot scored")
        expect(played).to_have_count(1)
        found = BOT_SCORED.match(played.inner_text())
        assert found, played.inner_text()
        assert found.group(3) == name
        expect(box_cell(page, gone, found.group(2))).to_have_text(found.group(1))
    # Back on the other player's turn, whose clock runs again.
    expect_my_turn(other)
    expect(watcher.locator("#turn-clock-who")).to_have_text(f"{names[here]}:")
    watcher.screenshot(path=screenshot_dir / "clock-bot-played-watcher.png", full_page=True)

    # "I'm back": every browser sees the seat come back.
    silent.click("#back-button")
    for page in pages:
        expect(page.locator("#feed")).to_contain_text(f"{name} is back.")
        expect(page.locator("#scorecard .badge--away")).to_have_count(0)
    expect(silent.locator("#away-notice")).to_be_hidden()
    expect(silent.locator("#toast")).to_have_text("You are back: your turns wait for you again.")

    # Its next turn waits for it again, with the clock.
    play_quickly(other, here)
    expect_my_turn(silent)
    expect_countdown(pages, gone, name, own=silent, down=False)
    silent.evaluate("scrollTo(0, 0)")
    silent.screenshot(path=screenshot_dir / "clock-back-own.png")
    play_quickly(silent, gone)
    for page in pages:
        expect(page.locator("#feed")).to_contain_text(re.compile(rf"{name} scored \d+ in "))
        expect(page.locator(".feed__item--scored", has_text="A bot scored")).to_have_count(1)

    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()
