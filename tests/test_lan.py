"""Serving friends on the same home network (LAN=1): addresses found, hosts allowed, invite
links that carry the machine's address (yahtzee_site/lan.py)."""

import json
import os
import re
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from urllib.request import Request, urlopen

import pytest
from daphne.testing import DaphneProcess
from django.urls import reverse

from games.live import services
from games.web.qr import qr_svg
from tests.conftest import close_connections_before_fork, make_application
from yahtzee_site import lan

ROOT = Path(__file__).resolve().parent.parent


# -- finding the machine's addresses ----------------------------------------------------------


def test_it_keeps_the_addresses_a_neighbour_can_reach_the_routed_one_first() -> None:
    resolved = ["127.0.1.1", "10.0.0.5", "192.168.1.20", "169.254.3.4", "8.8.8.8", "fe80::1"]

    found = lan.lan_addresses(
        "ana-laptop", route=lambda: "192.168.1.20", resolve=lambda name: resolved
    )

    # Loopback, link-local, public and IPv6 addresses are no use to a friend's phone.
    assert found == ["192.168.1.20", "10.0.0.5"]


def test_a_machine_on_no_network_has_no_address() -> None:
    assert lan.lan_addresses("ana-laptop", route=lambda: None, resolve=lambda name: []) == []
    assert lan.lan_addresses("x", route=lambda: None, resolve=lambda n: ["127.0.0.1"]) == []


def test_the_host_names_it_answers_to_are_its_addresses_and_its_name() -> None:
    found = lan.detect(hostname="Ana-Laptop", route=lambda: "192.168.1.20", resolve=lambda n: [])

    assert found.hosts == ["192.168.1.20", "ana-laptop", "ana-laptop.local"]
    assert found.invite_address == "192.168.1.20"
    assert lan.Lan(("10.0.0.5",), "mac.local").hosts == ["10.0.0.5", "mac.local"]
    assert lan.Lan((), "localhost").hosts == []
    assert lan.Lan((), "localhost").invite_address is None


def test_a_chosen_address_comes_first_and_is_the_invite_s() -> None:
    found = lan.detect(
        "10.0.0.5",
        hostname="box",
        route=lambda: "192.168.1.20",
        resolve=lambda n: ["10.0.0.5"],
    )

    assert found.addresses == ("10.0.0.5", "192.168.1.20")
    assert found.invite_address == "10.0.0.5"


def test_the_real_machine_s_addresses_are_local_ones() -> None:
    for address in lan.detect().addresses:
        assert lan.is_local_network(address)


@pytest.mark.parametrize(
    ("url", "address", "shared"),
    [
        ("http://127.0.0.1:8000/g/abc/", "192.168.1.20", "http://192.168.1.20:8000/g/abc/"),
        ("http://localhost:8000/g/abc/", "192.168.1.20", "http://192.168.1.20:8000/g/abc/"),
        ("http://[::1]:8000/g/abc/", "192.168.1.20", "http://192.168.1.20:8000/g/abc/"),
        ("http://127.0.0.1/g/abc/?x=1", "10.0.0.5", "http://10.0.0.5/g/abc/?x=1"),
        # Reached by another name, that name works for friends too; no address, nothing to do.
        ("http://ana-laptop.local:8000/g/abc/", "192.168.1.20", None),
        ("https://yahtzee.example/g/abc/", "192.168.1.20", None),
        ("http://127.0.0.1:8000/g/abc/", None, None),
    ],
)
def test_an_invite_link_made_at_a_loopback_address_carries_the_lan_one(
    url: str, address: str | None, shared: str | None
) -> None:
    assert lan.shareable(url, address) == (shared or url)


# -- the settings --------------------------------------------------------------------------


def allowed_hosts(**environ: str) -> dict:  # type: ignore[type-arg]
    """ALLOWED_HOSTS and the invite's address, as the settings make them from ``environ``."""
    clean = {
        k: v for k, v in os.environ.items() if k not in {"LAN", "LAN_ADDRESS", "ALLOWED_HOSTS"}
    }
    script = (
        "import json, django; from django.conf import settings; django.setup();"
        "print(json.dumps({'hosts': settings.ALLOWED_HOSTS,"
        " 'address': settings.YAHTZEE_LAN_ADDRESS}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings", "DEBUG": "1", **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_lan_adds_the_machine_s_address_and_name_to_the_allowed_hosts() -> None:
    off = allowed_hosts()
    on = allowed_hosts(LAN="1", LAN_ADDRESS="192.168.1.20")

    assert off == {"hosts": ["localhost", "127.0.0.1", "[::1]"], "address": None}
    assert on["address"] == "192.168.1.20"
    assert on["hosts"][:4] == ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]
    name = socket.gethostname().lower()
    assert name in on["hosts"]
    assert f"{name}.local" in on["hosts"]


