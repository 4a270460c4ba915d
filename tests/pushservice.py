"""A push service on 127.0.0.1 and a browser's side of Web Push, for the tests and the
push benchmark: the server posts to it as it would to a browser's push service, and
what it received is decrypted with the keys the "browser" made (RFC 8291, aes128gcm,
with http_ece: what a browser's push service hands the browser) and its VAPID
signature checked (RFC 8292).
"""

from __future__ import annotations

import base64
import json
import os
import queue
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece  # type: ignore[import-untyped]
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """A browser's keys for one subscription: what ``PushManager.subscribe`` makes."""

    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        """The subscription as ``PushSubscription.toJSON()`` gives it."""
        point = self.key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
        return {"endpoint": endpoint, "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)}}

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The notice in a message the server posted (aes128gcm), as JSON."""
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth)
        notice: dict[str, Any] = json.loads(plain)
        return notice


@dataclass(frozen=True)
class Received:
    """One message the push service took: its path, headers (by lower-case name), body
    and when it came."""

    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    def vapid_claims(self, public_key: str) -> dict[str, Any]:
        """The VAPID token's claims, once its signature is checked against ``public_key``
        (the site's, base64url) and the ``k=`` the request names is that key."""
        scheme, _, params = self.headers["authorization"].partition(" ")
        assert scheme == "vapid"
        fields = dict(part.strip().split("=", 1) for part in params.split(","))
        assert fields["k"] == public_key
        head, claims, signature = fields["t"].split(".")
        raw = unb64url(signature)
        der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
        key = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(public_key))
        key.verify(der, f"{head}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # Raises if forged.
        decoded: dict[str, Any] = json.loads(unb64url(claims))
        return decoded


class PushService:
    """An HTTP server that takes push messages like a browser's push service: each POST is
    answered ``status`` (201, or 410 for a subscription it no longer knows) and kept in
    :attr:`received`. With :attr:`hold` cleared, it keeps each request waiting until the
    test sets it."""

    def __init__(self, status: int = 201) -> None:
        self.status = status
        self.received: queue.Queue[Received] = queue.Queue()
        self.hold = threading.Event()
        self.hold.set()
        service = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                at = time.time()
                headers = {name.lower(): value for name, value in self.headers.items()}
                service.received.put(Received(self.path, headers, body, at))
                service.hold.wait(timeout=60)
                self.send_response(service.status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:  # Quiet.
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host!s}:{port}"

    def endpoint(self, name: str) -> str:
        """A subscription's endpoint at this service."""
        return f"{self.url}/push/{name}"

    def next(self, timeout: float = 30) -> Received:
        """The next message the service took (waits for it)."""
        return self.received.get(timeout=timeout)

    def __enter__(self) -> PushService:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.hold.set()
        self.server.shutdown()
        self.server.server_close()
