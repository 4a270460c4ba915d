"""The game room in a real Chromium: two players and a watcher in three browsers.

The server throws scripted dice (the ``server_dice`` fixture), so every roll,
score and total below is a known answer.
"""

import itertools
import json
import re
from dataclasses import dataclass, field
from urllib.request import urlopen

import pytest
from playwright.sync_api import Locator, Page, expect

from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser

DESKTOP, PHONE = VIEWPORTS["desktop"], VIEWPORTS["phone"]

# The roll-off: a tie at 15, then Ana 29 against Bob 6, so Ana plays first.
ROLL_OFF = [3, 3, 3, 3, 3, 5, 5, 1, 2, 2, 6, 6, 6, 6, 5, 1, 1, 1, 1, 2]


@dataclass
class Turn:
    """One turn: the first roll, then optional re-rolls, then a box.

    ``rerolls`` are (positions kept, fresh faces) pairs; ``how`` says whether
    the player uses the mouse, the keys or the command line.
    """

    seat: int
    first: list[int]
    box: str
    points: int
    how: str = "click"
    rerolls: list[tuple[list[int], list[int]]] = field(default_factory=list)
    throw_only: list[int] | None = None  # `roll 2 5`: the positions thrown instead of holds.
    bonus: bool = False


ANA, BOB = 0, 1
TURNS = [
    Turn(ANA, [6, 6, 6, 6, 6], "yahtzee", 50),
    Turn(BOB, [1, 2, 3, 4, 6], "large_straight", 40, "keys", rerolls=[([0, 1, 2, 3], [5])]),
    Turn(
        ANA,
        [3, 3, 3, 5, 2],
        "full_house",
        25,
        "command",
        rerolls=[([0, 1, 2, 3], [5])],
        throw_only=[4],
    ),
    Turn(BOB, [2, 2, 2, 2, 1], "twos", 8, "command"),
    Turn(ANA, [6, 6, 6, 1, 2], "sixes", 24, "command", rerolls=[([0, 1, 2], [6, 5])]),
    Turn(BOB, [1, 1, 1, 3, 4], "ones", 3, "keys"),
    # A second Yahtzee under the forced Joker: only Fives is open, with a 100 bonus.
    Turn(ANA, [5, 5, 5, 5, 5], "fives", 25, bonus=True),
    Turn(BOB, [3, 3, 3, 1, 2], "threes", 9, "command"),
    Turn(ANA, [4, 4, 4, 1, 2], "fours", 12, "click", rerolls=[([0, 1, 2], [1, 2])]),
    Turn(BOB, [4, 4, 1, 2, 3], "small_straight", 30, "command"),
    Turn(ANA, [3, 3, 3, 4, 4], "threes", 9),
    Turn(BOB, [5, 5, 1, 1, 2], "fives", 10, "keys"),
    Turn(ANA, [2, 2, 2, 1, 1], "twos", 6),
    Turn(BOB, [6, 6, 1, 2, 3], "sixes", 12, "command"),
    Turn(ANA, [1, 1, 1, 5, 6], "ones", 3),
    Turn(BOB, [4, 4, 4, 4, 2], "four_of_a_kind", 18, "command"),
    Turn(ANA, [1, 2, 3, 4, 5], "large_straight", 40),
    Turn(BOB, [4, 4, 2, 3, 1], "fours", 8, "keys"),
    Turn(ANA, [2, 3, 4, 5, 5], "small_straight", 30),
    Turn(BOB, [6, 6, 6, 2, 2], "full_house", 25, "command"),
    Turn(ANA, [5, 5, 5, 5, 1], "four_of_a_kind", 21),
    Turn(BOB, [6, 5, 4, 3, 3], "chance", 21, "command"),
    Turn(ANA, [6, 6, 6, 4, 3], "three_of_a_kind", 25),
    Turn(BOB, [1, 2, 2, 3, 5], "yahtzee", 0, "command"),
    Turn(ANA, [6, 5, 4, 6, 5], "chance", 26),
    Turn(BOB, [3, 3, 5, 5, 6], "three_of_a_kind", 0, "command"),
]
# Ana: upper 79 + bonus 35, lower 217, one Yahtzee bonus 100. Bob: upper 50, lower 134.
FINAL_TOTALS = [431, 184]


