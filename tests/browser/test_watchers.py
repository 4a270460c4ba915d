"""The watchers' chat and the bots' pace in a real Chromium (issue 19): a player and a
watcher in two browsers."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_room import create_room, open_room, set_switch
from tests.browser.watch import VIEWPORTS, PageWatch

pytestmark = pytest.mark.browser


def lines(page: Page) -> list[str]:
    """The watchers' chat as the page shows it, without the times: "name: text"."""
    texts = page.locator("#watchers-lines .watchers-chat__line").all_text_contents()
    return [text.split(" ", 1)[1] for text in texts]


def say(watcher: Page, text: str) -> None:
    watcher.fill("#watchers-input", text)
    watcher.click("#watchers-form button")
    expect(watcher.locator("#watchers-lines")).to_contain_text(text)


def test_a_player_reads_the_watchers_chat_only_once_she_chooses_to(  # type: ignore[no-untyped-def]
    browser, live_server_url, screenshot_dir
) -> None:
    ana = browser.new_page(viewport=VIEWPORTS["desktop"])
    watcher = browser.new_page(viewport=VIEWPORTS["phone"])
    watch = PageWatch.on(ana, watcher)
    url = create_room(ana, live_server_url, "Ana", seats=2)
    open_room(watcher, url)

    # The watcher has the chat, under a name given by the server; Ana has a switch, off.
    expect(watcher.locator("#watchers-form")).to_be_visible()
    expect(watcher.locator("#watchers-name")).to_have_value("Watcher 1")
    expect(watcher.locator("#watchers-read-switch")).to_be_hidden()
    expect(ana.locator("#watchers-read")).not_to_be_checked()
    expect(ana.locator("#watchers-lines")).to_be_hidden()
    expect(ana.locator("#watchers-form")).to_be_hidden()

    say(watcher, "who wins this?")
    assert lines(watcher) == ["Watcher 1: who wins this?"]
    # Her server round trip comes after the line was sent out.
    set_switch(ana, "#watchers-read", True)
    expect(ana.locator("#watchers-empty")).to_be_visible()
    assert lines(ana) == []  # Not sent to her while she did not read.

    watcher.fill("#watchers-name", "Sam")
    watcher.click("#watchers-name-form button")
    watcher.wait_for_function("() => localStorage.getItem('yahtzee.watcherName') === 'Sam'")
    say(watcher, "Ana, surely")
    expect(ana.locator("#watchers-lines")).to_contain_text("Ana, surely")
    assert lines(ana) == ["Sam: Ana, surely"]

    # A watcher cannot pose as the player: the server refuses, the page says why.
    watcher.fill("#watchers-name", "ana")
    watcher.click("#watchers-name-form button")
    expect(watcher.locator("#toast")).to_contain_text("already called ana")
    expect(watcher.locator("#watchers-name")).to_have_value("Sam")  # The name it still has.
    say(watcher, "still Sam")
    expect(ana.locator("#watchers-lines")).to_contain_text("still Sam")
    assert lines(ana)[-1] == "Sam: still Sam"

    # The bots' pace: the host chooses in the lobby; the watcher sees it once bots sit.
    expect(ana.locator("#bot-pace-select")).to_be_enabled()
    expect(watcher.locator("#bot-pace")).to_be_hidden()
    ana.select_option("#bot-pace-select", "quick")
    expect(ana.locator("#feed")).to_contain_text("Ana set the bots to play quickly.")
    ana.click('[data-bot="optimal"]')
    expect(watcher.locator("#bot-pace")).to_be_visible()
    expect(watcher.locator("#bot-pace-select")).to_be_disabled()
    expect(watcher.locator("#bot-pace-select")).to_have_value("quick")

    expect(watcher.locator("#toast")).to_be_hidden(timeout=10_000)
    ana.screenshot(path=screenshot_dir / "watchers-chat-player-desktop.png", full_page=True)
    watcher.screenshot(path=screenshot_dir / "watchers-chat-watcher-phone.png", full_page=True)

    # Ana turns it off again: the next line does not reach her.
    set_switch(ana, "#watchers-read", False)
    expect(ana.locator("#watchers-lines")).to_be_hidden()
    ana.wait_for_function("() => localStorage.getItem('yahtzee.readWatchers') === 'false'")
    say(watcher, "bye")
    set_switch(ana, "#watchers-read", True)
    expect(ana.locator("#watchers-lines")).to_be_visible()
    assert lines(ana)[-1] == "Sam: still Sam"

    assert watcher.evaluate("document.documentElement.scrollWidth") <= VIEWPORTS["phone"]["width"]
    watch.assert_clean(live_server_url)
