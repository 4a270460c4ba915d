"""Web Push (games/live/push.py, games/web/app.py): what a command tells whose browsers, and
the message as a push service receives it, decrypted with the browser's keys."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.test import Client

from games.live import clock, push, services
from games.models import Connection, PushSubscription
from games.web import app
from tests.pushservice import Browser, PushService
from tests.server.helpers import Table

pytestmark = pytest.mark.django_db(transaction=True)

DAY = 24 * 60 * 60


@pytest.fixture(autouse=True)
def push_on(settings) -> None:  # type: ignore[no-untyped-def]
    """These tests are about push: commands hand their notices on (off in the other tests)."""
    settings.PUSH_SENDING = True


@pytest.fixture
def notices(monkeypatch: pytest.MonkeyPatch) -> list[push.Notice]:
    """The notices the commands post once committed, kept here instead of sent."""
    found: list[push.Notice] = []
    monkeypatch.setattr(push, "post", found.extend)
    return found


@pytest.fixture
def service() -> Iterator[PushService]:
    with PushService() as running:
        yield running


def subscribe(client: Client, browser: Browser, endpoint: str, **wanted: bool) -> dict:
    response = client.post(
        "/push/subscription/",
        {"subscription": browser.subscription(endpoint), **wanted},
        content_type="application/json",
    )
    assert response.status_code == 200, response.content
    return response.json()  # type: ignore[no-any-return]


def on_turn(table: Table) -> str | None:
    state = table.state()
    return next((name for name, p in table.players.items() if p.seat == state.current), None)


def pass_turn(table: Table) -> str | None:
    """The player on turn rolls and scores the first empty box; who is on turn next (None
    for a seat not in ``table.players``, a bot's)."""
    name = on_turn(table)
    assert name is not None
    table.roll(name)
    table.score(name, table.state().cards[table.players[name].seat].empty[0].value)
    return on_turn(table)


def test_it_tells_a_seat_its_turn_in_a_game_without_a_clock(notices) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "bob", "cy", turn_seconds=None)
    table.start()
    notices.clear()

    after = pass_turn(table)

    [notice] = notices
    assert after is not None
    assert (notice.kind, notice.code, notice.seat) == (push.TURN, table.code, table.seats()[after])
    assert notice.session_key == f"session-{after}"
    assert notice.body == f"{after}, the dice are yours (no clock)."


def test_a_site_that_does_not_send_tells_nobody(notices, settings) -> None:  # type: ignore[no-untyped-def]
    settings.PUSH_SENDING = False  # As in the other tests (tests/settings.py).
    table = Table("ana", "bob", turn_seconds=None)
    table.start("ana")

    assert not push.enabled()
    assert notices == []


@pytest.mark.parametrize(
    ("seconds", "told"), [(DAY, True), (3600, True), (3599, False), (60, False)]
)
def test_it_tells_the_turn_only_in_games_of_an_hour_a_turn_or_more(
    notices, seconds: int, told: bool
) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "bob", turn_seconds=seconds)
    table.start()
    notices.clear()

    pass_turn(table)

    assert [n.kind for n in notices] == ([push.TURN] if told else [])


def test_a_bots_seat_is_told_nothing(notices) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", turn_seconds=None)
    bot = services.add_bot(table.code, table.id("ana"), "casual")
    table.start()  # The bot, on turn or next, waits here: no driver runs in this test.
    if table.state().current == table.players["ana"].seat:
        pass_turn(table)

    assert table.state().current == bot.seat
    assert [n.seat for n in notices if n.kind == push.TURN] in ([], [0])


def test_it_tells_everyone_but_the_host_that_the_game_started(notices) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "bob", "cy", turn_seconds=60)

    table.start("ana")

    started = [n for n in notices if n.kind == push.STARTED]
    assert sorted(n.session_key for n in started) == ["session-bob", "session-cy"]
    assert started[0].body == "Playing: ana, bob, cy."
    assert started[0].code == table.code


def test_it_invites_everyone_who_stayed_but_the_opener_to_the_rematch(notices) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana", "bob", "cy", turn_seconds=None)
    table.start()
    table.leave("bob")
    table.play_out()
    notices.clear()

    new = services.rematch(table.code, table.id("cy"))

    [notice] = notices
    assert (notice.kind, notice.code) == (push.REMATCH, new.code)
    assert notice.session_key == "session-ana"
    assert notice.seat == 0  # ana's seat in the new room (bob left, so cy is seat 1 there).
    assert notice.body == "cy opened a rematch: your seat is waiting."


