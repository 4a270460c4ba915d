"""The SVG charts, parsed back as XML and checked against worked-out answers."""

import re
import xml.etree.ElementTree as ET

import pytest
from django.utils import translation

from games.web import charts
from games.web.charts import (
    HISTOGRAM_PLOT,
    LINE_PLOT,
    MIN_BINS,
    SEAT_COLOURS,
    histogram_chart,
    running_totals_chart,
)
from tests.interpreter import printed

NS = {"svg": "http://www.w3.org/2000/svg"}
DASH = "\N{EN DASH}"
FULL_GAME = [10, 30, 50, 70, 90, 100, 120, 140, 150, 160, 170, 190, 200]


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(root: ET.Element, seat: int) -> list[ET.Element]:
    return root.findall(f".//svg:circle[@class='chart__point'][@data-seat='{seat}']", NS)


def gridline_labels(root: ET.Element) -> list[str]:
    grid = root.find("svg:g[@class='chart__grid']", NS)
    assert grid is not None
    return [text.text or "" for text in grid.findall("svg:text", NS)]


def bars(root: ET.Element) -> list[tuple[str, str, str]]:
    return [
        (bar.get("data-from", ""), bar.get("data-to", ""), bar.get("data-count", ""))
        for bar in root.findall(".//svg:rect[@class='chart__bar']", NS)
    ]


# Both charts ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "svg",
    [
        running_totals_chart([("Ana", FULL_GAME)], id_prefix="p1"),
        histogram_chart([120, 180], id_prefix="p1"),
        histogram_chart([], id_prefix="p1"),
    ],
    ids=["lines", "histogram", "empty histogram"],
)
def test_it_scales_and_names_itself_for_screen_readers(svg: str) -> None:
    root = parse(svg)

    assert root.get("width") == "100%"
    assert root.get("height") is None
    assert root.get("viewBox", "").startswith("0 0 640 ")
    assert root.get("role") == "img"
    assert root.get("aria-labelledby") == "p1-title p1-desc"
    assert root.find("svg:title", NS).get("id") == "p1-title"  # type: ignore[union-attr]
    assert root.find("svg:desc", NS).get("id") == "p1-desc"  # type: ignore[union-attr]
    assert "chart" in root.get("class", "").split()
    assert root.get("font-family") == "system-ui, sans-serif"


def test_ids_come_from_the_prefix_so_two_charts_can_share_a_page() -> None:
    first = parse(running_totals_chart([("Ana", [5])], id_prefix="game-1"))
    second = parse(running_totals_chart([("Ana", [5])], id_prefix="game-2"))

    ids = [el.get("id") for root in (first, second) for el in root.iter() if el.get("id")]
    assert ids == ["game-1-title", "game-1-desc", "game-2-title", "game-2-desc"]


@pytest.mark.parametrize("prefix", ["", "1chart", 'a"b', "a b"])
def test_an_id_prefix_that_is_not_a_valid_id_is_refused(prefix: str) -> None:
    with pytest.raises(ValueError, match="id_prefix"):
        histogram_chart([1], id_prefix=prefix)


def test_the_module_imports_only_the_standard_library_and_django_s_translations() -> None:
    # Its words go through Django's translations; games.words names a percentage for the
    # locale (and brings the engine, which reads its dice with msgspec). Nothing of the site.
    script = (
        "import sys; before = set(sys.modules); import games.web.charts;"
        "new = {m for m in set(sys.modules) - before if m.split('.')[0] in {'games', 'django'}};"
        "print(sorted(m for m in new if m.startswith(('games.live', 'games.models', 'django.db'))"
        " or m.startswith('games.web.') and m != 'games.web.charts'))"
    )
    assert printed(script) == "[]"


# Running totals ---------------------------------------------------------------------------