def game_faces(turns: list[Turn]) -> list[int]:
    faces = list(ROLL_OFF)
    for turn in turns:
        faces += turn.first
        for _, fresh in turn.rerolls:
            faces += fresh
    return faces


def label(category: str) -> str:
    return category.replace("_", " ")


# -- Reading and driving a page ----------------------------------------------


def open_room(page: Page, url: str) -> None:
    page.goto(url)
    # A function, not an expression: Playwright evaluates an expression anew with eval at
    # every poll, which the site's Content-Security-Policy (no 'unsafe-eval') refuses.
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")


def version(page: Page) -> int:
    return page.evaluate("window.yahtzeeRoom.state.version")


#: How long a page's barrier waits for the server's answer before the test fails.
BARRIER_MS = 15_000


def barrier(page: Page) -> None:
    """Ask the server for a marker through the page's own socket and wait for its answer.

    The server handles a socket's messages one at a time, in order: once the pong is
    back, everything the page sent before has been handled (applied and committed, or
    refused) and every message sent to the page before the pong has been applied (the
    page's own listener runs before this one). Its own events come through the room's
    group and may still be on their way: read the room's version from the server.
    """
    page.evaluate(
        """([id, ms]) => new Promise((done, fail) => {
            const ws = window.yahtzeeRoom.socket.ws;
            const late = setTimeout(() => fail(new Error("no pong in " + ms + " ms")), ms);
            ws.addEventListener("message", function answered(event) {
                const message = JSON.parse(event.data);
                if (message.type !== "pong" || message.id !== id) return;
                ws.removeEventListener("message", answered);
                clearTimeout(late);
                done();
            });
            window.yahtzeeRoom.socket.send({ type: "ping", id });
        })""",
        [f"barrier-{next(_markers)}", BARRIER_MS],
    )


_markers = itertools.count()


def stored_version(page: Page) -> int:
    """The version of the room ``page`` shows, as the server has it now."""
    base, code = page.url.rstrip("/").rsplit("/g/", 1)
    return int(api_snapshot(base, code)["version"])


def reload_room(page: Page) -> None:
    """Reload the room after the test changed it through the services in its own process,
    and wait until the page shows the room at the version the server has stored.

    The services broadcast on the test process's channel layer: over Redis the live
    server's pages hear it, but the in-memory layer (SQLite's configuration) does not cross
    processes, so there a page learns of such a change only from a new snapshot."""
    target = stored_version(page)
    page.reload()
    page.wait_for_function(
        "v => window.yahtzeeRoom && window.yahtzeeRoom.state !== null"
        " && window.yahtzeeRoom.state.version >= v",
        arg=target,
    )


def settle(*pages: Page) -> None:
    """Wait until the server has handled everything these pages sent (a barrier on each)
    and every page has applied every event of the room up to then."""
    for page in pages:
        barrier(page)
    target = stored_version(pages[0])
    for page in pages:
        page.wait_for_function("v => window.yahtzeeRoom.state.version >= v", arg=target)


def shown_dice(page: Page) -> list[str]:
    return page.locator(".die-button__label").all_text_contents()


def expect_my_turn(page: Page) -> None:
    """Wait until it is this page's turn and the page has brought the turn into view: a
    smooth scroll under way would move what the test clicks (static/js/panels/turn.js)."""
    expect(page.locator("#turn-heading")).to_have_text("Your turn")
    page.wait_for_function("() => !window.yahtzeeRoom.turnScrolling")


def expect_dice(page: Page, faces: list[int], held: list[int] = ()) -> None:
    """The tray's five dice say these faces, and which are held, in order: one assertion over
    all five (the count too), not one per die (a browser round trip each)."""
    labels = [f"Die {i + 1}: {face}{', held' if i in held else ''}" for i, face in enumerate(faces)]
    expect(page.locator(".die-button__label")).to_have_text(labels)