def test_the_turn_reaches_the_push_service_encrypted_for_the_browser(
    service, client, settings
) -> None:  # type: ignore[no-untyped-def]
    browser = Browser()
    subscribe(client, browser, service.endpoint("bob"), turns=True)
    table = Table("ana", turn_seconds=None)
    table.players["bob"] = services.join_game(
        table.code, "bob", session_key=client.session.session_key
    )
    table.start()
    while on_turn(table) != "bob":
        pass_turn(table)

    received = service.next()

    notice = browser.decrypt(received.body)
    assert notice["kind"] == "turns"
    assert notice["game"] == table.code
    assert notice["seat"] == table.players["bob"].seat
    assert notice["url"] == f"/g/{table.code}/"
    assert received.path == "/push/bob"
    assert received.headers["content-encoding"] == "aes128gcm"
    assert received.headers["urgency"] == "high"
    assert int(received.headers["ttl"]) == settings.PUSH_TTL
    claims = received.vapid_claims(settings.VAPID_PUBLIC_KEY)
    assert claims["aud"] == service.url
    assert claims["sub"] == settings.VAPID_SUBJECT


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_no_longer_knows_is_dropped(client, status) -> None:  # type: ignore[no-untyped-def]
    with PushService(status=status) as gone:
        subscribe(client, Browser(), gone.endpoint("ana"), starts=True)
        kept = Browser()
        PushSubscription.objects.create(
            endpoint="https://push.example/elsewhere",
            p256dh=kept.subscription("x")["keys"]["p256dh"],
            auth=kept.subscription("x")["keys"]["auth"],
            session_key="someone-else",
            starts=True,
        )
        table = Table("host", turn_seconds=60)
        services.join_game(table.code, "ana", session_key=client.session.session_key)
        table.start("host")

        gone.next()
        push.Sender.running().wait_until_sent()

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [
        "https://push.example/elsewhere"
    ]


