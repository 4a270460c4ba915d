"""Accounts: signing up, logging in and out, guest seats joining the account, the profile.

The profile's figures are known answers: every game is played with scripted
dice, each turn one roll and a chosen box, so every card's total is worked out
below by hand.
"""

from __future__ import annotations

import re
from types import ModuleType

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse

from games.live import services
from games.models import Game, Player, UsernameKey
from games.web.stats import PlayerStats, player_stats
from tests.server.helpers import Table, play_solo

pytestmark = pytest.mark.django_db

User = get_user_model()
PASSWORD = "correct horse battery staple"
ALICE_FIRST = (6, 6, 6, 6, 6, 1, 1, 1, 1, 1)  # Roll-off throws: seat 0, then seat 1.

Card = list[tuple[tuple[int, ...], str]]  # Each turn: the five dice rolled, the box chosen.

# Upper 30+20+12+9+6+3 = 80, so the 35 bonus; lower 50+30+40+25+27+22+26 = 220; the
# second Yahtzee goes in Sixes (the forced Joker) with a 100 bonus. 80+35+220+100 = 435.
BIG_CARD: Card = [
    ((6, 6, 6, 6, 6), "yahtzee"),
    ((6, 6, 6, 6, 6), "sixes"),
    ((5, 5, 5, 5, 1), "fives"),
    ((4, 4, 4, 1, 2), "fours"),
    ((3, 3, 3, 1, 2), "threes"),
    ((2, 2, 2, 1, 3), "twos"),
    ((1, 1, 1, 2, 3), "ones"),
    ((1, 2, 3, 4, 6), "small_straight"),
    ((1, 2, 3, 4, 5), "large_straight"),
    ((2, 2, 3, 3, 3), "full_house"),
    ((5, 5, 5, 6, 6), "three_of_a_kind"),
    ((4, 4, 4, 4, 6), "four_of_a_kind"),
    ((6, 6, 5, 5, 4), "chance"),
]
BOXES = [box for _, box in BIG_CARD]


def same_dice_card(*faces: int) -> Card:
    return [(faces, box) for box in BOXES]


# 2-3-4-5-5 in every box: twos 2, threes 3, fours 4, fives 10, small straight 30, chance 19.
MIDDLE_CARD = same_dice_card(2, 3, 4, 5, 5)
MIDDLE_TOTAL = 68
# 1-1-2-2-3 in every box: ones 2, twos 4, threes 3, chance 9.
SMALL_CARD = same_dice_card(1, 1, 2, 2, 3)
SMALL_TOTAL = 18
BIG_TOTAL = 435


# -- helpers ------------------------------------------------------------------------------


def play(table: Table, dice: ModuleType, cards: dict[str, Card], *, turns: int = 13) -> None:
    """Start the game and play ``turns`` rounds, the players taking turns in the order named."""
    dice.load(*ALICE_FIRST)
    table.start()
    for number in range(turns):
        for name, card in cards.items():
            faces, box = card[number]
            dice.load(*faces)
            table.roll(name)
            table.score(name, box)


def give_seats(user: AbstractUser, session_key: str) -> None:
    Player.objects.filter(session_key=session_key).update(user=user)


def open_room_as_guest(client: Client, name: str = "Ana") -> Game:
    """The guest opens a room through the home page's form: the seat is their session's."""
    client.post(reverse("home"), {"name": name, "preset": "official", "seats": "2"})
    return Game.objects.latest("pk")


def sign_up(client: Client, username: str = "ana", **extra: str):  # type: ignore[no-untyped-def]
    form = {"username": username, "password1": PASSWORD, "password2": PASSWORD, **extra}
    return client.post(reverse("signup"), form)


def shown_messages(response) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(m) for m in response.context["messages"]]


@pytest.fixture
def alice() -> AbstractUser:
    return User.objects.create_user("alice", password=PASSWORD)


# -- signing up -----------------------------------------------------------------------------


def test_it_shows_an_accessible_signup_form(client: Client) -> None:
    content = client.get(reverse("signup")).content.decode()

    assert '<label for="id_username">Username</label>' in content
    assert 'autocomplete="username"' in content
    assert content.count('autocomplete="new-password"') == 2


def test_it_signs_up_logs_in_and_goes_to_the_new_profile(client: Client) -> None:
    response = sign_up(client, "ana")

    user = User.objects.get(username="ana")
    assert response.status_code == 302
    assert response["Location"] == reverse("profile", args=["ana"])
    assert client.session["_auth_user_id"] == str(user.pk)
    assert user.check_password(PASSWORD)


