"""The room's panels in a real Chromium: each event changes the part of the page it
touches (static/js/panels/), and nothing else. Every change the page makes is recorded by
a MutationObserver, tagged with the room's version at the moment it is delivered (the
changes an event makes are delivered before the next message is read).

The server throws scripted dice (``server_dice``): the host goes first and rolls a Large
straight.
"""

import pytest
from playwright.sync_api import Page, expect

from tests.browser.test_room import barrier, create_room, expect_my_turn, set_switch
from tests.browser.test_table import STRAIGHT, roll_off, seat_bots
from tests.browser.watch import VIEWPORTS

pytestmark = pytest.mark.browser

# Every change under the page's body, with the region it is in (the nearest ancestor with
# an id, inside the panel's own) and the version the room had when it was delivered.
RECORD = """() => {
    window.changes = [];
    const where = (node) => {
        const element = node.nodeType === 1 ? node : node.parentElement;
        const owner = element && element.closest("[id]");
        return owner ? owner.id : "body";
    };
    const cell = (node) => {
        const element = node.nodeType === 1 ? node : node.parentElement;
        const box = element && element.closest("td, th, .die-button");
        if (!box) return null;
        if (box.matches(".die-button")) return `die ${Number(box.dataset.position) + 1}`;
        if (box.matches("thead th[data-seat]")) return `name/${box.dataset.seat}`;
        const total = box.matches(".scorecard__total") ? "total" : box.textContent.slice(0, 12);
        const name = box.dataset.box || total;
        return `${name}/${box.dataset.seat ?? "-"}`;
    };
    // The clock's time, written as it counts down: changes by the second, not by events.
    const clock = (node) => {
        const element = node.nodeType === 1 ? node : node.parentElement;
        return element && element.closest("#turn-clock, .seat-clock");
    };
    // A node added or removed counts with everything in it (a table replaced: every cell).
    const size = (node) => (node.nodeType === 1 ? 1 + node.getElementsByTagName("*").length : 1);
    new MutationObserver((records) => {
        const state = window.yahtzeeRoom.state;
        const version = state.version;
        const kind = state.recent.length ? state.recent[state.recent.length - 1].kind : null;
        for (const r of records) {
            window.changes.push({
                version, kind, region: where(r.target), clock: Boolean(clock(r.target)),
                cell: cell(r.target), type: r.type,
                nodes: [...r.addedNodes, ...r.removedNodes].reduce((n, node) => n + size(node), 0),
            });
        }
    }).observe(document.body, { subtree: true, childList: true, attributes: true,
                                characterData: true });
}"""


def changes_at(page: Page, version: int) -> list[dict[str, object]]:
    """The changes made while the room was at ``version`` (but the clock's ticking)."""
    return page.evaluate("v => window.changes.filter((c) => c.version === v && !c.clock)", version)


def taken(page: Page) -> list[dict[str, object]]:
    """Every change so far (but the clock's ticking), taken."""
    return page.evaluate("() => window.changes.splice(0).filter((c) => !c.clock)")


def summary(changes: list[dict[str, object]]) -> str:
    regions: dict[str, int] = {}
    for change in changes:
        regions[str(change["region"])] = regions.get(str(change["region"]), 0) + 1
    nodes = sum(int(change["nodes"]) for change in changes)  # type: ignore[call-overload]
    return f"{len(changes)} changes, {nodes} nodes added or removed, by region {regions}"


@pytest.mark.parametrize("server_dice", [roll_off(2) + STRAIGHT + [1] * 40])
@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_hold_changes_the_die_and_a_score_its_box_and_the_totals(
    browser, live_server_url, screenshot_dir, size, server_dice
):  # type: ignore[no-untyped-def]
    phone = size == "phone"
    context = browser.new_context(viewport=VIEWPORTS[size], has_touch=phone, is_mobile=phone)
    page = context.new_page()
    create_room(page, live_server_url, "Ana", seats=2, show_odds=True)
    set_switch(page, "#coach-toggle", True)
    seat_bots(page, 1)
    page.click("#start-button")
    expect_my_turn(page)
    page.click("#roll-button")
    expect(page.locator(".die-button__label").nth(0)).to_have_text("Die 1: 6")
    expect(page.locator("#coach-best")).to_contain_text("Best")
    expect(page.locator(".die-button--rolling")).to_have_count(0)  # The dice have landed.
    barrier(page)
    page.evaluate(RECORD)

    # A hold: the die it holds (its class, its pressed state and its label) and the coach's
    # line on the hold; nothing on the cards, nothing else in the tray.
    before = page.evaluate("window.yahtzeeRoom.state.version")
    page.locator(".die-button").nth(0).click()
    page.wait_for_function("v => window.yahtzeeRoom.state.version > v", arg=before)
    barrier(page)
    hold = taken(page)  # The hold drawn at once, and the server's echo of it.
    print(f"\n{size}: a hold: {summary(hold)}")
    assert {c["cell"] for c in hold if c["region"] == "tray" or c["cell"]} <= {"die 1"}
    assert not [c for c in hold if c["region"] in ("scorecard", "cards", "feed", "lobby", "finish")]
    assert {c["region"] for c in hold} <= {"tray", "coach-yours"}
    # Two texts written anew (each a text node out and one in): the die's label, the coach's
    # line. Before the panels: 728 nodes, the card and the coach drawn anew.
    assert sum(c["nodes"] for c in hold) == 4
    page.screenshot(path=screenshot_dir / f"panels-hold-{size}.png")

    # A score: its box, the seat's totals, the roll's choices taken off the card, the turn's
    # marks on the two names; the other player's boxes are not touched.
    before = page.evaluate("window.yahtzeeRoom.state.version")
    page.locator('#scorecard td[data-box="large_straight"] button').click()
    page.wait_for_function("v => window.yahtzeeRoom.state.version > v", arg=before)
    scored = changes_at(page, before + 1)
    print(f"{size}: a score: {summary(scored)}\n{sorted(set(str(c['cell']) for c in scored))}")
    cells = {c["cell"] for c in scored if c["region"] == "scorecard" and c["cell"]}
    assert "large_straight/0" in cells
    assert "total/0" in cells  # The grand total (the upper and lower ones have no seat).
    assert {cell for cell in cells if cell.endswith("/1")} == {"name/1"}  # Now on turn.
    assert not [c for c in scored if c["region"] in ("lobby", "finish")]
    context.close()