def test_points_sit_where_the_documented_scale_puts_them() -> None:
    # Totals up to 200 give an axis from 0 to 200: x = left + 40 per round, y falls from the bottom.
    root = parse(running_totals_chart([("Ana", FULL_GAME)]))
    dots = points(root, 0)

    assert len(dots) == 14  # Round 0 to round 13.
    start, round_5, last = dots[0], dots[5], dots[13]
    assert (float(start.get("cx", "")), float(start.get("cy", ""))) == (56, 240)
    assert LINE_PLOT.left + 5 * LINE_PLOT.width / 13 == 256
    assert (float(round_5.get("cx", "")), float(round_5.get("cy", ""))) == (256, 141)  # 90 of 200
    assert (float(last.get("cx", "")), float(last.get("cy", ""))) == (576, 20)  # 200 at the top
    assert (round_5.get("data-round"), round_5.get("data-total")) == ("5", "90")


def test_a_point_names_player_total_and_round_on_hover() -> None:
    root = parse(running_totals_chart([("Ana", FULL_GAME)]))

    titles = [dot.findtext("svg:title", namespaces=NS) for dot in points(root, 0)]
    assert titles[5] == "Ana: 90 after round 5"
    assert titles[0] == "Ana: 0 at the start"


def test_the_line_goes_through_every_point() -> None:
    root = parse(running_totals_chart([("Ana", [50, 100])], rounds=2))
    line = root.find(".//svg:path[@class='chart__line']", NS)

    assert line is not None
    assert line.get("data-seat") == "0"
    # Two rounds share the 520 wide plot; the axis tops out at 100, so 50 is halfway up.
    assert gridline_labels(root) == ["0", "20", "40", "60", "80", "100"]
    assert line.get("d") == "M56 240L316 130L576 20"


@pytest.mark.parametrize(
    ("highest", "labels"),
    [
        (254, ["0", "100", "200", "300"]),
        (300, ["0", "100", "200", "300"]),
        (301, ["0", "100", "200", "300", "400"]),
        (151, ["0", "50", "100", "150", "200"]),
        (37, ["0", "10", "20", "30", "40"]),
        (0, ["0", "10", "20", "30"]),
        (1100, ["0", "250", "500", "750", "1000", "1250"]),
    ],
)
def test_the_y_axis_rounds_up_to_a_nice_maximum(highest: int, labels: list[str]) -> None:
    root = parse(running_totals_chart([("Ana", [0, highest]), ("Bob", [5])]))

    assert gridline_labels(root) == labels


def test_a_short_series_stops_at_its_last_round() -> None:
    root = parse(running_totals_chart([("Ana", FULL_GAME), ("Bob", [20, 45, 70])]))

    bob = points(root, 1)
    assert [dot.get("data-round") for dot in bob] == ["0", "1", "2", "3"]
    bob_line = root.find(".//svg:path[@data-seat='1']", NS)
    assert bob_line is not None
    assert bob_line.get("d", "").count("L") == 3


def test_the_last_point_of_each_line_is_labelled_with_its_total() -> None:
    root = parse(running_totals_chart([("Ana", FULL_GAME), ("Bob", [20, 45, 70]), ("Cy", [])]))

    labels = root.findall(".//svg:g[@class='chart__end-labels']/svg:text", NS)
    assert [(label.get("data-seat"), label.text) for label in labels] == [("0", "200"), ("1", "70")]
    bob_end = points(root, 1)[-1]
    assert float(labels[1].get("y", "")) == float(bob_end.get("cy", ""))
    assert float(labels[1].get("x", "")) > float(bob_end.get("cx", ""))


def test_end_labels_of_equal_totals_do_not_overlap() -> None:
    root = parse(running_totals_chart([("Ana", FULL_GAME), ("Bob", FULL_GAME)]))

    ys = [
        float(label.get("y", ""))
        for label in root.findall(".//svg:g[@class='chart__end-labels']/svg:text", NS)
    ]
    assert abs(ys[0] - ys[1]) >= 14  # One font size apart at least.


def test_more_totals_than_rounds_is_a_mistake() -> None:
    with pytest.raises(ValueError, match="14 totals for 13 rounds"):
        running_totals_chart([("Ana", [*FULL_GAME, 210])])


