"""The site as an installable app: its manifest, its service worker, the page it shows
offline, a browser's Web Push opt-ins, and the page of the games one plays.

The service worker's script is ``static/js/sw.js``. It is served from the site's root
(``/sw.js``), not from ``/static/``, because a service worker controls only the pages
under its own path; the view puts the list of files it keeps for offline use (the app's
shell: :func:`shell`, by their served names, hashed in a deployed site) in front of it,
so the script's bytes change, and browsers install it afresh, whenever a file does.
The manifest is built here for the same reason: its icons' served names.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_safe

from games.models import PushSubscription
from games.web import mine
from games.web.scripts_catalog import page_catalog

#: The files kept for offline use, under static/: the pages' styles, scripts and icons.
SHELL_STATIC = ("css", "js", "img")
#: The pages kept for offline use (the offline page first: it is shown for any page).
SHELL_PAGES = ("/offline/",)
#: Subscriptions one browser session may keep: a browser has one (its push service's
#: endpoint for this site), a few more when it is reinstalled or its service changes;
#: not thousands, each a row and a post on every turn of its seats.
SUBSCRIPTIONS_PER_SESSION = 10
#: The browser's opt-ins, as the subscription's fields (:data:`games.live.push.TURN`, ...).
KINDS = ("turns", "starts", "rematches")


def shell() -> tuple[list[str], str]:
    """What the service worker keeps at install: :data:`SHELL_PAGES` and every file of
    :data:`SHELL_STATIC` (but the service worker itself), by the names they are served at;
    and their version, which changes whenever one of them does (a file's size or time)."""
    root = settings.BASE_DIR / "static"
    paths = sorted(
        path
        for folder in SHELL_STATIC
        for path in (root / folder).rglob("*")
        if path.is_file() and path.name != "sw.js"
    )
    version = hashlib.sha256()
    for path in paths:
        info = path.stat()
        version.update(f"{path.relative_to(root)} {info.st_size} {info.st_mtime_ns}\n".encode())
    names = [static(path.relative_to(root).as_posix()) for path in paths]
    return [*SHELL_PAGES, *names], version.hexdigest()[:12]


#: A message of the service worker's script: ``gettext("...")`` (its only translating call).
_WORKER_MESSAGE = re.compile(r'\bgettext\(\s*("(?:[^"\\\n]|\\.)*")\s*\)')


def worker_language(request: HttpRequest) -> str:
    """The language the worker is installed for: ``?lang=`` (static/js/worker.js puts the
    page's there), else the request's."""
    asked = request.GET.get("lang", "")
    if asked in dict(settings.LANGUAGES):
        return asked
    return translation.get_language() or settings.LANGUAGE_CODE


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """``static/js/sw.js`` at the site's root, its shell and its words in front of it."""
    path = finders.find("js/sw.js")
    assert isinstance(path, str)  # The file is part of the site.
    with open(path, encoding="utf-8") as script:
        source = script.read()
    files, version = shell()
    language = worker_language(request)
    messages = {json.loads(literal) for literal in _WORKER_MESSAGE.findall(source)}
    with translation.override(language):
        words = page_catalog(only=messages)["catalog"]
    given = {
        "version": version,
        "lang": language,
        "files": files,
        "icon": static("img/icon-192.png"),
        "catalog": words,
    }
    head = f"self.SHELL = {json.dumps(given)};\n"
    response = HttpResponse(head + source, content_type="text/javascript; charset=utf-8")
    # Browsers look for a new worker on every visit; nothing between may keep an old one.
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest: the name, the icons, and what the installed app opens."""
    icons = [
        {"src": static(f"img/icon-{size}.png"), "sizes": f"{size}x{size}", "type": "image/png"}
        for size in (192, 512)
    ]
    icons.append(
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    data = {
        "name": "Yahtzee Live",
        "short_name": "Yahtzee",
        "description": _("Play Yahtzee live with friends, or a turn a day."),
        "lang": translation.get_language(),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#14532d",
        "theme_color": "#14532d",
        "icons": icons,
        "shortcuts": [{"name": _("My games"), "url": "/my-games/"}],
    }
    response = JsonResponse(data, content_type="application/manifest+json")
    return response


@require_safe
def offline(request: HttpRequest) -> HttpResponse:
    """What the app shows for a page it cannot reach (the service worker keeps it)."""
    return render(request, "offline.html")


@require_safe
def my_games(request: HttpRequest) -> HttpResponse:
    """The games in play at which this browser (a guest) or this account holds a seat,
    with whose turn it is and how long is left; those waiting for you first."""
    user_id = request.user.pk if request.user.is_authenticated else None
    games = mine.games_in_play(
        user_id=user_id, session_key=request.session.session_key or "", now=timezone.now()
    )
    return render(request, "games/my_games.html", {"games": games})


class BadSubscription(ValueError):
    """A subscription the server refuses, with a stable ``code`` for the page."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _bytes(value: object, field: str) -> bytes:
    if not isinstance(value, str) or len(value) > 200:
        raise BadSubscription("bad_keys", f"{field} must be base64url text")
    try:
        return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        raise BadSubscription("bad_keys", f"{field} must be base64url text") from None


def read_subscription(data: Any) -> tuple[str, str, str, dict[str, bool]]:
    """A browser's subscription and opt-ins as sent: ``{"subscription": {"endpoint", "keys":
    {"p256dh", "auth"}}, "turns": bool, "starts": bool, "rematches": bool}``; its endpoint,
    keys and opt-ins, or :class:`BadSubscription`."""
    if not isinstance(data, dict) or not isinstance(data.get("subscription"), dict):
        raise BadSubscription("invalid_message", "send the browser's push subscription")
    subscription = data["subscription"]
    endpoint = subscription.get("endpoint")
    if not isinstance(endpoint, str) or len(endpoint) > 1000:
        raise BadSubscription("bad_endpoint", "the endpoint must be a URL")
    parts = urlsplit(endpoint)
    schemes = ("https",) if settings.PUSH_HTTPS_ONLY else ("https", "http")
    if parts.scheme not in schemes or not parts.hostname:
        raise BadSubscription("bad_endpoint", "the endpoint must be an https: URL")
    keys = subscription.get("keys")
    if not isinstance(keys, dict):
        raise BadSubscription("bad_keys", "send the subscription's keys")
    p256dh, auth = _bytes(keys.get("p256dh"), "p256dh"), _bytes(keys.get("auth"), "auth")
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), p256dh)
    except ValueError:
        raise BadSubscription("bad_keys", "p256dh must be a P-256 public key") from None
    if len(auth) != 16:
        raise BadSubscription("bad_keys", "auth must be 16 bytes")
    wanted = {}
    for kind in KINDS:
        value = data.get(kind, False)
        if not isinstance(value, bool):
            raise BadSubscription("invalid_message", f"{kind} must be true or false")
        wanted[kind] = value
    return endpoint, keys["p256dh"], keys["auth"], wanted


