"""The site in the reader's language: chosen by the browser or the footer's switcher,
remembered, and followed by the page's ``lang``, its dates and numbers, the engine's names
(box names per game), the websocket's refusals, the notifications and the scripts' catalog."""

from __future__ import annotations

import json
import re
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.template import Context, Template
from django.test import Client, RequestFactory
from django.utils import translation
from django.utils.formats import number_format
from django.utils.text import format_lazy
from django.utils.timezone import make_aware
from django.utils.translation import gettext_lazy

from games import words
from games.engine import names, rules
from games.engine.rules import Category
from games.live import push, refusals, services
from games.web.accounts import USERNAME_REFUSALS, locked_out
from games.web.scripts_catalog import page_catalog
from tests.i18n_catalogs import write_mo
from tests.server.test_review_chances import finished
from yahtzee_site.asgi import application

LANGUAGE_COOKIE = settings.LANGUAGE_COOKIE_NAME


def html_lang(response: Any) -> str:
    found = re.search(r'<html lang="([^"]+)"', response.content.decode())
    assert found
    return found.group(1)


# -- choosing the language ----------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("accept", "lang", "words_on_the_page"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.5", "fr", "Ouvrir une salle"),
        ("es", "es", "Abrir una sala"),
        ("de-DE,de;q=0.9", "de", "Raum eröffnen"),
        ("sv", "sv", "Öppna ett rum"),
        ("en-GB", "en", "Open a room"),
        ("pt-BR", "en", "Open a room"),  # Not one of ours: the site's own.
    ],
)
def test_the_browser_s_language_chooses_the_page_s(
    accept: str, lang: str, words_on_the_page: str
) -> None:
    response = Client(headers={"Accept-Language": accept}).get("/")

    assert html_lang(response) == lang
    assert words_on_the_page in response.content.decode()
    assert response["Content-Language"] == lang
    assert "Accept-Language" in response["Vary"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "plural"),
    [
        ("de", "bis zu 6 Personen"),
        ("fr", "jusqu'à 6 joueurs"),
        ("es", "hasta 6 jugadores"),
        ("sv", "upp till 6 spelare"),
    ],
)
def test_a_plural_reads_in_the_language(language: str, plural: str) -> None:
    page = Client(headers={"Accept-Language": language}).get("/").content.decode()

    assert plural in page.replace("&#x27;", "'")


@pytest.mark.django_db
def test_the_switcher_is_a_plain_form_that_names_each_language_in_itself() -> None:
    page = Client().get("/rules/").content.decode()

    form = re.search(
        r'<form class="language-form" action="/i18n/setlang/" method="post">.*?</form>', page, re.S
    )
    assert form, "the footer's form posts to set_language"
    assert 'name="csrfmiddlewaretoken"' in form.group(0)
    assert '<input name="next" type="hidden" value="/rules/">' in form.group(0)
    names = re.findall(
        r'<option value="(\w+)" lang="\w+"( selected)?>([^<]+)</option>', form.group(0)
    )
    assert [(code, name) for code, _selected, name in names] == [
        ("en", "English"),
        ("de", "Deutsch"),
        ("fr", "Français"),
        ("es", "Español"),
        ("sv", "Svenska"),
    ]
    assert [code for code, selected, _name in names if selected] == ["en"]


@pytest.mark.django_db
def test_the_choice_is_remembered_for_a_year_over_the_browser_s_language() -> None:
    browser = Client(headers={"Accept-Language": "fr"})
    browser.get("/")  # The CSRF cookie, as a person's browser has it from the page.

    response = browser.post("/i18n/setlang/", {"language": "sv", "next": "/rules/"})

    assert response.status_code == 302
    assert response["Location"] == "/rules/"
    cookie = response.cookies[LANGUAGE_COOKIE]
    assert cookie.value == "sv"
    assert cookie["max-age"] == 365 * 24 * 60 * 60
    assert cookie["samesite"] == "Lax"
    later = browser.get("/rules/")  # The browser still says French; the choice wins.
    assert html_lang(later) == "sv"
    assert "Reglerna för Yahtzee" in later.content.decode()


