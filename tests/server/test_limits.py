"""Limits on abuse (issue 17): each refuses what it should, clearly, and changes nothing else,
while a normal player never meets one.

Most tests make a limit small with the ``settings`` fixture; the whole-game tests
(here, in test_consumer.py and in test_live.py) run with the deployed figures.
"""

from __future__ import annotations

import json
from types import ModuleType

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.test import Client
from django.urls import reverse

from games.live import bots, limits, services
from games.live.services import CommandError
from games.models import Game, GameEvent
from tests.server.helpers import Table, fingerprint, play_solo
from tests.server.test_consumer import Client as Socket
from tests.server.test_consumer import new_game, seat

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"
HOME = "10.0.0.1"
ELSEWHERE = "10.0.0.2"
ROOM_FORM = {"name": "Ana", "preset": "official", "seats": "2", "turn_seconds": "60"}


@pytest.fixture
def alice() -> AbstractUser:
    return get_user_model().objects.create_user("alice", password=PASSWORD)


class Moment:
    """The time the limits count in, moved on by the test."""

    def __init__(self) -> None:
        self.at = 3600.0 * 278  # The start of an hour, so the waits are whole windows.

    def __call__(self) -> float:
        return self.at


@pytest.fixture
def moment(monkeypatch: pytest.MonkeyPatch) -> Moment:
    moment = Moment()
    monkeypatch.setattr(limits, "now", moment)
    return moment


def log_in(client: Client, password: str, address: str = HOME, username: str = "alice"):  # type: ignore[no-untyped-def]
    form = {"username": username, "password": password}
    return client.post(reverse("login"), form, REMOTE_ADDR=address)


# -- logging in (django-axes) ------------------------------------------------------------


def test_it_locks_an_account_from_an_address_after_five_wrong_passwords(
    alice: AbstractUser,
) -> None:
    guesser = Client()
    answers = [log_in(guesser, f"guess {n}").status_code for n in range(5)]
    locked = log_in(guesser, PASSWORD)

    assert answers == [200, 200, 200, 200, 429]
    assert locked.status_code == 429  # The right password too, while it lasts.
    assert "_auth_user_id" not in guesser.session
    page = locked.content.decode()
    assert "Logging in is paused" in page
    assert "5 wrong passwords in a row for <strong>alice</strong>" in page
    assert "paused for 15 minutes" in page
    # Alice elsewhere is not locked out by someone guessing her password.
    elsewhere = Client()
    assert log_in(elsewhere, PASSWORD, address=ELSEWHERE).status_code == 302
    assert elsewhere.session["_auth_user_id"] == str(alice.pk)


def test_a_person_who_mistypes_a_few_times_logs_in_and_starts_again(
    alice: AbstractUser,
) -> None:
    client = Client()
    for n in range(4):
        assert log_in(client, f"typo {n}").status_code == 200
    assert log_in(client, PASSWORD).status_code == 302
    client.logout()
    for n in range(4):  # The count started again at the success.
        assert log_in(client, f"typo {n}").status_code == 200
    assert log_in(client, PASSWORD).status_code == 302


def test_an_address_that_fails_on_many_accounts_is_slowed_not_banned(
    settings, alice: AbstractUser, moment: Moment
) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_LOGIN_FAILURES_PER_ADDRESS = (3, 3600, 60)
    sprayer = Client()
    for name in ("bob", "cy", "dee"):  # Free.
        assert log_in(sprayer, "123456", username=name).status_code == 200
    assert log_in(sprayer, "123456", username="eve").status_code == 200  # One past: 2 s.

    refused = log_in(Client(), PASSWORD)  # Alice, behind the same address, a new browser.

    assert refused.status_code == 429
    assert "Too many failed log-ins from your network: try again in 2 seconds." in (
        refused.content.decode()
    )
    assert log_in(Client(), PASSWORD, address=ELSEWHERE).status_code == 302
    moment.at += 2  # Seconds, not an hour: then the right password works.
    assert log_in(Client(), PASSWORD).status_code == 302
    # Each failure past the free ones doubles the wait after it, up to a minute.
    waits = []
    for n in range(8):
        moment.at += 60
        assert log_in(sprayer, "123456", username=f"x{n}").status_code == 200
        waits.append(limits.slowed("login-address", HOME, free=3, window=3600, most=60))
    assert waits == [4, 8, 16, 32, 60, 60, 60, 60]


