"""The daily pages: today's dice (play, or see your result), each day's board, and a daily
game's result as the room's end panel shows it."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST, require_safe

from games.live import daily, duplicate, limits, refusals, services
from games.models import NAME_MAX_LENGTH, DailyEntry
from games.web.api import refusal
from games.web.views import _session_key


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


@require_POST
def play_today(request: HttpRequest) -> HttpResponse:
    """Start today's game (or go back to it): a guest plays under the name sent, an account
    under its own. A browser or account that has played today's game sees its result."""
    session_key, user_id = _session_key(request), _user_id(request)
    day = daily.today()
    found = daily.entry_of(day, session_key, user_id)
    if found is None:
        wait = limits.opening_a_room(limits.client_address(request), session_key)
        if wait:
            messages.error(request, limits.rooms_refusal(wait))
            return redirect("daily")
    # An account plays under its username, cut to a seat's length (usernames may be longer).
    account_name = request.user.get_username()[:NAME_MAX_LENGTH]
    name = account_name if user_id is not None else request.POST.get("name", "")
    try:
        game = daily.play_today(name, session_key=session_key, user_id=user_id)
    except services.CommandError as error:
        reason = refusals.worded(error.code, str(error))
        messages.error(request, _("Today's game did not start: %(reason)s") % {"reason": reason})
        return redirect("daily")
    if duplicate.is_over(game):
        return redirect("daily")
    return redirect("room", code=game.code)


@require_safe
def today_page(request: HttpRequest) -> HttpResponse:
    """Today's dice: the button to play them, the game in play, or the result and the board."""
    return _day_page(request, daily.today())


@require_safe
def day_page(request: HttpRequest, day: str) -> HttpResponse:
    """The board of ``day`` (an ISO date): today's is :func:`today_page`."""
    try:
        when = datetime.date.fromisoformat(day)
    except ValueError:
        raise Http404("no such day") from None
    if when == daily.today():
        return redirect("daily")
    if when > daily.today() or when < daily.FIRST_DAY:
        raise Http404("no board for that day")
    return _day_page(request, when)


def _day_page(request: HttpRequest, day: datetime.date) -> HttpResponse:
    is_today = day == daily.today()
    day_board = daily.board(day)
    mine = daily.entry_of(day, request.session.session_key or "", _user_id(request))
    result = daily.result_of(mine, day_board) if mine is not None else None
    over = day_board.places or day_board.unfinished
    url = request.build_absolute_uri(reverse("daily-day", args=[day.isoformat()]))
    context = {
        "day": day,
        "number": daily.day_number(day),
        "is_today": is_today,
        "board": day_board,
        "places": day_board.places,
        "engine": result.engine if result is not None else daily.engine_of(day) if over else None,
        "mine": result.entry if result is not None else mine,
        "result": result,
        "share": result.share_text(url) if result is not None else "",
        "playing": mine is not None and result is None,
        "earlier": [
            d
            for d in DailyEntry.objects.filter(day__lt=day)
            .order_by("-day")
            .values_list("day", flat=True)
            .distinct()[:7]
        ],
    }
    return render(request, "games/daily.html", context)


@require_safe
@never_cache
def game_result(request: HttpRequest, code: str) -> JsonResponse:
    """``GET /g/<code>/daily/``: how daily game ``code`` did, for the room's end panel
    (``static/js/dailyresult.js``), drawn from the day's board as the day's page draws it:

    ``{"score", "finished", "boxes", "place", "ranked", "engine", "given_away", "share",
    "board"}``; ``place`` and ``given_away`` are ``null`` for an attempt not finished.
    Refused: ``no_such_game`` (404, or not a daily attempt), ``not_finished`` (409, the
    game is still played). Nothing here is secret: the board shows the same to anyone.
    """
    entry = DailyEntry.objects.filter(game__code=code).select_related("game").first()
    if entry is None:
        return refusal(404, "no_such_game", "there is no daily game at this link")
    result = daily.result_of(entry)
    if result is None:
        return refusal(409, "not_finished", "the game is still played")
    mine, board = result.entry, reverse("daily-day", args=[entry.day.isoformat()])
    return JsonResponse(
        {
            "score": mine.score,
            "finished": mine.finished,
            "boxes": mine.boxes,
            "place": result.place,
            "ranked": result.ranked,
            "engine": result.engine.score,
            "given_away": mine.given_away,
            "share": result.share_text(request.build_absolute_uri(board)),
            "board": board,
        }
    )
