"""The rules page, through Django's test client."""

import re
from html.parser import HTMLParser
from itertools import pairwise

import pytest
from django.urls import reverse

from games.engine import rules
from games.engine.rules import YAHTZEE_BOXES, Category

pytestmark = pytest.mark.django_db


@pytest.fixture
def content(client) -> str:
    response = client.get(reverse("rules"))
    assert response.status_code == 200
    return response.content.decode()


def text_of(html: str) -> str:
    """The page's words with tags dropped and white space squeezed, as a reader sees them."""
    return " ".join(re.sub(r"<[^>]+>", "", html).split())


def dice_in(html: str) -> list[str]:
    """The faces of every die drawn on the page, in order."""
    drawn = re.findall(r'class="die die--(\d)[^"]*" role="img" aria-label="(\d)"', html)
    assert all(face == label for face, label in drawn)
    return [label for _, label in drawn]


class Headings(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.levels: list[int] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self.levels.append(int(tag[1]))
        for name, value in attrs:
            if name == "id" and value:
                self.ids.add(value)


def test_it_renders_through_the_base_layout(client):
    response = client.get(reverse("rules"))

    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["games/rules.html", "base.html"]
    assert "<title>Rules: Yahtzee Live</title>" in response.content.decode()


def test_the_nav_marks_the_rules_link_as_current(content):
    assert '<a href="/rules/" aria-current="page">Rules</a>' in content


def test_it_refuses_to_be_posted_to(client):
    assert client.post(reverse("rules")).status_code == 405


def test_headings_go_down_one_level_at_a_time_and_the_contents_links_resolve(content):
    parser = Headings()
    parser.feed(content)

    assert parser.levels.count(1) == 1
    assert parser.levels[0] == 1
    assert all(b - a <= 1 for a, b in pairwise(parser.levels))
    links = re.findall(r'<a href="#([\w-]+)">', content)
    assert len(links) == 10  # The nine sections of Yahtzee, and Yatzy.
    assert set(links) <= parser.ids


def test_every_box_is_named(content):
    text = text_of(content)

    for category in YAHTZEE_BOXES:
        assert category.label in text
    for category in rules.UPPER:
        assert f'<th scope="row">{category.label}</th>' in content
    for category in rules.LOWER:
        assert f"<h4>{category.label}</h4>" in content


def test_every_table_has_a_caption_and_scoped_headers(content):
    tables = re.findall(r"<table.*?</table>", content, flags=re.S)

    assert len(tables) >= 5
    for table in tables:
        assert "<caption>" in table
        assert "<th>" not in table  # Every header cell says what it heads.


def test_both_presets_are_explained(content):
    text = text_of(content)

    for preset in rules.PRESETS.values():
        assert f"<h3>{preset.label}</h3>" in content
    # Forced Joker: the matching upper box first, then a lower box, then a 0 upper.
    assert "upper box of that face is empty, the Yahtzee must go there" in text
    assert "any empty lower box" in text
    assert "0 in an empty upper box" in text
    # Free Joker: any empty box.
    assert "may go in any empty box" in text
    # The Joker's fixed scores, from the rules module.
    assert (
        f"Full house {rules.FULL_HOUSE_SCORE}, Small straight {rules.SMALL_STRAIGHT_SCORE}, "
        f"Large straight {rules.LARGE_STRAIGHT_SCORE}"
    ) in text


def test_the_joker_example_matches_the_rules(content):
    text = text_of(content)
    fives = [5] * 5
    official = rules.Scorecard.from_filled({"yahtzee": rules.YAHTZEE_SCORE})
    free = rules.Scorecard.from_filled({"yahtzee": rules.YAHTZEE_SCORE}, rules=rules.FREE_JOKER)

    assert official.options(fives) == {Category.FIVES: 25}
    assert "Fives only: 25" in text
    assert free.options(fives)[Category.LARGE_STRAIGHT] == rules.LARGE_STRAIGHT_SCORE
    assert f"Any empty box, such as Large straight: {rules.LARGE_STRAIGHT_SCORE}" in text
    with_fives = official.score(Category.FIVES, [5, 5, 5, 2, 1])
    assert with_fives.options(fives)[Category.LARGE_STRAIGHT] == rules.LARGE_STRAIGHT_SCORE
    assert official.earns_yahtzee_bonus(fives)
    assert f"earns the {rules.YAHTZEE_BONUS} bonus" in text


@pytest.mark.parametrize(
    ("dice", "category", "points"),
    [
        ("33355", Category.FULL_HOUSE, rules.FULL_HOUSE_SCORE),
        ("33355", Category.THREE_OF_A_KIND, 19),
        ("66662", Category.FOUR_OF_A_KIND, 26),
        ("13456", Category.SMALL_STRAIGHT, rules.SMALL_STRAIGHT_SCORE),
        ("23456", Category.LARGE_STRAIGHT, rules.LARGE_STRAIGHT_SCORE),
        ("44444", Category.YAHTZEE, rules.YAHTZEE_SCORE),
        ("66521", Category.CHANCE, 20),
    ],
)
def test_each_lower_box_example_is_drawn_and_scored_right(content, dice, category, points):
    assert rules.box_score(category, [int(d) for d in dice]) == points
    card = re.search(rf"<h4>{category.label}</h4>.*?</article>", content, flags=re.S)
    assert card is not None
    assert dice_in(card.group()) == list(dice)
    assert f'<span class="rules-result">{points}</span>' in card.group()


def test_the_turn_example_adds_up(content):
    text = text_of(content)
    final = [3, 3, 5, 3, 5]
    turn = (
        rules.Turn().roll([2, 3, 5, 3, 6]).roll([3, 5, 1], hold=[1, 3]).roll([5], hold=[0, 1, 2, 3])
    )

    assert list(turn.dice) == final
    assert rules.box_score(Category.FULL_HOUSE, final) == rules.FULL_HOUSE_SCORE
    assert rules.box_score(Category.THREE_OF_A_KIND, final) == 19
    assert rules.box_score(Category.THREES, final) == 9
    assert f"Full house worth {rules.FULL_HOUSE_SCORE}" in text
    assert "Three of a kind for 19" in text
    assert "Threes for 9" in text


def test_the_upper_section_example_adds_up(content):
    text = text_of(content)
    roll = [3, 3, 1, 3, 6]

    assert [rules.box_score(c, roll) for c in rules.UPPER] == [1, 0, 9, 0, 0, 6]
    assert "In Threes this roll scores 9" in text
    assert "In Sixes it scores 6, in Ones 1" in text


def test_the_upper_bonus_example_reaches_exactly_the_threshold(content):
    table = re.search(r'<table class="[^"]*rules-bonus-table.*?</table>', content, flags=re.S)
    assert table is not None
    points = [int(p) for p in re.findall(r'<td class="rules-num">(\d+)</td>', table.group())]
    three_of_each = rules.Scorecard.from_filled(
        {c: rules.box_score(c, [c.face] * 3 + [7 - c.face] * 2) for c in rules.UPPER}
    )

    assert points[:6] == [3, 6, 9, 12, 15, 18]
    assert sum(points[:6]) == rules.UPPER_BONUS_THRESHOLD == points[6]
    assert points[7] == rules.UPPER_BONUS
    assert three_of_each.upper_total == rules.UPPER_BONUS_THRESHOLD
    assert three_of_each.upper_bonus == rules.UPPER_BONUS
    assert len(dice_in(table.group())) == 18
    # The 'two threes, four sixes' variation.
    two_threes_four_sixes = rules.Scorecard.from_filled(
        {"ones": 3, "twos": 6, "threes": 6, "fours": 12, "fives": 15, "sixes": 24}
    )
    assert two_threes_four_sixes.upper_total == 66
    assert two_threes_four_sixes.upper_bonus == rules.UPPER_BONUS
    assert "that makes 66" in text_of(content)


def test_the_grand_total_example_adds_up(content):
    table = re.search(r'<table class="[^"]*rules-total-table.*?</table>', content, flags=re.S)
    assert table is not None
    upper, bonus, lower, yahtzee_bonus, total = (
        int(p) for p in re.findall(r'<td class="rules-num">(\d+)</td>', table.group())
    )

    assert upper >= rules.UPPER_BONUS_THRESHOLD
    assert bonus == rules.UPPER_BONUS
    assert yahtzee_bonus == rules.YAHTZEE_BONUS
    assert upper + bonus + lower + yahtzee_bonus == total


def test_the_roll_off_example_follows_the_rules(content):
    text = text_of(content)
    first = rules.RollOff((0, 1, 2)).throw(
        {0: [6, 5, 4, 2, 2], 1: [6, 6, 3, 3, 1], 2: [5, 4, 3, 2, 1]}
    )
    second = first.throw({0: [4, 4, 3, 2, 1], 1: [6, 5, 5, 2, 1]})

    assert first.contenders == (0, 1)
    assert second.winner == 1
    assert "highest total goes first" in text
    assert "throw again" in text
    assert "Ann and Ben tie on 19" in text
    assert "Ben starts" in text


def test_the_yahtzee_bonus_and_ties_are_explained(content):
    text = text_of(content)

    assert f"bonus of {rules.YAHTZEE_BONUS} points" in text
    assert f"once the Yahtzee box holds {rules.YAHTZEE_SCORE}" in text
    assert "scratched the Yahtzee box with a 0, later Yahtzees earn no bonus" in text
    assert f"add up to {rules.UPPER_BONUS_THRESHOLD} or more" in text
    assert f"bonus of {rules.UPPER_BONUS} points" in text
    assert "they share the win" in text


def test_the_turn_is_explained(content):
    text = text_of(content)

    assert f"up to {rules.ROLLS_PER_TURN} rolls" in text
    assert "exactly one empty box" in text
    assert "write a 0 in any empty box" in text


def test_playing_on_this_site_lists_the_keys_and_commands(content):
    text = text_of(content)

    for key in ("1", "5", "R", "Space"):
        assert f"<kbd>{key}</kbd>" in content
    for command in ("roll", "roll 2 5", "hold 1 3", "score fives", "score full house", "help"):
        assert f'<th scope="row"><code>{command}</code></th>' in content
    assert "Throws exactly dice 2 and 5" in text
    # Every box name the 'score' command takes is one the rules understand.
    names = re.findall(r"<code>([a-z ]+)</code>", content.split("type the box's name")[1])
    assert len(names) == 13
    assert [Category.parse(name) for name in names] == list(YAHTZEE_BOXES)


def test_nothing_comes_from_another_host(content):
    assert not re.search(r'(src|href)="(https?:)?//', content)


def test_yatzy_is_explained_with_its_fifteen_boxes(content):
    section = content.split('id="yatzy"')[1].split("</section>")[0]
    text = text_of(section)
    assert "<h3>Yatzy (Scandinavian)</h3>" in section
    assert "upper bonus is 50, when Ones to Sixes add up to 63" in text
    assert "no Yatzy bonus and no Joker" in text
    rows = re.findall(r'<tr id="yatzy-([a-z_]+)"><th scope="row">([^<]+)</th><td>[^<]+</td>'
                      r'<td class="rules-num">(\d+)</td></tr>', section)  # fmt: skip
    # Each box of the card in order, with what 2 2 3 3 3 scores there by the rules engine.
    assert [(box, label) for box, label, _ in rows] == [
        (c.value, c.label) for c in rules.YATZY.boxes
    ]
    example = rules.Scorecard(rules.YATZY).options((2, 2, 3, 3, 3))
    assert [int(points) for _, _, points in rows] == list(example.values())
    assert dict(zip((box for box, _, _ in rows), (int(p) for _, _, p in rows), strict=True)) == {
        "ones": 0, "twos": 4, "threes": 9, "fours": 0, "fives": 0, "sixes": 0, "one_pair": 6,
        "two_pairs": 10, "three_of_a_kind": 9, "four_of_a_kind": 0, "small_straight": 0,
        "large_straight": 0, "full_house": 13, "chance": 13, "yatzy": 0,
    }  # fmt: skip
