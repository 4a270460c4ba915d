"""The installable app in a real Chromium: the service worker registers and shows a pushed
notice with the room's link; the room's opt-ins; the page of my games, at both sizes."""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Worker, expect

from games.live import services
from games.models import Game, Player, PushSubscription
from tests.browser.test_phone_first import screen
from tests.browser.test_room import create_room
from tests.browser.watch import VIEWPORTS, off_the_loop
from tests.pushservice import Browser
from tests.test_my_games import game_with, start_on

pytestmark = pytest.mark.browser


def worker_ready(page: Page) -> None:
    """Wait until the page's service worker (static/js/sw.js) is active and controls it."""
    page.wait_for_function("() => document.documentElement.dataset.serviceWorker === 'ready'")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")


def spy_on_notifications(context: BrowserContext) -> Worker:
    """The page's running service worker, its ``self.notificationShown`` a promise that
    settles once the worker's first ``showNotification`` has been answered (the worker's own
    code is untouched: it calls the method as before)."""
    workers = context.service_workers
    worker = workers[0] if workers else context.wait_for_event("serviceworker")
    worker.evaluate(
        """() => {
            const registration = self.registration;
            const show = registration.showNotification.bind(registration);
            self.notificationShown = new Promise((resolve, fail) => {
                registration.showNotification = (...args) => {
                    const shown = show(...args);
                    shown.then(resolve, fail);
                    return shown;
                };
            });
        }"""
    )
    return worker


def push_to(context: BrowserContext, page: Page, origin: str, data: str) -> list[str]:
    """Deliver ``data`` as a push message to the page's service worker, as Chromium's own
    push service would (the DevTools protocol's ServiceWorker.deliverPushMessage); the
    registrations the protocol told of, the first one pushed to."""
    cdp = context.new_cdp_session(page)
    found: list[str] = []
    cdp.on(
        "ServiceWorker.workerRegistrationUpdated",
        lambda event: found.extend(r["registrationId"] for r in event["registrations"]),
    )
    cdp.send("ServiceWorker.enable")
    # Each call below lets Playwright hand over the events that came meanwhile; the
    # protocol sends the registrations as soon as it is enabled.
    while not found:
        page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    message = {"origin": origin, "registrationId": found[0], "data": data}
    cdp.send("ServiceWorker.deliverPushMessage", message)
    return found


def test_the_service_worker_registers_and_shows_a_pushed_turn_with_the_rooms_link(
    full_browser, live_server_url
):  # type: ignore[no-untyped-def]
    # The whole browser: the headless shell's workers show no notifications (none found).
    context = full_browser.new_context()
    context.grant_permissions(["notifications"], origin=live_server_url)
    page = context.new_page()
    page.goto(live_server_url + "/")
    worker_ready(page)
    # The shell was kept at install: the offline page and the room's script among it.
    kept = page.evaluate(
        """async () => {
            const names = await caches.keys();
            const cache = await caches.open(names.find((n) => n.startsWith('yahtzee-shell-')));
            return (await cache.keys()).map((r) => new URL(r.url).pathname);
        }"""
    )
    assert "/offline/" in kept
    assert "/static/js/room.js" in kept

    notice = {
        "kind": "turns",
        "game": "AbCdEfGh12345678",
        "seat": 1,
        "title": "Your turn",
        "body": "bob, the dice are yours (no clock).",
        "url": "/g/AbCdEfGh12345678/",
        "at": "2026-11-26T12:00:00+00:00",
    }
    shown_in = spy_on_notifications(context)
    registration = push_to(context, page, live_server_url, json.dumps(notice))
    # Read the notifications once the worker's showNotification has been answered, not while
    # it may be under way: getNotifications drops from Chromium's records what its display
    # service does not list yet, for good. Polling from the push on failed once that way on a
    # busy machine (nothing in 30 s).
    shown_in.evaluate(
        """() => Promise.race([
            self.notificationShown,
            new Promise((_, fail) => {
                setTimeout(() => fail(new Error("nothing shown in 30 s")), 30000);
            }),
        ])"""
    )
    shown = page.evaluate(
        """async () => {
            const r = await navigator.serviceWorker.ready;
            return (await r.getNotifications()).map((n) => ({
                title: n.title, body: n.body, tag: n.tag, data: n.data, icon: n.icon,
            }));
        }"""
    )
    if not shown:  # What the worker saw, to tell a lost push from a refused notification.
        workers = [
            (w.url, w.evaluate("() => Notification.permission")) for w in context.service_workers
        ]
        print(f"no notification: pushed to registration {registration}; workers {workers}")
    assert shown == [
        {
            "title": "Your turn",
            "body": "bob, the dice are yours (no clock).",
            "tag": "game-AbCdEfGh12345678",
            "data": {
                "url": "/g/AbCdEfGh12345678/",
                "game": "AbCdEfGh12345678",
                "seat": 1,
                "kind": "turns",
            },
            "icon": live_server_url + "/static/img/icon-192.png",
        }
    ]
    context.close()