def test_it_shows_signup_errors_on_their_fields_and_creates_nobody(client: Client) -> None:
    response = sign_up(client, "ana", password2="something else")

    assert response.status_code == 200
    assert not User.objects.exists()
    assert "_auth_user_id" not in client.session
    content = response.content.decode()
    # The error is tied to its field for screen readers.
    assert '<ul class="field__error" id="id_password2_error">' in content
    assert re.search(r'<input[^>]*aria-invalid="true"[^>]*id="id_password2"', content)
    assert 'aria-describedby="id_password2_helptext id_password2_error"' in content
    assert "The two password fields didn\N{RIGHT SINGLE QUOTATION MARK}t match." in content


@pytest.mark.parametrize(
    ("password", "why"),
    [("12345678", "entirely numeric"), ("password", "too common"), ("dice", "too short")],
)
def test_it_refuses_a_weak_password(client: Client, password: str, why: str) -> None:
    response = sign_up(client, "ana", password1=password, password2=password)

    assert not User.objects.exists()
    assert why in response.content.decode()


def test_it_refuses_a_username_taken_in_another_case(client: Client, alice: AbstractUser) -> None:
    response = sign_up(client, "Alice")

    assert response.status_code == 200
    assert "A user with that username already exists." in response.content.decode()
    assert User.objects.count() == 1


@pytest.mark.parametrize(
    "username",
    ["admin", "Administrator", "ROOT", "support", "moderator", "Yahtzee", "system", "Optimal_bot",
     "\u0430dmin"],  # CYRILLIC SMALL LETTER A
)  # fmt: skip
def test_it_refuses_a_reserved_username(client: Client, username: str) -> None:
    response = sign_up(client, username)

    assert response.status_code == 200
    assert "That username is reserved for the site." in response.content.decode()
    assert not User.objects.exists()


@pytest.mark.parametrize(
    "username",
    ["\u0430lice", "ALlCE", "a1ice"],  # A Cyrillic a; a small L for the I; a one for the l.
)
def test_it_refuses_a_username_that_looks_like_an_account(
    client: Client, alice: AbstractUser, username: str
) -> None:
    response = sign_up(client, username)

    assert response.status_code == 200
    assert "looks too much like another player" in response.content.decode()
    assert list(User.objects.values_list("username", flat=True)) == ["alice"]


def test_an_account_renamed_in_the_admin_is_compared_by_its_new_name(
    client: Client, alice: AbstractUser
) -> None:
    alice.username = "zoe"
    alice.save()

    assert "looks too much like" in sign_up(client, "Z0E").content.decode()  # A zero for the O.
    response = sign_up(client, "a1ice")  # The old name is free again.
    assert response.status_code == 302
    assert set(UsernameKey.objects.values_list("user__username", flat=True)) == {"zoe", "a1ice"}


def test_it_refuses_an_invisible_username(client: Client) -> None:
    response = sign_up(client, "ann\u3164")  # HANGUL FILLER, a letter that draws nothing.

    assert response.status_code == 200
    assert "cannot hold invisible characters" in response.content.decode()
    assert not User.objects.exists()


def test_it_keeps_a_username_in_its_normal_form(client: Client) -> None:
    sign_up(client, "\uff21nn")  # FULLWIDTH LATIN CAPITAL LETTER A

    assert list(User.objects.values_list("username", flat=True)) == ["Ann"]


def test_it_signs_up_a_username_that_only_resembles_an_account(
    client: Client, alice: AbstractUser
) -> None:
    response = sign_up(client, "alicia")

    assert response.status_code == 302
    assert User.objects.filter(username="alicia").exists()


def test_it_follows_a_safe_next_after_signup(client: Client) -> None:
    response = sign_up(client, next="/rules/")

    assert response["Location"] == "/rules/"


def test_it_ignores_an_unsafe_next_after_signup(client: Client) -> None:
    response = sign_up(client, next="https://evil.example/")

    assert response["Location"] == reverse("profile", args=["ana"])


def test_it_carries_next_through_the_signup_form(client: Client) -> None:
    content = client.get(reverse("signup"), {"next": "/rules/"}).content.decode()
    unsafe = client.get(reverse("signup"), {"next": "https://evil.example/"}).content.decode()

    assert '<input type="hidden" name="next" value="/rules/">' in content
    assert 'type="hidden" name="next"' not in unsafe  # (The footer's language form has its own.)


