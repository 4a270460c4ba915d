"""Pages and the health endpoint."""

import asyncio
import time
from collections.abc import Awaitable, Sequence
from typing import Any

from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib import messages
from django.core.cache import cache
from django.core.paginator import Paginator
from django.db import connections
from django.db.utils import load_backend
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from games.engine import rules
from games.insight import analysis, chances
from games.insight.review import Review, card_rows, move_list
from games.insight.review import build as review_of
from games.live import daily, duplicate, limits, refusals, services
from games.models import NAME_MAX_LENGTH, Game, Player
from games.web import charts, history, review_words
from games.web.forms import NewGameForm
from games.web.qr import qr_svg
from games.wire import presentation
from games.words import (
    box_label,
    box_short_label,
    clock_words,
    ordinal,
    percent,
    preset_label,
    worded_rows,
)
from yahtzee_site import lan

HEALTH_TIMEOUT_SECONDS = 2.0


LIVE_GAMES_SHOWN = 8
GAMES_PER_PAGE = 20
#: The format of a game's JSON export (docs/export.md); raised when its shape changes.
EXPORT_FORMAT = "yahtzee-live-game/1"


@require_http_methods(["GET", "HEAD", "POST"])
def home(request: HttpRequest) -> HttpResponse:
    """The welcome page: open a room, watch a live game, learn the scorecard.

    Opening a room seats its creator as host; the seat belongs to this browser's session.
    """
    initial = {"name": request.user.username} if request.user.is_authenticated else {}
    form = NewGameForm(request.POST or None, initial=initial)
    status = 200
    if request.method == "POST" and form.is_valid():
        wait = limits.opening_a_room(limits.client_address(request), _session_key(request))
        if wait:
            form.add_error(None, limits.rooms_refusal(wait))
            status = 429
        else:
            try:
                game, _events = services.create_game(
                    preset=form.cleaned_data["preset"],
                    seats=form.cleaned_data["seats"],
                    turn_seconds=form.cleaned_data["turn_seconds"],
                    bot_pace=form.cleaned_data["bot_pace"],
                    show_odds=form.cleaned_data["show_odds"],
                    host_name=form.cleaned_data["name"],
                    session_key=_session_key(request),
                    user_id=request.user.pk if request.user.is_authenticated else None,
                )
            except services.CommandError as error:
                form.add_error("name", refusals.worded(error.code, str(error)))
            else:
                return redirect("room", code=game.code)

    def boxes(section: tuple[rules.Category, ...]) -> list[dict[str, str]]:
        return [{"label": box_label(c), "how": str(BOX_HOW_TO[c])} for c in section]

    sections = [
        {
            "title": _("Upper section"),
            "boxes": boxes(rules.UPPER),
            "bonus_label": _("Bonus"),
            "bonus": _("%(bonus)s when the upper boxes reach %(threshold)s.")
            % {"bonus": rules.UPPER_BONUS, "threshold": rules.UPPER_BONUS_THRESHOLD},
        },
        {
            "title": _("Lower section"),
            "boxes": boxes(rules.LOWER),
            "bonus_label": _("Yahtzee bonus"),
            "bonus": _("%(bonus)s for each further Yahtzee, once the Yahtzee box holds %(score)s.")
            % {"bonus": rules.YAHTZEE_BONUS, "score": rules.YAHTZEE_SCORE},
        },
    ]
    live_games = (
        # A daily game in play shows the day's dice as they roll: nobody may watch it.
        Game.objects.filter(status=Game.Status.PLAYING, daily__isnull=True)
        .order_by("-started_at")
        .prefetch_related("players")[:LIVE_GAMES_SHOWN]
    )
    return render(
        request,
        "games/home.html",
        {
            "form": form,
            "live_games": live_games,
            "sections": sections,
            "presets": _presets_with_a_joker(),
            # The third preset, a game of its own: named under the two.
            "yatzy": {"label": preset_label(rules.YATZY), "boxes": len(rules.YATZY.boxes)},
        },
        status=status,
    )


