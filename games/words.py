"""The engine's names as a person reads them, in the reader's language.

:mod:`games.engine` is pure Python without Django, so its names stay English there: the
boxes' ``Category.label``, the presets' ``Rules.label``, the refusals' messages. This
module words them at the edge, through Django's translations, for the pages
(:mod:`games.web`) and the websocket's answers (:mod:`games.live`).

A box's name depends on the game: Yahtzee's card and Yatzy's are printed differently
in most languages (Kniffel's "Dreierpasch" and Yatzy's "Tretal" are both "Three of a
kind"), so each card's names carry their own context (``pgettext``), and a catalog can
give each game the names its players use.
"""

from __future__ import annotations

from typing import Any, Final

from django.utils.formats import number_format
from django.utils.functional import Promise
from django.utils.translation import gettext, pgettext, pgettext_lazy

from games.engine import rules
from games.engine.rules import Category

#: The names on Yahtzee's card (the official and the free-Joker rules).
YAHTZEE_BOXES: Final[dict[Category, Promise]] = {
    Category.ONES: pgettext_lazy("Yahtzee box", "Ones"),
    Category.TWOS: pgettext_lazy("Yahtzee box", "Twos"),
    Category.THREES: pgettext_lazy("Yahtzee box", "Threes"),
    Category.FOURS: pgettext_lazy("Yahtzee box", "Fours"),
    Category.FIVES: pgettext_lazy("Yahtzee box", "Fives"),
    Category.SIXES: pgettext_lazy("Yahtzee box", "Sixes"),
    Category.THREE_OF_A_KIND: pgettext_lazy("Yahtzee box", "Three of a kind"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("Yahtzee box", "Four of a kind"),
    Category.FULL_HOUSE: pgettext_lazy("Yahtzee box", "Full house"),
    Category.SMALL_STRAIGHT: pgettext_lazy("Yahtzee box", "Small straight"),
    Category.LARGE_STRAIGHT: pgettext_lazy("Yahtzee box", "Large straight"),
    Category.YAHTZEE: pgettext_lazy("Yahtzee box", "Yahtzee"),
    Category.CHANCE: pgettext_lazy("Yahtzee box", "Chance"),
}

#: The names on Yatzy's card, the Scandinavian game (Swedish: Ettor ... Yatzy).
YATZY_BOXES: Final[dict[Category, Promise]] = {
    Category.ONES: pgettext_lazy("Yatzy box", "Ones"),
    Category.TWOS: pgettext_lazy("Yatzy box", "Twos"),
    Category.THREES: pgettext_lazy("Yatzy box", "Threes"),
    Category.FOURS: pgettext_lazy("Yatzy box", "Fours"),
    Category.FIVES: pgettext_lazy("Yatzy box", "Fives"),
    Category.SIXES: pgettext_lazy("Yatzy box", "Sixes"),
    Category.ONE_PAIR: pgettext_lazy("Yatzy box", "One pair"),
    Category.TWO_PAIRS: pgettext_lazy("Yatzy box", "Two pairs"),
    Category.THREE_OF_A_KIND: pgettext_lazy("Yatzy box", "Three of a kind"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("Yatzy box", "Four of a kind"),
    Category.SMALL_STRAIGHT: pgettext_lazy("Yatzy box", "Small straight"),
    Category.LARGE_STRAIGHT: pgettext_lazy("Yatzy box", "Large straight"),
    Category.FULL_HOUSE: pgettext_lazy("Yatzy box", "Full house"),
    Category.CHANCE: pgettext_lazy("Yatzy box", "Chance"),
    Category.YATZY: pgettext_lazy("Yatzy box", "Yatzy"),
}

#: The short names a phone's card shows for the boxes whose names run long, so six cards
#: fit beside them (screen readers keep the whole name); the other boxes keep theirs.
YAHTZEE_SHORT_BOXES: Final[dict[Category, Promise]] = {
    Category.THREE_OF_A_KIND: pgettext_lazy("short Yahtzee box", "3 of a kind"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("short Yahtzee box", "4 of a kind"),
    Category.SMALL_STRAIGHT: pgettext_lazy("short Yahtzee box", "Sm straight"),
    Category.LARGE_STRAIGHT: pgettext_lazy("short Yahtzee box", "Lg straight"),
}

#: Yatzy's short names, as :data:`YAHTZEE_SHORT_BOXES`.
YATZY_SHORT_BOXES: Final[dict[Category, Promise]] = {
    Category.ONE_PAIR: pgettext_lazy("short Yatzy box", "1 pair"),
    Category.TWO_PAIRS: pgettext_lazy("short Yatzy box", "2 pairs"),
    Category.THREE_OF_A_KIND: pgettext_lazy("short Yatzy box", "3 of a kind"),
    Category.FOUR_OF_A_KIND: pgettext_lazy("short Yatzy box", "4 of a kind"),
    Category.SMALL_STRAIGHT: pgettext_lazy("short Yatzy box", "Sm straight"),
    Category.LARGE_STRAIGHT: pgettext_lazy("short Yatzy box", "Lg straight"),
}

#: Each rules preset's name, as the home page's choice and every room show it.
PRESETS: Final[dict[str, Promise]] = {
    rules.OFFICIAL.name: pgettext_lazy("rules preset", "Official (forced Joker)"),
    rules.FREE_JOKER.name: pgettext_lazy("rules preset", "Free Joker (house rule)"),
    rules.YATZY.name: pgettext_lazy("rules preset", "Yatzy (Scandinavian)"),
}


def box_label(category: Category, preset: rules.Rules | str = rules.OFFICIAL) -> str:
    """``category``'s name on ``preset``'s card in the active language: ``Kåk`` in Swedish
    Yatzy, ``Full House`` in German Yahtzee."""
    name = preset if isinstance(preset, str) else preset.name
    names = YATZY_BOXES if name == rules.YATZY.name else YAHTZEE_BOXES
    return str(names[category])


def box_short_label(category: Category, preset: rules.Rules | str = rules.OFFICIAL) -> str:
    """``category``'s name on a phone's card: its short name (``Kl. Straße``), or its
    whole name (:func:`box_label`) when it has none."""
    name = preset if isinstance(preset, str) else preset.name
    short = YATZY_SHORT_BOXES if name == rules.YATZY.name else YAHTZEE_SHORT_BOXES
    return str(short[category]) if category in short else box_label(category, preset)


def preset_label(preset: rules.Rules | str) -> str:
    """A preset's name in the active language (an unknown one as it was given)."""
    name = preset if isinstance(preset, str) else preset.name
    label = PRESETS.get(name)
    return str(label) if label is not None else name


#: The sums on a card, by their key in the card's JSON (games.insight.review.card_rows).
SUMS: Final[dict[str, Promise]] = {
    "upper_total": pgettext_lazy("card row", "Upper total"),
    "upper_bonus": pgettext_lazy("card row", "Bonus (%(points)s)"),
    "yahtzee_bonus": pgettext_lazy("card row", "Yahtzee bonus"),
    "lower_total": pgettext_lazy("card row", "Lower total"),
}


def worded_rows(rows: list[dict[str, Any]], preset: rules.Rules) -> list[dict[str, Any]]:
    """The scorecard's rows (``card_rows``) with their labels in the active language."""
    worded = []
    for row in rows:
        if row["box"]:
            label = box_label(Category(row["key"]), preset)
        else:
            label = str(SUMS[row["key"]]) % {"points": preset.upper_bonus}
        worded.append({**row, "label": label})
    return worded


def ordinal(place: int) -> str:
    """A place in a ranking: "1st", "2nd" in English, "1.", "2." in German."""
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(place if place < 20 else place % 10, "th")
    forms = {
        "st": pgettext("a place in a ranking, as 1st 21st", "%(place)sst"),
        "nd": pgettext("a place in a ranking, as 2nd 22nd", "%(place)snd"),
        "rd": pgettext("a place in a ranking, as 3rd 23rd", "%(place)srd"),
        "th": pgettext("a place in a ranking, as 4th 11th", "%(place)sth"),
    }
    return forms[suffix] % {"place": place}


def clock_words(turn_seconds: int | None) -> str:
    """A room's turn clock for people: "30 s a turn", "2 min a turn", "24 h a turn"; "" for none."""
    if turn_seconds is None:
        return ""
    if turn_seconds % 3600 == 0:
        return gettext("%(hours)s h a turn") % {"hours": turn_seconds // 3600}
    if turn_seconds % 60 == 0:
        return gettext("%(minutes)s min a turn") % {"minutes": turn_seconds // 60}
    return gettext("%(seconds)s s a turn") % {"seconds": turn_seconds}


def percent(chance: float) -> str:
    """A chance, 0 to 1, as a whole percentage in the active language: "48%", "48 %"."""
    return gettext("%(percent)s%%") % {"percent": number_format(round(chance * 100))}