def test_it_sends_someone_logged_in_on_from_signup(client: Client, alice: AbstractUser) -> None:
    client.force_login(alice)

    response = sign_up(client, "ana")

    assert response["Location"] == reverse("profile", args=["alice"])
    assert not User.objects.filter(username="ana").exists()


# -- logging in and out ---------------------------------------------------------------------


def test_it_logs_in_and_goes_home(client: Client, alice: AbstractUser) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == reverse("home")
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_finds_the_account_by_its_normal_form(client: Client, alice: AbstractUser) -> None:
    fullwidth = "\uff41\uff4c\uff49\uff43\uff45"
    response = client.post(reverse("login"), {"username": fullwidth, "password": PASSWORD})

    assert response.status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_refuses_a_wrong_password(client: Client, alice: AbstractUser) -> None:
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Please enter a correct username and password." in response.content.decode()
    assert 'role="alert"' in response.content.decode()


def test_it_shows_an_accessible_login_form(client: Client) -> None:
    content = client.get(reverse("login")).content.decode()

    assert '<label for="id_password">Password</label>' in content
    assert 'autocomplete="username"' in content
    assert 'autocomplete="current-password"' in content


@pytest.mark.parametrize(
    ("next_url", "lands_on"), [("/rules/", "/rules/"), ("https://evil.example/", "/")]
)
def test_it_follows_only_a_safe_next_after_login(
    client: Client, alice: AbstractUser, next_url: str, lands_on: str
) -> None:
    form = {"username": "alice", "password": PASSWORD, "next": next_url}

    response = client.post(reverse("login"), form)

    assert response["Location"] == lands_on


def test_it_sends_someone_logged_in_on_from_login(client: Client, alice: AbstractUser) -> None:
    client.force_login(alice)

    assert client.get(reverse("login"), {"next": "/rules/"})["Location"] == "/rules/"


def test_it_logs_out_with_a_post(client: Client, alice: AbstractUser) -> None:
    client.force_login(alice)

    assert client.get(reverse("logout")).status_code == 405
    response = client.post(reverse("logout"))

    assert response["Location"] == reverse("home")
    assert "_auth_user_id" not in client.session


def test_it_shows_the_account_in_the_header(client: Client, alice: AbstractUser) -> None:
    guest = client.get(reverse("rules")).content.decode()
    client.force_login(alice)
    member = client.get(reverse("rules")).content.decode()

    assert f'href="{reverse("signup")}?next=/rules/"' in guest
    assert f'href="{reverse("profile", args=["alice"])}">alice</a>' in member
    assert '<button type="submit" class="link-button">Log out</button>' in member


# -- guest seats joining the account --------------------------------------------------------


def test_it_gives_a_guests_games_to_the_new_account(client: Client) -> None:
    first, second = open_room_as_guest(client), open_room_as_guest(client)
    guest_key = client.session.session_key

    response = sign_up(client, "ana")

    user = User.objects.get(username="ana")
    seats = Player.objects.filter(game__in=[first, second])
    assert [seat.user_id for seat in seats] == [user.pk, user.pk]
    # Logging in gave the browser a new session key; the seats moved to it.
    new_key = client.session.session_key
    assert new_key != guest_key
    assert {seat.session_key for seat in seats} == {new_key}
    # So the room's websocket still seats this browser, by its session or its account.
    assert services.arrive(first.code, session_key=new_key).player_id == seats[0].pk
    assert services.arrive(second.code, user_id=user.pk).player_id == seats[1].pk
    page = client.get(response["Location"])
    assert shown_messages(page) == ["2 games you played in this browser are now on your account."]


def test_it_gives_a_guests_game_to_the_account_they_log_in_to(
    client: Client, alice: AbstractUser
) -> None:
    game = open_room_as_guest(client)

    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True
    )

    seat = game.players.get()
    assert seat.user_id == alice.pk
    assert seat.session_key == client.session.session_key
    assert shown_messages(response) == ["1 game you played in this browser is now on your account."]


def test_it_leaves_the_seats_of_another_browser_alone(client: Client) -> None:
    _, stranger = services.create_game(host_name="Bea", session_key="another-browser")
    open_room_as_guest(client)

    sign_up(client, "ana")

    assert stranger is not None
    stranger.refresh_from_db()
    assert (stranger.user_id, stranger.session_key) == (None, "another-browser")


