"""axe-core on every page, in every phase of a room, on a desktop and a phone, light and dark.

Each run walks the site as people use it: the pages anyone reads, signing up, a
room for two from its lobby through both players' turns (and a watcher's view) to
its end, then the game's review, the history and the player's profile. axe-core
checks each against WCAG 2.2 AA and its best practices in both colour schemes (the
site follows ``prefers-color-scheme``), so the contrast of the dark theme is checked
as the light one is. No serious or critical violation may remain; moderate and minor
ones are written to test-artifacts/accessibility/ and printed, to be fixed when cheap.

Each state is reached once per screen size and checked in light, then in dark: the
browser is told the other scheme (``emulate_media``) and the page restyles itself at
once, as it does when a phone turns dark at dusk. Its scripts never read the scheme,
and no colour of the site is animated (only widths and transforms), so the page axe
reads is the one a browser opened in that scheme would draw. Walking the site once per
scheme cost twice the browser's time for the same checks.
"""

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.axe import FAILING, Violation, as_json, failing, violations
from tests.browser.test_room import open_room
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop
from tests.conftest import ARTIFACTS
from tests.server.helpers import play_out

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"
SCHEMES = ("light", "dark")
READY = "() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null"


class Audit:
    """What axe found on each page of one run, in each scheme, and the screenshots taken."""

    def __init__(self, viewport: str, screenshots) -> None:  # type: ignore[no-untyped-def]
        self.viewport, self.screenshots = viewport, screenshots
        #: By scheme, then by page.
        self.found: dict[str, dict[str, list[Violation]]] = {scheme: {} for scheme in SCHEMES}

    def check(self, page: Page, where: str, screenshot: str | None = None) -> None:
        # The page's own scripts have drawn it, and its transitions (the dice) have ended.
        page.wait_for_load_state("load")
        expect(page.locator(".die-button--rolling")).to_have_count(0)
        for scheme in SCHEMES:
            page.emulate_media(color_scheme=scheme)
            assert page.evaluate(f"matchMedia('(prefers-color-scheme: {scheme})').matches")
            self.found[scheme][where] = violations(page)
            if screenshot:
                name = f"{screenshot}-{scheme}-{self.viewport}.png"
                page.screenshot(path=self.screenshots / name, full_page=True)

    def report(self) -> None:
        directory = ARTIFACTS / "accessibility"
        directory.mkdir(parents=True, exist_ok=True)
        for scheme, pages in self.found.items():
            lines = []
            for where, found in pages.items():
                lines += [f"{where}: {v}" for v in found if v.impact not in FAILING]
                name = f"{scheme}-{self.viewport}-{where.replace(' ', '-')}.json"
                (directory / name).write_text(as_json(found))
            if lines:
                print(f"\naxe, {scheme} {self.viewport}, moderate and minor:\n" + "\n".join(lines))

    def assert_clean(self) -> None:
        bad = {
            f"{where} ({scheme})": failing(found)
            for scheme, pages in self.found.items()
            for where, found in pages.items()
            if failing(found)
        }
        assert bad == {}


@pytest.fixture
def contexts(browser, request) -> Iterator[list[BrowserContext]]:  # type: ignore[no-untyped-def]
    """Three browsers (Ana, Bob, a watcher) of one screen size."""
    viewport = request.param
    phone = viewport == "phone"
    opened = [
        browser.new_context(viewport=VIEWPORTS[viewport], is_mobile=phone, has_touch=phone)
        for _ in range(3)
    ]
    yield opened
    for context in opened:
        context.close()


def seat_on_turn(page: Page) -> int:
    return page.evaluate("() => window.yahtzeeRoom.state.turn.seat")


def own_seat(page: Page) -> int:
    return page.evaluate("() => window.yahtzeeRoom.state.you.seat")


