"""Pages and the health endpoint."""

import asyncio
import time
from collections.abc import Awaitable

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from games import rules

HEALTH_TIMEOUT_SECONDS = 2.0


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The welcome page, with the scorecard's thirteen boxes explained."""

    def boxes(section: tuple[rules.Category, ...]) -> list[dict[str, str]]:
        return [{"label": c.label, "how": BOX_HOW_TO[c]} for c in section]

    sections = [
        {
            "title": "Upper section",
            "boxes": boxes(rules.UPPER),
            "bonus_label": "Bonus",
            "bonus": f"{rules.UPPER_BONUS} when the upper boxes reach "
            f"{rules.UPPER_BONUS_THRESHOLD}.",
        },
        {
            "title": "Lower section",
            "boxes": boxes(rules.LOWER),
            "bonus_label": "Yahtzee bonus",
            "bonus": f"{rules.YAHTZEE_BONUS} for each further Yahtzee, once the Yahtzee box "
            f"holds {rules.YAHTZEE_SCORE}.",
        },
    ]
    return render(
        request,
        "games/home.html",
        {"sections": sections, "presets": rules.PRESETS.values()},
    )


BOX_HOW_TO = {
    rules.Category.ONES: "Add up the ones.",
    rules.Category.TWOS: "Add up the twos.",
    rules.Category.THREES: "Add up the threes.",
    rules.Category.FOURS: "Add up the fours.",
    rules.Category.FIVES: "Add up the fives.",
    rules.Category.SIXES: "Add up the sixes.",
    rules.Category.THREE_OF_A_KIND: "At least three alike: the sum of all five dice.",
    rules.Category.FOUR_OF_A_KIND: "At least four alike: the sum of all five dice.",
    rules.Category.FULL_HOUSE: f"Three of one face and two of another: {rules.FULL_HOUSE_SCORE}.",
    rules.Category.SMALL_STRAIGHT: f"Four in a row, like 2-3-4-5: {rules.SMALL_STRAIGHT_SCORE}.",
    rules.Category.LARGE_STRAIGHT: f"Five in a row, 1-5 or 2-6: {rules.LARGE_STRAIGHT_SCORE}.",
    rules.Category.YAHTZEE: f"All five dice alike: {rules.YAHTZEE_SCORE}.",
    rules.Category.CHANCE: "Anything at all: the sum of all five dice.",
}


def _check_database() -> dict[str, object]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        cursor.fetchone()
    return {"ok": True, "vendor": connection.vendor}


async def _check_channel_layer() -> dict[str, object]:
    """Send a message to a fresh channel of our own and read it back."""
    layer = get_channel_layer()
    if layer is None:
        return {"ok": False, "error": "no channel layer is configured"}
    channel = await layer.new_channel()
    await layer.send(channel, {"type": "health.ping"})
    message = await layer.receive(channel)
    return {"ok": message.get("type") == "health.ping", "backend": type(layer).__name__}


async def _timed(check: Awaitable[dict[str, object]]) -> dict[str, object]:
    started = time.perf_counter()
    try:
        result = await asyncio.wait_for(check, HEALTH_TIMEOUT_SECONDS)
    except Exception as error:  # A health check reports every failure instead of raising it.
        result = {"ok": False, "error": f"{type(error).__name__}: {error}"}
    result["ms"] = round((time.perf_counter() - started) * 1000, 1)
    return result


@never_cache
@require_safe
async def health(request: HttpRequest) -> JsonResponse:
    """Whether the database and the channel layer answer: 200 when both do, else 503."""
    database = await _timed(database_sync_to_async(_check_database)())
    channel_layer = await _timed(_check_channel_layer())
    ok = bool(database["ok"]) and bool(channel_layer["ok"])
    return JsonResponse(
        {"status": "ok" if ok else "failing", "database": database, "channel_layer": channel_layer},
        status=200 if ok else 503,
    )