def test_it_says_nothing_when_no_game_joins_the_account(
    client: Client, alice: AbstractUser
) -> None:
    response = client.post(
        reverse("login"), {"username": "alice", "password": PASSWORD}, follow=True
    )

    assert shown_messages(response) == []


def test_it_keeps_a_seat_already_on_another_account(client: Client, alice: AbstractUser) -> None:
    game = open_room_as_guest(client)
    old_key = client.session.session_key
    give_seats(alice, old_key)

    sign_up(client, "ana")

    seat = game.players.get()
    assert seat.user_id == alice.pk
    assert seat.session_key == old_key  # Ana's new session cannot act for Alice's seat.
    assert services.arrive(game.code, session_key=client.session.session_key).player_id is None


# -- the numbers ----------------------------------------------------------------------------


@pytest.fixture
def record(fixed_dice: ModuleType, alice: AbstractUser) -> None:
    """Alice's games against Bob, who has no account; Alice's seats are her account's.

    She wins one (435 to 68), ties one (68 each), loses one (18 to 68), leaves one
    after scoring a Yahtzee, and has one still in play.
    """
    play(Table("alice", "bob"), fixed_dice, {"alice": BIG_CARD, "bob": MIDDLE_CARD})
    play(Table("alice", "bob"), fixed_dice, {"alice": MIDDLE_CARD, "bob": MIDDLE_CARD})
    play(Table("alice", "bob"), fixed_dice, {"alice": SMALL_CARD, "bob": MIDDLE_CARD})
    left = Table("alice", "bob")
    play(left, fixed_dice, {"alice": BIG_CARD, "bob": MIDDLE_CARD}, turns=1)
    left.leave("alice")
    for faces, box in MIDDLE_CARD[1:]:
        fixed_dice.load(*faces)
        left.roll("bob")
        left.score("bob", box)
    play(Table("alice", "bob"), fixed_dice, {"alice": BIG_CARD, "bob": MIDDLE_CARD}, turns=3)
    give_seats(alice, "session-alice")


@pytest.mark.usefixtures("record")
def test_it_counts_a_players_record_over_finished_games(alice: AbstractUser) -> None:
    stats = player_stats(alice.pk)

    assert stats == PlayerStats(
        games=4,  # The game left counts; the one in play does not yet.
        versus=4,
        wins=2,  # The tie is a win.
        totals=(SMALL_TOTAL, MIDDLE_TOTAL, BIG_TOTAL),  # Newest first; not the game left.
        yahtzees=2,  # 50 in the Yahtzee box and one bonus; not the one in the game left.
        upper_bonuses=1,
    )
    assert stats.win_rate == 0.5
    assert stats.average_score == pytest.approx((435 + 68 + 18) / 3)
    assert stats.best_score == BIG_TOTAL
    assert stats.upper_bonus_rate == pytest.approx(1 / 3)


def test_a_solo_game_counts_as_played_but_never_as_a_win(
    fixed_dice: ModuleType, alice: AbstractUser
) -> None:
    play_solo(fixed_dice, "alice")
    give_seats(alice, "session-alice")

    stats = player_stats(alice.pk)

    assert (stats.games, stats.versus, stats.wins, stats.win_rate) == (1, 0, 0, None)
    assert stats.totals == (293,)


def test_it_has_no_averages_before_the_first_game(alice: AbstractUser) -> None:
    stats = player_stats(alice.pk)

    assert stats == PlayerStats()
    assert (stats.win_rate, stats.average_score, stats.best_score) == (None, None, None)
    assert stats.upper_bonus_rate is None


def test_it_counts_the_stats_in_three_queries_however_many_games(
    fixed_dice: ModuleType, alice: AbstractUser, django_assert_max_num_queries
) -> None:
    for _ in range(4):
        play(Table("alice", "bob"), fixed_dice, {"alice": MIDDLE_CARD, "bob": SMALL_CARD})
    give_seats(alice, "session-alice")

    with django_assert_max_num_queries(3):  # The games, their seats, their boxes.
        assert player_stats(alice.pk).games == 4


# -- the profile page -----------------------------------------------------------------------


def test_it_answers_404_for_an_unknown_player(client: Client) -> None:
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