@pytest.mark.django_db
def test_a_language_the_site_does_not_speak_is_refused_and_changes_nothing() -> None:
    browser = Client()
    browser.get("/")

    response = browser.post("/i18n/setlang/", {"language": "xx", "next": "/"})

    assert LANGUAGE_COOKIE not in response.cookies
    assert html_lang(browser.get("/")) == "en"


# -- dates, numbers, names ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("language", "date", "datetime_", "number"),
    [
        ("en", "26 November 2026", "26 Nov 2026, 14:05", "3.5"),
        ("de", "26. November 2026", "26.11.2026 14:05", "3,5"),
        ("fr", "26 novembre 2026", "26/11/2026 14:05", "3,5"),
        ("es", "26 de noviembre de 2026", "26/11/2026 14:05", "3,5"),
        ("sv", "26 november 2026", "2026-11-26 14:05", "3,5"),
    ],
)
def test_dates_and_numbers_follow_the_language(
    language: str, date: str, datetime_: str, number: str
) -> None:
    moment = make_aware(datetime(2026, 11, 26, 14, 5))
    template = Template('{{ at|date:"DATE_FORMAT" }}|{{ at|date:"SHORT_DATETIME_FORMAT" }}')

    with translation.override(language):
        shown = template.render(Context({"at": moment}))
        assert shown == f"{date}|{datetime_}"
        assert number_format(3.5, 1) == number


@pytest.mark.parametrize(
    ("language", "yahtzee", "yatzy"),
    [
        ("de", ["Einser", "Dreierpasch", "Full House", "Kleine Straße", "Kniffel"], "Full House"),
        ("sv", ["Ettor", "Tretal", "Kåk", "Liten stege", "Yahtzee"], "Kåk"),
        ("fr", ["As", "Brelan", "Full", "Petite suite", "Yam's"], "Full"),
        ("es", ["Unos", "Trío", "Full", "Escalera corta", "Yahtzee"], "Full"),
    ],
)
def test_each_game_s_boxes_have_the_names_its_players_use(
    language: str, yahtzee: list[str], yatzy: str
) -> None:
    boxes = [
        Category.ONES,
        Category.THREE_OF_A_KIND,
        Category.FULL_HOUSE,
        Category.SMALL_STRAIGHT,
        Category.YAHTZEE,
    ]

    def read(label: str) -> str:  # German's long names carry soft hyphens, for phones.
        return label.replace("\N{SOFT HYPHEN}", "")

    with translation.override(language):
        assert [read(words.box_label(box, rules.OFFICIAL)) for box in boxes] == yahtzee
        if language == "sv":  # Yatzy's own card, in the language that named it.
            names = [words.box_label(box, rules.YATZY) for box in rules.YATZY.boxes]
            assert names == [
                "Ettor", "Tvåor", "Treor", "Fyror", "Femmor", "Sexor", "Ett par", "Två par",
                "Tretal", "Fyrtal", "Liten stege", "Stor stege", "Kåk", "Chans", "Yatzy",
            ]  # fmt: skip
        else:
            assert words.box_label(Category.FULL_HOUSE, rules.YATZY) == yatzy


@pytest.mark.parametrize("language", ["en", "de", "fr", "es", "sv"])
def test_a_phone_s_card_has_short_names_in_every_language_never_longer_than_the_whole(
    language: str,
) -> None:
    with translation.override(language):
        for preset in (rules.OFFICIAL, rules.YATZY):
            for box in preset.boxes:
                whole = words.box_label(box, preset).replace("\N{SOFT HYPHEN}", "")
                assert len(words.box_short_label(box, preset)) <= len(whole), (preset, box)


