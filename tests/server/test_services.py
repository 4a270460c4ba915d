"""The service layer: one command per function, rules applied on the server, all or nothing."""

from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection

from games.engine import rules
from games.live import outbox, services
from games.live.services import CommandError
from games.models import Game, GameEvent, Player
from tests.server.helpers import Table, fingerprint, told_events

pytestmark = pytest.mark.django_db

ALICE_FIRST = (6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # Roll-off throws: alice (seat 0), then bob.


@pytest.fixture
def table(fixed_dice) -> Table:  # type: ignore[no-untyped-def]
    """Alice (host) and Bob, started, Alice on turn."""
    table = Table("alice", "bob")
    fixed_dice.load(*ALICE_FIRST)
    table.start()
    return table


# -- creating and joining ---------------------------------------------------------------


def test_it_creates_a_lobby_with_the_host_in_seat_0() -> None:
    game, host = services.create_game(host_name="  Alice  Smith ", seats=4)
    assert host is not None
    assert (host.seat, host.name, host.is_host) == (0, "Alice Smith", True)
    assert (game.status, game.seats, game.preset, game.version) == ("lobby", 4, "official", 2)
    assert [e.kind for e in game.events.all()] == ["created", "joined"]


def test_it_makes_invite_codes_that_cannot_be_guessed() -> None:
    codes = {services.create_game()[0].code for _ in range(20)}
    assert len(codes) == 20
    # 16 URL-safe characters carry 96 bits, from ``secrets``.
    assert all(len(code) == 16 for code in codes)


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        ({"preset": "vegas"}, "unknown_rules"),
        ({"seats": 0}, "invalid_seats"),
        ({"seats": 7}, "invalid_seats"),
        ({"seats": "6"}, "invalid_seats"),
        ({"host_name": ""}, "invalid_name"),
        ({"host_name": "x" * 25}, "invalid_name"),
        ({"host_name": "bell\x07"}, "invalid_name"),
        ({"host_name": "\u3164"}, "invalid_name"),  # HANGUL FILLER: draws nothing.
        ({"host_name": "\u0301\u0301"}, "invalid_name"),  # Combining marks only.
        ({"host_name": "Ann\u200b"}, "invalid_name"),  # ZERO WIDTH SPACE
        ({"host_name": "\u01c6" * 13}, "invalid_name"),  # 26 letters once normalised (dž).
        ({"host_name": 42}, "invalid_name"),
    ],
)
def test_it_refuses_a_bad_room(kwargs: dict[str, object], code: str) -> None:
    with pytest.raises((CommandError, rules.RuleError)) as error:
        services.create_game(**kwargs)  # type: ignore[arg-type]
    assert error.value.code == code  # type: ignore[union-attr]
    assert not Game.objects.exists()


def test_it_seats_joiners_in_order() -> None:
    table = Table("alice", "bob", "carol")
    assert table.seats() == {"alice": 0, "bob": 1, "carol": 2}
    assert table.kinds() == ["created", "joined", "joined", "joined"]
    assert not table.players["bob"].is_host


def test_it_gives_a_session_its_seat_back() -> None:
    table = Table("alice", "bob")
    again = services.join_game(table.code, "Someone else", session_key="session-bob")
    assert again.pk == table.players["bob"].pk
    assert table.kinds().count("joined") == 2


def test_it_refuses_a_name_already_at_the_table() -> None:
    table = Table("alice")
    with pytest.raises(CommandError, match="already called") as error:
        table.join("ALICE")
    assert error.value.code == "name_taken"


def test_it_keeps_a_name_in_its_normal_form() -> None:
    table = Table("alice")
    # Fullwidth letters and an ideographic space become their ordinary forms.
    joined = table.join("\uff22\uff4f\uff42\u3000 Lee")
    assert joined.name == "Bob Lee"


