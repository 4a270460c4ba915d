"""The charts drawn on the server: known coordinates, escaped names, well-formed SVG."""

import xml.etree.ElementTree as ET

import pytest

from games import charts

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def points(svg: str, seat: int = 0) -> list[tuple[float, float]]:
    root = parse(svg)
    return [
        (float(c.get("cx", "")), float(c.get("cy", "")))
        for c in root.iter(f"{SVG}circle")
        if c.get("class") == "chart__point" and c.get("data-seat") == str(seat)
    ]


def bars(svg: str) -> list[tuple[int, int, int]]:
    return [
        (int(r.get("data-from", "")), int(r.get("data-to", "")), int(r.get("data-count", "")))
        for r in parse(svg).iter(f"{SVG}rect")
        if r.get("class") == "chart__bar"
    ]


def grid_labels(svg: str) -> list[str]:
    root = parse(svg)
    grid = next(g for g in root.iter(f"{SVG}g") if g.get("class") == "chart__grid")
    return [t.text or "" for t in grid.iter(f"{SVG}text")]


# -- running totals ----------------------------------------------------------------------------


def test_each_round_is_40_units_on_and_totals_rise_on_a_nice_scale() -> None:
    svg = charts.running_totals_chart([("Ana", [50, 100, 254])])

    # Round r at x = 56 + 40 r; 0 on the bottom (y 240), 300 (the axis top for 254) at y 20.
    assert points(svg) == [(56, 240), (96, 203.33), (136, 166.67), (176, 53.73)]
    assert grid_labels(svg) == ["0", "100", "200", "300"]


def test_a_shorter_series_stops_where_its_player_stopped() -> None:
    svg = charts.running_totals_chart([("Ana", [10, 20, 30, 40]), ("Ben", [15, 25])])

    assert len(points(svg, 0)) == 5  # Round 0, then four rounds.
    assert len(points(svg, 1)) == 3


def test_a_point_says_who_had_what_after_which_round() -> None:
    root = parse(charts.running_totals_chart([("Ana", [12, 30])]))
    titles = [
        c.find(f"{SVG}title").text  # type: ignore[union-attr]
        for c in root.iter(f"{SVG}circle")
        if c.get("data-round") == "2"
    ]
    assert titles == ["Ana: 30 after round 2"]


def test_names_are_escaped_and_the_svg_still_parses() -> None:
    svg = charts.running_totals_chart([('<script>&"', [5, 10])])

    assert "<script>" not in svg
    assert "&lt;script&gt;&amp;&quot;" in svg
    assert parse(svg).get("role") == "img"


def test_the_description_says_how_each_player_finished() -> None:
    root = parse(charts.running_totals_chart([("Ana", [100, 254]), ("Ben", [80, 198])]))
    desc = root.find(f"{SVG}desc")
    assert desc is not None
    assert "Ana" in (desc.text or "")
    assert "254" in (desc.text or "")
    assert "198" in (desc.text or "")


def test_six_players_get_six_colours_and_a_seventh_series_starts_again() -> None:
    series = [(f"P{i}", [i, 2 * i]) for i in range(7)]
    root = parse(charts.running_totals_chart(series))
    strokes = [p.get("stroke") for p in root.iter() if p.get("class") == "chart__line"]

    assert strokes[:6] == list(charts.SEAT_COLOURS)
    assert len(set(strokes[:6])) == 6
    assert strokes[6] == charts.SEAT_COLOURS[0]


def test_it_scales_to_its_container_with_no_pixel_width() -> None:
    root = parse(charts.running_totals_chart([("Ana", [1])]))
    assert root.get("width") == "100%"
    assert root.get("viewBox", "").startswith("0 0 640 ")
    assert root.get("height") is None


def test_ids_are_prefixed_so_two_charts_can_share_a_page() -> None:
    root = parse(charts.running_totals_chart([("Ana", [1])], id_prefix="totals"))
    assert root.get("aria-labelledby") == "totals-title totals-desc"
    with pytest.raises(ValueError, match="id_prefix"):
        charts.running_totals_chart([("Ana", [1])], id_prefix='x" onload="alert(1)')


# -- histogram ---------------------------------------------------------------------------------


def test_it_counts_scores_in_bins_of_25_with_the_empty_bins_between() -> None:
    svg = charts.histogram_chart([100, 110, 124, 125, 250])

    assert bars(svg) == [
        (100, 124, 3),
        (125, 149, 1),
        *((start, start + 24, 0) for start in range(150, 250, 25)),
        (250, 274, 1),
    ]
    assert grid_labels(svg) == ["0", "1", "2", "3"]


def test_a_single_score_is_drawn_among_empty_bins_not_as_a_wall() -> None:
    assert bars(charts.histogram_chart([68])) == [
        (0, 24, 0), (25, 49, 0), (50, 74, 1), (75, 99, 0), (100, 124, 0), (125, 149, 0),
    ]  # fmt: skip


def test_a_bar_says_its_range_and_count() -> None:
    root = parse(charts.histogram_chart([150, 160, 170]))
    titles = [r.find(f"{SVG}title").text for r in root.iter(f"{SVG}rect")]  # type: ignore[union-attr]
    assert "150\N{EN DASH}174: 3 games" in titles


def test_no_scores_say_so() -> None:
    root = parse(charts.histogram_chart([]))
    assert [t.text for t in root.iter(f"{SVG}text")] == ["No finished games yet"]
    assert not list(root.iter(f"{SVG}rect"))
