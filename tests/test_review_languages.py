"""The review page in German and in Swedish (issue 31): the moves told, the analysis's
verdicts, the turning points and the charts in the reader's language, with the boxes named
as on the room's card (Kniffel's in German, Yatzy's in a Swedish Yatzy room) and the figures
written as the locale writes them; and the words made each time the page is read, so a
German reader and a Swedish one of the same game (its analysis cached once) each read
their own."""

from __future__ import annotations

import html
import json
import random
import re
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.server.helpers import Table, play_out

pytestmark = pytest.mark.django_db

ANA_FIRST = (6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # The roll-off: ana (seat 0) throws higher.

#: What the review says in English that no German or Swedish reader should meet.
ENGLISH = [
    " rolled ", " kept ", " scored ", "Rolled ", "Kept ", "Scored ", "sit down",
    "won the roll-off", "starts a solo game", "wins with", "finished with", "finished on",
    "share the win", "Best: ", " expected", "Played: ", "the best choice", "gave up",
    "less than", "Keep ", "Throw all", "biggest mistake", "Running totals by round",
    "Chances to win, move by move", "after round", "at the start", "(at most", " from ",
    "threw the other", "threw all five", "beside the", "time ran out", "playing on for",
    "Full house", "Large straight", "Three of a kind",
]  # fmt: skip


def finished_game(fixed_dice, preset: str, first_turns: list[tuple[str, tuple[int, ...], str]]):  # type: ignore[no-untyped-def]
    """ana and ben at a ``preset`` table: ana starts, the ``first_turns`` are played as given
    (a name, the faces of one roll, the box), then every other turn takes the best box for
    one roll of seeded dice."""
    table = Table("ana", "ben", preset=preset)
    fixed_dice.load(*ANA_FIRST)
    table.start()
    for name, faces, box in first_turns:
        fixed_dice.load(*faces)
        table.roll(name)
        table.score(name, box)
    rng = random.Random(31)
    fixed_dice.load(*(rng.randint(1, 6) for _ in range(5 * 30)))
    play_out(table.code)
    return table


def read_twice(table: Table, first: str, then: str) -> tuple[str, str]:
    """The game's review read in the language ``first``, which works its analysis and chances
    out and caches them, then in ``then``, from the cache."""
    cache.clear()
    return review_in(table.code, first), review_in(table.code, then)


def review_in(code: str, language: str) -> str:
    response = Client(headers={"Accept-Language": language}).get(f"/g/{code}/review/")
    assert response.status_code == 200
    return response.content.decode()


def visible(page: str) -> str:
    """The page's text as people read it (and hear it: the charts' titles and descriptions),
    without its scripts' data; spaces (a no-break one too) made one."""
    text = re.sub(r"<script\b.*?</script>", " ", page, flags=re.DOTALL)
    text = html.unescape(re.sub(r"<[^>]+>", " ", text)).replace("\xad", "")
    return re.sub(r"\s+", " ", text)


def config(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="review-config" type="application/json">(.*?)</script>', page)
    assert found
    return json.loads(found.group(1))  # type: ignore[no-any-return]


def chart(page: str, kind: str) -> str:
    found = re.search(rf'<svg[^>]*class="chart chart--{kind}".*?</svg>', page, re.DOTALL)
    assert found
    return visible(found.group(0))


def english_in(page: str) -> list[str]:
    """The English phrases of :data:`ENGLISH` on the page or in the words its script shows."""
    moments = config(page)["moments"]
    said = [m["text"] for m in moments] + [
        m["analysis"]["text"] for m in moments if "analysis" in m
    ]
    return [
        phrase for phrase in ENGLISH if phrase in visible(page) or any(phrase in t for t in said)
    ]


def assert_told_in_full(page: str, first: list[str], last: str) -> None:
    """The page's script tells the game's first moves and its end as given, and nothing on
    the page or in its script's words is one of the review's English phrases."""
    moments = [m["text"] for m in config(page)["moments"]]
    assert (moments[: len(first)], moments[-1]) == (first, last)
    assert english_in(page) == []


def test_the_review_in_german_after_an_english_reader(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    turns = [("ana", (3, 3, 3, 3, 3), "yahtzee"), ("ben", (1, 2, 3, 4, 5), "large_straight")]
    english, page = read_twice(finished_game(fixed_dice, "official", turns), "en", "de-DE,de")
    text = visible(page)

    assert config(english)["moments"][1]["text"] == "ana rolled 3 3 3 3 3 (2 rolls left)."
    # The moves, told in the replay (the page's script shows these) and in the list.
    assert_told_in_full(
        page,
        [
            "ana und ben setzen sich an den Tisch; ana hat das Auswürfeln gewonnen und beginnt.",
            "ana würfelte 3 3 3 3 3 (noch 2 Würfe).",
            "ana trug 50 in Kniffel ein.",
            "ben würfelte 1 2 3 4 5 (noch 2 Würfe).",
            "ben trug 40 in Große Straße ein.",
        ],
        "ana gewinnt mit 144.",
    )
    assert "Runde 1 · ana Wurf: 3 3 3 3 3 (noch 2 Würfe). Eingetragen: 50 in Kniffel." in text
    # The analysis: its verdicts, the biggest mistakes, the figures with a decimal comma.
    verdicts = [m["analysis"]["text"] for m in config(page)["moments"] if "analysis" in m]
    loss = (
        r"Am besten: .+, \d+,\d erwartet\. "
        r"Gespielt: .+, \d+,\d erwartet: \d+,\d\d Punkte verschenkt\."
    )
    assert any(re.fullmatch(loss, verdict) for verdict in verdicts)
    assert (
        "ana 13 8 % 14,87 193,25 Runde 9: Viererpasch (13) 38,44 verschenkt;"
        " am besten: 3 3 3 3 behalten" in text
    )
    # The turning points, and how each moved the chances.
    assert "Wurf Runde 1: ana würfelte 3 3 3 3 3 ana 50 % → 76 %" in text
    assert "Entscheidung Runde 3: ben trug 6 in Sechser ein ben 27 % → 14 %" in text
    # The charts: titles, descriptions, axes and the points' titles.
    totals = chart(page, "lines")
    assert totals.startswith(
        " Punktverlauf nach Runden ana beendete mit 144, ben beendete mit 114. "
    )
    assert " 13 Runde " in totals
    assert "ana: 0 zu Beginn ana: 50 nach Runde 1 " in totals
    chances = chart(page, "chances")
    assert chances.startswith(
        " Siegchancen, Zug um Zug ana von 50 % auf 100 % (höchstens 100 %);"
        " ben von 50 % auf 0 % (höchstens 50 %). 0 % 25 % 50 % 75 % 100 % "
    )
    assert "1. ana würfelte 3 3 3 3 3" in chances


# kept_tables: the review reads Yatzy's odds (its chances to win, turn by turn), solved once
# for the run; without it a fresh checkout solved them here too, beside the worker that did.
def test_the_review_of_a_yatzy_room_in_swedish_after_a_german_reader(  # type: ignore[no-untyped-def]
    fixed_dice, kept_tables
) -> None:
    turns = [("ana", (6, 6, 1, 2, 3), "one_pair"), ("ben", (1, 2, 3, 4, 5), "small_straight")]
    german, page = read_twice(finished_game(fixed_dice, "yatzy", turns), "de", "sv")
    text = visible(page)
    verdicts = [m["analysis"]["text"] for m in config(page)["moments"] if "analysis" in m]

    assert config(german)["moments"][2]["text"] == "ana trug 12 in Ein Paar ein."
    # Yatzy's names on a Swedish card: "Ett par" is Yatzy's alone.
    assert_told_in_full(
        page,
        [
            "ana och ben slår sig ner; ana vann utslagningen och börjar.",
            "ana slog 6 6 1 2 3 (2 slag kvar).",
            "ana skrev 12 i Ett par.",
            "ben slog 1 2 3 4 5 (2 slag kvar).",
            "ben skrev 15 i Liten stege.",
        ],
        "ana vinner med 101.",
    )
    assert verdicts[:2] == [
        "Bäst: Spara 6 6, 249,3 väntat. Spelat: Ett par (12), 240,4 väntat: gav bort 8,83 poäng.",
        "Bäst: Liten stege (15), 251,9 väntat. Spelat: Liten stege (15), det bästa valet.",
    ]
    assert (
        "Omgång 1 · ana Slag: 6 6 1 2 3 (2 slag kvar). Skrev 12 i Ett par."
        " \N{MINUS SIGN}8,83 bortgivna poäng" in text
    )
    assert "Stort misstag : Det största misstaget av ben" in text
    assert "ana 15 0 % 9,83 147,45 Omgång 6: Sexor (12) gav bort 26,65; bäst: Spara 6 6" in text
    assert "Beslut Omgång 14: ben skrev 0 i Kåk ben 68 % → 4 %" in text
    assert chart(page, "lines").startswith(
        " Löpande summor per omgång ana slutade på 101, ben slutade på 100. "
    )
    assert " 15 Omgång ana: 0 vid start ana: 12 efter omgång 1 " in chart(page, "lines")
    assert chart(page, "chances").startswith(
        " Vinstchanser, drag för drag ana från 50 % till 100 % (som mest 100 %);"
        " ben från 50 % till 0 % (som mest 74 %). 0 % 25 % 50 % 75 % 100 % "
    )