@never_cache
@require_http_methods(["GET", "POST"])
def push_subscription(request: HttpRequest) -> JsonResponse:
    """This browser's opt-ins to Web Push.

    GET ``?endpoint=``: what the subscription at that endpoint asked for (all off when
    the server has none). POST (JSON, :func:`read_subscription`): keep what it asks for,
    held by this browser's session and account; all off deletes it.
    """
    if not settings.VAPID_PUBLIC_KEY:
        return JsonResponse(
            {"error": "push_off", "message": "this site sends no notifications"}, status=404
        )
    if request.method == "GET":
        endpoint = request.GET.get("endpoint", "")
        row = PushSubscription.objects.filter(endpoint=endpoint).first()
        return JsonResponse({kind: bool(row and getattr(row, kind)) for kind in KINDS})
    try:
        endpoint, p256dh, auth, wanted = read_subscription(json.loads(request.body))
    except json.JSONDecodeError:
        return JsonResponse({"error": "invalid_message", "message": "send JSON"}, status=400)
    except BadSubscription as error:
        return JsonResponse({"error": error.code, "message": str(error)}, status=400)
    if not any(wanted.values()):
        PushSubscription.objects.filter(endpoint=endpoint).delete()
        return JsonResponse(wanted)
    if request.session.session_key is None:
        request.session.create()
    session_key = request.session.session_key or ""
    mine = PushSubscription.objects.filter(session_key=session_key).exclude(endpoint=endpoint)
    if mine.count() >= SUBSCRIPTIONS_PER_SESSION:
        message = "this browser has as many subscriptions as it may: turn one off first"
        return JsonResponse({"error": "too_many", "message": message}, status=429)
    PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "p256dh": p256dh,
            "auth": auth,
            "session_key": session_key,
            "user": request.user if request.user.is_authenticated else None,
            # Its notifications are worded in the language of the page that asked.
            "language": translation.get_language() or "",
            **wanted,
        },
    )
    return JsonResponse(wanted)