def drawn_dice(page: Page) -> list[int | None]:
    """The faces drawn in the tray once the dice have landed (``None`` for a blank)."""
    expect(page.locator(".die-button--rolling")).to_have_count(0)
    classes = page.locator(".die-button .die").evaluate_all("dice => dice.map(d => d.className)")
    return [int(m.group(1)) if (m := re.search(r"die--(\d)", c)) else None for c in classes]


def command(page: Page, line: str) -> None:
    page.fill("#console-input", line)
    page.press("#console-input", "Enter")


def blur(page: Page) -> None:
    page.evaluate("document.activeElement && document.activeElement.blur()")


def roll(page: Page, how: str) -> None:
    if how == "click":
        page.click("#roll-button")
    elif how == "keys":
        blur(page)
        page.keyboard.press("r")
    else:
        command(page, "roll")


def hold(page: Page, positions: list[int], how: str) -> None:
    if how == "command":
        command(page, "hold " + " ".join(str(p + 1) for p in positions))
    for position in positions:
        die = page.locator(f'.die-button[data-position="{position}"]')
        if how == "click":
            die.click()
        elif how == "keys":
            blur(page)
            page.keyboard.press(str(position + 1))
        expect(die).to_have_attribute("aria-pressed", "true")


def click_box(page: Page, button: Locator) -> None:
    """Click a box's button to score it; when the table asks first (a 0, or far less
    than another open box would take: static/js/caution.js), answer yes."""
    button.click()
    # The question opens in the click's own handler, so it is open by now if it asks.
    if page.evaluate("document.getElementById('confirm-dialog').open"):
        page.click("#confirm-yes")


def score(page: Page, seat: int, box: str, how: str, points: int | None = None) -> None:
    if how == "command":
        command(page, f"score {label(box)}")
        if points == 0:
            # No silent zero: the command line asks first, and `yes` writes it.
            expect(page.locator("#console-output")).to_contain_text(
                f"scores 0 in {label(box).capitalize()}"
            )
            command(page, "yes")
        expect(page.locator("#console-output")).to_have_text(
            f"Scored {points} in {label(box).capitalize()}."
        )
    else:
        click_box(page, page.locator(f'#scorecard td[data-seat="{seat}"][data-box="{box}"] button'))


def cell(page: Page, seat: int, box: str) -> str:
    return page.locator(f'#scorecard td[data-seat="{seat}"][data-box="{box}"]').inner_text()


def totals(page: Page) -> list[int]:
    return [int(t) for t in page.locator("#scorecard tfoot td").all_text_contents()]


def api_snapshot(base: str, code: str) -> dict:
    with urlopen(f"{base}/api/games/{code}/") as response:
        return json.load(response)


def create_room(
    page: Page, base: str, name: str, seats: int, preset: str = "official", show_odds: bool = False
) -> str:
    page.goto(base + "/")
    page.fill("#id_name", name)
    page.click(".new-game__more > summary")  # The seats and the chances are among its options.
    page.select_option("#id_seats", str(seats))
    page.check(f'input[name="preset"][value="{preset}"]')
    page.set_checked("#id_show_odds", show_odds)
    page.click("form.new-game button[type=submit]")
    page.wait_for_url(re.compile(r"/g/[\w-]+/$"))
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    return page.url


def set_switch(page: Page, selector: str, on: bool) -> None:
    """Turn a switch that shows the server's state (the coach, reading the watchers' chat)
    on or off, and wait for the server's word on it.

    Not Playwright's ``set_checked``: a message the room hears between the click and the
    server's answer (someone arriving, say) draws the switch as the server still has it,
    so the click seems undone for a moment."""
    switch = page.locator(selector)
    if switch.is_checked() != on:
        switch.click()
    expect(switch).to_be_checked(checked=on)


def join(page: Page, url: str, name: str) -> None:
    open_room(page, url)
    page.fill("#join-name", name)
    page.click("#join-form button")
    expect(page.locator("#seats .badge--you")).to_be_visible()


