"""The Content-Security-Policy in a real Chromium: every page sends it and breaks none of it.

Chromium reports a refused script, style, image, connection or form in two ways:
a ``securitypolicyviolation`` event on the document (recorded here by a script
that runs before the page's own) and an error on the console. Both must stay empty
on every page, from the home page to a finished game's review, and the room must
still reach its websocket under ``connect-src``.
"""

from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from playwright.sync_api import BrowserContext, Page, Response, expect

from games.live import services
from tests.browser.test_room import create_room, drawn_dice, roll
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop
from tests.server.helpers import play_out

pytestmark = pytest.mark.browser

PASSWORD = "correct horse battery staple"

RECORD_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportViolation(
    `${event.effectiveDirective} refused ${event.blockedURI || "inline"}`
    + ` (${event.sourceFile || location.pathname}:${event.lineNumber})`
  );
});
"""


@dataclass
class PolicyWatch:
    """Every CSP violation any page of a context reported, and every console complaint."""

    violations: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    @classmethod
    def on(cls, context: BrowserContext) -> "PolicyWatch":
        watch = cls()
        # A binding outlives navigations, so a violation just before one still arrives.
        context.expose_function("reportViolation", lambda text: watch.violations.append(text))
        context.add_init_script(RECORD_VIOLATIONS)
        return watch

    def add(self, page: Page) -> None:
        page.on(
            "console",
            lambda m: (
                (m.type == "error" or "Content Security Policy" in m.text)
                and self.console.append(m.text)
            ),
        )
        page.on("pageerror", lambda error: self.console.append(str(error)))

    def assert_clean(self, page: Page, where: str) -> None:
        # Violation events are queued tasks: let the page's pending ones run and report.
        page.evaluate("() => new Promise((done) => setTimeout(done, 100))")
        assert (where, self.violations, self.console) == (where, [], [])


def expected_policy(site_url: str) -> dict[str, list[str]]:
    policy = {name: list(sources) for name, sources in settings.CONTENT_SECURITY_POLICY.items()}
    policy["connect-src"].append(site_url.replace("http://", "ws://"))
    return policy


def policy_of(response: Response | None) -> dict[str, list[str]]:
    assert response is not None
    header = response.headers.get("content-security-policy")
    assert header, f"no Content-Security-Policy on {response.url}"
    directives = [part.split() for part in header.split(";") if part.strip()]
    return {name: sources for name, *sources in directives}


@pytest.fixture
def context(browser) -> Iterator[BrowserContext]:  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=VIEWPORTS["desktop"])
    yield context
    context.close()


def test_every_page_sends_the_policy_and_breaks_none_of_it(context, live_server_url):
    policy = PolicyWatch.on(context)
    page = context.new_page()
    policy.add(page)
    watch = PageWatch.on(page)

    def visit(path: str, ready: str | None = None) -> None:
        response = page.goto(live_server_url + path)
        assert response is not None
        assert response.status == 200, path
        assert policy_of(response) == expected_policy(live_server_url), path
        if ready:
            page.wait_for_function(ready)
        policy.assert_clean(page, path)

    visit("/")
    visit("/rules/")

    # Sign up through the form (form-action 'self'), then play a room for one.
    visit("/accounts/signup/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    page.wait_for_url(f"{live_server_url}/players/ana/")
    policy.assert_clean(page, "after signing up")

    room = create_room(page, live_server_url, "Ana", seats=1)
    path = room.removeprefix(live_server_url)
    code = path.strip("/").rsplit("/", 1)[1]
    # The lobby: its config is a <script type="application/json">, its QR code inline SVG.
    connected = "() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null"
    visit(path, ready=connected)
    expect(page.locator(".invite__qr svg")).to_be_visible()

    # In play: dice thrown, the upper section's progress bar drawn with a width.
    page.click("#start-button")
    roll(page, "click")
    thrown = connected + " && window.yahtzeeRoom.state.turn && window.yahtzeeRoom.state.turn.dice"
    page.wait_for_function(thrown)  # The roll's event came (the tray is blank until then).
    assert None not in drawn_dice(page)
    visit(path, ready=thrown)
    fill = page.locator(".upper-progress__fill").first
    assert fill.evaluate("el => el.style.width").endswith("%")
    policy.assert_clean(page, "room in play")
    # The app's pages: the games in play (this one), the offline page, the manifest's.
    visit("/my-games/")
    expect(page.locator(f'#my-games li[data-code="{code}"]')).to_be_visible()
    visit("/offline/")

    # Finished: its review, the history and the profile with its chart.
    off_the_loop(play_out, code)
    visit(f"/g/{code}/review/")
    expect(page.locator("#replay-card")).to_be_visible()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    policy.assert_clean(page, "review, stepped")
    visit("/games/")
    visit("/players/ana/")
    expect(page.locator(".chart").first).to_be_visible()

    # Log out and in again through the forms.
    page.get_by_role("button", name="Log out").click()
    page.wait_for_url(f"{live_server_url}/")
    visit("/accounts/login/")
    page.get_by_label("Username").fill("ana")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server_url}/")
    policy.assert_clean(page, "after logging in")
    watch.assert_clean(live_server_url)


# A second policy, from a <meta> added before the page's scripts run (module scripts run
# once the document is parsed): a connection must pass both policies. The page counts
# the violations it has reported (after RECORD_VIOLATIONS, whose listener comes first).
NARROW_CONNECT_SRC = """
window.violationsReported = 0;
document.addEventListener("securitypolicyviolation", () => { window.violationsReported += 1; });
document.addEventListener("readystatechange", () => {
  const meta = document.createElement("meta");
  meta.httpEquiv = "Content-Security-Policy";
  meta.content = "connect-src %s";
  document.head.append(meta);
}, { once: true });
"""


def test_connect_src_self_alone_reaches_the_rooms_websocket(browser, live_server_url):
    # The header also names ws://host:port, for browsers that do not match 'self' to ws:
    # (Safari before 16). Chromium does: narrowed to 'self' alone, the room still connects;
    # narrowed to 'none', it does not (so the narrowing is real).
    room = off_the_loop(lambda: services.create_game(host_name="Ana", seats=2)[0].code)
    seen = {}
    for sources in ("'none'", "'self'"):
        context = browser.new_context()
        policy = PolicyWatch.on(context)
        context.add_init_script(NARROW_CONNECT_SRC % sources)
        page = context.new_page()
        page.goto(f"{live_server_url}/g/{room}/")
        if sources == "'self'":
            page.wait_for_function("() => window.yahtzeeRoom && window.yahtzeeRoom.state !== null")
            policy.assert_clean(page, "room under connect-src 'self'")
        else:
            page.wait_for_function("() => document.querySelector('meta[http-equiv]') !== null")
            page.wait_for_function("() => window.violationsReported > 0")  # The socket refused.
        seen[sources] = list(policy.violations)
        context.close()

    assert seen["'self'"] == []
    assert seen["'none'"]
    assert all(v.startswith("connect-src refused ws://") for v in seen["'none'"])


def test_a_violation_would_be_seen(context, live_server_url):
    # The watch itself: a style attribute set from a script is refused, and reported.
    policy = PolicyWatch.on(context)
    page = context.new_page()
    policy.add(page)
    page.goto(live_server_url + "/rules/")

    page.evaluate("document.body.innerHTML += '<p style=\"color: red\">inline</p>'")

    with pytest.raises(AssertionError):
        policy.assert_clean(page, "/rules/")
    assert [v for v in policy.violations if v.startswith("style-src-attr refused inline")]


def test_the_admin_works_under_the_policy(context, live_server_url):
    """Django's admin pages carry no inline script or style either: an operator can sign
    in, list the games and open one under the same policy."""
    off_the_loop(
        lambda: get_user_model().objects.create_superuser("root", "root@example.com", PASSWORD)
    )
    game = off_the_loop(lambda: services.create_game(host_name="Ana", seats=2)[0].pk)
    policy = PolicyWatch.on(context)
    page = context.new_page()
    policy.add(page)

    page.goto(f"{live_server_url}/admin/")
    page.get_by_label("Username").fill("root")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Log in").click()
    page.wait_for_url(f"{live_server_url}/admin/")
    policy.assert_clean(page, "admin index")
    for path in (
        "/admin/games/game/",
        f"/admin/games/game/{game}/change/",
        "/admin/auth/user/",
        "/admin/auth/user/add/",
    ):
        response = page.goto(live_server_url + path)
        assert response is not None
        assert response.status == 200, path
        policy.assert_clean(page, path)