def test_the_offline_page_follows_a_change_of_language(browser, live_server_url):  # type: ignore[no-untyped-def]
    context = browser.new_context(locale="fr-FR")
    page = context.new_page()
    page.goto(live_server_url + "/rules/")
    worker_ready(page)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/sw.js?lang=fr")
    context.set_offline(True)
    page.goto(live_server_url + "/my-games/")
    expect(page.locator("h1")).to_have_text("Vous êtes hors ligne")
    context.set_offline(False)

    # German, chosen in the footer: the page registers the worker for German, which the
    # browser installs afresh; it keeps the offline page again, in German, under its name.
    page.goto(live_server_url + "/rules/")
    page.select_option("#language-select", "de")
    page.locator(".language-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "de")
    # Activated: its activation has put away the French worker's cache.
    page.wait_for_function(
        """() => {
            const worker = navigator.serviceWorker.controller;
            const german = worker && worker.scriptURL.endsWith('/sw.js?lang=de');
            return german && worker.state === 'activated';
        }"""
    )
    kept = page.evaluate("caches.keys()")
    assert [name.rsplit("-", 1)[1] for name in kept if name.startswith("yahtzee-shell-")] == ["de"]
    context.set_offline(True)
    page.goto(live_server_url + "/my-games/")

    expect(page.locator("h1")).to_have_text("Du bist offline")
    context.close()


def test_a_page_the_network_cannot_reach_is_the_offline_page(browser, live_server_url):  # type: ignore[no-untyped-def]
    context = browser.new_context()
    page = context.new_page()
    page.goto(live_server_url + "/rules/")
    worker_ready(page)
    context.set_offline(True)

    page.goto(live_server_url + "/my-games/")

    expect(page.locator("h1")).to_have_text("You are offline")
    # Its styles came from the shell: the header is drawn as online.
    assert page.eval_on_selector(".site-header", "el => getComputedStyle(el).display") != "inline"
    context.close()


#: Chromium here cannot reach a push service (Google's FCM): the browser's subscribe is
#: replaced by one that returns a subscription with keys the test made; everything from
#: there on (the panel, the server, the database) is the site's own.
FAKE_SUBSCRIBE = """
(subscription) => {
  // Kept across page loads, as a browser keeps its subscription.
  const made = {
    endpoint: subscription.endpoint,
    toJSON: () => subscription,
    unsubscribe: async () => { localStorage.removeItem("test-push"); return true; },
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem("test-push") ? made : null;
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = options.applicationServerKey;
    if (!(key instanceof Uint8Array) || key.length !== 65) throw new Error("no key");
    localStorage.setItem("test-push", "subscribed");
    return made;
  };
}
"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_rooms_opt_ins_are_off_until_ticked_and_easy_to_turn_off(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(**screen(viewport))
    context.grant_permissions(["notifications"], origin=live_server_url)
    subscription: dict[str, Any] = Browser().subscription("https://push.example/send/abc")
    context.add_init_script(f"({FAKE_SUBSCRIBE})({json.dumps(subscription)})")
    page = context.new_page()
    create_room(page, live_server_url, "Ana", seats=2)
    panel = page.locator("#push-panel")
    page.wait_for_function("() => document.getElementById('push-panel').dataset.ready")
    for kind in ("turns", "starts", "rematches"):
        expect(panel.locator(f'input[name="{kind}"]')).not_to_be_checked()
    expect(page.locator("#push-status")).to_have_text(
        "Off: this browser is told nothing while the room is closed."
    )
    panel.scroll_into_view_if_needed()
    panel.screenshot(path=screenshot_dir / f"push-opt-in-off-{viewport}.png")

    panel.locator('input[name="turns"]').check()
    expect(panel).to_have_attribute("data-saved", "turns")
    panel.locator('input[name="rematches"]').check()
    expect(panel).to_have_attribute("data-saved", "turns rematches")

    row = PushSubscription.objects.get()
    session = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")
    assert (row.endpoint, row.session_key) == ("https://push.example/send/abc", session)
    assert (row.turns, row.starts, row.rematches) == (True, False, True)
    expect(page.locator("#push-status")).to_have_text(
        "On for your turn, a rematch, in this browser."
    )
    panel.screenshot(path=screenshot_dir / f"push-opt-in-on-{viewport}.png")
    # Opened again, the room shows what the server keeps.
    page.reload()
    page.wait_for_function("() => document.getElementById('push-panel').dataset.ready")
    expect(panel.locator('input[name="turns"]')).to_be_checked()

    page.click("#push-off")

    expect(panel).to_have_attribute("data-saved", "")
    assert not PushSubscription.objects.exists()
    expect(page.locator("#push-off")).to_be_hidden()
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_my_games_lists_the_games_waiting_for_me_first(
    browser, live_server_url, screenshot_dir, viewport
):  # type: ignore[no-untyped-def]
    context = browser.new_context(**screen(viewport))
    page = context.new_page()
    create_room(page, live_server_url, "Me", seats=2)  # A lobby: not in play, not listed.
    page.goto(live_server_url + "/my-games/")
    expect(page.locator("#my-games-none")).to_be_visible()
    # This browser's session, made with its room, holds the seats made below.
    session = next(c["value"] for c in context.cookies() if c["name"] == "sessionid")

    def games() -> tuple[str, str, str]:
        waiting = game_with(("Ana", "a"), ("Me", session), turn_seconds=86_400)
        start_on(waiting, "Me")
        theirs = game_with(("Me", session), ("Bob", "b"), ("Cy", "c"))
        start_on(theirs, "Bob")
        with_bot = game_with(("Me", session), turn_seconds=None)
        me = Player.objects.get(game__code=with_bot)
        services.add_bot(with_bot, me.pk, "casual")
        services.start_game(with_bot, me.pk, version=Game.objects.get(code=with_bot).version)
        return waiting, theirs, with_bot

    waiting, theirs, with_bot = off_the_loop(games)

    page.click('.site-nav a[href="/my-games/"]')

    rows = page.locator("#my-games > li")
    codes = rows.evaluate_all("rows => rows.map((r) => r.dataset.code)")
    assert codes[0] == waiting
    assert set(codes) == {waiting, theirs, with_bot}
    expect(rows.first).to_contain_text("Your turn")
    expect(rows.first).to_contain_text("left")
    expect(rows.first.locator("a")).to_have_attribute("href", f"/g/{waiting}/")
    expect(page.locator(f'#my-games > li[data-code="{theirs}"]')).to_contain_text("Bob's turn")
    expect(page.locator('.site-nav a[href="/my-games/"]')).to_have_attribute("aria-current", "page")
    page.screenshot(path=screenshot_dir / f"my-games-{viewport}.png", full_page=True)

    rows.first.locator("a").click()
    page.wait_for_url(f"{live_server_url}/g/{waiting}/")
    context.close()
