"""The room as a game table, in a real Chromium: one screen to play on, no silent zero,
keys that do what they say, the invite at any time, and watchers without player controls.

The server throws scripted dice (``server_dice``), so every roll below is a known answer.
"""

import pytest
from playwright.sync_api import Page, expect

from games.strategy import load
from tests.browser.test_room import (
    barrier,
    command,
    create_room,
    expect_dice,
    expect_my_turn,
    open_room,
    set_switch,
    stored_version,
    version,
)
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser

DESKTOP, PHONE = VIEWPORTS["desktop"], VIEWPORTS["phone"]
STRAIGHT = [6, 5, 3, 2, 4]  # A Large straight: 40, and 0 in Full house.


def roll_off(players: int) -> list[int]:
    """The host throws 30, every bot less: the host plays first, after one round."""
    return [6, 6, 6, 6, 6] + [1, 1, 1, 2, 2] * (players - 1)


# Which of the dice, the Roll button and this player's open boxes are not wholly on
# screen, or are covered by something else (the dice bar on a phone, say).
OFF_SCREEN = """() => {
    const width = document.documentElement.clientWidth;
    const height = document.documentElement.clientHeight;
    const seen = (el) => {
        const r = el.getBoundingClientRect();
        if (!r.width || r.top < 0 || r.left < 0) return false;
        if (r.bottom > height || r.right > width) return false;
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return Boolean(hit) && (hit === el || el.contains(hit));
    };
    const me = window.yahtzeeRoom.state.you.seat;
    const missing = [];
    document.querySelectorAll(".die-button").forEach((die, i) => {
        if (!seen(die)) missing.push(`die ${i + 1}`);
    });
    if (!seen(document.getElementById("roll-button"))) missing.push("Roll");
    const mine = `#scorecard td[data-seat="${me}"][data-box]:not(.scorecard__filled)`;
    const open = document.querySelectorAll(mine);
    open.forEach((td) => { if (!seen(td)) missing.push(td.dataset.box); });
    return { missing, open: open.length };
}"""


def off_screen(page: Page, shot) -> list[str]:  # type: ignore[no-untyped-def]
    """What is not on screen; a screenshot of it to look at when something is."""
    found = page.evaluate(OFF_SCREEN)
    assert found["open"] == 13  # The first turn: every box is open.
    if found["missing"]:
        page.screenshot(path=shot)
    return found["missing"]  # type: ignore[no-any-return]


def seat_bots(page: Page, count: int) -> None:
    for number in range(count):
        page.click("[data-bot=optimal]" if number % 2 else "[data-bot=casual]")
        expect(page.locator("#seats .badge--bot")).to_have_count(number + 1)


@pytest.fixture(autouse=True)
def _strategy_ready() -> None:
    """Load the official table before the server is forked, so the coach answers at once."""
    load("official")


# -- One screen to play on -----------------------------------------------------

# (size, players, coach, the players see the chances to win: a row more on the cards)
SIZES = [
    ("desktop", 2, True, False),
    ("desktop", 4, False, True),
    ("desktop", 6, True, True),
    ("phone", 2, False, True),
    ("phone", 4, True, False),
    ("phone", 6, True, True),
]