def test_a_browser_that_logged_in_before_is_not_slowed_by_others_failures(
    settings, alice: AbstractUser, moment: Moment
) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_LOGIN_FAILURES_PER_ADDRESS = (1, 3600, 60)
    settings.LIMIT_LOGIN_FAILURES_PER_ACCOUNT = (0, 3600, 60)
    hers = Client()
    assert log_in(hers, PASSWORD).status_code == 302
    hers.post(reverse("logout"))  # Client.logout() would forget its cookies too.
    for name in ("alice", "bob"):  # Someone else on her network fails, on her account too.
        assert log_in(Client(), "123456", username=name).status_code == 200

    assert log_in(Client(), PASSWORD).status_code == 429  # A new browser waits.
    assert log_in(Client(), PASSWORD, address=ELSEWHERE).status_code == 429  # Her account.
    assert log_in(hers, PASSWORD).status_code == 302  # Hers does not.
    # The cookie is signed: a browser cannot claim to know an account.
    forged = Client()
    forged.cookies["known_accounts"] = "alice"
    assert log_in(forged, PASSWORD).status_code == 429


def test_many_addresses_guessing_one_account_slow_that_account(
    settings, alice: AbstractUser, moment: Moment
) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_LOGIN_FAILURES_PER_ACCOUNT = (3, 3600, 60)
    for n in range(4):
        assert log_in(Client(), "guess", address=f"10.1.0.{n}").status_code == 200

    refused = log_in(Client(), PASSWORD, address="10.2.0.1")

    assert refused.status_code == 429
    assert "Too many failed log-ins to this account: try again in 2 seconds." in (
        refused.content.decode()
    )
    bob = get_user_model().objects.create_user("bob", password=PASSWORD)
    assert log_in(Client(), PASSWORD, address="10.2.0.1", username="bob").status_code == 302
    moment.at += 2
    assert log_in(Client(), PASSWORD, address="10.2.0.1").status_code == 302
    assert bob.pk


# -- signing up -----------------------------------------------------------------------------


