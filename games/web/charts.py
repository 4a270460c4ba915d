"""Charts drawn on the server as inline SVG strings: running totals and a score histogram.

Each function returns one ``<svg>`` element as a string, ready to be placed in a
template (the view marks it safe). Every name and title that could come from a
user is passed through :func:`html.escape` here, so callers need not escape.

The SVGs scale to their container: they carry a ``viewBox`` and ``width="100%"``
and no pixel size. They style themselves with presentation attributes (stroke,
fill, font) so they look right with no CSS at all, and carry class names
(``chart``, ``chart__axis``, ``chart__grid``, ``chart__label``, ``chart__legend``,
``chart__line``, ``chart__point``, ``chart__bar``) for a stylesheet to adjust.
Screen readers get ``role="img"`` with a ``<title>`` and a ``<desc>`` that says
what the data shows in words.

Coordinates are in viewBox units. The plotting area of each chart is the
rectangle :data:`LINE_PLOT` or :data:`HISTOGRAM_PLOT`; the value 0 sits on its
bottom edge and the axis maximum on its top edge.

Every word a chart shows or reads aloud (titles, descriptions, axis labels, the hover
titles of points and bars) goes through Django's translations in the active language, made
when the chart is drawn: a chart is drawn for each page view and kept nowhere, so each
reader gets their own language. Besides the standard library it imports only Django's
translation functions and :func:`games.words.percent`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from html import escape

from django.utils.translation import gettext, ngettext, pgettext

from games.words import percent

SEAT_COLOURS: tuple[str, ...] = (
    "#0072b2",  # blue
    "#d55e00",  # vermilion
    "#009e73",  # bluish green
    "#cc79a7",  # reddish purple
    "#e69f00",  # orange
    "#56b4e9",  # sky blue
)
"""One colour per seat, in seat order (the Okabe-Ito palette, safe for colour-blind eyes)."""

FONT_FAMILY = "system-ui, sans-serif"
INK = "#1c1917"
MUTED = "#57534e"
GRID = "#d6d3d1"
EN_DASH = "\N{EN DASH}"

WIDTH = 640
"""Width of every chart's viewBox."""

LABEL_SIZE = 14
"""Font size of axis labels; legend text is a little larger."""


@dataclass(frozen=True)
class Plot:
    """Where the data is drawn inside the viewBox."""

    left: float
    top: float
    width: float
    height: float

    @property
    def right(self) -> float:
        return self.left + self.width

    @property
    def bottom(self) -> float:
        return self.top + self.height

    def y(self, value: float, top_value: int) -> float:
        """The y coordinate of ``value`` on an axis running from 0 up to ``top_value``."""
        return self.bottom - self.height * value / top_value


LINE_PLOT = Plot(left=56, top=20, width=520, height=220)
"""Running totals: round r is at ``left + r * width / rounds``, 40 units apart for 13 rounds."""

HISTOGRAM_PLOT = Plot(left=56, top=24, width=560, height=200)
"""Histogram: the bins share the width equally, in order from the lowest."""

_ID_PREFIX = re.compile(r"[A-Za-z][\w-]*\Z")


def seat_colour(seat: int) -> str:
    """The colour of seat ``seat`` (from 0); past the sixth seat the colours repeat."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _seat_dash(seat: int) -> str:
    """A ``stroke-dasharray`` attribute for seats whose colour repeats an earlier one's."""
    return ' stroke-dasharray="7 4"' if seat >= len(SEAT_COLOURS) else ""