def test_the_short_names_are_the_reader_s_and_the_game_s() -> None:
    with translation.override("de"):
        assert words.box_short_label(Category.SMALL_STRAIGHT) == "Kl. Straße"
        assert words.box_short_label(Category.TWO_PAIRS, rules.YATZY) == "2 Paare"
        assert words.box_short_label(Category.FULL_HOUSE) == "Full House"  # Short enough.
    with translation.override("en"):
        assert words.box_short_label(Category.LARGE_STRAIGHT, rules.YATZY) == "Lg straight"


def test_the_engine_stays_english_and_the_edge_words_it() -> None:
    with translation.override("de"):
        assert Category.FULL_HOUSE.label == "Full house"  # games/engine has no Django.
        assert words.preset_label("official") == "Offiziell (Joker-Pflicht)"
        assert words.ordinal(1) == "1."
        assert words.clock_words(120) == "2 Min. pro Zug"
    with translation.override("sv"):
        assert [words.ordinal(n) for n in (1, 2, 3, 4)] == ["1:a", "2:a", "3:e", "4:e"]


@pytest.mark.django_db
def test_a_yatzy_room_in_swedish_carries_yatzy_s_names_and_the_scripts_catalog() -> None:
    game, _events = services.create_game(preset="yatzy", seats=2, host_name="Ana", session_key="")

    page = Client(headers={"Accept-Language": "sv"}).get(f"/g/{game.code}/").content.decode()

    config = json.loads(
        re.search(r'<script id="room-config" type="application/json">(.*?)</script>', page).group(1)
    )  # type: ignore[union-attr]
    assert [c["label"] for c in config["categories"]][6:9] == ["Ett par", "Två par", "Tretal"]
    assert [c["short"] for c in config["categories"]][6:9] == ["Ett par", "Två par", "Tretal"]
    catalog = re.search(r'<script id="page-catalog" type="application/json">(.*?)</script>', page)
    assert catalog, "the room page carries its scripts' catalog"
    assert json.loads(catalog.group(1))["lang"] == "sv"
    assert "Yatzy (skandinaviskt)" in page


def test_the_scripts_catalog_is_the_active_language_s(tmp_path: Path, settings) -> None:  # type: ignore[no-untyped-def]
    # A djangojs catalog of its own (the real ones come as the page's scripts are converted).
    write_mo(
        tmp_path / "de" / "LC_MESSAGES" / "djangojs.mo",
        {
            "Roll the dice": "Würfeln",
            "Yahtzee box\x04Full house": "Full House",
            "%(count)s die held": ["%(count)s Würfel behalten", "%(count)s Würfel behalten"],
        },
        "nplurals=2; plural=(n != 1);",
    )
    settings.LOCALE_PATHS = [tmp_path]

    with translation.override("de"):
        german = page_catalog()
    with translation.override("en"):
        english = page_catalog()

    assert german == {
        "lang": "de",
        "catalog": {
            "Roll the dice": "Würfeln",
            "Yahtzee box\x04Full house": "Full House",
            "%(count)s die held": ["%(count)s Würfel behalten", "%(count)s Würfel behalten"],
        },
    }
    assert english == {"lang": "en", "catalog": {}}


# -- the websocket and the notifications ----------------------------------------------------

ORIGIN = (b"origin", b"http://127.0.0.1")
HOST = (b"host", b"127.0.0.1")