@pytest.mark.usefixtures("record")
def test_it_shows_the_record_on_the_profile(client: Client) -> None:
    response = client.get(reverse("profile", args=["alice"]))

    assert response.status_code == 200
    tiles = dict(response.context["tiles"])
    assert tiles == {
        "Games": "4",
        "Wins": "2",
        "Win rate": "50%",
        "Average score": "173.7",
        "Best score": "435",
        "Yahtzees": "2",
        "Upper bonus": "33%",
    }
    content = response.content.decode()
    assert "<dt>Average score</dt><dd>173.7</dd>" in content


@pytest.mark.usefixtures("record")
def test_it_draws_the_final_scores_as_a_histogram(client: Client) -> None:
    content = client.get(reverse("profile", args=["alice"])).content.decode()

    bars = re.findall(r'<rect class="chart__bar" data-from="(\d+)"[^>]*data-count="(\d+)"', content)
    counted = {int(start): int(count) for start, count in bars if count != "0"}
    assert counted == {0: 1, 50: 1, 425: 1}  # 18, 68 and 435, in bins of 25.
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="chart chart--histogram"' in content


@pytest.mark.usefixtures("record")
def test_it_lists_the_players_games_newest_first_with_links_and_scores(client: Client) -> None:
    response = client.get(reverse("profile", args=["alice"]))

    rows = response.context["games"]
    assert [row.outcome for row in rows] == ["In progress", "Left", "Lost", "Shared win", "Won"]
    assert [row.seat.total for row in rows] == [50 + 30 + 20 + 100, 50, 18, 68, 435]
    assert [[(s.name, s.total) for s in row.opponents] for row in rows][2] == [("bob", 68)]
    playing, _, lost, *_ = rows
    content = response.content.decode()
    assert f'href="/g/{playing.summary.game.code}/"' in content
    assert f'href="/g/{lost.summary.game.code}/review/"' in content
    assert "bob <strong>68</strong>" in content


def test_it_pages_the_games_twenty_at_a_time(client: Client, alice: AbstractUser) -> None:
    for number in range(21):
        game = Game.objects.create(status=Game.Status.PLAYING)
        Player.objects.create(game=game, seat=0, name=f"Ana {number}", user=alice)

    first = client.get(reverse("profile", args=["alice"]))
    second = client.get(reverse("profile", args=["alice"]), {"page": "2"})

    assert len(first.context["games"]) == 20
    assert [row.seat.name for row in second.context["games"]] == ["Ana 0"]
    assert 'href="?page=2" rel="next"' in first.content.decode()
    assert "Page 2 of 2" in second.content.decode()


def test_it_shows_an_empty_profile_calmly(client: Client, alice: AbstractUser) -> None:
    client.force_login(alice)

    response = client.get(reverse("profile", args=["alice"]))

    content = response.content.decode()
    assert dict(response.context["tiles"])["Average score"] == "\N{EN DASH}"
    assert "No finished games yet" in content
    assert "No games yet." in content


def test_it_reads_the_profile_in_a_flat_number_of_queries(
    client: Client, fixed_dice: ModuleType, alice: AbstractUser, django_assert_max_num_queries
) -> None:
    for _ in range(3):
        play(Table("alice", "bob"), fixed_dice, {"alice": MIDDLE_CARD, "bob": SMALL_CARD})
    give_seats(alice, "session-alice")

    # The user; the stats (3); the page: its count, its games, their seats and boxes (4).
    with django_assert_max_num_queries(8):
        client.get(reverse("profile", args=["alice"]))


def test_a_socket_finds_its_account_from_the_session_as_a_request_does() -> None:
    # The socket reads the account on arrival (services.arrive_from), not in a middleware
    # before its handshake; the same rule as a page: the session's copy of the password's
    # hash must still match, so a password changed elsewhere logs the socket out too.
    ana = get_user_model().objects.create_user("ana", password="a long pass phrase")
    browser = Client()
    browser.force_login(ana)
    session_key = browser.session.session_key
    assert session_key
    assert services.session_key_of({"sessionid": session_key}) == session_key
    code = services.create_game(seats=2)[0].code
    arrival = services.arrive_from(code, session_key)
    assert arrival.user_id == ana.pk
    assert arrival.player_id is None  # A watcher here.
    assert services.arrive_from(code, "").user_id is None  # A guest,
    assert services.arrive_from(code, "no-such-session-key").user_id is None  # a stale cookie,
    assert services.session_key_of({"sessionid": "short"}) == ""  # one that is no key;
    ana.set_password("another long pass phrase")
    ana.save()
    assert services.arrive_from(code, session_key).user_id is None  # and a changed password.