@pytest.mark.parametrize(
    ("size", "players", "coach", "odds", "server_dice"),
    [
        (size, players, coach, odds, roll_off(players) + STRAIGHT + [1])
        for size, players, coach, odds in SIZES
    ],
    ids=[
        f"{size}-{players}-players{'-coach' if coach else ''}{'-odds' if odds else ''}"
        for size, players, coach, odds in SIZES
    ],
)
def test_on_your_turn_the_dice_roll_and_every_open_box_are_on_one_screen(
    browser, live_server_url, screenshot_dir, size, players, coach, odds
):  # type: ignore[no-untyped-def]
    phone = size == "phone"
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=phone, is_mobile=phone)
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=players, show_odds=odds)
    set_switch(page, "#coach-toggle", coach)
    seat_bots(page, players - 1)
    page.click("#start-button")
    expect_my_turn(page)
    # Touch screens are told to tap; keyboards, which keys roll.
    expect(page.locator("#turn-hint")).to_have_text(
        "Tap Roll to throw the dice." if phone else "Roll the dice: R or Space."
    )

    if odds:  # The chances are on the cards before anything is checked.
        expect(page.locator(".win-chance")).to_have_count(players)
        page.wait_for_function(
            "() => [...document.querySelectorAll('.win-chance__text')]"
            ".every(t => t.textContent.endsWith('%'))"
        )
    else:
        expect(page.locator(".scorecard__odds")).to_have_count(0)
    failed = screenshot_dir / f"table-{size}-{players}-off-screen.png"
    # Before the first roll, after it (with the coach's advice beside it), and with dice held.
    assert off_screen(page, failed) == []
    page.click("#roll-button")
    expect_dice(page, STRAIGHT)
    if coach:
        page.wait_for_function("() => window.yahtzeeRoom.advice !== null")
        expect(page.locator("#coach-best")).to_contain_text("Best:")
        expect(page.locator("#coach-tip" if phone else "#coach")).to_be_visible()
    expect(page.locator(".die-button--rolling")).to_have_count(0)
    expect(page.locator("#turn-hint")).to_have_text(
        "Tap dice to hold them; tap a box to score."
        if phone
        else "Click dice (or press 1\N{EN DASH}5) to keep them, roll again, "
        "or pick a box on your card."
    )
    assert off_screen(page, failed) == []
    page.click('.die-button[data-position="0"]')
    page.click('.die-button[data-position="1"]')
    expect(page.locator(".die-button--held")).to_have_count(2)
    assert off_screen(page, failed) == []

    # Every card fits the width, or the cards scroll sideways and say so.
    fits = page.evaluate(
        """() => {
            const frame = document.getElementById("cards-scroll");
            return frame.scrollWidth <= frame.clientWidth + 1;
        }"""
    )
    if fits:
        expect(page.locator("#cards-more")).to_be_hidden()
    else:
        expect(page.locator("#cards-more")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS[size]["width"]

    name = f"table-{size}-{players}{'-coach' if coach else ''}{'-odds' if odds else ''}.png"
    page.screenshot(path=screenshot_dir / name)
    watch.assert_clean(live_server_url)
    context.close()


# -- No silent zero, and the command line says what it did ------------------------


@pytest.mark.parametrize("server_dice", [STRAIGHT + STRAIGHT + [2, 2, 2, 5, 5] + [3, 4, 5, 6]])
def test_a_zero_or_a_far_lower_score_asks_first_by_click_key_or_command(
    browser, live_server_url, screenshot_dir
):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport=DESKTOP)
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Solo", seats=1)
    page.click("#start-button")

    # A click on Full house with a Large straight on the table: the dialog asks.
    page.click("#roll-button")
    expect_dice(page, STRAIGHT)
    before = version(page)
    full_house = page.locator('#scorecard td[data-box="full_house"] button')
    full_house.click()
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    expect(page.locator("#confirm-title")).to_have_text("Write 0 in Full house?")
    expect(page.locator("#confirm-text")).to_have_text(
        "6 5 3 2 4 scores 0 in Full house, and the box is then filled for the rest of the game."
        " Large straight would take 40."
    )
    expect(page.locator("#confirm-yes")).to_have_text("Score 0 in Full house")
    expect(page.locator("#confirm-no")).to_be_focused()  # The safe answer first.
    page.screenshot(path=screenshot_dir / "zero-dialog-desktop.png")
    page.click("#confirm-no")
    expect(dialog).to_be_hidden()
    # With the keys: Enter on the box asks too; Escape says no.
    full_house.focus()
    page.keyboard.press("Enter")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    barrier(page)  # A move that should not have gone would have been handled by now.
    assert version(page) == stored_version(page) == before
    expect(full_house).to_have_text("0")  # Still open, still offered.
    # Yes writes it.
    full_house.click()
    page.click("#confirm-yes")
    expect(page.locator('#scorecard td[data-box="full_house"]')).to_have_text("0")
    expect(page.locator("#feed")).to_contain_text("Solo scored 0 in Full house.")

    # The command line asks in words; `yes` writes it; each command says what it did.
    command(page, "roll")
    expect(page.locator("#console-output")).to_have_text("Rolled 6 5 3 2 4: 2 rolls left.")
    before = version(page)
    command(page, "score yahtzee")
    expect(page.locator("#console-output")).to_have_text(
        "6 5 3 2 4 scores 0 in Yahtzee, and the box is then filled for the rest of the game."
        " Large straight would take 40. Type yes (or score! yahtzee) to write it."
    )
    barrier(page)
    assert version(page) == stored_version(page) == before
    command(page, "yes")
    expect(page.locator("#console-output")).to_have_text("Scored 0 in Yahtzee.")
    expect(page.locator('#scorecard td[data-box="yahtzee"]')).to_have_text("0")
    command(page, "yes")  # Nothing left to confirm.
    expect(page.locator("#console-output")).to_have_text(
        "Nothing to confirm: type score and a box."
    )

    # Space rolls though a die was just clicked (it holds that die, and keeps it held).
    page.click("#roll-button")
    expect_dice(page, [2, 2, 2, 5, 5])
    page.click('.die-button[data-position="0"]')
    expect(page.locator('.die-button[data-position="0"]')).to_be_focused()
    expect(page.locator('.die-button[data-position="0"]')).to_have_attribute("aria-pressed", "true")
    page.keyboard.press(" ")
    expect_dice(page, [2, 3, 4, 5, 6], held=[0])
    expect(page.locator("#roll-button")).to_have_text("Roll again · 1 left")
    # Far below another box (2 in Twos, with 40 in Large straight) asks too; score! does not.
    command(page, "hold 1 2")
    expect(page.locator("#console-output")).to_have_text("Holding dice 1 2.")
    command(page, "score twos")
    expect(page.locator("#console-output")).to_contain_text("Large straight would take 40.")
    command(page, "score! twos")
    expect(page.locator("#console-output")).to_have_text("Scored 2 in Twos.")
    expect(page.locator('#scorecard td[data-box="twos"]')).to_have_text("2")
    watch.assert_clean(live_server_url)
    page.close()