def test_a_hostile_name_is_escaped_and_the_svg_still_parses() -> None:
    name = '<script>&"'
    svg = running_totals_chart([(name, [12, 40])], title="Ana's <b>game</b>")
    root = parse(svg)

    assert "<script>" not in svg
    assert "&lt;script&gt;&amp;&quot;" in svg
    assert root.find(".//svg:script", NS) is None
    legend = root.find(".//svg:g[@class='chart__legend']", NS)
    assert legend is not None
    assert [t.text for t in legend.iter(f"{{{NS['svg']}}}text")] == [name]
    assert points(root, 0)[1].findtext("svg:title", namespaces=NS) == f"{name}: 12 after round 1"
    assert root.findtext("svg:title", namespaces=NS) == "Ana's <b>game</b>"
    assert root.findtext("svg:desc", namespaces=NS) == f"{name} had 40 after round 2."


def test_a_long_name_is_shortened_in_the_legend_but_whole_in_its_tooltip() -> None:
    name = "Cleopatra Philopator the Seventh"
    root = parse(running_totals_chart([(name, [5])]))
    item = root.find(".//svg:g[@class='chart__legend-item']", NS)

    assert item is not None
    assert item.findtext("svg:title", namespaces=NS) == name
    shown = item.findtext("svg:text", namespaces=NS) or ""
    assert shown.endswith("\N{HORIZONTAL ELLIPSIS}")
    assert name.startswith(shown[:-1])


def test_the_description_says_how_each_player_did() -> None:
    root = parse(
        running_totals_chart([("Ana", [*FULL_GAME[:-1], 254]), ("Bob", [8, 30]), ("Cy", [])])
    )

    assert root.findtext("svg:desc", namespaces=NS) == (
        "Ana finished on 254, Bob had 30 after round 2, Cy has no score yet."
    )


def test_six_seats_get_six_distinct_colours_in_seat_order() -> None:
    series = [(f"P{seat}", [10 * seat]) for seat in range(6)]
    root = parse(running_totals_chart(series))

    colours = [
        root.find(f".//svg:path[@data-seat='{seat}']", NS).get("stroke")  # type: ignore[union-attr]
        for seat in range(6)
    ]
    assert colours == list(SEAT_COLOURS)
    assert len(set(SEAT_COLOURS)) == 6
    assert {dot.get("fill") for dot in points(root, 3)} == {SEAT_COLOURS[3]}


def test_a_seventh_seat_repeats_the_first_colour_with_a_dashed_line() -> None:
    series = [(f"P{seat}", [10 * seat]) for seat in range(8)]
    root = parse(running_totals_chart(series))

    lines = root.findall(".//svg:path[@class='chart__line']", NS)
    assert [line.get("stroke") for line in lines[6:]] == [SEAT_COLOURS[0], SEAT_COLOURS[1]]
    assert [line.get("stroke-dasharray") for line in lines] == [None] * 6 + ["7 4"] * 2
    assert len(root.findall(".//svg:g[@class='chart__legend-item']", NS)) == 8


def test_the_legend_grows_a_row_for_every_three_players() -> None:
    def height(players: int) -> float:
        svg = running_totals_chart([(f"P{n}", [1]) for n in range(players)])
        return float(parse(svg).get("viewBox", "").split()[3])

    assert height(1) == height(3) < height(4) == height(6) < height(7)


# Histogram --------------------------------------------------------------------------------


def test_values_are_counted_in_bins_from_the_lowest_used_to_the_highest() -> None:
    root = parse(histogram_chart([100, 110, 124, 125, 250], bin_width=25))

    assert bars(root) == [
        ("100", "124", "3"),
        ("125", "149", "1"),
        ("150", "174", "0"),
        ("175", "199", "0"),
        ("200", "224", "0"),
        ("225", "249", "0"),
        ("250", "274", "1"),
    ]


def test_every_bin_is_labelled_with_its_range_and_has_a_tooltip() -> None:
    root = parse(histogram_chart([100, 110, 124, 125, 250]))
    axis = root.find("svg:g[@class='chart__axis']", NS)

    assert axis is not None
    labels = [text.text for text in axis.findall("svg:text", NS)]
    assert labels[:7] == [
        f"100{DASH}124",
        f"125{DASH}149",
        f"150{DASH}174",
        f"175{DASH}199",
        f"200{DASH}224",
        f"225{DASH}249",
        f"250{DASH}274",
    ]
    titles = [
        rect.findtext("svg:title", namespaces=NS) for rect in root.iter(f"{{{NS['svg']}}}rect")
    ]
    assert titles[0] == f"100{DASH}124: 3 games"
    assert titles[1] == f"125{DASH}149: 1 game"
    assert titles[2] == f"150{DASH}174: 0 games"