def _num(value: float) -> str:
    """A coordinate as short text: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _nice_steps(smallest: int) -> Iterator[int]:
    """Whole-number gridline steps 1, 2, 5, 10, 20, 25, 50, 100, ... from ``smallest`` up."""
    power = 1
    while True:
        for mantissa in (1, 2, 2.5, 5):
            step = mantissa * power
            if step == int(step) and step >= smallest:
                yield int(step)
        power *= 10


def _nice_scale(
    maximum: int, *, smallest_step: int, fewest_intervals: int, most_intervals: int = 5
) -> tuple[int, int]:
    """(step, top) for an axis from 0 that reaches at least ``maximum``.

    The step is the smallest nice step that needs at most ``most_intervals`` to
    reach ``maximum``; the top is a whole number of steps, at least ``fewest_intervals``.
    Totals up to 254, for example, give step 100 and top 300.
    """
    for step in _nice_steps(smallest_step):
        intervals = math.ceil(max(maximum, 0) / step)
        if intervals <= most_intervals:
            return step, step * max(intervals, fewest_intervals)
    raise AssertionError("unreachable: the steps grow without bound")


def _check_id_prefix(id_prefix: str) -> None:
    if not _ID_PREFIX.match(id_prefix):
        raise ValueError(f"id_prefix must be a letter then letters, digits, - or _: {id_prefix!r}")


def _text(
    x: float,
    y: float,
    content: str,
    *,
    anchor: str = "middle",
    size: int = LABEL_SIZE,
    fill: str = MUTED,
    css_class: str = "chart__label",
    extra: str = "",
) -> str:
    """A ``<text>`` element; ``content`` is escaped here. ``y`` is the middle of the line."""
    return (
        f'<text class="{css_class}" x="{_num(x)}" y="{_num(y)}" dy="0.35em"'
        f' text-anchor="{anchor}" font-size="{size}" fill="{fill}"{extra}>'
        f"{escape(content)}</text>"
    )


def _svg(
    parts: Sequence[str], *, height: float, title: str, desc: str, id_prefix: str, kind: str
) -> str:
    """Wrap ``parts`` in an accessible, scalable ``<svg>`` with a title and a description."""
    title_id, desc_id = f"{id_prefix}-title", f"{id_prefix}-desc"
    opening = (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart chart--{kind}"'
        f' viewBox="0 0 {WIDTH} {_num(height)}" width="100%" role="img"'
        f' aria-labelledby="{title_id} {desc_id}" font-family="{FONT_FAMILY}">'
    )
    heading = (
        f'<title id="{title_id}">{escape(title)}</title><desc id="{desc_id}">{escape(desc)}</desc>'
    )
    return "\n".join([opening, heading, *parts, "</svg>"])


def _y_grid(plot: Plot, step: int, top_value: int) -> str:
    """Horizontal gridlines at every ``step`` from 0 to ``top_value``, labelled on the left."""
    lines = []
    for value in range(0, top_value + 1, step):
        y = _num(plot.y(value, top_value))
        lines.append(
            f'<line x1="{_num(plot.left)}" x2="{_num(plot.right)}" y1="{y}" y2="{y}"'
            f' stroke="{GRID}" stroke-width="1"/>'
        )
        lines.append(_text(plot.left - 8, plot.y(value, top_value), str(value), anchor="end"))
    return '<g class="chart__grid">' + "".join(lines) + "</g>"


def _axis_lines(plot: Plot) -> str:
    """The left and bottom edges of the plotting area."""
    left, right, top, bottom = (_num(v) for v in (plot.left, plot.right, plot.top, plot.bottom))
    return (
        f'<path d="M{left} {top}V{bottom}H{right}" fill="none" stroke="{MUTED}" stroke-width="1"/>'
    )


# Running totals ---------------------------------------------------------------------------

_LEGEND_COLUMNS = 3
_LEGEND_ROW = 24
_LEGEND_SIZE = 16
_LEGEND_TOP = LINE_PLOT.bottom + 60
_END_LABEL_GAP = 16


def _truncate(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending in an ellipsis if anything was cut."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "\N{HORIZONTAL ELLIPSIS}"


def _describe_player(name: str, totals: Sequence[int], rounds: int) -> str:
    if not totals:
        return gettext("%(name)s has no score yet") % {"name": name}
    if len(totals) == rounds:
        return gettext("%(name)s finished on %(total)s") % {"name": name, "total": totals[-1]}
    return gettext("%(name)s had %(total)s after round %(round)s") % {
        "name": name,
        "total": totals[-1],
        "round": len(totals),
    }


def _spread(positions: list[float], gap: float, lowest: float) -> list[float]:
    """Nudge label positions apart (keeping their order) so neighbours are ``gap`` apart.

    Labels are pushed down, then the whole stack moves up if it passes ``lowest``.
    """
    order = sorted(range(len(positions)), key=lambda i: positions[i])
    placed: list[float] = []
    for i in order:
        placed.append(positions[i] if not placed else max(positions[i], placed[-1] + gap))
    overflow = max(0.0, placed[-1] - lowest) if placed else 0.0
    result = [0.0] * len(positions)
    for rank, i in enumerate(order):
        result[i] = placed[rank] - overflow
    return result


@dataclass(frozen=True)
class _LineEnd:
    """Where a player's line stops, and the total to write there."""

    seat: int
    x: float
    y: float
    total: int


