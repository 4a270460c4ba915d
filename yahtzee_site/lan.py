"""Serving friends on the same home network: ``LAN=1 bash scripts/serve.sh``.

On a laptop the site is at http://127.0.0.1:8000, an address that means "this
machine" to every machine: an invite link or QR code that says 127.0.0.1 sends a
friend's phone to itself. With ``LAN`` on, the settings add the machine's own
addresses on the local network (and its host name, as ``name`` and ``name.local``)
to ``ALLOWED_HOSTS``, so the site answers to them, and an invite link made for a
page opened at a loopback address carries the machine's address instead
(:func:`shareable`). ``LAN_ADDRESS`` picks the address when the machine has several
(a Wi-Fi and a wired one, say) or none is found.

Finding the addresses asks the operating system only, and nothing is sent: a UDP
socket "connected" to an outside address reports the address of the interface the
route to it leaves by, and the host name resolves to the machine's others. Both are
arguments of :func:`lan_addresses`, so tests choose what the machine has.

Run ``python -m yahtzee_site.lan`` to see what would be used.
"""

from __future__ import annotations

import argparse
import ipaddress
import socket
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

#: An address of the documentation range (TEST-NET-1): routed by the default route like
#: any outside address, and never contacted (connecting a UDP socket sends nothing).
ROUTE_PROBE = ("192.0.2.1", 9)

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain"})


def route_address() -> str | None:
    """The address of the interface the default route leaves by; ``None`` without one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(ROUTE_PROBE)
        except OSError:  # No route: the machine is on no network.
            return None
        address: str = probe.getsockname()[0]
        return address


def host_addresses(hostname: str) -> list[str]:
    """The IPv4 addresses ``hostname`` resolves to on this machine (none if it does not)."""
    try:
        found = socket.getaddrinfo(hostname, None, socket.AF_INET)
    except OSError:
        return []
    return [str(info[4][0]) for info in found]


def is_local_network(address: str) -> bool:
    """Whether ``address`` is an IPv4 address a neighbour on a home network can reach:
    private (192.168/16, 10/8, 172.16/12), not this machine's loopback, not link-local."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return ip.version == 4 and ip.is_private and not (ip.is_loopback or ip.is_link_local)


def lan_addresses(
    hostname: str,
    *,
    route: Callable[[], str | None] = route_address,
    resolve: Callable[[str], Iterable[str]] = host_addresses,
) -> list[str]:
    """The machine's addresses on the local network, each once: the one the default route
    leaves by first (the one friends most likely share), then the host name's."""
    found: list[str] = []
    for address in [route(), *resolve(hostname)]:
        if address and is_local_network(address) and address not in found:
            found.append(address)
    return found


@dataclass(frozen=True)
class Lan:
    """What serving on the local network adds: the names it answers to and the invite's host."""

    addresses: tuple[str, ...]
    hostname: str

    @property
    def hosts(self) -> list[str]:
        """For ``ALLOWED_HOSTS``: every address, and the host name with and without ``.local``
        (the name a Mac, or Linux with Avahi, announces on the network)."""
        names: list[str] = [*self.addresses]
        name = self.hostname.lower().rstrip(".")
        if name and name not in LOOPBACK_NAMES:
            names += [name] if name.endswith(".local") else [name, f"{name}.local"]
        return names

    @property
    def invite_address(self) -> str | None:
        """The address invite links carry in place of a loopback one."""
        return self.addresses[0] if self.addresses else None


def detect(
    chosen: str = "",
    *,
    hostname: str | None = None,
    route: Callable[[], str | None] = route_address,
    resolve: Callable[[str], Iterable[str]] = host_addresses,
) -> Lan:
    """This machine on its local network; ``chosen`` (``LAN_ADDRESS``), if given, comes first
    and is the invite's address whatever was found."""
    name = socket.gethostname() if hostname is None else hostname
    found = lan_addresses(name, route=route, resolve=resolve)
    if chosen:
        found = [chosen, *(a for a in found if a != chosen)]
    return Lan(addresses=tuple(found), hostname=name)


def is_loopback_host(host: str) -> bool:
    """Whether ``host`` (a name or address, IPv6 in brackets or not) means "this machine"."""
    bare = host.strip("[]").lower()
    if bare in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(bare).is_loopback
    except ValueError:
        return False


def shareable(url: str, lan_address: str | None) -> str:
    """``url`` as a friend on the network can open it: a loopback host is replaced with
    ``lan_address`` (scheme, port and path kept). Any other URL, or no address, is left as it is.

    >>> shareable("http://127.0.0.1:8000/g/abc/", "192.168.1.20")
    'http://192.168.1.20:8000/g/abc/'
    """
    parts = urlsplit(url)
    if not lan_address or parts.hostname is None or not is_loopback_host(parts.hostname):
        return url
    host = f"[{lan_address}]" if ":" in lan_address else lan_address
    netloc = f"{host}:{parts.port}" if parts.port else host
    return urlunsplit(parts._replace(netloc=netloc))


def main(argv: Sequence[str] | None = None) -> None:
    """Print where friends on the network find the site (serve.sh runs this with ``LAN`` on)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--address", default="", help="the address to use (LAN_ADDRESS)")
    args = parser.parse_args(argv)
    lan = detect(args.address)
    if not lan.addresses:
        print(
            "No address on a local network was found: is this machine on Wi-Fi or a cable? "
            "Set LAN_ADDRESS to the one friends should use."
        )
        return
    print("Friends on the same network open:")
    for address in lan.addresses:
        print(f"  http://{address}:{args.port}/")
    names = ", ".join(lan.hosts[len(lan.addresses) :])
    if names:
        print(f"(and by this machine's name: {names})")


if __name__ == "__main__":
    main()