@pytest.mark.parametrize(
    "look_alike",
    [
        "\u0410nn",  # CYRILLIC CAPITAL LETTER A
        "\u0391\u039d\u039d",  # Greek capitals
        "\uff21\uff4e\uff4e",  # Fullwidth
        "aNN",
    ],
)
def test_it_refuses_a_name_that_looks_like_one_at_the_table(look_alike: str) -> None:
    table = Table("Ann")
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as error:
        table.join(look_alike)
    assert error.value.code == "name_taken"
    assert "or a name that looks the same" in error.value.message
    assert fingerprint(table.code) == before


def test_it_seats_a_name_that_only_resembles_one_at_the_table() -> None:
    table = Table("Ann", "Anna", "Zoe", "Zo\u00eb")
    assert list(table.seats()) == ["Ann", "Anna", "Zoe", "Zo\u00eb"]


def test_it_lets_a_latecomer_watch_a_full_game() -> None:
    table = Table("alice", "bob", seats=2)
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as error:
        table.join("carol")
    assert error.value.code == "game_full"
    assert fingerprint(table.code) == before


def test_it_lets_a_latecomer_watch_a_started_game(table: Table) -> None:
    with pytest.raises(CommandError) as error:
        table.join("carol")
    assert error.value.code == "game_started"


def test_it_refuses_an_unknown_invite_code() -> None:
    with pytest.raises(CommandError) as error:
        services.join_game("nosuchgame", "alice")
    assert error.value.code == "no_such_game"


# -- leaving ----------------------------------------------------------------------------


def test_leaving_the_lobby_frees_the_seat_and_moves_the_others_up() -> None:
    table = Table("alice", "bob", "carol")
    table.leave("bob")
    assert table.seats() == {"alice": 0, "carol": 1}
    event = table.last_event()
    assert (event.kind, event.payload) == ("unseated", {"seat": 1, "name": "bob", "host": 0})


def test_the_host_role_passes_on_when_the_host_leaves_the_lobby() -> None:
    table = Table("alice", "bob", "carol")
    table.leave("alice")
    hosts = Player.objects.filter(game__code=table.code, is_host=True)
    assert [(p.name, p.seat) for p in hosts] == [("bob", 0)]
    table.start("bob")  # The new host can start.


