"""games.engine.names: what a name may hold, which names look alike, which are reserved."""

from __future__ import annotations

import doctest
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.engine import names
from games.engine.names import InvalidName, check, clash, is_reserved, normalise, skeleton

CYRILLIC_A = "\u0410"
HANGUL_FILLER = "\u3164"
INVISIBLE = ["\u200b", "\u2060", "\u00ad", "\u202e", "\u2066", "\u034f", "\ufeff", "\U000e0041"]


def test_its_examples_hold() -> None:
    assert doctest.testmod(names).failed == 0


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("Ann", "Ann"),
        ("  Ann   Lee ", "Ann Lee"),
        ("\uff22\uff4f\uff42", "Bob"),  # Fullwidth letters.
        ("Ann\u00a0Lee", "Ann Lee"),  # A no-break space.
        ("Ann\u3000Lee", "Ann Lee"),  # An ideographic space.
        ("Zoe\u0308", "Zoë"),  # Composed.
        ("ﬁona", "fiona"),  # The ligature taken apart.
        ("Ann ❤️", "Ann ❤️"),  # A heart with its emoji selector.
        ("\U0001f469\u200d\U0001f4bb", "\U0001f469\u200d\U0001f4bb"),  # Woman technologist.
        ("\U0001f44d\U0001f3fd", "\U0001f44d\U0001f3fd"),  # A thumb with a skin tone.
        ("李小龍", "李小龍"),
        ("नमस्ते", "नमस्ते"),  # Devanagari, with its combining vowel signs.
        ("Ελένη", "Ελένη"),
    ],
)
def test_it_accepts_a_readable_name(typed: str, kept: str) -> None:
    assert check(typed) == kept


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("", "choose a name"),
        ("   \t ", "choose a name"),
        (HANGUL_FILLER, "a name cannot hold invisible characters"),
        ("\u115f", "a name cannot hold invisible characters"),  # HANGUL CHOSEONG FILLER
        ("\u1160", "a name cannot hold invisible characters"),  # HANGUL JUNGSEONG FILLER
        ("\uffa0", "a name cannot hold invisible characters"),  # HALFWIDTH HANGUL FILLER
        ("\u2800", "a name cannot hold invisible characters"),  # BRAILLE PATTERN BLANK
        ("Ann\u200b", "a name cannot hold invisible characters"),  # ZERO WIDTH SPACE
        ("\u202eannA", "a name cannot hold invisible characters"),  # RIGHT-TO-LEFT OVERRIDE
        ("A\u200dnn", "a name cannot hold invisible characters"),  # A joiner between letters.
        ("Ann\ufe0f", "a name cannot hold invisible characters"),  # A selector after a letter.
        ("bell\x07", "a name cannot hold control characters"),
        ("Ann\x00", "a name cannot hold control characters"),
        ("\ue000", "a name cannot hold unassigned or private-use characters"),
        ("Ann\udc00", "a name cannot hold unassigned or private-use characters"),  # A surrogate.
        ("\u0378", "a name cannot hold unassigned or private-use characters"),
        ("\u0301\u0301\u0301", "a name needs a letter, digit or symbol"),
        ("\u0489\u20dd", "a name needs a letter, digit or symbol"),  # Enclosing marks.
        ("\u0301Ann", "a name cannot start with a combining mark"),
    ],
)
def test_it_refuses_a_name_nobody_can_read(typed: str, message: str) -> None:
    with pytest.raises(InvalidName, match=f"^{message}$"):
        check(typed)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", f"{CYRILLIC_A}nn"),  # The measured failure.
        ("Ann", "ann"),
        ("Ann", "ANN"),
        ("Ann", "\u0391\u039d\u039d"),  # Greek capitals.
        ("Ann", "\uff21\uff4e\uff4e"),  # Fullwidth.
        ("Ann", "A\u200bnn"),  # An invisible character inside.
        ("Ian", "ian"),  # Capital I looks like l: folding case first still matches.
        ("Ian", "lan"),
        ("alice", "ALlCE"),  # ALICE with a small L for the I.
        ("Bob", "\u0412ob"),  # CYRILLIC CAPITAL LETTER VE
        ("Sam", "Sarn"),
        ("Paypal", "\U0001d52d\U0001d4b6\u1eff\U0001d561\U0001d552\u2113"),
        ("Optimal bot", "Optimal b\u043et"),  # CYRILLIC SMALL LETTER O
        ("Bob", "B0b"),
        # Issue 28: letters with overlay marks drawn through them still read as the letters.
        ("Ann", "A\u0336n\u0336n\u0336"),  # COMBINING LONG STROKE OVERLAY: struck through.
        ("Ann", "A\u0334nn"),  # COMBINING TILDE OVERLAY
        ("Ann", "An\u0338n"),  # COMBINING LONG SOLIDUS OVERLAY
        ("Ann", "A\u20d2n\u20d3n"),  # COMBINING LONG, SHORT VERTICAL LINE OVERLAY
        ("Ann", "A\u20d8nn"),  # COMBINING RING OVERLAY
    ],
)
def test_look_alike_names_clash(first: str, second: str) -> None:
    assert clash(first, second)
    assert clash(second, first)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("Ann", "Anna"),
        ("Ann", "Ann Lee"),
        ("Zoe", "Zoë"),
        ("Ian", "Jan"),
        ("Optimal bot", "Optimal bot 2"),
        ("Lee", "李"),
    ],
)
def test_different_names_do_not_clash(first: str, second: str) -> None:
    assert not clash(first, second)