# -- The end -------------------------------------------------------------------

# Every turn throws 1 2 3 4 6; the boxes are taken in card order.
EVERY_BOX = [
    ("ones", 1),
    ("twos", 2),
    ("threes", 3),
    ("fours", 4),
    ("fives", 0),
    ("sixes", 6),
    ("three of a kind", 0),
    ("four of a kind", 0),
    ("full house", 0),
    ("small straight", 30),
    ("large straight", 0),
    ("yahtzee", 0),
    ("chance", 16),
]


@pytest.mark.parametrize("server_dice", [[1, 2, 3, 4, 6] * 13])
@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_end_brings_the_result_into_view_with_a_celebration_that_respects_reduced_motion(
    browser, live_server_url, screenshot_dir, motion
):  # type: ignore[no-untyped-def]
    context = browser.new_context(
        viewport=PHONE, has_touch=True, is_mobile=True, reduced_motion=motion
    )
    page = context.new_page()
    create_room(page, live_server_url, "Solo", seats=1)
    # Not what this test is about: the coach (on by default for one seat) asks for advice
    # after every roll, and a game played at a script's speed with it passes the server's
    # rate limit of 30 messages at once and 10 a second (the roll is refused).
    set_switch(page, "#coach-toggle", False)
    page.click("#start-button")
    rolled = page.locator("#console-output")
    for box, points in EVERY_BOX[:-1]:
        command(page, "roll")
        expect(rolled).to_have_text("Rolled 1 2 3 4 6: 2 rolls left.")
        command(page, f"score! {box}")
        expect(page.locator("#console-output")).to_have_text(
            f"Scored {points} in {box.capitalize()}."
        )
    # The last turn is played from the bottom of the page, far from where the result shows.
    command(page, "roll")
    expect_dice(page, [1, 2, 3, 4, 6])
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("scrollY") > 0
    page.click('#scorecard td[data-box="chance"] button')

    finish = page.locator("#finish")
    expect(finish).to_be_visible()
    expect(page.locator("#finish-headline")).to_have_text("You scored 62 points.")
    if motion == "reduce":
        # Nothing moves: no confetti at all, and the page jumps to the result.
        expect(page.locator(".celebration")).to_have_count(0)
    else:
        pieces = page.locator(".celebration__piece")
        expect(pieces).to_have_count(28)
        assert pieces.first.evaluate("p => getComputedStyle(p).animationName") == "confetti"
    page.wait_for_function(
        """() => {
            const r = document.getElementById("finish").getBoundingClientRect();
            return r.top >= 0 && r.top < innerHeight / 2;
        }"""
    )
    if motion == "no-preference":
        page.screenshot(path=screenshot_dir / "end-celebration-phone.png")
        # The confetti goes by itself.
        expect(page.locator(".celebration")).to_have_count(0, timeout=5000)
    context.close()