def _player_line(
    seat: int, name: str, totals: Sequence[int], rounds: int, top_value: int
) -> tuple[str, _LineEnd]:
    """One player's line with a dot per round, and where the line stops."""
    plot = LINE_PLOT
    colour = seat_colour(seat)
    points = [
        (plot.left + plot.width * r / rounds, plot.y(t, top_value), r, t)
        for r, t in enumerate([0, *totals])
    ]
    path = "".join(f"{'M' if r == 0 else 'L'}{_num(x)} {_num(y)}" for x, y, r, _ in points)
    parts = [
        f'<g class="chart__series" data-seat="{seat}">',
        f'<path class="chart__line" data-seat="{seat}" d="{path}" fill="none" stroke="{colour}"'
        f' stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"{_seat_dash(seat)}/>',
    ]
    for x, y, r, total in points:
        hover = (
            gettext("%(name)s: %(total)s after round %(round)s")
            % {"name": name, "total": total, "round": r}
            if r
            else gettext("%(name)s: 0 at the start") % {"name": name}
        )
        parts.append(
            f'<circle class="chart__point" data-seat="{seat}" data-round="{r}"'
            f' data-total="{total}" cx="{_num(x)}" cy="{_num(y)}" r="4" fill="{colour}"'
            f' stroke="#ffffff" stroke-width="1.5"><title>{escape(hover)}</title></circle>'
        )
    parts.append("</g>")
    last_x, last_y, _, last_total = points[-1]
    return "".join(parts), _LineEnd(seat, last_x, last_y, last_total)


def _end_labels(ends: Sequence[_LineEnd]) -> str:
    """Each line's final total just right of its last dot.

    Labels of lines that stop on the same round are spread apart so they do not overlap.
    """
    by_round: dict[float, list[_LineEnd]] = {}
    for end in ends:
        by_round.setdefault(end.x, []).append(end)
    labels = []
    for group in by_round.values():
        ys = _spread([end.y for end in group], _END_LABEL_GAP, LINE_PLOT.bottom)
        for end, y in zip(group, ys, strict=True):
            extra = f' font-weight="600" data-seat="{end.seat}"'
            labels.append(
                _text(end.x + 9, y, str(end.total), anchor="start", fill=INK, extra=extra)
            )
    return '<g class="chart__end-labels">' + "".join(labels) + "</g>"


def _round_axis() -> str:
    return pgettext("a chart's axis: the rounds of the game", "Round")


def _x_axis_rounds(rounds: int) -> str:
    plot = LINE_PLOT
    labels = [
        _text(plot.left + plot.width * r / rounds, plot.bottom + 16, str(r))
        for r in range(rounds + 1)
    ]
    labels.append(_text(plot.left + plot.width / 2, plot.bottom + 38, _round_axis(), fill=INK))
    return '<g class="chart__axis">' + _axis_lines(plot) + "".join(labels) + "</g>"


