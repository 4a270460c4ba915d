"""Accounts, which are optional: signing up, logging in, and a player's public profile.

Guests play without an account; their seats belong to their browser's session.
Signing up or logging in keeps those seats: Django gives the browser a new
session key when it logs in (against session fixation), so both views note the
old key first and then hand the seats over with
:func:`games.live.services.claim_guest_seats`, which also makes the guest's games the
account's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model, login
from django.contrib.auth import views as auth_views
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm, UsernameField
from django.contrib.auth.models import User
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_http_methods, require_safe

from games.engine import names
from games.live import daily, limits, push, refusals, services
from games.models import UsernameKey
from games.web import charts, history
from games.web.history import GameSummary, Seat
from games.web.stats import PlayerStats, player_stats

GAMES_PER_PAGE = 20
#: What a figure shows before there is anything to count.
NOTHING_YET = "\N{EN DASH}"
#: A game's outcome for a player, by :attr:`ProfileGame.outcome_key`.
OUTCOMES = {
    "left": pgettext_lazy("a game's outcome", "Left"),
    "abandoned": pgettext_lazy("a game's outcome", "Abandoned"),
    "in-progress": pgettext_lazy("a game's outcome", "In progress"),
    "solo": pgettext_lazy("a game's outcome", "Solo"),
    "lost": pgettext_lazy("a game's outcome", "Lost"),
    "won": pgettext_lazy("a game's outcome", "Won"),
    "shared-win": pgettext_lazy("a game's outcome", "Shared win"),
}

#: Why a username cannot be used, by :attr:`games.engine.names.InvalidName.reason`, in the
#: reader's language (the engine's own words are English).
USERNAME_REFUSALS = {
    "empty": gettext_lazy("Choose a username."),
    "control": gettext_lazy("That username cannot be used: it cannot hold control characters."),
    "unassigned": gettext_lazy(
        "That username cannot be used: it cannot hold unassigned or private-use characters."
    ),
    "invisible": gettext_lazy("That username cannot be used: it cannot hold invisible characters."),
    "no_letter": gettext_lazy("That username cannot be used: it needs a letter, digit or symbol."),
    "combining_start": gettext_lazy(
        "That username cannot be used: it cannot start with a combining mark."
    ),
}

if TYPE_CHECKING:
    # django-stubs makes Django's forms generic in their model; Django's classes take no
    # type argument at run time.
    _UserCreationForm = UserCreationForm[User]
else:
    _UserCreationForm = UserCreationForm


class SignupForm(_UserCreationForm):
    """A username and a password, twice. Nothing else is asked.

    The username arrives in NFKC (Django's ``UsernameField``), so logging in with
    another form of the same letters (fullwidth, say) finds the account. Refused:
    a username with invisible characters, one of the site's own names
    (:data:`games.engine.names.RESERVED_USERNAMES`), and one that looks like an existing
    account's (:func:`games.engine.names.clash`), which could pass for that player.
    """

    class Meta:
        # UserCreationForm's own Meta, which django-stubs does not declare: the model,
        # its one field, and the field class that brings the username to NFKC.
        model = get_user_model()
        fields = ("username",)
        field_classes = {"username": UsernameField}

    def clean_username(self) -> str:
        username = super().clean_username()
        if not username:  # Django's own error (taken, ignoring case) is already on the field.
            return username
        try:
            names.check(username)
        except names.InvalidName as error:
            words = USERNAME_REFUSALS.get(error.reason)
            if words is None:  # A reason the engine added since: its code's sentence.
                english = f"That username cannot be used: {error}."
                raise ValidationError(refusals.worded("invalid_name", english)) from None
            raise ValidationError(str(words)) from None
        if names.is_reserved(username):
            raise ValidationError(_("That username is reserved for the site."))
        if _looks_like_an_account(username):
            raise ValidationError(
                _("That username looks too much like another player's. Please choose another.")
            )
        return username


def _looks_like_an_account(username: str) -> bool:
    """Whether ``username`` clashes with an existing account's name (one indexed lookup of
    its forms among every account's, :class:`games.models.UsernameKey`)."""
    return UsernameKey.objects.filter(key__in=names.clash_keys(username)).exists()


# --------------------------------------------------------------------------
# Signing up and logging in
# --------------------------------------------------------------------------


@require_http_methods(["GET", "HEAD", "POST"])
def signup(request: HttpRequest) -> HttpResponse:
    """Create an account and log in with it; this browser's guest games join it.

    Afterwards the browser goes to a safe ``next`` address, or to the new profile.
    Someone already logged in is sent on the same way: they log out first to make
    another account, so no seat of theirs moves to it.
    """
    next_url = _safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url or reverse("profile", args=[request.user.get_username()]))
    form = SignupForm(request.POST or None)
    context = {"form": form, "next": next_url or ""}
    if request.method == "POST":
        address = limits.client_address(request)
        wait = limits.hit("signup", address, settings.LIMIT_SIGNUPS_PER_ADDRESS)
        if wait:  # Nothing checked, nothing created: the form again, with the name typed.
            form = SignupForm(initial={"username": request.POST.get("username", "")})
            refusal = _("Too many sign-up attempts from your network: try again in %(wait)s.") % {
                "wait": limits.wait_text(wait)
            }
            context = {**context, "form": form, "refusal": refusal}
            return render(request, "registration/signup.html", context, status=429)
        if form.is_valid():
            user = form.save()
            _log_in_keeping_seats(request, user)
            response = redirect(next_url or reverse("profile", args=[user.get_username()]))
            _remember_account(request, response, user)
            return response
    return render(request, "registration/signup.html", context)