@require_safe
def room(request: HttpRequest, code: str) -> HttpResponse:
    """A game room at its invite link: the lobby, the table, then the final cards.

    The page is a shell; its script draws the room from the websocket's snapshot
    and events. The browser needs a session before the socket opens, because a
    seat taken on the socket belongs to the session.
    """
    game = get_object_or_404(Game, code=code)
    if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED):
        # The invite link of a game that is over; a moment asked for (?at=) is kept.
        review = reverse("review", args=[game.code])
        at = request.GET.get("at", "")
        return redirect(f"{review}?at={at}" if at.isdigit() else review)
    _session_key(request)
    # Opened at 127.0.0.1 with LAN on, the link carries the machine's address on the network.
    invite_url = lan.shareable(
        request.build_absolute_uri(reverse("room", args=[game.code])),
        settings.YAHTZEE_LAN_ADDRESS,
    )
    preset = game.rules
    config = {
        "code": game.code,
        "websocket": f"/ws/games/{game.code}/",
        # The boxes of this room's card (its preset's), in the card's order, with the short
        # name a phone's card shows.
        "categories": [
            {
                "id": c.value,
                "label": box_label(c, preset),
                "short": box_short_label(c, preset),
                "upper": c.is_upper,
            }
            for c in preset.boxes
        ],
        "upperBonusThreshold": rules.UPPER_BONUS_THRESHOLD,
        "upperBonus": preset.upper_bonus,
        "yahtzeeBonus": preset.yahtzee_bonus,
        "maxNameLength": NAME_MAX_LENGTH,
        # Today's dice are played once a day: the end offers the day's board, not a rematch.
        "daily": game.daily is not None,
    }
    return render(
        request,
        "games/room.html",
        {
            "game": game,
            "invite_url": invite_url,
            "qr_svg": qr_svg(invite_url, title=_("QR code of the invite link")),
            "config": config,
            # Web Push's opt-ins (games/web/app.py), where the site has a VAPID key.
            "push_key": settings.VAPID_PUBLIC_KEY,
        },
    )


@require_safe
def history_page(request: HttpRequest) -> HttpResponse:
    """Every game played here, newest first, paged; ``?mine=1`` keeps this browser's own."""
    mine = request.GET.get("mine") == "1"
    if mine:
        games = history.games_of(
            user_id=request.user.pk if request.user.is_authenticated else None,
            session_key=request.session.session_key or "",
        )
    else:
        # Today's daily games show today's dice: listed for their own players only.
        games = history.listed_games().exclude(daily__gte=daily.today())
    page = Paginator(games, GAMES_PER_PAGE).get_page(request.GET.get("page"))
    return render(
        request,
        "games/history.html",
        {"page": page, "summaries": history.summaries(page.object_list), "mine": mine},
    )


@require_safe
def review(request: HttpRequest, code: str) -> HttpResponse:
    """A game that is over (finished, or abandoned unfinished): the cards, the running
    totals, a move-by-move replay, and the analysis of every decision against optimal
    solitaire play, the clock's and the bots' moves for a player marked as such.

    ``?at=<event number>`` opens the replay at that moment. A game's play never
    changes once it is over, so its analysis is computed on the first view and cached by code
    and ``state_version`` (a chat after the end raises only ``version``: the analysis stays).
    """
    game = get_object_or_404(Game, code=code)
    if game.status not in (Game.Status.FINISHED, Game.Status.ABANDONED):
        return redirect("room", code=game.code)
    events = services.replay_events(game.code)  # Read once, for the review and the analysis.
    told = review_of(events)
    # The analysis and the chances are cached as facts, in no language: review_words words
    # them for each reader.
    analysis_key = f"games.insight.analysis:{analysis.FORMAT}:{game.code}:{game.state_version}"
    judged = cache.get(analysis_key)
    if judged is None:
        judged = analysis.analyse(events)
        cache.set(analysis_key, judged, timeout=None)
    # Who was likely to win: a game of two seats or more (alone, a player always wins).
    odds = win_chances(game, told) if len(told.names) > 1 else None
    turning = odds.turning_points() if odds else ()
    marks = [
        charts.TurningMark(number, point.index, point.seat, review_words.swing_text(point, told))
        for number, point in enumerate(turning, start=1)
    ]
    summary = history.summary(game)
    start = told.at(request.GET.get("at", ""))
    decision = judged.at(told.moments[start].seq)
    cards = [presentation.card_json(card) for card in told.moments[start].cards]
    running = zip(summary.seats, told.running_totals(), strict=True)
    series = [(seat.name, totals) for seat, totals in running]
    return render(
        request,
        "games/review.html",
        {
            "game": game,
            "summary": summary,
            "clock": clock_words(game.turn_seconds),
            "removed": told.removed(),
            "ranking": _ranking(summary.seats),
            "moment": told.moments[start],
            "moment_text": review_words.moment_text(told, start),
            "dice": told.moments[start].dice or [None] * rules.DICE_COUNT,
            "rows": worded_rows(card_rows(cards, game.rules), game.rules),
            "totals": [card["total"] for card in cards],
            "moment_count": len(told.moments),
            # Moments are numbered on the page as in their links (?at=): by their place in the log.
            "last_seq": told.moments[-1].seq,
            "start": start,
            "decision": decision,
            "decision_text": review_words.decision_text(decision, told.preset) if decision else "",
            "analysis": judged,
            "analysis_rows": [
                {
                    "player": player,
                    "optimal": percent(player.optimal_share) if player.decisions else "",
                    "mistake": review_words.biggest_mistake(player.biggest, told.preset),
                }
                for player in judged.players
            ],
            # "Play my dice": a solo game's dice, once no secret (games.live.duplicate).
            "dice_playable": len(told.names) == 1 and not duplicate.is_secret(game),
            "same_dice": _same_dice(game) if len(told.names) == 1 else None,
            "moves": review_words.worded_turns(move_list(told, judged.decisions), told),
            # The chart module escapes every name it draws: its SVG goes in as it is.
            "chart": mark_safe(
                charts.running_totals_chart(
                    series, rounds=len(game.rules.boxes), id_prefix="totals"
                )
            ),
            "chances_chart": (
                mark_safe(charts.win_chances_chart(told.names, odds.chances, odds.rounds, marks))
                if odds
                else None
            ),
            "turning_points": [
                {
                    "number": n,
                    "point": p,
                    "text": review_words.swing_text(p, told),
                    "words": review_words.turning_words(p, told.names),
                }
                for n, p in enumerate(turning, start=1)
            ],
            "config": {
                "names": list(told.names),
                "moments": review_words.moments_json(told, judged),
                "start": start,
                "chances": (
                    [[round(c, chances.DECIMALS) for c in at] for at in odds.chances]
                    if odds
                    else None
                ),
            },
            "can_rematch": _own_seat(request, game) is not None,
            "rematch": Game.objects.filter(rematch_of=game).first(),
        },
    )