def _legend(names: Sequence[str]) -> str:
    """Each player's name beside a sample of their line, three to a row under the chart."""
    column = LINE_PLOT.width / _LEGEND_COLUMNS
    limit = int((column - 36) / (_LEGEND_SIZE * 0.6))
    items = []
    for seat, name in enumerate(names):
        row, col = divmod(seat, _LEGEND_COLUMNS)
        x = LINE_PLOT.left + col * column
        y = _LEGEND_TOP + row * _LEGEND_ROW
        colour = seat_colour(seat)
        items.append(
            f'<g class="chart__legend-item" data-seat="{seat}"><title>{escape(name)}</title>'
            f'<line x1="{_num(x)}" x2="{_num(x + 22)}" y1="{_num(y)}" y2="{_num(y)}"'
            f' stroke="{colour}" stroke-width="2.5"{_seat_dash(seat)}/>'
            f'<circle cx="{_num(x + 11)}" cy="{_num(y)}" r="4" fill="{colour}"/>'
            + _text(x + 30, y, _truncate(name, limit), anchor="start", size=_LEGEND_SIZE, fill=INK)
            + "</g>"
        )
    return '<g class="chart__legend">' + "".join(items) + "</g>"


def running_totals_chart(
    series: Sequence[tuple[str, Sequence[int]]],
    *,
    rounds: int = 13,
    title: str | None = None,
    id_prefix: str = "chart",
) -> str:
    """A line chart of each player's grand total after each round.

    ``series`` holds one (name, totals) pair per seat, in seat order; ``totals[i]``
    is the total after round ``i + 1``. Every line starts at 0 on round 0. A list
    shorter than ``rounds`` (a game in progress, a player who left) stops early.
    The y axis runs from 0 to a nice maximum (totals up to 254 give 300) with
    labelled gridlines; the last dot of each line is labelled with its total.
    ``id_prefix`` makes the ids inside unique when a page shows several charts.
    """
    _check_id_prefix(id_prefix)
    if rounds < 1:
        raise ValueError(f"a chart needs at least one round, got {rounds}")
    for name, totals in series:
        if len(totals) > rounds:
            raise ValueError(f"{name!r} has {len(totals)} totals for {rounds} rounds")
    highest = max((max(totals, default=0) for _, totals in series), default=0)
    step, top_value = _nice_scale(highest, smallest_step=10, fewest_intervals=3)

    lines, ends = [], []
    for seat, (name, totals) in enumerate(series):
        line, end = _player_line(seat, name, totals, rounds, top_value)
        lines.append(line)
        if totals:  # A line that has not left round 0 gets no label.
            ends.append(end)
    desc = ", ".join(_describe_player(n, t, rounds) for n, t in series) or gettext("No players yet")

    legend_rows = math.ceil(len(series) / _LEGEND_COLUMNS)
    height = _LEGEND_TOP + max(legend_rows - 0.5, 0) * _LEGEND_ROW + 8
    parts = [
        _y_grid(LINE_PLOT, step, top_value),
        _x_axis_rounds(rounds),
        *lines,
        _end_labels(ends),
        _legend([name for name, _ in series]),
    ]
    return _svg(
        parts,
        height=height,
        title=title if title is not None else gettext("Running totals by round"),
        desc=desc + ".",
        id_prefix=id_prefix,
        kind="lines",
    )


# Histogram --------------------------------------------------------------------------------

_EMPTY_HEIGHT = 80


#: The fewest bins drawn: one or two used bins are widened to this many, so no bar is a wall.
MIN_BINS = 6