def take_mid_game_screenshots(ana: Page, bob: Page, watcher: Page, directory) -> None:
    for viewer in (ana, bob, watcher):
        viewer.evaluate("scrollTo(0, 0)")
    for viewer in (ana, bob, watcher):
        assert drawn_dice(viewer) == [4, 4, 4, 1, 2]
    ana.screenshot(path=directory / "table-desktop.png")
    bob.screenshot(path=directory / "table-phone.png")
    watcher.screenshot(path=directory / "table-watcher-desktop.png", full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


# -- The whole game -----------------------------------------------------------


@pytest.mark.parametrize("server_dice", [game_faces(TURNS)])
def test_two_players_and_a_watcher_play_a_whole_game(browser, live_server_url, screenshot_dir):
    contexts = [
        browser.new_context(viewport=DESKTOP),
        browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True),
        browser.new_context(viewport=DESKTOP),
    ]
    ana, bob, watcher = (context.new_page() for context in contexts)
    watch = PageWatch.on(ana, bob, watcher)

    # Ana opens a room for two and shares the link; Bob takes the other seat.
    url = create_room(ana, live_server_url, "Ana", seats=2)
    code = url.rstrip("/").rsplit("/", 1)[1]
    expect(ana.locator("#invite-url")).to_have_value(url)
    expect(ana.locator(".invite__qr svg")).to_be_visible()
    join(bob, url, "Bob")
    expect(ana.locator("#seats .seat__name")).to_have_text(["Ana", "Bob"])
    # The third person finds every seat taken and watches.
    open_room(watcher, url)
    expect(watcher.locator("#lobby-note")).to_have_text(
        "Every seat is taken: you are watching this game."
    )
    expect(watcher.locator("#join-form")).to_be_hidden()
    expect(watcher.locator("#start-button")).to_be_hidden()
    expect(bob.locator("#start-button")).to_be_hidden()
    expect(ana.locator("#room-status")).to_contain_text("1 watching")
    expect(ana.locator("#room-status")).to_contain_text("2 of 2 seats taken")
    ana.screenshot(path=screenshot_dir / "lobby-desktop.png")
    bob.screenshot(path=screenshot_dir / "lobby-phone.png", full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    # Players chat; the watcher reads along.
    bob.fill("#chat-input", "good luck!")
    bob.press("#chat-input", "Enter")
    for page in (ana, bob, watcher):
        expect(page.locator(".feed__item--chat")).to_have_text("Bob: good luck!")
    expect(watcher.locator("#chat-form")).to_be_hidden()

    # The host starts; everyone sees the roll-off (a tie, then Ana).
    ana.click("#start-button")
    for page in (ana, bob, watcher):
        expect(page.locator(".roll-off__result")).to_have_text("Ana goes first.")
        expect(page.locator(".roll-off__round")).to_have_count(2)
        expect(page.locator("#turn-heading")).to_have_text(
            "Your turn" if page is ana else "Ana's turn"
        )
    expect(watcher.locator("#feed")).to_contain_text(
        "Roll-off: Ana 15, Bob 15: a tie, so they roll again."
    )

    command(bob, "help")
    expect(bob.locator("#console-output")).to_contain_text("roll 2 5")
    expect(bob.locator("#console-output")).to_contain_text("score fives")

    players = [ana, bob]
    expected_dice_seen: list[list[int]] = []
    for number, turn in enumerate(TURNS):
        page = players[turn.seat]
        other = players[1 - turn.seat]
        expect_my_turn(page)
        expect(other.locator("#roll-button")).to_be_disabled()

        roll(page, turn.how)
        dice = list(turn.first)
        expected_dice_seen.append(dice)
        for viewer in (ana, bob, watcher):
            expect_dice(viewer, dice)
        for kept, fresh in turn.rerolls:
            if turn.throw_only is not None:
                command(page, "roll " + " ".join(str(p + 1) for p in turn.throw_only))
            else:
                hold(page, kept, turn.how)
                settle(ana, bob, watcher)
                # Holds reach everyone before the roll.
                expect_dice(watcher, dice, kept)
                if number == 8:
                    take_mid_game_screenshots(ana, bob, watcher, screenshot_dir)
                roll(page, turn.how)
            thrown = [i for i in range(5) if i not in kept]
            dice = list(dice)
            for position, face in zip(thrown, fresh, strict=True):
                dice[position] = face
            expected_dice_seen.append(dice)
            for viewer in (ana, bob, watcher):
                expect_dice(viewer, dice, kept)

        if turn.bonus:
            # The forced Joker leaves one box: only Fives can be chosen.
            buttons = page.locator(f'#scorecard td[data-seat="{turn.seat}"] button')
            expect(buttons).to_have_count(1)
            expect(buttons).to_have_attribute("aria-label", "Score 25 in Fives")
        else:
            # Every open box shows what this roll would score there.
            preview = page.locator(
                f'#scorecard td[data-seat="{turn.seat}"][data-box="{turn.box}"] button'
            )
            expect(preview).to_have_text(str(turn.points))
            expect(
                watcher.locator(f'#scorecard td[data-seat="{turn.seat}"][data-box="{turn.box}"]')
            ).to_have_text(str(turn.points))

        score(page, turn.seat, turn.box, turn.how, turn.points)
        for viewer in (ana, bob, watcher):
            expect(
                viewer.locator(f'#scorecard td[data-seat="{turn.seat}"][data-box="{turn.box}"]')
            ).to_have_text(str(turn.points))
        settle(ana, bob, watcher)

    # The end: the ranking, the winner, the final cards, the same on every screen.
    for page in (ana, bob, watcher):
        expect(page.locator("#finish")).to_be_visible()
        expect(page.locator(".ranking__name")).to_have_text(["Ana", "Bob"])
        expect(page.locator(".ranking__total")).to_have_text([str(t) for t in FINAL_TOTALS])
        assert totals(page) == FINAL_TOTALS
    expect(ana.locator("#finish-headline")).to_have_text("You win with 431 points!")
    expect(bob.locator("#finish-headline")).to_have_text("Ana wins with 431 points!")
    expect(watcher.locator("#room-status")).to_contain_text("Finished")

    server = api_snapshot(live_server_url, code)
    assert server["game"]["status"] == "finished"
    assert server["winners"] == [ANA]
    assert [p["card"]["total"] for p in server["players"]] == FINAL_TOTALS
    ana_card = server["players"][ANA]["card"]
    assert (ana_card["upper_total"], ana_card["upper_bonus"], ana_card["yahtzee_bonus"]) == (
        79,
        35,
        100,
    )
    for page in (ana, bob, watcher):
        for seat, player in enumerate(server["players"]):
            for box, points in player["card"]["boxes"].items():
                assert cell(page, seat, box) == str(points), (page, seat, box)

    # The watcher saw every roll, in order, in the feed.
    rolls = [
        line
        for line in watcher.locator(".feed__item--rolled").all_text_contents()
        if " rolled " in line
    ]
    names = [("Ana" if t.seat == ANA else "Bob") for t in TURNS for _ in range(1 + len(t.rerolls))]
    assert rolls[-len(expected_dice_seen) :] == [
        f"{name} rolled {' '.join(map(str, dice))}."
        for name, dice in zip(names, expected_dice_seen, strict=True)
    ]
    expect(watcher.locator("#feed")).to_contain_text("Ana kept 6 6 6.")
    expect(watcher.locator("#feed")).to_contain_text(
        "Ana scored 25 in Fives and a Yahtzee bonus of 100."
    )

    for page in (ana, bob):
        page.evaluate("scrollTo(0, 0)")
    ana.screenshot(path=screenshot_dir / "end-desktop.png")
    bob.screenshot(path=screenshot_dir / "end-phone.png", full_page=True)
    assert bob.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # Every script, style and font came from the site itself; nothing failed or complained.
    watch.assert_clean(live_server_url)
    for context in contexts:
        context.close()


# -- Coming back: reload, a closed tab, a dropped connection -------------------

SOLO_DICE = [2, 3, 3, 5, 6, 3, 1, 3, 3, 3]


@pytest.mark.parametrize("server_dice", [SOLO_DICE])
def test_a_reload_in_the_middle_of_a_turn_restores_the_turn(browser, live_server_url):
    context = browser.new_context(viewport=DESKTOP)
    page = context.new_page()
    create_room(page, live_server_url, "Solo", seats=1)
    page.click("#start-button")
    roll(page, "click")
    expect_dice(page, [2, 3, 3, 5, 6])
    hold(page, [1, 2], "click")
    settle(page)

    page.reload()
    page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
    # The same dice, the same held dice, the same rolls left: still Solo's turn.
    expect_dice(page, [2, 3, 3, 5, 6], held=[1, 2])
    assert drawn_dice(page) == [2, 3, 3, 5, 6]
    expect_my_turn(page)
    expect(page.locator("#roll-button")).to_have_text("Roll again · 2 left")
    expect(page.locator("#feed")).to_contain_text("Solo rolled 2 3 3 5 6.")

    # Closing the tab and opening the link again: the seat belongs to the browser.
    url = page.url
    page.close()
    page = context.new_page()
    open_room(page, url)
    expect_my_turn(page)
    roll(page, "keys")
    expect_dice(page, [3, 3, 3, 1, 3], held=[1, 2])
    command(page, "hold 1 2 3 5")
    command(page, "roll")
    expect_dice(page, [3, 3, 3, 3, 3], held=[0, 1, 2, 4])
    assert drawn_dice(page) == [3, 3, 3, 3, 3]
    expect(page.locator("#roll-button")).to_have_text("No rolls left")
    expect(page.locator("#roll-button")).to_be_disabled()
    command(page, "roll")
    expect(page.locator("#console-output")).to_have_text("No rolls left: pick a box on your card.")
    # Keyboard only: Tab through the page to the Yahtzee box, Enter to score it.
    blur(page)
    focused = "document.activeElement.getAttribute('aria-label')"
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(focused) == "Score 50 in Yahtzee":
            break
    page.keyboard.press("Enter")
    expect(page.locator('#scorecard td[data-box="yahtzee"]')).to_have_text("50")
    context.close()


@pytest.mark.parametrize("server_dice", [[6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 4, 4, 4, 1, 2, 5]])
def test_a_dropped_connection_reconnects_and_catches_up(browser, live_server_url):
    ana_context, bob_context = browser.new_context(), browser.new_context()
    ana, bob = ana_context.new_page(), bob_context.new_page()
    url = create_room(ana, live_server_url, "Ana", seats=2)
    join(bob, url, "Bob")
    ana.click("#start-button")
    expect(bob.locator("#turn-heading")).to_have_text("Ana's turn")

    # Bob's connection drops: his page says so and counts down to the next try.
    bob.evaluate("window.yahtzeeRoom.socket.drop()")
    expect(bob.locator("#connection")).to_contain_text("Reconnecting")
    # Meanwhile Ana plays on.
    roll(ana, "click")
    expect_dice(ana, [4, 4, 4, 1, 2])
    # Bob is back, and the snapshot brings him what he missed.
    expect(bob.locator("#connection")).to_have_text(re.compile(r"\s*Live\s*"))
    expect_dice(bob, [4, 4, 4, 1, 2])
    hold(ana, [0, 1, 2], "click")
    expect_dice(bob, [4, 4, 4, 1, 2], held=[0, 1, 2])
    settle(ana, bob)
    assert version(bob) == version(ana) == stored_version(ana)
    ana_context.close()
    bob_context.close()


class RoutedRoomSocket:
    """The page's room websocket, through the test (Playwright's WebSocket route).

    All the server says reaches the page (and is kept in ``heard``, in order); each
    message the page sends goes to ``from_page(route, message)``, which passes it on
    (:meth:`to_server`), answers it itself (:meth:`to_page`) or keeps it back. Made
    before the page opens the room.
    """

    def __init__(self, page: Page, from_page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.from_page = from_page
        self.ws = self.server = None
        self.heard: list[dict] = []
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws) -> None:  # type: ignore[no-untyped-def]
        self.ws, self.server = ws, ws.connect_to_server()
        ws.on_message(lambda message: self.from_page(self, message))
        self.server.on_message(self._from_server)

    def _from_server(self, message: str) -> None:
        self.heard.append(json.loads(message))
        self.ws.send(message)

    def to_server(self, message: str) -> None:
        self.server.send(message)

    def to_page(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def wait_until(self, condition, seconds: float = 10) -> bool:  # type: ignore[no-untyped-def]
        """Let the page run until ``condition()`` holds (the route's handlers run meanwhile);
        whether it does."""
        for _ in range(int(seconds * 10)):
            if condition():
                return True
            self.page.wait_for_timeout(100)
        return condition()


def test_a_request_for_the_room_refused_as_too_many_is_asked_again(browser, live_server_url):
    """After a gap the page asks for the whole room once; if the server refuses that
    request (too many messages at once), the page asks again a moment later instead of
    waiting for an answer that will never come."""
    context = browser.new_context()
    page = context.new_page()
    asked = []

    def from_page(route, message):
        if json.loads(message).get("type") == "snapshot":
            asked.append(message)
            if len(asked) == 1:  # Refused, as the server refuses a flood.
                route.to_page(
                    {"type": "error", "code": "rate_limited", "message": "too many messages"}
                )
                return
        route.to_server(message)

    route = RoutedRoomSocket(page, from_page)
    create_room(page, live_server_url, "Ana", seats=2)
    at = version(page)
    heard = len(route.heard)
    # An event two versions ahead: one was missed, so the page asks for the room.
    route.to_page({"type": "event", "version": at + 2})
    expect(page.locator("#toast")).to_contain_text("Too many clicks at once")
    # The page asks again after a second; give it ten.
    assert route.wait_until(lambda: len(asked) >= 2), "the refused request was not asked again"
    assert len(asked) == 2
    # The answer came (on its way to the page, before anything sent to it from now on) and
    # the page is live again: the next gap asks once more. (The page's version alone says
    # nothing: it stayed at ``at`` all along, answer or not.)
    assert route.wait_until(lambda: any(m["type"] == "snapshot" for m in route.heard[heard:]))
    page.wait_for_function("v => window.yahtzeeRoom.state.version === v", arg=at)
    route.to_page({"type": "event", "version": at + 2})
    assert route.wait_until(lambda: len(asked) >= 3)
    assert len(asked) == 3
    context.close()


def test_the_coach_switch_stays_as_the_host_set_it_until_the_server_answers(
    browser, live_server_url
):
    """The switch shows the room's setting, but a message heard between the host's click and
    the server's answer (someone arriving, say) does not draw it back for a moment."""
    context = browser.new_context()
    page = context.new_page()
    held = []

    def from_page(route, message):
        if json.loads(message).get("type") == "coach":
            held.append(message)  # The answer waits until the test lets it through.
        else:
            route.to_server(message)

    route = RoutedRoomSocket(page, from_page)
    url = create_room(page, live_server_url, "Ana", seats=2)
    switch = page.locator("#coach-toggle")
    expect(switch).not_to_be_checked()
    switch.click()
    assert route.wait_until(lambda: len(held) == 1)
    # Bob opens the link: every page in the room hears of a new watcher and redraws.
    bob_context = browser.new_context()
    bob = bob_context.new_page()
    open_room(bob, url)
    expect(page.locator("#room-status")).to_contain_text("1 watching")
    expect(switch).to_be_checked()
    # The command goes through; the room's answer agrees with the switch.
    route.to_server(held.pop())
    expect(page.locator("#feed")).to_contain_text("Ana turned the coach on.")
    expect(switch).to_be_checked()
    assert api_snapshot(live_server_url, url.rstrip("/").split("/")[-1])["game"]["coach"]
    bob_context.close()
    context.close()


@pytest.mark.parametrize("server_dice", [[6, 6, 6, 6, 6, 1, 1, 1, 1, 1, 4, 4, 4, 1, 2]])
def test_a_stranger_who_opens_the_link_cannot_act(browser, live_server_url):
    ana_context, bob_context, stranger_context = (browser.new_context() for _ in range(3))
    ana, bob, stranger = (c.new_page() for c in (ana_context, bob_context, stranger_context))
    url = create_room(ana, live_server_url, "Ana", seats=3)
    join(bob, url, "Bob")
    ana.click("#start-button")
    roll(ana, "click")
    expect_dice(ana, [4, 4, 4, 1, 2])

    # Arriving after the start, the stranger watches: no Roll button, no command line.
    open_room(stranger, url)
    expect(stranger.locator("#room-status")).to_contain_text("you are watching")
    expect_dice(stranger, [4, 4, 4, 1, 2])
    expect(stranger.locator("#roll-button")).to_be_hidden()
    expect(stranger.locator("#console")).to_be_hidden()
    for position in range(5):
        expect(stranger.locator(f'.die-button[data-position="{position}"]')).to_be_disabled()
    expect(stranger.locator("#scorecard button")).to_have_count(0)
    expect(stranger.locator("#chat-form")).to_be_hidden()
    blur(stranger)
    stranger.keyboard.press("1")
    stranger.keyboard.press("r")
    expect(stranger.locator("#toast")).to_have_text(
        "You are watching: only the players at the table can act."
    )

    # Even a hand-made message cannot act for Ana, nor roll her dice.
    before = version(ana)
    stranger.evaluate(
        """v => {
            const socket = window.yahtzeeRoom.socket;
            socket.send({type: "roll", hold: [0, 1, 2], version: v, seat: 0, id: 1});
            socket.send({type: "score", category: "chance", version: v, id: 2});
            socket.send({type: "hold", hold: [0], id: 3});
        }""",
        before,
    )
    expect(stranger.locator("#console-output")).to_contain_text("watch")
    barrier(stranger)  # The server has handled (refused) all three by now.
    barrier(ana)
    assert version(ana) == stored_version(ana) == before
    expect_dice(ana, [4, 4, 4, 1, 2])
    # Bob is seated but not on turn: the same refusal, in words.
    blur(bob)
    bob.keyboard.press("r")
    expect(bob.locator("#console-output")).to_have_text("It is Ana's turn.")
    barrier(bob)
    barrier(ana)
    assert version(ana) == stored_version(ana) == before
    for context in (ana_context, bob_context, stranger_context):
        context.close()


def test_the_invite_link_copies_and_the_lobby_updates_live(browser, live_server_url):
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    ana = context.new_page()
    url = create_room(ana, live_server_url, "Ana", seats=3, preset="free_joker")
    expect(ana.locator(".room__preset")).to_have_text("Free Joker (house rule)")
    ana.click("#copy-button")
    expect(ana.locator("#copy-status")).to_have_text("Link copied.")
    assert ana.evaluate("navigator.clipboard.readText()") == url
    svg = ana.locator(".invite__qr svg")
    expect(svg).to_be_visible()
    assert ana.locator(".invite__qr svg path").count() >= 1

    other = browser.new_context()
    bob = other.new_page()
    join(bob, url, "Bob")
    expect(ana.locator("#seats .seat__name")).to_have_text(["Ana", "Bob", "Empty seat"])
    # A name already taken is refused, to that browser only.
    carl = other.browser.new_context().new_page()
    open_room(carl, url)
    carl.fill("#join-name", "bob")
    carl.click("#join-form button")
    expect(carl.locator("#toast")).to_have_text(
        "Someone here is already called bob, or a name that looks the same."
    )
    expect(carl.locator("#toast")).to_be_visible()
    # Bob gives up his seat; the lobby shows it at once.
    bob.once("dialog", lambda dialog: dialog.accept())
    bob.click("#leave-button")
    expect(ana.locator("#seats .seat__name")).to_have_text(["Ana", "Empty seat", "Empty seat"])
    expect(bob.locator("#join-form")).to_be_visible()
    context.close()
    other.close()