def test_the_sender_outlives_a_database_it_cannot_check(service, client, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    browser = Browser()
    subscribe(client, browser, service.endpoint("ana"), starts=True)
    table = Table("host", turn_seconds=60)
    services.join_game(table.code, "ana", session_key=client.session.session_key)
    checks: list[str] = []

    def away() -> None:  # Checking the thread's connection fails, as with the database away.
        checks.append("failed")
        raise RuntimeError("the database is away")

    monkeypatch.setattr(push, "close_old_connections", away)
    table.start("host")
    push.Sender.running().wait_until_sent()  # Returns: the batch was seen to its end.
    monkeypatch.undo()
    assert checks

    later = Table("host", turn_seconds=60)  # The same thread sends the next game's notice.
    services.join_game(later.code, "ana", session_key=client.session.session_key)
    later.start("host")
    assert browser.decrypt(service.next().body)["game"] == later.code
    push.Sender.running().wait_until_sent()


def test_a_command_does_not_wait_for_the_push_service(service, client) -> None:  # type: ignore[no-untyped-def]
    subscribe(client, Browser(), service.endpoint("ana"), starts=True)
    table = Table("host", turn_seconds=60)
    services.join_game(table.code, "ana", session_key=client.session.session_key)
    service.hold.clear()  # The service takes the message and keeps it waiting.

    table.start("host")  # Returns...

    service.next()  # ...and the message reached the service, which has not answered yet.
    assert not service.hold.is_set()
    assert table.game.status == "playing"
    service.hold.set()
    push.Sender.running().wait_until_sent()


def test_a_seat_with_the_room_open_is_not_told(service) -> None:  # type: ignore[no-untyped-def]
    browsers = {name: Browser() for name in ("ana", "cy")}
    for name, browser in browsers.items():
        keys = browser.subscription("")["keys"]
        PushSubscription.objects.create(
            endpoint=service.endpoint(name), session_key=f"session-{name}", starts=True, **keys
        )
    table = Table("host", "ana", "cy", turn_seconds=60)
    game = table.game
    Connection.objects.create(game=game, player=table.players["ana"], seen_at=clock.now())

    table.start("host")
    push.Sender.running().wait_until_sent()

    told = service.next()
    assert told.path == "/push/cy"
    assert browsers["cy"].decrypt(told.body)["kind"] == push.STARTED
    assert service.received.empty()  # Nothing for ana, whose room is open.


def test_an_account_is_told_on_every_browser_it_subscribed(notices, django_user_model) -> None:  # type: ignore[no-untyped-def]
    user = django_user_model.objects.create_user("dora", password="x" * 12)
    table = Table("ana", turn_seconds=None)
    services.join_game(table.code, "dora", user_id=user.pk)

    table.start("ana")

    started = [n for n in notices if n.kind == push.STARTED]
    assert [(n.user_id, n.session_key) for n in started] == [(user.pk, "")]


def test_a_subscription_made_as_a_guest_follows_the_login(
    service, client, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    browser = Browser()
    subscribe(client, browser, service.endpoint("erin"), turns=True)  # As a guest.
    guest_session = client.session.session_key
    erin = django_user_model.objects.create_user("erin", password="a long password 1")
    elsewhere = Browser()  # Another account's browser: its subscription stays its own.
    other = django_user_model.objects.create_user("fred", password="a long password 2")
    PushSubscription.objects.create(
        endpoint=service.endpoint("fred"),
        p256dh=elsewhere.subscription("x")["keys"]["p256dh"],
        auth=elsewhere.subscription("x")["keys"]["auth"],
        session_key=guest_session,
        user=other,
        turns=True,
    )

    client.post("/accounts/login/", {"username": "erin", "password": "a long password 1"})

    assert client.session.session_key != guest_session  # Django cycled it.
    moved = PushSubscription.objects.get(endpoint=service.endpoint("erin"))
    assert (moved.user, moved.session_key) == (erin, client.session.session_key)
    kept = PushSubscription.objects.get(endpoint=service.endpoint("fred"))
    assert (kept.user, kept.session_key) == (other, guest_session)
    # A game the account plays from another device: its turn reaches this browser.
    table = Table("ana", turn_seconds=None)
    table.players["erin"] = services.join_game(
        table.code, "erin", session_key="erins-phone", user_id=erin.pk
    )
    table.start()
    while on_turn(table) != "erin":
        pass_turn(table)

    received = service.next()

    assert received.path == "/push/erin"
    notice = browser.decrypt(received.body)
    assert (notice["kind"], notice["game"]) == ("turns", table.code)
    assert notice["seat"] == table.players["erin"].seat


# The opt-ins, as the room's panel sends them ------------------------------------------


def test_opting_in_keeps_the_subscription_with_the_browsers_session(client) -> None:  # type: ignore[no-untyped-def]
    browser = Browser()

    answer = subscribe(client, browser, "https://push.example/a", turns=True, rematches=True)

    assert answer == {"turns": True, "starts": False, "rematches": True}
    row = PushSubscription.objects.get()
    assert (row.session_key, row.user, row.turns, row.starts, row.rematches) == (
        client.session.session_key,
        None,
        True,
        False,
        True,
    )
    shown = client.get("/push/subscription/", {"endpoint": "https://push.example/a"}).json()
    assert shown == answer


def test_turning_every_kind_off_deletes_the_subscription(client) -> None:  # type: ignore[no-untyped-def]
    browser = Browser()
    subscribe(client, browser, "https://push.example/a", starts=True)

    answer = subscribe(client, browser, "https://push.example/a")

    assert answer == {"turns": False, "starts": False, "rematches": False}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    ("change", "code"),
    [
        (lambda s: s.update(endpoint="ftp://push.example/a"), "bad_endpoint"),
        (lambda s: s.update(endpoint=5), "bad_endpoint"),
        (lambda s: s["keys"].update(p256dh="not a key"), "bad_keys"),
        (lambda s: s["keys"].update(p256dh="BAAA"), "bad_keys"),
        (lambda s: s["keys"].update(auth="c2hvcnQ"), "bad_keys"),
        (lambda s: s.pop("keys"), "bad_keys"),
    ],
)
def test_a_bad_subscription_is_refused_and_nothing_is_kept(client, change, code) -> None:  # type: ignore[no-untyped-def]
    subscription = Browser().subscription("https://push.example/a")
    change(subscription)

    response = client.post(
        "/push/subscription/",
        {"subscription": subscription, "turns": True},
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json()["error"] == code
    assert not PushSubscription.objects.exists()


def test_a_browser_may_keep_only_so_many_subscriptions(client) -> None:  # type: ignore[no-untyped-def]
    for n in range(app.SUBSCRIPTIONS_PER_SESSION):
        subscribe(client, Browser(), f"https://push.example/{n}", turns=True)
    subscribe(client, Browser(), "https://push.example/0", starts=True)  # The same: changed.

    response = client.post(
        "/push/subscription/",
        {"subscription": Browser().subscription("https://push.example/more"), "turns": True},
        content_type="application/json",
    )

    assert response.status_code == 429
    assert response.json()["error"] == "too_many"
    assert PushSubscription.objects.count() == app.SUBSCRIPTIONS_PER_SESSION


def test_an_opt_in_must_be_true_or_false(client) -> None:  # type: ignore[no-untyped-def]
    subscription = Browser().subscription("https://push.example/a")

    response = client.post(
        "/push/subscription/",
        {"subscription": subscription, "turns": "yes"},
        content_type="application/json",
    )

    assert response.status_code == 400
    assert response.json() == {"error": "invalid_message", "message": "turns must be true or false"}


def test_a_plain_http_endpoint_is_refused_on_a_deployed_site(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.PUSH_HTTPS_ONLY = True
    subscription = Browser().subscription("http://10.0.0.5/admin")

    response = client.post(
        "/push/subscription/",
        {"subscription": subscription, "turns": True},
        content_type="application/json",
    )

    assert response.json()["error"] == "bad_endpoint"
    assert not PushSubscription.objects.exists()


def test_a_site_without_a_vapid_key_offers_no_notifications(client, settings) -> None:  # type: ignore[no-untyped-def]
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_PRIVATE_KEY = ""
    table = Table("ana")

    room = client.get(f"/g/{table.code}/").content.decode()

    assert 'id="push-panel"' not in room
    assert client.get("/push/subscription/").status_code == 404
    assert not push.enabled()


def test_the_room_offers_the_opt_ins_off(client, settings) -> None:  # type: ignore[no-untyped-def]
    table = Table("ana")

    room = client.get(f"/g/{table.code}/").content.decode()

    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in room
    assert room.count('type="checkbox" name="') == 3
    assert "checked" not in room.split('id="push-panel"')[1].split("</section>")[0]


def test_the_manifest_names_the_app_and_its_icons(client) -> None:  # type: ignore[no-untyped-def]
    manifest = json.loads(client.get("/manifest.webmanifest").content)

    assert manifest["name"] == "Yahtzee Live"
    assert manifest["display"] == "standalone"
    assert [icon["sizes"] for icon in manifest["icons"]] == ["192x192", "512x512", "512x512"]
    for icon in manifest["icons"]:
        response = client.get(icon["src"])
        assert response.status_code == 200
        body = b"".join(response.streaming_content)
        assert body.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(body[16:20], "big"), int.from_bytes(body[20:24], "big")
        assert f"{width}x{height}" == icon["sizes"]


def modules_of(script: str) -> set[str]:
    """The static path of ``script`` (under static/) and of every module it imports, at
    any depth, by their served names."""
    root = Path(settings.BASE_DIR) / "static"
    found: set[str] = set()
    waiting = [root / script]
    while waiting:
        path = waiting.pop().resolve()
        name = f"/static/{path.relative_to(root).as_posix()}"
        if name in found:
            continue
        found.add(name)
        imports = re.findall(r'^import [^;]*? from "(\.{1,2}/[^"]+)";', path.read_text(), re.M)
        waiting.extend(path.parent / module for module in imports)
    return found


def test_the_service_worker_is_served_from_the_root_with_its_shell(client) -> None:  # type: ignore[no-untyped-def]
    response = client.get("/sw.js")

    assert response["Content-Type"].startswith("text/javascript")
    assert response["Cache-Control"] == "no-cache"
    head, _, source = response.content.decode().partition("\n")
    shell = json.loads(head.removeprefix("self.SHELL = ").removesuffix(";"))
    assert shell["files"][0] == "/offline/"
    assert {"/static/js/room.js", "/static/css/site.css", "/static/img/icon-192.png"} <= set(
        shell["files"]
    )
    assert "/static/js/sw.js" not in shell["files"]
    # Every module the room's page loads offline: room.js and all it imports, its panels too.
    assert {"/static/js/panels/tray.js", "/static/js/play.js"} <= modules_of("js/room.js")
    assert modules_of("js/room.js") <= set(shell["files"])
    assert 'addEventListener("push"' in source
    for path in shell["files"]:
        assert client.get(urlsplit(path).path).status_code == 200, path


def test_the_offline_page_says_so(client) -> None:  # type: ignore[no-untyped-def]
    page = client.get("/offline/").content.decode()

    assert "You are offline" in page
