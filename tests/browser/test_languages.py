"""The site in other languages, in a real Chromium: the browser's language chooses the page's,
the footer's switcher changes it (with or without scripts) and it is remembered, and a room
in German (Kniffel's long box names) or Swedish Yatzy fits a phone and a desktop.

The room's scripts still write their own words in English (static/js/room.js is not yet
converted: tests/test_translations.py lists it in the remainder); what the server renders,
the box names and the scripts' catalog come in the reader's language.
"""

import random
import re

import pytest
from playwright.sync_api import expect

from games.engine import rules
from games.strategy import load
from tests.browser.axe import FAILING, violations
from tests.browser.test_room import create_room, expect_dice, expect_my_turn
from tests.browser.test_table import OFF_SCREEN, STRAIGHT, roll_off, seat_bots
from tests.browser.watch import VIEWPORTS, PageWatch, off_the_loop
from tests.server.helpers import Table, play_out

pytestmark = pytest.mark.browser

#: A browser's locale, as its Accept-Language.
LOCALES = {"de": "de-DE", "fr": "fr-FR", "es": "es-ES", "sv": "sv-SE"}

#: Whether any element inside the page overflows its own box sideways (a word too long for
#: its cell or button), or the page is wider than the screen; each offender named.
OVERFLOWING = """(scope) => {
    const found = [];
    if (document.documentElement.scrollWidth > window.innerWidth) found.push("the page");
    // The card's frame scrolls sideways on purpose (and says so): its cells must not.
    for (const el of document.querySelectorAll(scope)) {
        if (el.closest(".cards__scroll") && el.matches(".cards__scroll")) continue;
        const style = getComputedStyle(el);
        if (style.display === "none" || style.visibility === "hidden") continue;
        if (el.scrollWidth > el.clientWidth + 1 && style.overflowX === "visible") {
            const text = el.textContent.trim().slice(0, 40);
            found.push(`${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}: ${text}`);
        }
    }
    return found;
}"""


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize(
    ("language", "heading", "button"),
    [
        ("fr", "Le Yahtzee entre amis, en direct dans le navigateur.", "Ouvrir une salle"),
        ("es", "Yahtzee con amigos, en directo en el navegador.", "Abrir una sala"),
    ],
)
def test_the_home_page_speaks_the_browser_s_language(
    browser, live_server_url, screenshot_dir, viewport, language, heading, button
):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale=LOCALES[language])
    page = context.new_page()
    watch = PageWatch.on(page)

    page.goto(live_server_url + "/")

    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_role("heading", level=1)).to_have_text(heading)
    expect(page.locator("form.new-game button[type=submit]")).to_have_text(button)
    expect(page.locator("#language-select")).to_have_value(language)
    assert page.evaluate(OVERFLOWING, ".hero, .new-game, .site-footer *") == []
    page.screenshot(path=screenshot_dir / f"home-{language}-{viewport}.png", full_page=True)
    watch.assert_clean(live_server_url)
    context.close()


@pytest.mark.parametrize("scripts", [True, False], ids=["with-scripts", "without-scripts"])
def test_the_switcher_changes_the_language_and_it_is_remembered(
    browser, live_server_url, screenshot_dir, scripts
):  # type: ignore[no-untyped-def]
    # The browser says English; the reader chooses German in the footer.
    context = browser.new_context(locale="en-GB", java_script_enabled=scripts)
    page = context.new_page()
    page.goto(live_server_url + "/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "en")

    page.select_option("#language-select", "de")
    page.get_by_role("button", name="Change").click()

    # Back on the page it was chosen on, in German.
    page.wait_for_url(live_server_url + "/rules/")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.get_by_role("heading", level=1)).to_have_text("Die Regeln von Yahtzee")
    expect(page.locator("#language-select")).to_have_value("de")
    # Remembered: another page, and a new tab of the same browser, are German too.
    page.get_by_role("link", name="Spielen", exact=True).click()
    expect(page.get_by_role("heading", level=1)).to_have_text(
        "Yahtzee mit Freunden, live im Browser."
    )
    other = context.new_page()
    other.goto(live_server_url + "/games/")
    expect(other.locator("html")).to_have_attribute("lang", "de")
    expect(other.get_by_role("heading", level=1)).to_have_text("Spiele")
    # And back to English the same way.
    other.select_option("#language-select", "en")
    other.get_by_role("button", name="Wechseln").click()
    expect(other.locator("html")).to_have_attribute("lang", "en")
    context.close()