def test_leaving_in_play_skips_the_seat_and_keeps_its_score(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(2, 2, 2, 3, 3)
    table.roll("alice")
    table.score("alice", "full_house")
    table.leave("alice")
    fixed_dice.load(1, 2, 3, 4, 5)
    table.roll("bob")
    table.score("bob", "large_straight")
    state = table.state()
    assert state.left == {0}
    assert state.current == 1  # Bob again: Alice's turns are skipped.
    assert state.cards[0].total == 25
    assert services.snapshot(table.code)["players"][0]["left"] is True


def test_leaving_on_turn_passes_the_turn(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(2, 2, 2, 3, 3)
    table.roll("alice")
    table.leave("alice")
    state = table.state()
    assert (state.current, state.turn) == (1, rules.Turn())
    assert table.last_event().payload == {"seat": 0, "name": "alice", "next": 1}


def test_when_everyone_leaves_the_game_is_over(table: Table) -> None:
    table.leave("alice")
    table.leave("bob")
    game = table.game
    assert game.status == "finished"
    assert game.finished_at is not None
    left, finished = told_events(table.code)[-2:]
    assert left.payload == {"seat": 1, "name": "bob", "next": None}
    assert finished.payload == {"winners": [], "totals": [0, 0], "places": [None, None]}
    # The log keeps the facts; the name comes from the seats.
    stored = GameEvent.objects.get(game=game, seq=left.seq).payload
    assert stored == {"seat": 1, "next": None}


def test_a_session_that_left_cannot_join_again(table: Table) -> None:
    table.leave("bob")
    with pytest.raises(CommandError) as error:
        services.join_game(table.code, "bob", session_key="session-bob")
    assert error.value.code == "game_started"


def test_a_player_who_left_cannot_act(table: Table) -> None:
    table.leave("alice")
    for command in (lambda: table.leave("alice"), lambda: table.roll("alice")):
        with pytest.raises(CommandError) as error:
            command()
        assert error.value.code == "not_a_player"


# -- starting ---------------------------------------------------------------------------


def test_only_the_host_starts() -> None:
    table = Table("alice", "bob")
    with pytest.raises(CommandError) as error:
        table.start("bob")
    assert error.value.code == "not_host"
    assert table.game.status == "lobby"


def test_the_roll_off_is_thrown_again_until_one_seat_wins(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice", "bob", "carol")
    fixed_dice.load(
        *(6, 6, 5, 1, 1),  # alice 19
        *(6, 6, 6, 1, 1),  # bob 20
        *(5, 5, 5, 4, 1),  # carol 20
        *(2, 2, 2, 2, 2),  # bob 10
        *(3, 3, 3, 3, 3),  # carol 15: carol starts
    )
    table.start()
    assert table.kinds()[-3:] == ["started", "roll_off", "roll_off"]
    rounds = told_events(table.code, "roll_off")
    assert [e.payload["contenders"] for e in rounds] == [[1, 2], [2]]
    assert [e.payload["first"] for e in rounds] == [None, 2]
    game = table.game
    assert (game.status, table.state().current) == ("playing", 2)
    assert game.started_at is not None
    assert fixed_dice.remaining() == 0


def test_a_solo_game_starts_without_a_roll_off(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice")
    table.start()
    assert table.kinds()[-1] == "started"
    assert table.last_event().payload == {"players": ["alice"], "first": 0}


def test_a_game_starts_once(table: Table) -> None:
    with pytest.raises(CommandError) as error:
        table.start()
    assert error.value.code == "already_started"


# -- rolling ----------------------------------------------------------------------------


def test_a_roll_throws_the_dice_not_held(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    fixed_dice.load(5, 5)
    table.roll("alice", hold=[1, 2, 3])
    event = table.last_event()
    assert (event.kind, event.payload) == (
        "rolled",
        {
            "seat": 0,
            "dice": [5, 2, 3, 4, 5],
            "held": [1, 2, 3],
            "rolls_left": 1,
            "options": {
                "ones": 0,
                "twos": 2,
                "threes": 3,
                "fours": 4,
                "fives": 10,
                "sixes": 0,
                "three_of_a_kind": 0,
                "four_of_a_kind": 0,
                "full_house": 0,
                "small_straight": 30,
                "large_straight": 0,
                "yahtzee": 0,
                "chance": 19,
            },
        },
    )
    state = table.state()
    assert (state.turn.dice, state.turn.rolls_left) == ((5, 2, 3, 4, 5), 1)
    assert state.turn.held == {1, 2, 3}  # The kept dice stay held after the roll.
    assert event.payload["options"] == services.snapshot(table.code)["turn"]["options"]


def test_the_server_rolls_fair_dice_by_default(table: Table, settings) -> None:  # type: ignore[no-untyped-def]
    settings.YAHTZEE_DICE = "games.live.dice.secure_roll"
    table.roll("alice")
    dice = table.last_event().payload["dice"]
    assert len(dice) == 5
    assert all(1 <= face <= 6 for face in dice)


@pytest.mark.parametrize(
    ("setup", "command", "code"),
    [
        ([], lambda t: t.roll("bob"), "not_your_turn"),
        ([], lambda t: t.roll("alice", hold=[0]), "hold_before_roll"),
        ([()], lambda t: t.roll("alice", hold=[5]), "invalid_hold"),
        ([()], lambda t: t.roll("alice", hold=[-1]), "invalid_hold"),
        ([()], lambda t: t.roll("alice", hold=[1, 1]), "invalid_hold"),
        ([()], lambda t: t.roll("alice", hold="01"), "invalid_hold"),
        ([()], lambda t: t.roll("alice", hold=[0, 1, 2, 3, 4]), "invalid_hold"),
        ([(), (), ()], lambda t: t.roll("alice"), "no_rolls_left"),
        ([], lambda t: t.score("alice", "chance"), "not_rolled"),
        ([()], lambda t: t.score("alice", "sevens"), "unknown_category"),
        ([()], lambda t: t.score("bob", "chance"), "not_your_turn"),
        (
            [()],
            lambda t: services.roll(t.code, None, version=t.version),
            "not_a_player",
        ),
        (
            [()],
            lambda t: services.roll(t.code, t.id("alice"), version=t.version, as_seat=1),
            "not_your_seat",
        ),
        ([()], lambda t: services.roll(t.code, t.id("alice"), version=3), "stale"),
        ([()], lambda t: services.roll(t.code, t.id("alice"), version=999), "stale"),
        ([()], lambda t: services.roll(t.code, t.id("alice"), version="7"), "invalid_message"),
        ([()], lambda t: services.roll(t.code, t.id("alice"), version=None), "invalid_message"),
        ([], lambda t: t.hold("alice", [0]), "hold_before_roll"),
        ([], lambda t: t.hold("alice", []), "hold_before_roll"),
        ([()], lambda t: t.hold("bob", [0]), "not_your_turn"),
        ([()], lambda t: t.hold("alice", [5]), "invalid_hold"),
        ([()], lambda t: t.hold("alice", [1, 1]), "invalid_hold"),
        ([()], lambda t: t.hold("alice", "01"), "invalid_hold"),
        ([()], lambda t: t.hold("alice", None), "invalid_hold"),
        ([()], lambda t: t.hold("alice", [0, 1, 2, 3, 4]), "invalid_hold"),
        ([(), (), ()], lambda t: t.hold("alice", [0]), "no_rolls_left"),
        ([()], lambda t: services.hold(t.code, None, [0]), "not_a_player"),
        ([()], lambda t: services.hold(t.code, t.id("alice"), [0], as_seat=1), "not_your_seat"),
    ],
)
def test_a_refused_command_changes_nothing(table: Table, fixed_dice, setup, command, code) -> None:  # type: ignore[no-untyped-def]
    for hold in setup:
        fixed_dice.load(*[3] * (5 - len(hold)))
        table.roll("alice", hold)
    fixed_dice.load(*[4] * 25)
    before = fingerprint(table.code)
    with pytest.raises((CommandError, rules.RuleError)) as error:
        command(table)
    assert error.value.code == code  # type: ignore[union-attr]
    assert fingerprint(table.code) == before


# -- holding ----------------------------------------------------------------------------


def test_a_hold_shows_everyone_the_dice_held_and_throws_nothing(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    before = table.game
    table.hold("alice", [3, 0])
    event = table.last_event()
    assert (event.kind, event.payload) == ("held", {"seat": 0, "held": [0, 3]})
    game = table.game
    assert game.version == before.version + 1
    assert game.state_version == before.state_version  # Holding is not a change of play.
    assert table.state().turn == rules.Turn((1, 2, 3, 4, 6), 1, frozenset({0, 3}))
    table.hold("alice", [])  # Letting every die go is a hold too.
    assert table.last_event().payload == {"seat": 0, "held": []}
    assert table.state().turn == rules.Turn((1, 2, 3, 4, 6), 1, frozenset())


def test_the_snapshot_shows_the_dice_held_now(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    table.hold("alice", [4, 1])
    snapshot = services.snapshot(table.code)
    assert snapshot["turn"]["held"] == [1, 4]
    assert snapshot["turn"]["dice"] == [1, 2, 3, 4, 6]
    assert snapshot["turn"]["rolls_left"] == 2
    assert snapshot["version"] == table.version
    assert snapshot["recent"][-1]["kind"] == "held"


def test_a_hold_makes_no_roll_stale(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    seen = table.version
    table.hold("alice", [0])
    table.hold("alice", [0, 1])
    fixed_dice.load(5, 5, 5)
    services.roll(table.code, table.id("alice"), [0, 1], version=seen)  # Saw neither hold.
    assert table.last_event().payload["dice"] == [1, 2, 5, 5, 5]


def test_a_roll_after_a_hold_keeps_the_dice_it_names(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    table.hold("alice", [0, 1])
    fixed_dice.load(6, 6)
    table.roll("alice", [0, 1, 2])  # The roll's own hold counts, not the one shown before.
    event = table.last_event()
    assert (event.payload["dice"], event.payload["held"]) == ([1, 2, 3, 6, 6], [0, 1, 2])
    assert table.state().turn.held == {0, 1, 2}
    assert services.snapshot(table.code)["turn"]["held"] == [0, 1, 2]
    fixed_dice.load(5, 5, 5, 5, 5)
    table.roll("alice")  # A roll that names no dice throws all five, whatever was held.
    assert table.last_event().payload["dice"] == [5, 5, 5, 5, 5]
    assert table.state().turn.held == frozenset()


def test_a_hold_is_refused_in_the_lobby() -> None:
    table = Table("alice", "bob")
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as error:
        table.hold("alice", [])
    assert error.value.code == "not_started"
    assert fingerprint(table.code) == before


# -- scoring ----------------------------------------------------------------------------


def test_scoring_writes_the_box_and_passes_the_turn(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(3, 3, 3, 5, 5)
    table.roll("alice")
    table.score("alice", "full_house")
    assert table.state().cards[0].filled == {rules.Category.FULL_HOUSE: 25}
    stored = GameEvent.objects.filter(game__code=table.code).latest("seq").payload
    assert stored == {  # The facts; the card, total and round come from the saved game.
        "seat": 0,
        "category": "full_house",
        "points": 25,
        "dice": [3, 3, 3, 5, 5],
        "yahtzee_bonus": False,
        "next": 1,
    }
    snapshot = services.snapshot(table.code)
    assert table.last_event().payload == {
        "seat": 0,
        "category": "full_house",
        "points": 25,
        "dice": [3, 3, 3, 5, 5],
        "yahtzee_bonus": False,
        "total": 25,
        "next": 1,
        "round": 1,  # Bob's first turn is still round 1.
        "card": snapshot["players"][0]["card"],
    }
    assert snapshot["players"][0]["card"]["boxes"]["full_house"] == 25
    assert snapshot["game"]["round"] == 1
    assert table.state().current == 1


def test_the_score_event_carries_the_card_and_the_round_the_snapshot_shows(
    table: Table, fixed_dice
) -> None:  # type: ignore[no-untyped-def]
    for name, category in (("alice", "chance"), ("bob", "sixes"), ("alice", "sixes")):
        fixed_dice.load(6, 6, 6, 2, 1)
        table.roll(name)
        table.score(name, category)
        scored = table.last_event().payload
        snapshot = services.snapshot(table.code)
        assert scored["card"] == snapshot["players"][scored["seat"]]["card"]
        assert scored["round"] == snapshot["game"]["round"]
    assert scored["round"] == 2  # Both have one box filled: Bob's second turn.
    assert scored["card"]["boxes"]["sixes"] == 18
    assert (scored["card"]["upper_total"], scored["card"]["total"]) == (18, 21 + 18)


def _score_yahtzee_then_fill(table: Table, fixed_dice, box: str) -> None:  # type: ignore[no-untyped-def]
    """Alice scores a Yahtzee of fives, Bob scores chance, then Alice rolls fives again."""
    fixed_dice.load(5, 5, 5, 5, 5)
    table.roll("alice")
    table.score("alice", "yahtzee")
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("bob")
    table.score("bob", "chance")
    fixed_dice.load(5, 5, 5, 5, 5)
    table.roll("alice")
    table.score("alice", box)


def test_a_second_yahtzee_earns_a_bonus_check(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    _score_yahtzee_then_fill(table, fixed_dice, "fives")
    card = table.state().cards[0]
    assert card[rules.Category.FIVES] == 25
    assert (card.yahtzee_bonus_count, card.total) == (1, 50 + 25 + 100)
    assert table.last_event().payload["yahtzee_bonus"] is True


def test_a_roll_offers_only_the_boxes_the_forced_joker_allows(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    _score_yahtzee_then_fill(table, fixed_dice, "fives")
    rolled = told_events(table.code, "rolled")[-1]
    assert rolled.payload["dice"] == [5, 5, 5, 5, 5]
    assert rolled.payload["options"] == {"fives": 25}  # The Joker sends it to Fives alone.
    scored = table.last_event().payload
    assert (scored["card"]["yahtzee_bonus_count"], scored["card"]["yahtzee_bonus"]) == (1, 100)


def test_the_forced_joker_refuses_another_box(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(rules.IllegalMoveError) as error:
        _score_yahtzee_then_fill(table, fixed_dice, "full_house")
    assert error.value.code == "joker_forced"
    assert table.state().turn.dice == (5, 5, 5, 5, 5)


def test_a_filled_box_is_refused(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(1, 2, 3, 4, 6)
    table.roll("alice")
    table.score("alice", "chance")
    fixed_dice.load(1, 2, 3, 4, 6, 1, 2, 3, 4, 6)
    table.roll("bob")
    table.score("bob", "chance")
    table.roll("alice")
    before = fingerprint(table.code)
    with pytest.raises(rules.IllegalMoveError) as error:
        table.score("alice", "chance")
    assert error.value.code == "box_filled"
    assert fingerprint(table.code) == before


def test_a_complete_game_finishes_with_its_winners(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice")
    table.start()
    # Thirteen Yahtzees of sixes, in the only order the forced Joker allows: the Yahtzee box,
    # the Sixes, the lower boxes as Jokers, then zeros in the other upper boxes.
    order = ["yahtzee", "sixes", "three_of_a_kind", "four_of_a_kind", "full_house"]
    order += ["small_straight", "large_straight", "chance", "ones", "twos", "threes", "fours"]
    order += ["fives"]
    for category in order:
        fixed_dice.load(6, 6, 6, 6, 6)
        table.roll("alice")
        table.score("alice", category)
    game = table.game
    assert game.status == "finished"
    assert table.kinds()[-2:] == ["scored", "finished"]
    card = table.state().cards[0]
    assert (card.upper_total, card.lower_total, card.yahtzee_bonus_count) == (30, 235, 12)
    assert table.last_event().payload == {"winners": [0], "totals": [1465], "places": [1]}
    last_score = told_events(table.code, "scored")[-1].payload
    assert (last_score["next"], last_score["round"]) == (None, 13)
    assert last_score["card"] == services.snapshot(table.code)["players"][0]["card"]
    assert last_score["card"]["total"] == 30 + 235 + 1200
    before = fingerprint(table.code)
    for command in (lambda: table.roll("alice"), lambda: table.hold("alice", [])):
        with pytest.raises(rules.IllegalMoveError) as error:
            command()
        assert error.value.code == "game_over"
    assert fingerprint(table.code) == before


def test_tied_totals_share_the_win(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    for category in rules.YAHTZEE_BOXES:
        for name in ("alice", "bob"):
            fixed_dice.load(1, 2, 3, 4, 6)
            table.roll(name)
            table.score(name, category.value)
    assert table.last_event().payload["winners"] == [0, 1]


# -- chat -------------------------------------------------------------------------------


def test_chat_is_logged_and_does_not_make_commands_stale(table: Table, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    version = table.version
    services.chat(table.code, table.id("bob"), "  good luck  ")
    assert table.last_event().payload == {"seat": 1, "name": "bob", "text": "good luck"}
    fixed_dice.load(1, 2, 3, 4, 5)
    services.roll(table.code, table.id("alice"), version=version)  # Saw no chat: still fine.
    assert table.last_event().kind == "rolled"


@pytest.mark.parametrize(
    ("player", "text", "code"),
    [
        ("bob", "x" * 501, "chat_too_long"),
        ("bob", "   ", "invalid_message"),
        ("bob", ["hi"], "invalid_message"),
        (None, "hello", "not_a_player"),
    ],
)
def test_bad_chat_is_refused(table: Table, player: str | None, text: object, code: str) -> None:
    before = fingerprint(table.code)
    with pytest.raises(CommandError) as error:
        services.chat(table.code, table.id(player), text)
    assert error.value.code == code
    assert fingerprint(table.code) == before


# -- the log and the broadcast ----------------------------------------------------------


def test_events_are_append_only(table: Table) -> None:
    event = GameEvent.objects.filter(game__code=table.code).latest("seq")
    event.payload = {"first": 1}
    with pytest.raises(ValueError, match="append-only"):
        event.save()


def test_versions_count_the_events(table: Table) -> None:
    seqs = list(GameEvent.objects.filter(game__code=table.code).values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert table.version == seqs[-1]


def test_events_are_broadcast_only_after_commit(  # type: ignore[no-untyped-def]
    table: Table, fixed_dice, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent: list[tuple[str, str, list[dict[str, object]]]] = []

    async def record(*args: Any) -> None:
        sent.append(args)

    monkeypatch.setattr(outbox, "_group_send", record)
    fixed_dice.load(1, 2, 3, 4, 5)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        table.roll("alice")
        with pytest.raises(CommandError):
            services.roll(table.code, table.id("alice"), version=1)
    assert sent == []  # Nothing went out before the commit.
    for callback in callbacks:
        callback()
    [(code, handler, messages)] = sent  # The refused roll sent nothing.
    assert (code, handler) == (table.code, "game.event")
    assert [(m["kind"], m["version"]) for m in messages] == [("rolled", table.version)]


def test_the_snapshot_shows_the_turn_and_what_each_box_would_score(
    table: Table, fixed_dice
) -> None:  # type: ignore[no-untyped-def]
    fixed_dice.load(4, 4, 4, 4, 2)
    table.roll("alice")
    snapshot = services.snapshot(table.code, table.id("bob"))
    assert snapshot["version"] == table.version
    assert snapshot["you"] == {"seat": 1, "name": "bob", "host": False}
    assert snapshot["turn"]["dice"] == [4, 4, 4, 4, 2]
    assert snapshot["turn"]["rolls_left"] == 2
    assert snapshot["turn"]["options"]["four_of_a_kind"] == 18
    assert snapshot["turn"]["options"]["fours"] == 16
    assert snapshot["players"][0]["card"]["boxes"]["chance"] is None
    assert [e["version"] for e in snapshot["recent"]] == list(range(1, table.version + 1))


# -- the cost of a move -----------------------------------------------------------------


class RoundTrips:
    """Every statement sent to the database, and every transaction begun, while it is open."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.statements: list[str] = []
        self.transactions = 0
        real = connection.set_autocommit

        def set_autocommit(autocommit: bool, **kwargs: Any) -> None:
            self.transactions += not autocommit
            real(autocommit, **kwargs)

        monkeypatch.setattr(connection, "set_autocommit", set_autocommit)

    def __call__(self, execute, sql, params, many, context):  # type: ignore[no-untyped-def]
        self.statements.append(sql.split()[0].upper())
        return execute(sql, params, many, context)

    @property
    def count(self) -> int:
        """Round trips: the statements, and a BEGIN and a COMMIT for each transaction."""
        return len(self.statements) + 2 * self.transactions


def counted(monkeypatch: pytest.MonkeyPatch, command: Callable[[], None]) -> RoundTrips:
    trips = RoundTrips(monkeypatch)
    with connection.execute_wrapper(trips):
        command()
    monkeypatch.undo()
    return trips


@pytest.mark.django_db(transaction=True)
def test_a_roll_and_a_score_take_one_round_trip_with_a_copy_and_two_without(  # type: ignore[no-untyped-def]
    fixed_dice, monkeypatch
) -> None:
    table = Table("alice", "bob")
    fixed_dice.load(*ALICE_FIRST, 1, 2, 3, 4, 6, 5, 5)
    table.start()
    alice = table.id("alice")
    version = table.version

    roll = counted(monkeypatch, lambda: services.roll(table.code, alice, version=version))
    assert (roll.count, roll.statements) == (
        1,
        ["WITH" if connection.vendor == "postgresql" else "INSERT"],
    )
    services.copies.clear()  # As in a process that has not moved this game yet.
    version = table.version
    again = counted(
        monkeypatch, lambda: services.roll(table.code, alice, [0, 1, 2], version=version)
    )
    assert again.count == 2  # The game and its seats, read in one query; then the move.
    version = table.version
    score = counted(
        monkeypatch, lambda: services.score(table.code, alice, "chance", version=version)
    )
    assert score.count == 1
    assert table.state().cards[0].total == 1 + 2 + 3 + 5 + 5
    assert [e.kind for e in told_events(table.code)][-3:] == ["rolled", "rolled", "scored"]


@pytest.mark.django_db(transaction=True)
def test_a_move_made_on_an_out_of_date_copy_is_made_again_on_the_saved_game(  # type: ignore[no-untyped-def]
    fixed_dice,
) -> None:
    table = Table("alice", "bob")
    fixed_dice.load(*ALICE_FIRST, 1, 2, 3, 4, 6)
    table.start()
    table.roll("alice")
    seen = table.version
    stale = services.copies.get(table.code)  # This process's copy, as of the roll.
    table.hold("alice", [0, 1])  # Another process's move, say:
    services.copies.put(table.code, stale)  # this process has not seen it.
    # Made on the copy, the roll throws 5 5 5 but cannot be saved: the game moved on. Made
    # again on the saved game, it throws 6 6 6. Nobody ever saw the first throw.
    fixed_dice.load(5, 5, 5, 6, 6, 6)
    services.roll(table.code, table.id("alice"), [0, 1], version=seen)  # A hold is no change.
    state = table.state()
    assert state.turn == rules.Turn((1, 2, 6, 6, 6), 2, frozenset({0, 1}))
    assert [e.kind for e in told_events(table.code)][-2:] == ["held", "rolled"]
    assert [e.seq for e in told_events(table.code)] == list(range(1, table.version + 1))


@pytest.mark.django_db(transaction=True)
def test_a_refusal_is_only_answered_from_the_saved_game(fixed_dice) -> None:  # type: ignore[no-untyped-def]
    table = Table("alice", "bob")
    fixed_dice.load(*ALICE_FIRST, 1, 2, 3, 4, 6)
    table.start()
    old = services.copies.get(table.code)  # Alice on turn, no dice yet.
    table.roll("alice")
    table.score("alice", "chance")  # Bob's turn now.
    services.copies.put(table.code, old)  # An out-of-date copy would refuse Bob's roll.
    fixed_dice.load(6, 6, 6, 6, 6)
    services.roll(table.code, table.id("bob"), version=table.version)
    assert table.state().turn.dice == (6, 6, 6, 6, 6)
    with pytest.raises(rules.IllegalMoveError) as error:
        services.roll(table.code, table.id("alice"), version=table.version)
    assert error.value.code == "not_your_turn"


def test_the_fair_dice_throw_away_the_bytes_that_would_favour_a_face(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from games.live import dice

    reads = iter([bytes([251, 252, 255, 0, 5]), bytes([1, 2, 3, 4, 6])])
    monkeypatch.setattr(dice.os, "urandom", lambda count: next(reads))

    assert dice.secure_roll(5) == [6, 1, 6, 2, 3]  # 252 and 255 thrown away, a second read.
    monkeypatch.setattr(dice.os, "urandom", lambda count: bytes(range(256)))
    faces = dice.secure_roll(252)  # Each byte kept once: each face as often.
    assert {face: faces.count(face) for face in range(1, 7)} == dict.fromkeys(range(1, 7), 42)