@pytest.mark.parametrize(
    ("contexts", "viewport"),
    [(v, v) for v in VIEWPORTS],
    indirect=["contexts"],
    ids=list(VIEWPORTS),
)
def test_every_page_has_no_serious_accessibility_violation(
    contexts, viewport, live_server_url, screenshot_dir
):
    ana, bob, watcher = (context.new_page() for context in contexts)
    watch = PageWatch.on(ana, bob, watcher)
    audit = Audit(viewport, screenshot_dir)
    base = live_server_url

    ana.goto(base + "/")
    audit.check(ana, "home", screenshot="home")
    ana.goto(base + "/rules/")
    audit.check(ana, "rules")
    ana.goto(base + "/accounts/login/")
    audit.check(ana, "login")
    ana.goto(base + "/accounts/signup/")
    audit.check(ana, "signup")
    ana.get_by_label("Username").fill("ana")
    ana.get_by_label("Password", exact=True).fill(PASSWORD)
    ana.get_by_label("Password confirmation").fill(PASSWORD)
    ana.get_by_role("button", name="Sign up").click()
    ana.wait_for_url(f"{base}/players/ana/")
    audit.check(ana, "profile, no games yet")

    # Ana opens a room for two: the lobby, as its host sees it and as a guest does.
    ana.goto(base + "/")
    ana.fill("#id_name", "Ana")
    ana.click(".new-game__more > summary")  # The seats are among its options.
    ana.select_option("#id_seats", "2")
    ana.click("form.new-game button[type=submit]")
    ana.wait_for_url(f"{base}/g/*/")
    ana.wait_for_function(READY)
    room = ana.url
    code = room.rstrip("/").rsplit("/", 1)[1]
    audit.check(ana, "room lobby, host", screenshot="lobby")
    open_room(bob, room)
    audit.check(bob, "room lobby, guest")
    bob.fill("#join-name", "Bob")
    bob.click("#join-form button")
    expect(bob.locator("#seats .badge--you")).to_be_visible()

    # In play: the player on turn rolls once; the other waits; a third browser watches.
    ana.click("#start-button")
    ana.wait_for_function("() => window.yahtzeeRoom.state.turn !== null")
    bob.wait_for_function("() => window.yahtzeeRoom.state.turn !== null")
    mover, waiter = (ana, bob) if seat_on_turn(ana) == own_seat(ana) else (bob, ana)
    mover.click("#roll-button")
    for page in (mover, waiter):
        page.wait_for_function("() => window.yahtzeeRoom.state.turn.dice !== null")
    audit.check(mover, "room, your turn", screenshot="your-turn")
    audit.check(waiter, "room, the other's turn")
    # The room's Notifications panel (its opt-ins), and the games in play from both seats.
    mover.locator("#push-panel").scroll_into_view_if_needed()
    expect(mover.locator("#push-panel")).to_be_visible()
    audit.check(mover, "room, the notifications' opt-ins")
    # In a second tab each, the room's own staying open.
    for page, where in ((mover, "my games, your turn"), (waiter, "my games, the other's turn")):
        tab = page.context.new_page()
        tab.goto(base + "/my-games/")
        expect(tab.locator(f'#my-games li[data-code="{code}"]')).to_be_visible()
        audit.check(tab, where, screenshot="my-games" if page is mover else None)
        tab.close()
    open_room(watcher, room)
    watcher.wait_for_function("() => window.yahtzeeRoom.state.turn.dice !== null")
    # Watchers see each seat's chance to win on the cards (the players here do not).
    watcher.wait_for_function(
        "() => [...document.querySelectorAll('.win-chance__text')]"
        ".every(t => t.textContent.endsWith('%'))"
    )
    expect(watcher.locator(".win-chance")).to_have_count(2)
    audit.check(watcher, "room, watching", screenshot="watching")

    # The end, as the players' open pages show it: the services play all but the last
    # turn (the live server's pages hear of it on reloading), the browser plays that one.
    off_the_loop(play_out, code, turns_left=1)
    for page in (ana, bob):
        open_room(page, room)
    last = ana if seat_on_turn(ana) == own_seat(ana) else bob
    last.click("#roll-button")
    last.locator(f'#scorecard td[data-seat="{own_seat(last)}"] button').first.click()
    # The one open box may take little or nothing: the table asks first, and its
    # question must be as readable as the rest.
    if last.evaluate("document.getElementById('confirm-dialog').open"):
        audit.check(last, "room, asking before a low score")
        last.click("#confirm-yes")
    ana.wait_for_function("() => window.yahtzeeRoom.state.game.status === 'finished'")
    audit.check(ana, "room, finished", screenshot="end")
    ana.goto(f"{base}/g/{code}/review/")
    expect(ana.locator("#chances-chart svg .chart__line")).to_have_count(2)
    audit.check(ana, "review", screenshot="review")
    # The replay at a turning point, reached from the graph's list: the chances beside it.
    ana.locator("#turning-points a").first.click()
    expect(ana.locator("#replay-chances strong").first).to_have_text(re.compile(r"%$"))
    audit.check(ana, "review, at a turning point")
    ana.goto(base + "/games/")
    audit.check(ana, "history")
    ana.goto(base + "/players/ana/")
    audit.check(ana, "profile")

    audit.report()
    audit.assert_clean()
    watch.assert_clean(live_server_url)


def test_a_violation_would_be_seen(browser, live_server_url):
    # The check itself: a button with no name, and grey on white text, are found.
    page = browser.new_page()
    page.goto(live_server_url + "/rules/")
    assert failing(violations(page)) == []

    page.evaluate(
        """() => {
            const button = document.createElement("button");
            button.id = "nameless";
            const faint = document.createElement("p");
            faint.id = "faint";
            faint.textContent = "Hardly readable";
            faint.className = "muted";
            document.querySelector("main").append(button, faint);
            // Through the CSSOM: the site's policy refuses style attributes, not this.
            faint.style.color = "#c8c8c8";
            faint.style.background = "#ffffff";
        }"""
    )

    found = {(v.rule, v.impact, v.targets) for v in violations(page)}
    assert ("button-name", "critical", ("#nameless",)) in found
    assert ("color-contrast", "serious", ("#faint",)) in found
    page.close()