# -- the room's invite link ----------------------------------------------------------------

LAN_ADDRESS = "192.168.1.20"


@pytest.fixture
def on_the_lan(settings):  # type: ignore[no-untyped-def]
    """The settings LAN=1 makes on a machine at 192.168.1.20 named ana-laptop."""
    found = lan.detect(hostname="ana-laptop", route=lambda: LAN_ADDRESS, resolve=lambda n: [])
    settings.ALLOWED_HOSTS = ["localhost", "127.0.0.1", *found.hosts]
    settings.YAHTZEE_LAN_ADDRESS = found.invite_address
    return settings


def invite_of(content: str) -> str:
    match = re.search(r'id="invite-url" class="invite__url" value="([^"]+)"', content)
    assert match, "no invite link on the page"
    return match.group(1)


@pytest.mark.django_db
def test_the_room_s_invite_and_qr_carry_the_machine_s_address(client, on_the_lan) -> None:  # type: ignore[no-untyped-def]
    code = services.create_game(host_name="Ana", seats=2)[0].code
    url = reverse("room", args=[code])
    shared = f"http://{LAN_ADDRESS}:8000{url}"

    at_home = client.get(url, HTTP_HOST="127.0.0.1:8000")
    by_address = client.get(url, HTTP_HOST=f"{LAN_ADDRESS}:8000")
    by_name = client.get(url, HTTP_HOST="ana-laptop.local:8000")

    assert invite_of(at_home.content.decode()) == shared
    assert qr_svg(shared, title="QR code of the invite link") in at_home.content.decode()
    assert by_address.status_code == 200
    assert invite_of(by_address.content.decode()) == shared
    assert invite_of(by_name.content.decode()) == f"http://ana-laptop.local:8000{url}"


@pytest.mark.django_db
def test_without_lan_another_host_is_refused_and_the_link_is_the_page_s(client) -> None:  # type: ignore[no-untyped-def]
    code = services.create_game(host_name="Ana", seats=2)[0].code
    url = reverse("room", args=[code])

    assert client.get(url, HTTP_HOST=f"{LAN_ADDRESS}:8000").status_code == 400
    home = client.get(url, HTTP_HOST="127.0.0.1:8000").content.decode()
    assert invite_of(home) == f"http://127.0.0.1:8000{url}"


# -- a real server on every interface -------------------------------------------------------


@pytest.fixture
def lan_server(transactional_db, settings) -> Iterator[tuple[str, int]]:  # type: ignore[no-untyped-def]
    """Daphne on 0.0.0.0 with the settings LAN=1 makes on this very machine, as serve.sh
    --lan runs it: its address on the network and the port."""
    found = lan.detect()
    if found.invite_address is None:
        pytest.skip("this machine has no address on a local network")
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, *found.hosts]
    settings.YAHTZEE_LAN_ADDRESS = found.invite_address
    close_connections_before_fork()
    server = DaphneProcess("0.0.0.0", make_application)
    server.start()
    try:
        if not server.ready.wait(timeout=20):
            raise RuntimeError("Daphne did not start")
        yield found.invite_address, server.port.value
    finally:
        server.terminate()
        server.join(timeout=10)


def test_a_friend_on_the_network_opens_the_invite_link(lan_server) -> None:  # type: ignore[no-untyped-def]
    address, port = lan_server
    code = services.create_game(host_name="Ana", seats=2)[0].code

    # The host opens the room on the machine itself; the link it shows is the network's.
    with urlopen(f"http://127.0.0.1:{port}/g/{code}/", timeout=10) as response:
        invite = invite_of(response.read().decode())
    assert invite == f"http://{address}:{port}/g/{code}/"
    # A friend's browser, at that address, gets the room (a 400 before LAN).
    with urlopen(Request(invite), timeout=10) as response:
        assert response.status == 200
        assert invite_of(response.read().decode()) == invite