def test_a_socket_reads_its_language_from_the_handshake() -> None:
    def scope(headers: list[tuple[bytes, bytes]], cookies: dict[str, str]) -> dict[str, Any]:
        return {"headers": headers, "cookies": cookies}

    assert refusals.language_of(scope([(b"accept-language", b"de-AT,de;q=0.9")], {})) == "de"
    # The switcher's cookie wins over the browser's language, as on the pages.
    assert (
        refusals.language_of(scope([(b"accept-language", b"de")], {LANGUAGE_COOKIE: "es"})) == "es"
    )
    assert refusals.language_of(scope([(b"accept-language", b"ja")], {})) == "en"
    assert refusals.language_of(scope([], {LANGUAGE_COOKIE: "xx"})) == "en"


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("headers", "message"),
    [
        ([(b"accept-language", b"de")], "Das können nur die Mitspielenden dieses Spiels."),
        (
            [(b"cookie", f"{LANGUAGE_COOKIE}=fr".encode())],
            "Seuls les joueurs de cette partie peuvent faire cela.",
        ),
        ([], "only players in this game can do that; you are watching"),  # The engine's own.
    ],
)
async def test_a_refusal_s_code_stays_english_and_its_words_are_the_reader_s(
    headers: list[tuple[bytes, bytes]], message: str
) -> None:
    game, _events = await database_sync_to_async(services.create_game)(
        seats=2, host_name="Ana", session_key=""
    )
    socket = WebsocketCommunicator(
        application, f"/ws/games/{game.code}/", headers=[ORIGIN, HOST, *headers]
    )
    connected, _ = await socket.connect(timeout=10)
    assert connected
    try:
        await socket.send_to(text_data=json.dumps({"type": "advice", "id": "marker"}))
        while True:  # The snapshot and who is watching come first.
            answer = json.loads(await socket.receive_from(timeout=10))
            if answer.get("id") == "marker":
                break
    finally:
        await socket.disconnect()

    assert answer["type"] == "error"
    assert answer["code"] == "not_a_player"  # A watcher asked the coach.
    assert answer["message"] == message


def test_a_notification_is_worded_in_its_browser_s_language() -> None:
    notice = push.Notice(
        push.TURN,
        "abc",
        0,
        gettext_lazy("Your turn"),
        format_lazy(
            gettext_lazy("{name}, the dice are yours ({clock})."),
            name="Ana",
            clock=push.time_words(None),
        ),
        "session",
        None,
        make_aware(datetime(2026, 11, 26, 14, 5)),
    )

    with translation.override("de"):
        german = json.loads(notice.payload())
    with translation.override("es"):
        spanish = json.loads(notice.payload())

    assert (german["title"], german["body"]) == ("Du bist dran", "Ana, du bist am Zug (ohne Uhr).")
    assert (spanish["title"], spanish["body"]) == ("Te toca", "Ana, te toca tirar (sin reloj).")
    with translation.override("sv"):
        assert str(push.time_words(2 * 24 * 3600)) == "2 dagar per tur"
        assert str(push.time_words(3600)) == "1 timme per tur"


@pytest.mark.django_db
def test_an_api_refusal_is_worded_in_the_request_s_language() -> None:
    # A room that does not exist, asked for in Swedish and in English.
    swedish = Client(headers={"Accept-Language": "sv"}).get("/api/games/nosuchgame1/")
    english = Client().get("/api/games/nosuchgame1/")

    assert swedish.status_code == english.status_code == 404
    assert swedish.json()["error"] == {
        "code": "no_such_game",
        "message": "Det finns inget parti på den här länken.",
    }
    assert english.json()["error"]["code"] == "no_such_game"
    assert english.json()["error"]["message"] == "there is no game at this link"


# -- the pages whose scripts read words, the service worker, the accounts' pages ------------

PAGE_CATALOG = re.compile(r'<script id="page-catalog" type="application/json">(.*?)</script>')