def test_it_refuses_sign_ups_past_the_limit_and_creates_nobody(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_SIGNUPS_PER_ADDRESS = [(2, 3600)]
    client = Client()

    def sign_up(name: str):  # type: ignore[no-untyped-def]
        form = {"username": name, "password1": PASSWORD, "password2": PASSWORD}
        return client.post(reverse("signup"), form, REMOTE_ADDR=HOME)

    assert sign_up("ana").status_code == 302
    client.logout()
    assert sign_up("ana").status_code == 200  # Taken: an attempt all the same.
    refused = sign_up("bea")

    assert refused.status_code == 429
    page = refused.content.decode()
    assert "Too many sign-up attempts from your network: try again in 60 minutes." in page
    assert 'value="bea"' in page  # The form again, as typed.
    assert list(get_user_model().objects.values_list("username", flat=True)) == ["ana"]
    moment.at += 3600
    assert sign_up("bea").status_code == 302


# -- opening rooms ------------------------------------------------------------------------


def test_the_home_page_refuses_a_browser_opening_too_many_rooms(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_ROOMS_PER_SESSION = [(2, 60)]
    browser = Client()
    opened = [browser.post(reverse("home"), ROOM_FORM, REMOTE_ADDR=HOME) for _ in range(2)]

    refused = browser.post(reverse("home"), ROOM_FORM, REMOTE_ADDR=HOME)

    assert [r.status_code for r in opened] == [302, 302]
    assert refused.status_code == 429
    assert "You have opened a lot of rooms just now: try again in a minute." in (
        refused.content.decode()
    )
    assert 'value="Ana"' in refused.content.decode()  # The form as it was filled in.
    assert Game.objects.count() == 2
    # Another browser at the same address is not this one.
    assert Client().post(reverse("home"), ROOM_FORM, REMOTE_ADDR=HOME).status_code == 302
    moment.at += 60
    assert browser.post(reverse("home"), ROOM_FORM, REMOTE_ADDR=HOME).status_code == 302


def test_the_home_page_refuses_an_address_opening_too_many_rooms(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    # The limit counts in windows of the clock: a frozen moment keeps the four posts in one
    # (on a loaded machine, four real posts once straddled a minute and were all let through).
    settings.LIMIT_ROOMS_PER_ADDRESS = [(3, 60)]
    answers = [
        Client().post(reverse("home"), ROOM_FORM, REMOTE_ADDR=HOME).status_code for _ in range(4)
    ]

    assert answers == [302, 302, 302, 429]
    assert Game.objects.count() == 3
    assert Client().post(reverse("home"), ROOM_FORM, REMOTE_ADDR=ELSEWHERE).status_code == 302


def test_the_api_refuses_an_address_opening_too_many_rooms(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_ROOMS_PER_ADDRESS = [(3, 60), (5, 3600)]
    body = json.dumps({"name": "Bot", "preset": "official", "seats": 2})

    def create(address: str = HOME):  # type: ignore[no-untyped-def]
        return Client().post(
            "/api/games/", body, content_type="application/json", REMOTE_ADDR=address
        )

    assert [create().status_code for _ in range(3)] == [201, 201, 201]
    refused = create()

    assert refused.status_code == 429
    assert refused.json() == {
        "error": {
            "code": "rate_limited",
            "message": "You have opened a lot of rooms just now: try again in a minute.",
        }
    }
    assert refused["Retry-After"] == "60"
    assert Game.objects.count() == 3
    assert create(ELSEWHERE).status_code == 201
    # A new minute, but the hour (which counted the refusal too) allows one more.
    moment.at += 60
    assert [create().status_code for _ in range(2)] == [201, 429]
    assert create()["Retry-After"] == str(3600 - 60)


def test_the_client_address_behind_a_proxy_comes_from_its_header(settings, rf) -> None:  # type: ignore[no-untyped-def]
    request = rf.get("/", REMOTE_ADDR="127.0.0.1", HTTP_X_REAL_IP="203.0.113.9")
    assert limits.client_address(request) == "127.0.0.1"
    settings.CLIENT_ADDRESS_HEADER = "X-Real-IP"
    assert limits.client_address(request) == "203.0.113.9"
    six = rf.get("/", REMOTE_ADDR="2001:db8:1:2:3:4:5:6")
    assert limits.client_address(six) == "2001:db8:1:2::/64"


# -- chat -----------------------------------------------------------------------------------


def chat(table: Table, name: str, text: str = "hi") -> str | None:
    """Say ``text`` as ``name``; the code of the refusal, if any."""
    try:
        services.chat(table.code, table.id(name), text)
    except CommandError as error:
        return error.code
    return None


def test_chat_is_limited_per_seat_and_a_refusal_changes_nothing(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_CHAT_PER_SEAT = [(3, 10)]
    table = Table("ana", "bea")
    said = [chat(table, "ana") for _ in range(3)]
    before = fingerprint(table.code)

    assert said == [None, None, None]
    assert chat(table, "ana") == "chat_rate_limited"
    assert fingerprint(table.code) == before
    assert chat(table, "bea") is None  # Another seat has its own count.
    moment.at += 10
    assert chat(table, "ana") is None


@pytest.mark.asyncio
@pytest.mark.django_db(transaction=True)
async def test_chat_from_every_socket_of_a_seat_counts_together(settings, moment: Moment) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_CHAT_PER_SEAT = [(4, 60)]
    code = await new_game()
    ana = await seat(code, "Ana")
    other_tab = await Socket(code, ana.session_key).connect()
    await ana.drain()
    await other_tab.drain()
    for n in range(3):
        for tab in (ana, other_tab):
            await tab.send(type="chat", text=f"line {n}", id=n)
    for tab in (ana, other_tab):  # Its commands answered (a barrier), then every line told.
        await tab.drain()
    for tab in (ana, other_tab):
        await tab.catch_up()

    said = [e["data"]["text"] for e in ana.events if e["kind"] == "chat"]
    assert len(said) == 4
    assert [e["data"]["text"] for e in other_tab.events if e["kind"] == "chat"] == said
    refused = ana.errors + other_tab.errors
    assert [e["code"] for e in refused] == ["chat_rate_limited"] * 2
    assert refused[0]["message"] == "too many chat messages: wait a minute"
    for tab in (ana, other_tab):
        await tab.close()


def test_the_game_is_played_while_its_log_is_full_and_chat_is_refused(settings) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "bea")
    table.start()
    settings.LIMIT_LOG_EVENTS = table.version + 2
    assert [chat(table, "ana"), chat(table, "bea")] == [None, None]
    before = fingerprint(table.code)

    assert chat(table, "ana") == "log_full"
    assert fingerprint(table.code) == before
    table.play_out()  # Play goes on to the end, past the cap.
    assert table.game.status == Game.Status.FINISHED
    assert table.version > settings.LIMIT_LOG_EVENTS


def test_after_the_game_each_seat_has_a_small_allowance_of_chat(
    settings, fixed_dice: ModuleType
) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_CHAT_AFTER_END = 2
    settings.YAHTZEE_RATE_LIMITS = False  # The allowance holds even with rates off.
    table = play_solo(fixed_dice)
    said = [chat(table, "ana", "good game") for _ in range(2)]
    before = fingerprint(table.code)

    assert said == [None, None]
    assert chat(table, "ana", "and another thing") == "chat_closed"
    assert fingerprint(table.code) == before


def test_chat_in_a_game_that_was_abandoned_has_the_same_allowance(settings) -> None:  # type: ignore[no-untyped-def]
    settings.LIMIT_CHAT_AFTER_END = 1
    table = Table("ana", "bea")
    table.start()
    Game.objects.filter(code=table.code).update(status=Game.Status.ABANDONED)
    services.copies.clear()  # Forget this process's copy: the game is read afresh.

    assert [chat(table, "bea"), chat(table, "bea"), chat(table, "ana")] == [
        None,
        "chat_closed",
        None,
    ]


# -- a normal game meets none of them ---------------------------------------------------------


def play_bots(code: str) -> None:
    while (plan := bots.next_plan(code)) is not None:
        assert bots.make(plan)


@pytest.mark.django_db(transaction=True)
def test_a_full_table_of_six_chatting_every_round_meets_no_limit(moment: Moment) -> None:
    """The largest game: six seats (a person and five optimal bots, who show the dice they
    keep before each roll), the person saying two lines a round and three at each end,
    at the pace of a game: a bot's turn takes a few seconds. Its log is the measure the
    cap on a game's log is set against."""
    table = Table("ana", seats=6)
    for _ in range(5):
        services.add_bot(table.code, table.id("ana"), "optimal")
    for name in ("ana", "ana", "ana"):
        assert chat(table, name, "who's ready?") is None
    table.start()
    while table.game.status == Game.Status.PLAYING:
        play_bots(table.code)
        moment.at += 5 * 4  # Five bots' turns.
        assert chat(table, "ana", "nice one") is None
        if table.game.status == Game.Status.PLAYING:  # Ana's turn: three rolls, then a box.
            assert chat(table, "ana", "my turn!") is None
            moment.at += 10
            table.roll("ana")
            table.hold("ana", [0])
            table.hold("ana", [0, 1])
            table.roll("ana", [0, 1])
            table.hold("ana", [0, 1, 2])
            table.roll("ana", [0, 1, 2])
            state = table.state()
            options = state.cards[0].options(state.turn.dice or ())
            table.score("ana", max(options, key=lambda c: options[c]).value)
    for _ in range(3):
        assert chat(table, "ana", "good game!") is None

    logged = GameEvent.objects.filter(game__code=table.code).count()
    assert logged < 1_000
    assert logged * 5 < settings.LIMIT_LOG_EVENTS
