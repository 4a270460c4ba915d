"""The phone first (issue 27), in a real Chromium at 1280x800 and at 390x844: what a
player must reach first is on the screen without a scroll."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.axe import failing, violations
from tests.browser.test_home_page import in_view
from tests.browser.test_room import (
    click_box,
    command,
    create_room,
    expect_dice,
    expect_my_turn,
    join,
    open_room,
    set_switch,
)
from tests.browser.test_watchers import say
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser


def screen(viewport: str) -> dict[str, object]:
    """A browser context's options for one of VIEWPORTS: a phone is touched, not clicked."""
    phone = viewport == "phone"
    return {"viewport": VIEWPORTS[viewport], "is_mobile": phone, "has_touch": phone}


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_host_finds_the_invite_above_the_fold(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(**screen(viewport))
    page: Page = context.new_page()
    create_room(page, live_server_url, "Ana", seats=3)
    expect(page.locator("#start-button")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    for part in ("#invite-heading", "#invite-url", "#copy-button", "#invite .invite__qr svg"):
        assert in_view(page, part), part
    if page.evaluate("typeof navigator.share === 'function'"):
        assert in_view(page, "#share-button")
    if viewport == "phone":
        # One column: the invite comes before the seats, the coach, the bots and the start.
        invite_top = page.eval_on_selector("#invite", "el => el.getBoundingClientRect().top")
        seats_top = page.eval_on_selector("#seats", "el => el.getBoundingClientRect().top")
        assert invite_top < seats_top
    page.screenshot(path=screenshot_dir / f"lobby-invite-{viewport}.png")
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_watchers_chat_reads_well_in_the_dark_theme(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    size = screen(viewport)
    contexts = [browser.new_context(color_scheme="dark", **size) for _ in range(2)]
    ana, watcher = (context.new_page() for context in contexts)
    url = create_room(ana, live_server_url, "Ana", seats=2)
    open_room(watcher, url)
    say(watcher, "who wins this?")
    set_switch(ana, "#watchers-read", True)
    say(watcher, "Ana, surely")
    expect(ana.locator("#watchers-lines")).to_contain_text("Ana, surely")
    for page, who in ((watcher, "watcher"), (ana, "player")):
        page.locator("#watchers-lines").scroll_into_view_if_needed()
        page.screenshot(path=screenshot_dir / f"watchers-chat-dark-{who}-{viewport}.png")
        # The lines' text, time and name, on the panel's dark surface: no serious finding.
        assert failing(violations(page)) == [], who
    for context in contexts:
        context.close()


# Every turn one roll, 1 2 3 4 6: Chance (16) in round 1, Small straight (30) in round 2.
TURN_ROLL = [1, 2, 3, 4, 6]
BOXES = ["chance", "small_straight"]
# The part of the page a turn needs, as the viewport shows it: the dice, Roll and each open
# box of this seat's card, each whole on the screen and not under anything (the sticky
# tray, a message).
TURN_IN_VIEW = """seat => {
    const open = [...document.querySelectorAll(`#scorecard td[data-seat="${seat}"][data-box]`)]
        .filter(cell => cell.textContent.trim() === "");
    const parts = [...document.querySelectorAll(".tray .die-button"),
                   document.getElementById("roll-button"), ...open];
    return open.length > 0 && parts.every(part => {
        const box = part.getBoundingClientRect();
        if (box.height === 0 || box.top < 0 || box.bottom > innerHeight) return false;
        const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
        return hit !== null && (part === hit || part.contains(hit));
    });
}"""


# The roll-off Ana 30, Bob 25, Cy 5: they play in that order.
ROLL_OFF = [6] * 5 + [5] * 5 + [1] * 5


def scroll_to_the_bottom(page: Page) -> None:
    page.evaluate("scrollTo({top: document.documentElement.scrollHeight, behavior: 'instant'})")
    # A function, not an expression: the Content-Security-Policy refuses the eval of one.
    page.wait_for_function(
        "() => scrollY + innerHeight >= document.documentElement.scrollHeight - 2"
    )


@pytest.mark.parametrize("server_dice", [ROLL_OFF + TURN_ROLL * 3 * len(BOXES)])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_turn_brings_the_dice_roll_and_the_card_into_view(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    size = screen(viewport)
    # Cy asks the system for less motion: the page jumps instead of gliding.
    contexts = [
        browser.new_context(**size),
        browser.new_context(**size),
        browser.new_context(reduced_motion="reduce", **size),
    ]
    ana, bob, cy = pages = [context.new_page() for context in contexts]
    watch = PageWatch.on(*pages)
    url = create_room(ana, live_server_url, "Ana", seats=3)
    join(bob, url, "Bob")
    join(cy, url, "Cy")
    for page in pages:
        scroll_to_the_bottom(page)
    # Ana starts from where she is, at the bottom (a click would first scroll to the button).
    ana.locator("#start-button").dispatch_event("click")
    for box in BOXES:
        for seat, page in enumerate(pages):
            expect_my_turn(page)
            assert page.evaluate(TURN_IN_VIEW, seat), f"seat {seat}, {box}"
            if box == BOXES[0]:
                page.screenshot(path=screenshot_dir / f"turn-in-view-{seat}-{viewport}.png")
            page.click("#roll-button")
            expect_dice(page, TURN_ROLL)
            click_box(
                page, page.locator(f'#scorecard td[data-seat="{seat}"][data-box="{box}"] button')
            )
            expect(page.locator("#turn-heading")).not_to_have_text("Your turn")
            scroll_to_the_bottom(page)  # Back to the feed and the chat until the next turn.
    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()


OPEN_BOX = "#scorecard .box-option"


def focused_box(page: Page) -> str | None:
    return page.evaluate(  # type: ignore[no-any-return]
        "document.activeElement.closest('td[data-box]')?.dataset.box ?? null"
    )


@pytest.mark.parametrize("server_dice", [TURN_ROLL * 2])
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_scoring_by_keyboard_alone(browser, live_server_url, viewport):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=VIEWPORTS[viewport])
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=1)
    page.click("#start-button")
    expect_my_turn(page)
    cell = '#scorecard td[data-seat="0"][data-box="{}"]'

    # C goes to the card's first open box; the arrows walk the boxes; Enter scores.
    page.keyboard.press("r")
    expect_dice(page, TURN_ROLL)
    expect(page.locator(OPEN_BOX).first).to_be_enabled()  # The roll's answer has come.
    page.keyboard.press("c")
    assert focused_box(page) == "ones"
    page.keyboard.press("ArrowUp")  # The first box stays the first.
    assert focused_box(page) == "ones"
    for box in ("twos", "threes", "fours", "fives", "sixes", "three_of_a_kind"):
        page.keyboard.press("ArrowDown")
        assert focused_box(page) == box
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    assert focused_box(page) == "small_straight"
    page.keyboard.press("Enter")
    expect(page.locator(cell.format("small_straight"))).to_have_text("30")

    # A zero asks first, and the question is answered by keys too (Cancel has the focus).
    expect(page.locator("#roll-button")).to_be_enabled()  # The score's answer has come.
    page.keyboard.press("r")
    expect(page.locator("#roll-button")).to_have_text("Roll again · 2 left")
    expect(page.locator(OPEN_BOX).first).to_be_enabled()
    page.keyboard.press("c")
    walked = [focused_box(page)]
    while walked[-1] != "yahtzee" and len(walked) < 13:
        page.keyboard.press("ArrowDown")
        walked.append(focused_box(page))
    assert walked[-1] == "yahtzee", walked
    page.keyboard.press("Enter")
    expect(page.locator("#confirm-dialog")).to_be_visible()
    page.keyboard.press("Tab")
    expect(page.locator("#confirm-yes")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(cell.format("yahtzee"))).to_have_text("0")
    watch.assert_clean(live_server_url)
    context.close()


# Where the next message to the player shows, measured in the page the moment it shows (a
# message stays a few seconds): what it lies over among the dice, Roll and the card, and
# whether it is inside the turn's panel, the place kept for it.
WATCH_MESSAGE = """() => {
    const toast = document.getElementById("toast");
    window.messageCheck = new Promise(done => {
        const seen = new MutationObserver(() => {
            if (toast.hidden) return;
            seen.disconnect();
            const t = toast.getBoundingClientRect();
            const over = el => {
                const r = el.getBoundingClientRect();
                return r.left < t.right && r.right > t.left && r.top < t.bottom && r.bottom > t.top;
            };
            const parts = [...document.querySelectorAll(".tray .die-button")]
                .map((die, i) => [`die ${i + 1}`, die]);
            parts.push(["Roll", document.getElementById("roll-button")],
                       ["card", document.getElementById("cards")]);
            const turn = document.getElementById("turn").getBoundingClientRect();
            done({
                text: toast.textContent,
                covers: parts.filter(([, el]) => over(el)).map(([name]) => name),
                inPlace: t.height > 0 && t.top >= turn.top && t.bottom <= turn.bottom
                    && t.left >= turn.left && t.right <= turn.right,
            });
        });
        seen.observe(toast, { attributes: true, childList: true, characterData: true });
    });
}"""


def message_after(page: Page, line: str) -> dict:  # type: ignore[type-arg]
    """Type ``line`` in the command line and measure the message it brings."""
    page.evaluate(WATCH_MESSAGE)
    command(page, line)
    return page.evaluate("window.messageCheck")  # type: ignore[no-any-return]


@pytest.mark.parametrize("server_dice", [[6] * 5 + [1] * 5 + TURN_ROLL])  # Ana wins the roll-off.
@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_message_never_covers_the_dice_roll_or_the_card(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(**screen(viewport))
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=2)
    page.click("[data-bot=casual]")
    expect(page.locator("#seats .badge--bot")).to_have_count(1)
    page.click("#start-button")
    expect_my_turn(page)
    # Before the first roll, and with the dice on the table: the message takes the hint's place.
    before = message_after(page, "score yahtzee")
    assert before == {
        "text": "Roll first: a box takes the dice of a roll.",
        "covers": [],
        "inPlace": True,
    }
    expect(page.locator("#turn-hint")).to_have_css("visibility", "hidden")
    page.click("#roll-button")
    expect_dice(page, TURN_ROLL)
    after = message_after(page, "back")
    assert after == {
        "text": "You are not away: nothing to come back from.",
        "covers": [],
        "inPlace": True,
    }
    page.evaluate("scrollTo(0, 0)")
    page.screenshot(path=screenshot_dir / f"message-in-place-{viewport}.png")
    watch.assert_clean(live_server_url)
    context.close()