def test_the_skeleton_follows_unicode_data() -> None:
    # Known answers from confusables.txt: each character to its prototype.
    assert skeleton(CYRILLIC_A) == "A"
    assert skeleton("m") == "rn"
    assert skeleton("1") == "l"
    assert skeleton("\u2113") == "l"  # SCRIPT SMALL L
    assert skeleton("a\u200bb") == "ab"  # Default-ignorable code points are dropped.
    assert len(names._prototypes()) > 6000


@pytest.mark.parametrize(
    "username",
    ["admin", "Admin", "ADMINISTRATOR", f"{CYRILLIC_A.lower()}dmin", "root", "r00t", "Staff",
     "support", "moderator", "yahtzee", "Yahtzee_Live", "yahtzee.live", "system",
     "Optimal_bot", "optimalbot", "casual-bot", "bot"],
)  # fmt: skip
def test_it_reserves_the_site_s_own_names(username: str) -> None:
    assert is_reserved(username)


def test_overlay_marks_are_dropped_from_the_skeleton() -> None:
    overlays = [chr(c) for c in range(0x110000) if unicodedata.combining(chr(c)) == 1]
    assert {"\u0334", "\u0338", "\u20d2", "\u20d3"} <= set(overlays)
    for mark in overlays:
        assert skeleton("A" + mark) == "A", hex(ord(mark))
    assert names.is_reserved("A\u0336d\u0336m\u0336i\u0336n\u0336")


def test_many_names_are_tried_against_a_room_s_keys_at_once() -> None:
    taken = names.keys_of(["Ann", "Watcher 1", "W\u0430tcher 2"])  # CYRILLIC SMALL A
    assert [names.is_free(f"Watcher {n}", taken) for n in (1, 2, 3)] == [False, False, True]
    assert not names.is_free("\u0410NN", taken)
    assert names.is_free("Anna", taken)
    assert names.is_free("Ann", names.keys_of([]))


@pytest.mark.parametrize("username", ["ann", "administrate", "botany", "rooty", "admin2", "lee"])
def test_it_leaves_other_usernames_free(username: str) -> None:
    assert not is_reserved(username)


# -- laws ---------------------------------------------------------------------------------


@given(st.text())
def test_normalising_twice_is_normalising_once(text: str) -> None:
    assert normalise(normalise(text)) == normalise(text)


@given(st.text())
def test_a_checked_name_checks_to_itself(text: str) -> None:
    try:
        name = check(text)
    except InvalidName:
        return
    assert check(name) == name


@given(st.text())
def test_a_name_clashes_with_its_nfkc_form(text: str) -> None:
    assert clash(text, unicodedata.normalize("NFKC", text))


@given(st.text())
def test_a_name_clashes_with_itself_in_another_case(text: str) -> None:
    assert clash(text, text.upper())
    assert clash(text, text.lower())
    assert clash(text.swapcase(), text)


@given(st.text(), st.text())
def test_clashing_is_symmetric(first: str, second: str) -> None:
    assert clash(first, second) == clash(second, first)


@given(
    st.text(st.characters(categories=["Lu", "Ll", "Nd"]), min_size=1),
    st.sampled_from(INVISIBLE),
    st.data(),
)
def test_an_invisible_character_anywhere_is_refused_and_looks_like_nothing(
    name: str, invisible: str, data: st.DataObject
) -> None:
    where = data.draw(st.integers(0, len(name)))
    hiding = name[:where] + invisible + name[where:]
    with pytest.raises(InvalidName):
        check(hiding)
    assert clash(hiding, name)


@given(st.text())
def test_the_skeleton_of_a_skeleton_is_itself(text: str) -> None:
    assert skeleton(skeleton(text)) == skeleton(text)