def win_chances(game: Game, told: Review) -> chances.WinChances:
    """Each seat's chance to win at every moment of a game that is over, worked out on the
    first view (or export) and cached, as the analysis is, by code and ``state_version``."""
    key = f"games.insight.chances:{chances.FORMAT}.{chances.SHAPE}:{game.code}:{game.state_version}"
    found = cache.get(key)
    if found is None:
        found = chances.over_the_game(told)
        cache.set(key, found, timeout=None)
    assert isinstance(found, chances.WinChances)
    return found


def _ranking(seats: Sequence[history.Seat]) -> list[tuple[str, history.Seat]]:
    """Seats best first with their places ("1st", tied seats share one); who left has none."""
    ranked = sorted(seats, key=lambda s: (s.place is None, s.place or 0, s.player.seat))
    return [(ordinal(s.place) if s.place is not None else "", s) for s in ranked]


@require_safe
def export(request: HttpRequest, code: str) -> JsonResponse:
    """The whole game as JSON: its players, final cards and event log (see docs/export.md)."""
    game = get_object_or_404(Game, code=code)
    summary = history.summary(game)
    data = {
        "format": EXPORT_FORMAT,
        "url": request.build_absolute_uri(reverse("room", args=[game.code])),
        "game": {
            **services.game_json(game),
            "rematch_of": game.rematch_of.code if game.rematch_of else None,
            # The duplicate dice (docs/export.md): the grid, once the game is over (a daily
            # game's once its day is over too); anyone can then check every roll against it.
            "dice": duplicate.dice_json(game),
        },
        "players": [
            {
                "seat": seat.player.seat,
                "name": seat.name,
                "host": seat.player.is_host,
                "bot": seat.player.bot or None,
                "left": seat.has_left,
                "winner": seat.is_winner,
                "card": presentation.card_json(seat.card),
            }
            for seat in summary.seats
        ],
        "events": presentation.log_json(services.log(game.code)),
        # Only once the game is over: before, a player could read the odds the room hides.
        "win_chances": (
            _win_chances_json(game)
            if game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)
            else None
        ),
    }
    response = JsonResponse(data, json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'attachment; filename="yahtzee-{game.code}.json"'
    return response


def _win_chances_json(game: Game) -> dict[str, Any]:
    """The export's chances, its turning points worded in the reader's language."""
    told = review_of(services.replay_events(game.code))
    return review_words.win_chances_json(win_chances(game, told), told)


@require_POST
def rematch(request: HttpRequest, code: str) -> HttpResponse:
    """A player of a finished game opens the rematch (or joins the one already open)."""
    game = get_object_or_404(Game, code=code)
    player = _own_seat(request, game)
    try:
        new = services.rematch(game.code, player.pk if player else None)
    except services.CommandError as error:
        messages.error(
            request,
            _("No rematch: %(reason)s") % {"reason": refusals.worded(error.code, str(error))},
        )
        return redirect("review", code=game.code)
    return redirect("room", code=new.code)


def _same_dice(game: Game) -> dict[str, Any] | None:
    """The cards of every finished game on ``game``'s dice, side by side, or ``None``."""
    games = duplicate.same_dice(game)
    states = [(g, g.state) for g in games]
    shown = [(g, state.cards[0]) for g, state in states if state is not None]
    if len(shown) < 2:
        return None
    return {
        "players": [
            {"name": g.players.all()[0].name, "code": g.code, "this": g.pk == game.pk}
            for g, _card in shown
        ],
        "rows": worded_rows(
            card_rows([presentation.card_json(card) for _game, card in shown]), rules.OFFICIAL
        ),
        "totals": [card.total for _game, card in shown],
    }


@require_POST
def play_my_dice(request: HttpRequest, code: str) -> HttpResponse:
    """A new solo game on the dice of finished solo game ``code``: a friend plays them too.
    A guest plays under the name sent, an account under its own."""
    user_id = request.user.pk if request.user.is_authenticated else None
    # An account plays under its username, cut to a seat's length (usernames may be longer).
    account_name = request.user.get_username()[:NAME_MAX_LENGTH]
    name = account_name if user_id is not None else request.POST.get("name", "")
    try:
        game = duplicate.play_dice_of(
            code, name, session_key=_session_key(request), user_id=user_id
        )
    except services.CommandError as error:
        messages.error(
            request,
            _("These dice cannot be played: %(reason)s")
            % {"reason": refusals.worded(error.code, str(error))},
        )
        return redirect("review", code=code)
    return redirect("room", code=game.code)


def _own_seat(request: HttpRequest, game: Game) -> Player | None:
    """The seat this browser (or its logged-in account) holds in ``game``, if any."""
    user_id = request.user.pk if request.user.is_authenticated else None
    return services.seat_of(
        game.code, session_key=request.session.session_key or "", user_id=user_id
    )


def _session_key(request: HttpRequest) -> str:
    """This browser's session key, made (and its cookie sent) on its first visit."""
    if request.session.session_key is None:
        request.session.create()
    return str(request.session.session_key)


@require_safe
def rules_page(request: HttpRequest) -> HttpResponse:
    """The rules in our own words, with worked examples."""
    numbers = {  # Straight from the rules module, so the page cannot drift from the game.
        "rolls": rules.ROLLS_PER_TURN,
        "max_players": rules.MAX_PLAYERS,
        "upper_bonus": rules.UPPER_BONUS,
        "upper_bonus_threshold": rules.UPPER_BONUS_THRESHOLD,
        "full_house": rules.FULL_HOUSE_SCORE,
        "small_straight": rules.SMALL_STRAIGHT_SCORE,
        "large_straight": rules.LARGE_STRAIGHT_SCORE,
        "yahtzee": rules.YAHTZEE_SCORE,
        "yahtzee_bonus": rules.YAHTZEE_BONUS,
    }
    example = (2, 2, 3, 3, 3)
    yatzy_boxes = [
        {
            "label": box_label(c, rules.YATZY),
            "id": c.value,
            "how": str(YATZY_HOW_TO[c]),
            "example": points,
        }
        for c, points in rules.Scorecard(rules.YATZY).options(example).items()
    ]
    upper = [{"label": box_label(c), "face": c.face} for c in rules.OFFICIAL.boxes if c.is_upper]
    return render(
        request,
        "games/rules.html",
        {
            "yatzy": {
                "label": preset_label(rules.YATZY),
                "boxes": rules.YATZY.boxes,
                "upper_bonus": rules.YATZY.upper_bonus,
            },
            "yatzy_boxes": yatzy_boxes,
            "yatzy_example": example,
            "categories": rules.OFFICIAL.boxes,
            "upper_boxes": upper,
            "box_names": [box_label(c) for c in rules.OFFICIAL.boxes],
            # The Joker section compares the presets that have one (Yahtzee's).
            "presets": _presets_with_a_joker(),
            "numbers": numbers,
        },
    )


def _presets_with_a_joker() -> list[dict[str, object]]:
    """Yahtzee's presets (Yatzy has no Joker), named in the reader's language."""
    return [
        {"label": preset_label(preset), "forced_joker": preset.forced_joker}
        for preset in rules.PRESETS.values()
        if preset.joker
    ]


BOX_HOW_TO = {
    rules.Category.ONES: gettext_lazy("Add up the ones."),
    rules.Category.TWOS: gettext_lazy("Add up the twos."),
    rules.Category.THREES: gettext_lazy("Add up the threes."),
    rules.Category.FOURS: gettext_lazy("Add up the fours."),
    rules.Category.FIVES: gettext_lazy("Add up the fives."),
    rules.Category.SIXES: gettext_lazy("Add up the sixes."),
    rules.Category.THREE_OF_A_KIND: gettext_lazy("At least three alike: the sum of all five dice."),
    rules.Category.FOUR_OF_A_KIND: gettext_lazy("At least four alike: the sum of all five dice."),
    rules.Category.FULL_HOUSE: format_lazy(
        gettext_lazy("Three of one face and two of another: {points}."),
        points=rules.FULL_HOUSE_SCORE,
    ),
    rules.Category.SMALL_STRAIGHT: format_lazy(
        gettext_lazy("Four in a row, like 2-3-4-5: {points}."), points=rules.SMALL_STRAIGHT_SCORE
    ),
    rules.Category.LARGE_STRAIGHT: format_lazy(
        gettext_lazy("Five in a row, 1-5 or 2-6: {points}."), points=rules.LARGE_STRAIGHT_SCORE
    ),
    rules.Category.YAHTZEE: format_lazy(
        gettext_lazy("All five dice alike: {points}."), points=rules.YAHTZEE_SCORE
    ),
    rules.Category.CHANCE: gettext_lazy("Anything at all: the sum of all five dice."),
}

#: How each box of Yatzy's card scores, in the words of the rules page.
YATZY_HOW_TO = {
    **{c: BOX_HOW_TO[c] for c in rules.UPPER},
    rules.Category.ONE_PAIR: gettext_lazy("Two dice alike: the two dice of the highest pair."),
    rules.Category.TWO_PAIRS: gettext_lazy(
        "Two pairs of different faces: those four dice. A full house holds "
        "two pairs; four alike do not."
    ),
    rules.Category.THREE_OF_A_KIND: gettext_lazy("Three dice alike: those three dice only."),
    rules.Category.FOUR_OF_A_KIND: gettext_lazy("Four dice alike: those four dice only."),
    rules.Category.SMALL_STRAIGHT: f"1-2-3-4-5: {rules.YATZY_SMALL_STRAIGHT}.",
    rules.Category.LARGE_STRAIGHT: f"2-3-4-5-6: {rules.YATZY_LARGE_STRAIGHT}.",
    rules.Category.FULL_HOUSE: gettext_lazy(
        "Three of one face and two of another: the sum of all five dice. "
        "Five alike is not a full house."
    ),
    rules.Category.CHANCE: BOX_HOW_TO[rules.Category.CHANCE],
    rules.Category.YATZY: format_lazy(
        gettext_lazy("All five dice alike: {points}."), points=rules.YAHTZEE_SCORE
    ),
}


def _check_database() -> dict[str, object]:
    """Open a new connection to the database, outside the pool, and ask it ``SELECT 1``.

    A connection of its own, with a short connect timeout, on a thread of its own
    (:func:`health`): while the database is away, the pool's connections wait out the
    pool's timeout, and the threads that serve requests with them; this check must not.
    """
    settings_dict = dict(connections.settings["default"])
    options = {k: v for k, v in settings_dict.get("OPTIONS", {}).items() if k != "pool"}
    backend = load_backend(settings_dict["ENGINE"]).DatabaseWrapper
    if backend.vendor == "postgresql":
        options["connect_timeout"] = round(HEALTH_TIMEOUT_SECONDS)
    probe = backend({**settings_dict, "OPTIONS": options}, alias="health")
    try:
        with probe.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    finally:
        probe.close()
    return {"ok": True, "vendor": probe.vendor}


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
    database = await _timed(sync_to_async(_check_database, thread_sensitive=False)())
    channel_layer = await _timed(_check_channel_layer())
    ok = bool(database["ok"]) and bool(channel_layer["ok"])
    return JsonResponse(
        {"status": "ok" if ok else "failing", "database": database, "channel_layer": channel_layer},
        status=200 if ok else 503,
    )