def test_bar_heights_follow_the_count_axis() -> None:
    # Counts 3, 1, 0, 0, 0, 1: gridlines 0 to 3, so one game is a third of the 200 high plot.
    root = parse(histogram_chart([100, 110, 124, 125, 225], bin_width=25))
    rects = root.findall(".//svg:rect[@class='chart__bar']", NS)

    assert gridline_labels(root) == ["0", "1", "2", "3"]
    heights = [float(rect.get("height", "")) for rect in rects]
    assert heights == pytest.approx([200, 66.67, 0, 0, 0, 66.67], abs=0.01)
    assert float(rects[0].get("y", "")) == HISTOGRAM_PLOT.top
    slot = HISTOGRAM_PLOT.width / 6  # Bars leave a gap of 8 between them, half each side.
    assert float(rects[1].get("x", "")) == pytest.approx(
        HISTOGRAM_PLOT.left + slot + 8 / 2, abs=0.01
    )


def test_a_few_used_bins_are_padded_with_empty_ones_so_no_bar_is_a_wall() -> None:
    assert MIN_BINS == 6
    root = parse(histogram_chart([180, 181]))

    assert bars(root) == [
        ("125", "149", "0"),
        ("150", "174", "0"),
        ("175", "199", "2"),
        ("200", "224", "0"),
        ("225", "249", "0"),
        ("250", "274", "0"),
    ]
    assert [b[0] for b in bars(parse(histogram_chart([10])))] == [
        "0",
        "25",
        "50",
        "75",
        "100",
        "125",
    ]


def test_many_games_get_a_gridline_step_that_keeps_labels_apart() -> None:
    root = parse(histogram_chart([130] * 23 + [180]))

    assert gridline_labels(root) == ["0", "5", "10", "15", "20", "25"]


def test_bins_too_narrow_for_level_labels_turn_them() -> None:
    root = parse(histogram_chart([0, 1000]))  # 41 bins in 560 units.
    labels = root.findall("svg:g[@class='chart__axis']/svg:text", NS)

    assert len(bars(root)) == 41
    assert all("rotate(-45" in label.get("transform", "") for label in labels[:-1])
    assert labels[-1].text == "Final score"


def test_the_histogram_description_summarises_the_scores() -> None:
    root = parse(histogram_chart([100, 110, 124, 125, 250]))

    assert root.findtext("svg:desc", namespaces=NS) == (
        f"5 games, scores from 100 to 250. The most common range is 100{DASH}124 with 3 games."
    )


def test_no_values_gives_a_small_svg_saying_so() -> None:
    root = parse(histogram_chart([], title="Your scores"))

    assert root.get("viewBox") == "0 0 640 80"
    assert [text.text for text in root.iter(f"{{{NS['svg']}}}text")] == ["No finished games yet"]
    assert root.findtext("svg:title", namespaces=NS) == "Your scores"
    assert root.find(".//svg:rect", NS) is None


def test_a_bin_width_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="bin_width"):
        histogram_chart([10], bin_width=0)


# -- chances to win over the game ------------------------------------------------------------


def test_the_chances_chart_draws_a_line_per_seat_from_left_to_right() -> None:
    svg = charts.win_chances_chart(
        ["Ana", "Bob"], [(0.5, 0.5), (0.75, 0.25), (1.0, 0.0)], [1, 1, 2]
    )
    # Moment i of 3 at 72 + 544 * i / 2; a chance c at 220 - 200 * c.
    assert 'data-seat="0" d="M72 120L344 70L616 20"' in svg
    assert 'data-seat="1" d="M72 120L344 170L616 220"' in svg
    assert 'data-moments="3" data-plot-left="72" data-plot-width="544"' in svg
    assert svg.count('class="chart__line"') == 2
    # Rounds are labelled where they begin; the 50% line is dashed.
    assert re.findall(r'x="(\d+)" y="236" dy="0.35em" text-anchor="start"[^>]*>(\d+)<', svg) == [
        ("72", "1"),
        ("616", "2"),
    ]
    assert 'stroke-dasharray="4 4"' in svg
    assert "Ana from 50% to 100% (at most 100%); Bob from 50% to 0% (at most 50%)." in svg
    assert 'class="chart__cursor"' in svg
    assert 'visibility="hidden"' in svg