# -- The invite at any time; watchers without player controls -------------------

SHARE_RECORDER = """
    navigator.share = async (data) => { window.sharedWith = data; };
"""


@pytest.mark.parametrize("server_dice", [roll_off(2) + STRAIGHT])
def test_the_invite_opens_during_the_game_and_watchers_see_no_player_controls(
    browser, live_server_url, screenshot_dir
):  # type: ignore[no-untyped-def]
    host = browser.new_context(viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    desk = browser.new_context(viewport=DESKTOP)
    # A phone whose browser can share: a stand-in for the share sheet records what it was given.
    pocket = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    pocket.add_init_script(SHARE_RECORDER)
    ana, watcher, phone = host.new_page(), desk.new_page(), pocket.new_page()
    watch = PageWatch.on(ana, watcher, phone)
    url = create_room(ana, live_server_url, "Ana", seats=2)
    seat_bots(ana, 1)
    expect(ana.locator("#invite-button")).to_be_hidden()  # In the lobby the invite is on the page.
    expect(ana.locator("#lobby #invite-url")).to_have_value(url)
    ana.click("#start-button")
    ana.click("#roll-button")
    expect_dice(ana, STRAIGHT)

    # The host finds the invite behind a button: the link, copied, and the QR code.
    expect(ana.locator("#lobby")).to_be_hidden()
    ana.click("#invite-button")
    dialog = ana.locator("#invite-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#invite-url")).to_have_value(url)
    expect(dialog.locator(".invite__qr svg")).to_be_visible()
    expect(dialog.locator("#share-button")).to_be_hidden()  # No share sheet on this desktop.
    dialog.locator("#copy-button").click()
    expect(dialog.locator("#copy-status")).to_have_text("Link copied.")
    assert ana.evaluate("navigator.clipboard.readText()") == url
    ana.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(ana.locator("#invite-button")).to_be_focused()  # Back where the player was.

    # Watchers: the dice and the cards, no Roll button, no command line, no box to click.
    for page in (watcher, phone):
        open_room(page, url)
        expect(page.locator("#room-status")).to_contain_text("you are watching")
        expect_dice(page, STRAIGHT)
        expect(page.locator("#turn-hint")).to_have_text("You are watching Ana play.")
        expect(page.locator("#roll-button")).to_be_hidden()
        expect(page.locator("#console")).to_be_hidden()
        expect(page.locator("#scorecard button")).to_have_count(0)
        expect(
            page.locator('#scorecard td[data-seat="0"][data-box="large_straight"]')
        ).to_have_text("40")
    watcher.screenshot(path=screenshot_dir / "watching-desktop.png")
    phone.screenshot(path=screenshot_dir / "watching-phone.png")

    # A watcher on a phone shares the link through the phone's own share sheet.
    phone.click("#invite-button")
    expect(phone.locator("#invite-dialog #share-button")).to_be_visible()
    phone.screenshot(path=screenshot_dir / "invite-phone.png")
    phone.click("#share-button")
    phone.wait_for_function("() => window.sharedWith !== undefined")
    assert phone.evaluate("window.sharedWith.url") == url
    phone.click("#invite-close")
    expect(phone.locator("#invite-dialog")).to_be_hidden()
    watch.assert_clean(live_server_url)
    for context in (host, desk, pocket):
        context.close()