def _bins(values: Sequence[int], bin_width: int) -> list[tuple[int, int]]:
    """(start, count) for every bin from the lowest used one to the highest, empty ones too.

    Fewer than :data:`MIN_BINS` are widened with empty bins, above and (down to 0) below.
    """
    counts: dict[int, int] = {}
    for value in values:
        counts[value // bin_width] = counts.get(value // bin_width, 0) + 1
    low, high = min(counts), max(counts)
    while high - low + 1 < MIN_BINS:
        high += 1
        if high - low + 1 < MIN_BINS and low > 0:
            low -= 1
    return [(k * bin_width, counts.get(k, 0)) for k in range(low, high + 1)]


def _bin_label(start: int, bin_width: int) -> str:
    """A bin's range for people: 150 to 174 (with an en dash) for [150, 175)."""
    return f"{start}{EN_DASH}{start + bin_width - 1}" if bin_width > 1 else str(start)


def _describe_histogram(values: Sequence[int], bins: Sequence[tuple[int, int]], width: int) -> str:
    start, count = max(bins, key=lambda b: b[1])  # The first of equals: the lowest bin.
    games = ngettext(
        "%(count)s game, scores from %(lowest)s to %(highest)s.",
        "%(count)s games, scores from %(lowest)s to %(highest)s.",
        len(values),
    ) % {"count": len(values), "lowest": min(values), "highest": max(values)}
    common = ngettext(
        "The most common range is %(range)s with %(count)s game.",
        "The most common range is %(range)s with %(count)s games.",
        count,
    ) % {"range": _bin_label(start, width), "count": count}
    return f"{games} {common}"


def _empty_histogram(title: str, id_prefix: str) -> str:
    shown = pgettext("a chart with no data", "No finished games yet")
    message = _text(WIDTH / 2, _EMPTY_HEIGHT / 2, shown, size=16)
    return _svg(
        [message],
        height=_EMPTY_HEIGHT,
        title=title,
        desc=gettext("No finished games yet."),
        id_prefix=id_prefix,
        kind="histogram",
    )


def _bin_labels(bins: Sequence[tuple[int, int]], bin_width: int) -> tuple[str, float]:
    """The bins' ranges under the bars, and how much height they take.

    Labels sit level when they fit beside each other, turn to 45 degrees when they
    do not, and only every few bins are labelled when even that would overlap.
    """
    plot = HISTOGRAM_PLOT
    slot = plot.width / len(bins)
    texts = [_bin_label(start, bin_width) for start, _ in bins]
    longest = max(len(t) for t in texts) * LABEL_SIZE * 0.6
    if longest + 6 <= slot:
        labels = [
            _text(plot.left + slot * (i + 0.5), plot.bottom + 16, t) for i, t in enumerate(texts)
        ]
        return "".join(labels), 30
    every = math.ceil((LABEL_SIZE + 3) / slot)
    labels = []
    for i, text in enumerate(texts):
        if i % every:
            continue
        x, y = plot.left + slot * (i + 0.5), plot.bottom + 10
        labels.append(
            _text(x, y, text, anchor="end", extra=f' transform="rotate(-45 {_num(x)} {_num(y)})"')
        )
    return "".join(labels), 14 + longest * math.sqrt(0.5)


def _bars(bins: Sequence[tuple[int, int]], bin_width: int, top_value: int) -> str:
    plot = HISTOGRAM_PLOT
    slot = plot.width / len(bins)
    gap = min(slot * 0.15, 8)
    bars = []
    for i, (start, count) in enumerate(bins):
        x, y = plot.left + slot * i + gap / 2, plot.y(count, top_value)
        hover = ngettext("%(range)s: %(count)s game", "%(range)s: %(count)s games", count) % {
            "range": _bin_label(start, bin_width),
            "count": count,
        }
        bars.append(
            f'<rect class="chart__bar" data-from="{start}" data-to="{start + bin_width - 1}"'
            f' data-count="{count}" x="{_num(x)}" y="{_num(y)}" width="{_num(slot - gap)}"'
            f' height="{_num(plot.bottom - y)}" fill="{SEAT_COLOURS[0]}">'
            f"<title>{escape(hover)}</title></rect>"
        )
        if count and slot >= 14:
            bars.append(_text(x + (slot - gap) / 2, y - 9, str(count), fill=INK))
    return '<g class="chart__bars">' + "".join(bars) + "</g>"


def histogram_chart(
    values: Sequence[int],
    *,
    bin_width: int = 25,
    title: str | None = None,
    id_prefix: str = "chart",
) -> str:
    """Bars counting the ``values`` in each bin ``[k * bin_width, (k + 1) * bin_width)``.

    The bins run from the lowest used to the highest used (widened to at least
    :data:`MIN_BINS`); empty bins between are drawn with zero height and still
    labelled. The y axis counts games with whole-number gridlines. With no values
    the SVG just says "No finished games yet".
    ``id_prefix`` makes the ids inside unique when a page shows several charts.
    """
    _check_id_prefix(id_prefix)
    title = title if title is not None else gettext("Score distribution")
    if bin_width < 1:
        raise ValueError(f"bin_width must be at least 1, got {bin_width}")
    if not values:
        return _empty_histogram(title, id_prefix)
    bins = _bins(values, bin_width)
    step, top_value = _nice_scale(max(c for _, c in bins), smallest_step=1, fewest_intervals=1)
    labels, label_height = _bin_labels(bins, bin_width)
    axis_title_y = HISTOGRAM_PLOT.bottom + label_height + 10
    axis = (
        '<g class="chart__axis">'
        + _axis_lines(HISTOGRAM_PLOT)
        + labels
        + _text(
            HISTOGRAM_PLOT.left + HISTOGRAM_PLOT.width / 2,
            axis_title_y,
            pgettext("a chart's axis", "Final score"),
            fill=INK,
        )
        + "</g>"
    )
    parts = [_y_grid(HISTOGRAM_PLOT, step, top_value), _bars(bins, bin_width, top_value), axis]
    return _svg(
        parts,
        height=axis_title_y + 16,
        title=title,
        desc=_describe_histogram(values, bins, bin_width),
        id_prefix=id_prefix,
        kind="histogram",
    )


# Chances to win over the game -----------------------------------------------------------

CHANCES_PLOT = Plot(left=72, top=20, width=544, height=200)
"""Chances to win: moment i of n is at ``left + i * width / (n - 1)``; 0% at the bottom.

Its left margin holds "100 %" (German, French and Swedish put a space before the sign) in
the phone's larger labels (18 units, ``static/css/site.css``)."""

_CHANCES_LEGEND_TOP = CHANCES_PLOT.bottom + 60


@dataclass(frozen=True)
class TurningMark:
    """A turning point to mark on the chances chart: its number (1 for the biggest), the
    moment it happened at, the seat whose line it sits on, and what it was, in words."""

    number: int
    index: int
    seat: int
    text: str


def _describe_chances(names: Sequence[str], chances: Sequence[Sequence[float]]) -> str:
    start, end = chances[0], chances[-1]
    parts = []
    for seat, name in enumerate(names):
        peak = max(c[seat] for c in chances)
        parts.append(
            gettext("%(name)s from %(start)s to %(end)s (at most %(peak)s)")
            % {
                "name": name,
                "start": percent(start[seat]),
                "end": percent(end[seat]),
                "peak": percent(peak),
            }
        )
    return "; ".join(parts)


def _numbered(mark: TurningMark) -> str:
    return pgettext("a numbered turning point", "%(number)s. %(text)s") % {
        "number": mark.number,
        "text": mark.text,
    }


def _x_axis_moments(rounds: Sequence[int]) -> str:
    """The round each stretch of moments belongs to, labelled where it begins."""
    plot = CHANCES_PLOT
    last = max(len(rounds) - 1, 1)
    labels, seen = [], set()
    for index, round_ in enumerate(rounds):
        if round_ in seen:
            continue
        seen.add(round_)
        x = plot.left + plot.width * index / last
        labels.append(
            f'<line x1="{_num(x)}" x2="{_num(x)}" y1="{_num(plot.bottom)}"'
            f' y2="{_num(plot.bottom + 5)}" stroke="{MUTED}" stroke-width="1"/>'
        )
        labels.append(_text(x, plot.bottom + 16, str(round_), anchor="start"))
    labels.append(_text(plot.left + plot.width / 2, plot.bottom + 38, _round_axis(), fill=INK))
    return '<g class="chart__axis">' + _axis_lines(plot) + "".join(labels) + "</g>"


def _chance_grid() -> str:
    plot = CHANCES_PLOT
    lines = []
    for share in (0, 25, 50, 75, 100):
        y = _num(plot.y(share, 100))
        dash = ' stroke-dasharray="4 4"' if share == 50 else ""
        lines.append(
            f'<line x1="{_num(plot.left)}" x2="{_num(plot.right)}" y1="{y}" y2="{y}"'
            f' stroke="{GRID}" stroke-width="1"{dash}/>'
        )
        label = percent(share / 100)
        lines.append(_text(plot.left - 8, plot.y(share, 100), label, anchor="end"))
    return '<g class="chart__grid">' + "".join(lines) + "</g>"


def win_chances_chart(
    names: Sequence[str],
    chances: Sequence[Sequence[float]],
    rounds: Sequence[int],
    marks: Sequence[TurningMark] = (),
    *,
    title: str | None = None,
    id_prefix: str = "chances",
) -> str:
    """A line per seat of its chance to win (0 to 1) at each moment of the game, like a
    chess site's evaluation graph, with the turning points marked and numbered.

    ``chances[i][seat]`` is the chance just after moment ``i``; ``rounds[i]`` the round
    that moment is in (the x axis is labelled where each round begins). The SVG carries
    ``data-moments`` and the plot's left edge and width (``data-plot-left``,
    ``data-plot-width``, in viewBox units) so a script can turn a click into a moment; a
    ``chart__cursor`` line, hidden at first, is there for it to show the moment on view.
    """
    _check_id_prefix(id_prefix)
    if not chances or len(chances) != len(rounds):
        raise ValueError("one round per moment, and at least one moment")
    plot = CHANCES_PLOT
    last = max(len(chances) - 1, 1)

    def at(index: int, chance: float) -> tuple[float, float]:
        return plot.left + plot.width * index / last, plot.y(chance * 100, 100)

    lines = []
    for seat, name in enumerate(names):
        colour = seat_colour(seat)
        points = [at(i, moment[seat]) for i, moment in enumerate(chances)]
        path = "".join(
            f"{'M' if i == 0 else 'L'}{_num(x)} {_num(y)}" for i, (x, y) in enumerate(points)
        )
        lines.append(
            f'<g class="chart__series" data-seat="{seat}"><title>{escape(name)}</title>'
            f'<path class="chart__line" data-seat="{seat}" d="{path}" fill="none"'
            f' stroke="{colour}" stroke-width="2.5" stroke-linejoin="round"'
            f' stroke-linecap="round"{_seat_dash(seat)}/></g>'
        )
    turns = []
    for mark in marks:
        x, y = at(mark.index, chances[mark.index][mark.seat])
        label = _text(
            x, y, str(mark.number), size=12, fill=INK, css_class="chart__turn-label",
            extra=' font-weight="700"',
        )  # fmt: skip
        turns.append(
            f'<g class="chart__turn" data-index="{mark.index}" data-number="{mark.number}">'
            f"<title>{escape(_numbered(mark))}</title>"
            f'<circle cx="{_num(x)}" cy="{_num(y)}" r="10" fill="#ffffff"'
            f' stroke="{seat_colour(mark.seat)}" stroke-width="3"/>{label}</g>'
        )
    cursor = (
        f'<line class="chart__cursor" x1="{_num(plot.left)}" x2="{_num(plot.left)}"'
        f' y1="{_num(plot.top)}" y2="{_num(plot.bottom)}" stroke="{INK}" stroke-width="1.5"'
        ' visibility="hidden"/>'
    )
    legend_rows = math.ceil(len(names) / _LEGEND_COLUMNS)
    shift = _CHANCES_LEGEND_TOP - _LEGEND_TOP
    height = _CHANCES_LEGEND_TOP + max(legend_rows - 0.5, 0) * _LEGEND_ROW + 8
    parts = [
        _chance_grid(),
        _x_axis_moments(rounds),
        cursor,
        *lines,
        '<g class="chart__turns">' + "".join(turns) + "</g>",
        # The running totals' legend, moved down under this plot.
        f'<g transform="translate(0 {_num(shift)})">{_legend(names)}</g>',
    ]
    svg = _svg(
        parts,
        height=height,
        title=title if title is not None else gettext("Chances to win, move by move"),
        desc=_describe_chances(names, chances) + ".",
        id_prefix=id_prefix,
        kind="chances",
    )
    data = (
        f' data-moments="{len(chances)}" data-plot-left="{_num(plot.left)}"'
        f' data-plot-width="{_num(plot.width)}"'
    )
    return svg.replace(' class="chart chart--chances"', ' class="chart chart--chances"' + data, 1)