def test_the_chances_chart_numbers_its_turning_points_on_their_seats_lines() -> None:
    marks = [charts.TurningMark(1, 1, 1, "Bob <rolled> 1 1 1")]
    svg = charts.win_chances_chart(["Ana", "Bob"], [(0.5, 0.5), (0.75, 0.25)], [1, 1], marks)
    turn = re.search(r'<g class="chart__turn" data-index="1" data-number="1">.*?</g>', svg)
    assert turn is not None
    assert 'cx="616" cy="170"' in turn.group(0)  # Bob's line at the second moment: 25%.
    assert "<title>1. Bob &lt;rolled&gt; 1 1 1</title>" in turn.group(0)
    assert 'stroke="#d55e00"' in turn.group(0)  # Bob's colour.


def test_the_chances_chart_needs_a_round_per_moment() -> None:
    with pytest.raises(ValueError, match="one round per moment"):
        charts.win_chances_chart(["Ana"], [(1.0,)], [1, 2])
    with pytest.raises(ValueError, match="one round per moment"):
        charts.win_chances_chart(["Ana"], [], [])


# In the reader's language -----------------------------------------------------------------


def words_of(svg: str) -> tuple[str, str, list[str], list[str]]:
    """A chart's title, its description, its texts and its hover titles."""
    root = parse(svg)
    title, desc = (root.find(f"svg:{tag}", NS) for tag in ("title", "desc"))
    assert title is not None
    assert desc is not None
    texts = [t.text or "" for t in root.iter(f"{{{NS['svg']}}}text")]
    hovers = [t.text or "" for t in root.iter(f"{{{NS['svg']}}}title")][1:]
    return title.text or "", desc.text or "", texts, hovers


@pytest.mark.parametrize(
    ("language", "title", "desc", "axis", "hover"),
    [
        (
            "de",
            "Verteilung der Ergebnisse",
            "3 Spiele, Ergebnisse von 120 bis 180."
            f" Am häufigsten ist der Bereich 100{DASH}124 mit 1 Spiel.",
            "Endergebnis",
            f"100{DASH}124: 1 Spiel",
        ),
        (
            "sv",
            "Fördelning av resultat",
            "3 spel, resultat från 120 till 180."
            f" Det vanligaste intervallet är 100{DASH}124 med 1 spel.",
            "Slutresultat",
            f"100{DASH}124: 1 spel",
        ),
    ],
)
def test_the_histogram_speaks_the_reader_s_language(
    language: str, title: str, desc: str, axis: str, hover: str
) -> None:
    with translation.override(language):
        svg = histogram_chart([120, 130, 180])

    said_title, said_desc, texts, hovers = words_of(svg)
    assert (said_title, said_desc, texts[-1], hovers[1]) == (title, desc, axis, hover)


@pytest.mark.parametrize(
    ("language", "title", "desc", "axis", "hover"),
    [
        (
            "de",
            "Punktverlauf nach Runden",
            "Ana beendete mit 200, Åsa hatte 30 nach Runde 2, Bo hat noch keine Punkte.",
            "Runde",
            "Ana: 10 nach Runde 1",
        ),
        (
            "sv",
            "Löpande summor per omgång",
            "Ana slutade på 200, Åsa hade 30 efter omgång 2, Bo har inga poäng än.",
            "Omgång",
            "Ana: 10 efter omgång 1",
        ),
    ],
)
def test_the_running_totals_speak_the_reader_s_language(
    language: str, title: str, desc: str, axis: str, hover: str
) -> None:
    series = [("Ana", FULL_GAME), ("Åsa", [10, 30]), ("Bo", [])]
    with translation.override(language):
        svg = running_totals_chart(series)

    said_title, said_desc, texts, hovers = words_of(svg)
    assert (said_title, said_desc) == (title, desc)
    assert axis in texts
    assert hovers[1] == hover