@pytest.fixture(autouse=True)
def _strategy_ready() -> None:
    """Load the tables before the server is forked, so the coach answers at once."""
    load("official")
    load("yatzy")


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize(
    ("language", "preset", "boxes", "server_dice"),
    [
        (
            "de",
            "official",
            [
                "Einser",
                "Dreierpasch",
                "Viererpasch",
                "Full House",
                "Kleine Straße",
                "Große Straße",
                "Kniffel",
                "Chance",
            ],
            roll_off(2) + STRAIGHT + [1],
        ),
        (
            "sv",
            "yatzy",
            [
                "Ettor",
                "Ett par",
                "Två par",
                "Tretal",
                "Fyrtal",
                "Liten stege",
                "Stor stege",
                "Kåk",
                "Chans",
                "Yatzy",
            ],
            roll_off(2) + STRAIGHT + [1],
        ),
    ],
    ids=["de-yahtzee", "sv-yatzy"],
)
def test_a_room_in_another_language_fits_the_card_on_one_screen(
    browser, live_server_url, screenshot_dir, viewport, language, preset, boxes
):  # type: ignore[no-untyped-def]
    phone = viewport == "phone"
    context = browser.new_context(
        viewport=VIEWPORTS[viewport], has_touch=phone, is_mobile=phone, locale=LOCALES[language]
    )
    page = context.new_page()
    watch = PageWatch.on(page)
    create_room(page, live_server_url, "Ana", seats=2, preset=preset)
    seat_bots(page, 1)
    page.click("#start-button")
    expect_my_turn(page)
    page.click("#roll-button")
    expect_dice(page, STRAIGHT)
    expect(page.locator(".die-button--rolling")).to_have_count(0)

    expect(page.locator("html")).to_have_attribute("lang", language)
    # German's long names carry soft hyphens (where a phone may break them): read without.
    names = [
        n.replace("\N{SOFT HYPHEN}", "")
        for n in page.locator("#scorecard tbody th").all_text_contents()
    ]
    assert [name for name in names if name in boxes] == boxes
    catalog = page.evaluate("JSON.parse(document.getElementById('page-catalog').textContent)")
    assert catalog["lang"] == language
    # The long words fit: no box name, button or heading overflows its box, the dice, Roll
    # and every open box are on the one screen, and the page is no wider than the screen.
    assert page.evaluate(OVERFLOWING, "#scorecard th, #scorecard td, .panel h2, .button") == []
    seen = page.evaluate(OFF_SCREEN)
    assert seen["missing"] == []
    assert seen["open"] == len(rules.get_rules(preset).boxes)  # The first turn: all open.
    page.screenshot(path=screenshot_dir / f"table-{language}-{preset}-{viewport}.png")
    page.screenshot(
        path=screenshot_dir / f"table-{language}-{preset}-{viewport}-whole.png", full_page=True
    )
    if phone and language == "de":
        # The accessibility checks in German on a phone (axe-core).
        bad = [v for v in violations(page) if v.impact in FAILING]
        assert not bad, "\n".join(map(str, bad))
    watch.assert_clean(live_server_url)
    context.close()


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_the_lobby_reads_in_french(browser, live_server_url, screenshot_dir, viewport):  # type: ignore[no-untyped-def]
    context = browser.new_context(viewport=VIEWPORTS[viewport], locale=LOCALES["fr"])
    page = context.new_page()
    watch = PageWatch.on(page)

    create_room(page, live_server_url, "Ana", seats=3)

    # What the lobby's script writes (static/js/panels/lobby.js), from the page's catalog.
    expect(page.locator("#lobby-note")).to_have_text(
        "Lancez la partie quand tout le monde est assis. Les retardataires peuvent regarder."
    )
    expect(page.locator("#seats li").first).to_contain_text("hôte")
    expect(page.locator("#seats li").first).to_contain_text("vous")
    expect(page.locator("#seats li").nth(1)).to_have_text("Place libre")
    assert page.evaluate(OVERFLOWING, "#lobby *") == []
    page.screenshot(path=screenshot_dir / f"lobby-fr-{viewport}.png", full_page=True)
    watch.assert_clean(live_server_url)
    context.close()


def test_the_review_reads_in_spanish(browser, live_server_url, screenshot_dir):  # type: ignore[no-untyped-def]
    code = off_the_loop(two_players, random.Random(3))
    context = browser.new_context(viewport=VIEWPORTS["desktop"], locale=LOCALES["es"])
    page = context.new_page()
    watch = PageWatch.on(page)

    page.goto(f"{live_server_url}/g/{code}/review/")
    where = page.locator("#replay-where")
    page.keyboard.press("Home")
    # Step to the first roll: review.js writes where the game stands, the rolls left too.
    while "tirada" not in (where.text_content() or ""):
        page.click('[data-step="next"]')

    # What review.js writes (the place in the game, the slider's and the graph's words).
    expect(where).to_contain_text("Ronda 1")
    expect(where).to_contain_text(re.compile(r"quedan? \d tiradas?"))
    expect(page.locator("#replay-slider")).to_have_attribute(
        "aria-valuetext", re.compile(r"^Momento \d+ de \d+: ")
    )
    expect(page.locator("#chances-chart svg")).to_have_attribute(
        "aria-valuetext", re.compile(r"^Momento \d+ de \d+: Ana \d+\s%, Bea \d+\s%")
    )
    page.screenshot(path=screenshot_dir / "review-es-desktop.png", full_page=True)
    watch.assert_clean(live_server_url)
    context.close()


def two_players(dice: random.Random) -> str:
    """A game of two played to the end, to review."""
    table = Table("Ana", "Bea")
    table.start()
    play_out(table.code, rolls=lambda: dice.choice([1, 2, 3]))
    return table.code
