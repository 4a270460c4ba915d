"""The daily pages: today's dice (play, or see your result), and each day's board."""

from __future__ import annotations

import datetime

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from games.live import daily, duplicate, limits, refusals, services
from games.models import NAME_MAX_LENGTH, DailyEntry
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
    places = daily.board(day)
    mine = daily.entry_of(day, request.session.session_key or "", _user_id(request))
    if mine is not None:
        mine = daily.settle(mine)
    engine = daily.engine_of(day) if places else None
    url = request.build_absolute_uri(reverse("daily-day", args=[day.isoformat()]))
    context = {
        "day": day,
        "number": daily.day_number(day),
        "is_today": is_today,
        "places": places,
        "engine": engine,
        "mine": mine,
        "my_place": daily.place_of(places, mine) if mine else None,
        "share": (
            daily.share_text(mine, engine, url)
            if mine is not None and engine is not None and mine.score is not None
            else ""
        ),
        "playing": mine is not None and mine.score is None,
        "earlier": [
            d
            for d in DailyEntry.objects.filter(day__lt=day)
            .order_by("-day")
            .values_list("day", flat=True)
            .distinct()[:7]
        ],
    }
    return render(request, "games/daily.html", context)