class LoginView(auth_views.LoginView):
    """Django's login, which also keeps the seats this browser took as a guest.

    Django's view already follows ``next`` only when it is safe (same host).
    """

    template_name = "registration/login.html"
    redirect_authenticated_user = True

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        refusal = _login_refusal(request, request.POST.get("username", ""))
        if refusal:  # Refused before any password is checked.
            form = AuthenticationForm(request, initial={"username": request.POST.get("username")})
            context = self.get_context_data(form=form, refusal=refusal)
            return self.render_to_response(context, status=429)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: AuthenticationForm) -> HttpResponse:
        username = _account_key(self.request.POST.get("username", ""))
        address = limits.client_address(self.request)
        for scope, key, (_free, window, _most) in (
            ("login-address", address, settings.LIMIT_LOGIN_FAILURES_PER_ADDRESS),
            ("login-account", username, settings.LIMIT_LOGIN_FAILURES_PER_ACCOUNT),
        ):
            limits.failed(scope, key, window=window)
        return super().form_invalid(form)

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        old_session_key = self.request.session.session_key or ""
        response = super().form_valid(form)  # Logs in: the session key changes.
        _claim_guest_seats(self.request, old_session_key, form.get_user())
        _remember_account(self.request, response, form.get_user())
        return response


#: The signed cookie that lists the accounts this browser has logged in to: logins to
#: them are not slowed by other people's failures (``LIMIT_LOGIN_FAILURES_*``).
KNOWN_ACCOUNTS_COOKIE = "known_accounts"
KNOWN_ACCOUNTS_SALT = "games.web.accounts.known"
KNOWN_ACCOUNTS_SECONDS = 365 * 24 * 60 * 60
#: How many accounts the cookie remembers (the latest).
KNOWN_ACCOUNTS_KEPT = 8


def _account_key(username: str) -> str:
    return username.strip().casefold()[:150]


def _known_accounts(request: HttpRequest) -> list[str]:
    value = request.get_signed_cookie(
        KNOWN_ACCOUNTS_COOKIE, default="", salt=KNOWN_ACCOUNTS_SALT, max_age=KNOWN_ACCOUNTS_SECONDS
    )
    return [name for name in (value or "").split("\n") if name]


def _remember_account(request: HttpRequest, response: HttpResponse, user: AbstractBaseUser) -> None:
    """Note in this browser that it logged in to ``user``'s account (the latest few)."""
    name = _account_key(user.get_username())
    known = [name] + [other for other in _known_accounts(request) if other != name]
    response.set_signed_cookie(
        KNOWN_ACCOUNTS_COOKIE,
        "\n".join(known[:KNOWN_ACCOUNTS_KEPT]),
        salt=KNOWN_ACCOUNTS_SALT,
        max_age=KNOWN_ACCOUNTS_SECONDS,
        secure=request.is_secure(),
        httponly=True,
        samesite="Lax",
    )


def _login_refusal(request: HttpRequest, username: str) -> str:
    """Why this login must wait, if it must: the address or the account failed too often of
    late (beyond django-axes, which locks one account from one address). A browser that
    logged in to the account before is never slowed by others' failures."""
    name = _account_key(username)
    if name in _known_accounts(request):
        return ""
    free, window, most = settings.LIMIT_LOGIN_FAILURES_PER_ADDRESS
    wait = limits.slowed(
        "login-address", limits.client_address(request), free=free, window=window, most=most
    )
    if wait:
        return _("Too many failed log-ins from your network: try again in %(wait)s.") % {
            "wait": limits.wait_text(wait)
        }
    free, window, most = settings.LIMIT_LOGIN_FAILURES_PER_ACCOUNT
    wait = limits.slowed("login-account", name, free=free, window=window, most=most)
    if wait:
        return _("Too many failed log-ins to this account: try again in %(wait)s.") % {
            "wait": limits.wait_text(wait)
        }
    return ""


def locked_out(
    request: HttpRequest, response: HttpResponse | None, credentials: dict[str, Any] | None
) -> HttpResponse:
    """django-axes' answer to a login it refuses (``AXES_LOCKOUT_CALLABLE``): a page that
    says why and for how long, with status 429."""
    context = {
        "failure_limit": settings.AXES_FAILURE_LIMIT,
        "username": (credentials or {}).get("username") or request.POST.get("username", ""),
        # "15 minutes", in the reader's language and plural.
        "wait": limits.wait_text(int(settings.AXES_COOLOFF_TIME.total_seconds())),
    }
    return render(request, "registration/locked_out.html", context, status=429)