@pytest.mark.django_db
def test_the_review_carries_the_scripts_catalog_and_the_rules_page_none(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    code = finished(fixed_dice)
    french = Client(headers={"Accept-Language": "fr"})

    review = PAGE_CATALOG.search(french.get(f"/g/{code}/review/").content.decode())
    assert review, "review.js's words (static/js/review.js) come with its page"
    catalog = json.loads(review.group(1))
    assert catalog["lang"] == "fr"
    assert catalog["catalog"]["Round %(round)s"] == "Manche %(round)s"
    # The rules page runs no script with words of its own: no catalog to carry.
    assert not PAGE_CATALOG.search(french.get("/rules/").content.decode())


SHELL = re.compile(r"^self\.SHELL = (.*);$", re.MULTILINE)


@pytest.mark.django_db
def test_the_service_worker_carries_its_words_in_its_language() -> None:
    def shell(path: str, **headers: str) -> dict[str, Any]:
        response = Client(headers=headers).get(path)
        assert response.status_code == 200
        found = SHELL.search(response.content.decode())
        assert found
        return json.loads(found.group(1))  # type: ignore[no-any-return]

    german = shell("/sw.js?lang=de")
    english = shell("/sw.js?lang=en", **{"Accept-Language": "de"})
    asked_by_the_browser = shell("/sw.js", **{"Accept-Language": "es"})
    not_ours = shell("/sw.js?lang=pt", **{"Accept-Language": "sv"})

    assert german["lang"] == "de"
    # Only the worker's own words (static/js/sw.js's gettext calls), not every script's.
    assert german["catalog"] == {
        "Something happened in one of your games.": "In einem deiner Spiele ist etwas passiert."
    }
    assert (english["lang"], english["catalog"]) == ("en", {})  # The page's language wins.
    assert asked_by_the_browser["lang"] == "es"
    assert asked_by_the_browser["catalog"]["Something happened in one of your games."] == (
        "Ha pasado algo en una de tus partidas."
    )
    assert not_ours["lang"] == "sv"
    # The same files, kept again under another name once the language changes.
    assert german["files"] == english["files"]
    assert german["version"] == english["version"]


def test_the_locked_out_page_says_its_wait_in_the_reader_s_language(settings) -> None:  # type: ignore[no-untyped-def]
    def page(language: str) -> str:
        request = RequestFactory().post("/accounts/login/", {"username": "alice"})
        with translation.override(language):
            return locked_out(request, None, {"username": "alice"}).content.decode()

    german = page("de")
    assert "daher ist die Anmeldung von hier aus 15 Minuten lang pausiert" in german
    assert "Warte 15 Minuten und versuch es dann noch einmal" in german
    assert "pendant 15 minutes" in page("fr")
    settings.AXES_COOLOFF_TIME = timedelta(minutes=1)
    assert "Vänta en minut och försök sedan igen" in page("sv")
    assert "paused for a minute" in page("en")


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("username", "language", "why"),
    [
        # HANGUL FILLER and BRAILLE PATTERN BLANK: letters (Django's own check lets them
        # through) that draw nothing.
        ("ann\u3164", "fr", "il ne peut pas contenir de caractères invisibles"),
        ("ann\u3164", "de", "Er darf keine unsichtbaren Zeichen enthalten"),
        ("\u2800ann", "es", "no puede contener caracteres invisibles"),
        ("ann\u3164", "sv", "det får inte innehålla osynliga tecken"),
        ("ann\u3164", "en", "That username cannot be used: it cannot hold invisible characters."),
    ],
)
def test_a_refused_username_says_why_in_the_reader_s_language(
    username: str, language: str, why: str
) -> None:
    form = {
        "username": username,
        "password1": "a long pass phrase",
        "password2": "a long pass phrase",
    }
    response = Client(headers={"Accept-Language": language}).post("/accounts/signup/", form)

    assert response.status_code == 200
    assert why in response.content.decode()


@pytest.mark.parametrize(
    "name", ["   ", "ann\u0007", "ann\ue000", "ann\u200b", "\u0301\u0302", "\u0301ann"]
)
def test_every_reason_the_engine_refuses_a_name_has_a_username_sentence(name: str) -> None:
    with pytest.raises(names.InvalidName) as refused:
        names.check(name)

    assert refused.value.reason in USERNAME_REFUSALS
    with translation.override("de"):
        assert str(USERNAME_REFUSALS[refused.value.reason]) != str(refused.value)
