"""A small JSON API for clients that are not the site's pages (see ``docs/protocol.md``).

It creates rooms and shows them; everything that happens in a room happens on
its websocket. It does not use the browser's session, so it needs no CSRF
token: a seat created here is held by the token it returns. A request body is
read and checked by :func:`games.wire.protocol.decode_create_game`, as the websocket's
messages are by :func:`games.wire.protocol.decode`.

Other web sites must not make their visitors' browsers create rooms. A browser
sends a cross-site ``POST`` without asking first only when its body is form data
or ``text/plain``, and then always with an ``Origin`` header: so the API takes a
body typed ``application/json`` alone, and refuses a request whose ``Origin`` is
another site.
Clients that are not browsers send no ``Origin`` and are served as before.
"""

import contextlib

import msgspec
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, JsonResponse
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST, require_safe

from games.engine import rules
from games.live import clock, daily, duplicate, limits, refusals, services
from games.live.services import CommandError
from games.models import Game, Player
from games.wire import protocol
from yahtzee_site import origins

MAX_BODY_BYTES = protocol.MAX_MESSAGE_BYTES


def refusal(status: int, code: str, message: str) -> JsonResponse:
    """A refusal: its code stays English; its message is in the request's language
    (Accept-Language, as for the pages: games/live/refusals.py)."""
    worded = refusals.worded(code, message)
    return JsonResponse({"error": {"code": code, "message": worded}}, status=status)


def _body(request: HttpRequest) -> bytes:
    """The request's body, or ``too_large`` past :data:`MAX_BODY_BYTES`, whatever its size.

    A declared length over the limit is refused before the body is read; Django's own
    limit (``DATA_UPLOAD_MAX_MEMORY_SIZE``, 2.5 MB) would answer its HTML 400 instead.
    """
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        declared = 0  # As Django reads it; decode_create_game checks what was really sent.
    if declared <= MAX_BODY_BYTES:
        with contextlib.suppress(RequestDataTooBig):
            return request.body
    raise protocol.request_too_large()


@csrf_exempt
@require_POST
def create_game(request: HttpRequest) -> JsonResponse:
    """``POST /api/games/`` with ``{"name", "preset", "seats", "turn_seconds", "bot_pace",
    "show_odds"}``: a new room (201)."""
    origin = request.headers.get("Origin")
    if origin is not None and not origins.is_trusted(
        origin, scheme=request.scheme or "http", host=request.get_host()
    ):
        return refusal(403, "forbidden_origin", "rooms are created from this site's own pages")
    try:
        sent = _body(request)
        # An empty body (every field left out) has nothing to type.
        if sent and request.content_type != "application/json":
            return refusal(415, "unsupported_media_type", "send the body as application/json")
        data = protocol.decode_create_game(sent)
    except protocol.ProtocolError as error:
        return refusal(413 if error.code == "too_large" else 400, error.code, str(error))
    # A script has no session: its address is what is counted.
    wait = limits.opening_a_room(limits.client_address(request))
    if wait:
        refused = refusal(429, "rate_limited", limits.rooms_refusal(wait))
        refused["Retry-After"] = str(wait)
        return refused
    if data.dice_of is not None or data.daily is not None:
        return _duplicate(data)
    try:
        game, player = services.create_game(
            preset=data.preset,
            seats=data.seats,
            host_name=data.name,
            turn_seconds=(
                clock.DEFAULT_TURN_SECONDS
                if data.turn_seconds is msgspec.UNSET
                else data.turn_seconds
            ),
            bot_pace=data.bot_pace,
            show_odds=data.show_odds,
        )
    except (CommandError, rules.RuleError) as error:
        return refusal(400, error.code, str(error))
    return _created(game, player)


def _duplicate(data: protocol.CreateGame) -> JsonResponse:
    """A duplicate game from the request (``dice_of`` or ``daily``): solo, started at once."""
    if data.dice_of is not None and data.daily is not None:
        return refusal(400, "invalid_message", "send dice_of or daily, not both")
    if data.name is None:
        return refusal(400, "invalid_name", "a duplicate game needs your name: you play it")
    try:
        if data.dice_of is not None:
            game = duplicate.play_dice_of(data.dice_of, data.name)
        else:
            game = daily.practice(data.daily, data.name)
    except CommandError as error:
        return refusal(404 if error.code == "no_such_game" else 400, error.code, error.message)
    return _created(game, game.players.get(seat=0))


def _created(game: Game, player: Player | None) -> JsonResponse:
    body = {
        "code": game.code,
        "websocket": f"/ws/games/{game.code}/",
        "snapshot": reverse("api-game", args=[game.code]),
        "seat": player.seat if player else None,
        "token": player.token if player else None,
    }
    return JsonResponse(body, status=201)


@require_safe
@never_cache
def game(request: HttpRequest, code: str) -> JsonResponse:
    """``GET /api/games/<code>/``: the room as a watcher sees it (the websocket's snapshot)."""
    try:
        return JsonResponse(services.snapshot(code))
    except CommandError as error:
        return refusal(404, error.code, str(error))