def _log_in_keeping_seats(request: HttpRequest, user: User) -> None:
    old_session_key = request.session.session_key or ""
    # Named, as there are two backends: django-axes' checks logins and has no users.
    login(request, user, backend="django.contrib.auth.backends.ModelBackend")
    _claim_guest_seats(request, old_session_key, user)


def _claim_guest_seats(request: HttpRequest, old_session_key: str, user: AbstractBaseUser) -> None:
    """Move the guest's seats, daily attempts and push subscriptions to the new session and
    the account, and say how many games."""
    new_session_key = request.session.session_key or ""
    claimed = services.claim_guest_seats(old_session_key, new_session_key, user.pk)
    daily.claim_guest_entries(old_session_key, new_session_key, user.pk)
    push.claim_guest_subscriptions(old_session_key, new_session_key, user.pk)
    if claimed > 0:
        text = ngettext(
            "%(count)d game you played in this browser is now on your account.",
            "%(count)d games you played in this browser are now on your account.",
            claimed,
        ) % {"count": claimed}
        messages.success(request, text)


def _safe_next(request: HttpRequest) -> str | None:
    """The ``next`` address asked for, if it stays on this site; otherwise ``None``."""
    next_url = request.POST.get("next") or request.GET.get("next")
    if next_url and url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return next_url
    return None


# --------------------------------------------------------------------------
# The profile
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class ProfileGame:
    """One game in a profile's list, from the point of view of the profile's player."""

    summary: GameSummary
    seat: Seat
    opponents: tuple[Seat, ...]

    @property
    def url(self) -> str:
        """The review of a game that is over; the room of a game in play."""
        name = "review" if self.summary.is_over else "room"
        return reverse(name, args=[self.summary.game.code])

    @property
    def played_at(self) -> datetime | None:
        """When the game ended, or when it started while it is still in play."""
        return self.summary.game.finished_at or self.summary.game.started_at

    @property
    def outcome(self) -> str:
        """Won, Shared win, Lost, Left, Solo, Abandoned or In progress, in the reader's language."""
        return str(OUTCOMES[self.outcome_key])

    @property
    def outcome_key(self) -> str:
        """The outcome as a stable word, for the page's styles: won, lost, left..."""
        if self.seat.has_left:
            return "left"
        if self.summary.is_abandoned:
            return "abandoned"
        if not self.summary.is_finished:
            return "in-progress"
        if self.summary.solo:
            return "solo"  # Nobody to beat: never a win.
        if not self.seat.is_winner:
            return "lost"
        return "won" if len(self.summary.winners) == 1 else "shared-win"


@require_safe
def profile(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: their record, their scores, and their games, newest first."""
    user = get_object_or_404(get_user_model(), username=username)
    stats = player_stats(user.pk)
    page = Paginator(history.games_of(user_id=user.pk), GAMES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    # The chart module escapes every text it draws, so its SVG can go in the page as it is.
    chart = mark_safe(charts.histogram_chart(stats.totals, id_prefix="scores"))
    return render(
        request,
        "games/profile.html",
        {
            "profile_user": user,
            "tiles": stat_tiles(stats),
            "chart": chart,
            "page": page,
            "games": profile_games(history.summaries(page.object_list), user.pk),
            "is_own_profile": request.user.pk == user.pk,
            "daily": daily.history_of(user.pk),
        },
    )


def profile_games(summaries: list[GameSummary], user_id: int) -> list[ProfileGame]:
    """Each game with the account's seat picked out from its opponents."""
    games = []
    for summary in summaries:
        mine = [s for s in summary.seats if s.player.user_id == user_id]
        if not mine:  # pragma: no cover - games_of only lists games with such a seat
            continue
        others = tuple(s for s in summary.seats if s.player.user_id != user_id)
        games.append(ProfileGame(summary=summary, seat=mine[0], opponents=others))
    return games


def stat_tiles(stats: PlayerStats) -> list[tuple[str, str]]:
    """The profile's figures as (label, text) pairs; a dash where there is nothing yet."""

    def shown(value: float | None, decimals: int) -> str:
        # Rounded first: number_format cuts a float's digits rather than round them.
        return NOTHING_YET if value is None else number_format(round(value, decimals), decimals)

    def percent(rate: float | None) -> str:
        # "67%" in English, "67 %" in German and French: the locale's own way.
        return (
            NOTHING_YET
            if rate is None
            else _("%(percent)s%%") % {"percent": number_format(round(rate * 100))}
        )

    return [
        (_("Games"), number_format(stats.games)),
        (_("Wins"), number_format(stats.wins)),
        (_("Win rate"), percent(stats.win_rate)),  # Over the games against others.
        (_("Average score"), shown(stats.average_score, 1)),
        (_("Best score"), shown(stats.best_score, 0)),
        (_("Yahtzees"), number_format(stats.yahtzees)),
        (_("Upper bonus"), percent(stats.upper_bonus_rate)),
    ]
