"""A refusal's words for the person it is sent to, in their language.

Every refusal has a stable code (``game_full``, ``not_your_turn``), which stays English:
clients decide by it. Its ``message`` is for people. The engine words it in English with
the details of the moment ("the Joker rule sends 5 5 5 5 5 to Fives, not Chance"), and
it stays that way for an English reader and for clients of the API. In another language
the reader gets the code's sentence here, from the catalogs: the engine has no Django
and no language, and the code says what went wrong in terms a player acts on.

``tests/test_translations.py`` checks that every code the source raises has its sentence
here, so a new refusal cannot reach a German reader in English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from django.http import HttpRequest
from django.utils.functional import Promise
from django.utils.translation import get_language, get_language_from_request
from django.utils.translation import gettext_lazy as _

REFUSALS: Final[dict[str, Promise]] = {
    # The message itself.
    "invalid_message": _("The message could not be read."),
    "invalid_json": _("The message could not be read."),
    "too_large": _("The message is too long."),
    "rate_limited": _("Too many messages at once: slow down."),
    "busy": _("The server is busy: try again in a moment."),
    "unavailable": _("The server could not do that just now: try again."),
    # The room and its seats.
    "no_such_game": _("There is no game at this link."),
    "game_started": _("The game has started: you are watching it."),
    "already_started": _("The game has already started."),
    "game_full": _("Every seat is taken: you are watching the game."),
    "already_seated": _("You already have a seat in this game."),
    "already_left": _("That player has already left."),
    "invalid_seat": _("There is no such seat in this game."),
    "invalid_seats": _("A room has one to six seats."),
    "invalid_players": _("A game has one to six players."),
    "not_a_player": _("Only the players of this game can do that."),
    "not_your_seat": _("You can only act for your own seat."),
    "not_host": _("Only the host can do that."),
    "not_away": _("That player is here and playing."),
    "handed_to_bot": _("A bot plays this seat now."),
    "invalid_token": _("This browser holds no seat in this game."),
    "invalid_name": _("That name cannot be used: choose another."),
    "name_taken": _("Someone here already has that name, or one that looks the same."),
    "invalid_bot": _("There is no such bot."),
    "not_a_bot": _("No bot sits in that seat."),
    "invalid_bot_pace": _("The bots play naturally, quickly or instantly."),
    "invalid_turn_seconds": _("That turn clock cannot be chosen."),
    "invalid_show_odds": _("Say whether players see who is likely to win."),
    "unknown_rules": _("There are no such rules."),
    "not_started": _("The game has not started yet."),
    "not_finished": _("A rematch can start once the game is over."),
    "game_over": _("The game is over."),
    "does_not_follow": _("That did not follow from the game."),
    # Play.
    "roll_off_pending": _("The roll-off decides who starts first."),
    "roll_off_decided": _("The roll-off is already decided."),
    "invalid_roll_off": _("Those are not the roll-off's dice."),
    "not_your_turn": _("It is not your turn."),
    "not_rolled": _("Roll the dice first."),
    "hold_before_roll": _("Roll the dice before holding any: the first roll throws all five."),
    "no_rolls_left": _("No rolls left: score this roll in an empty box."),
    "invalid_hold": _("Those dice cannot be held that way."),
    "invalid_dice": _("Dice are five whole numbers from 1 to 6."),
    "unknown_category": _("There is no box of that name on this card."),
    "box_filled": _("That box is already filled."),
    "joker_forced": _("The Joker rule sends this Yahtzee to another box."),
    "not_a_joker": _("Only a Yahtzee can be a Joker."),
    "card_complete": _("The card is complete."),
    "not_an_option": _("That box is not open for these dice."),
    "invalid_move": _("A move either holds dice or scores in a box."),
    "invalid_position": _("Nothing to decide at this point of the turn."),
    "invalid_rolls_left": _("That many rolls cannot be left."),
    "invalid_card": _("That card does not fit this game."),
    "invalid_grid": _("Those are not a game's dice."),
    "no_grid": _("Only a solo game's dice can be played again."),
    "invalid_day": _("There are no dice for that day."),
    "dice_secret": _("Today's dice stay secret until the day is over: play them on the site."),
    # The coach, the odds and the chat.
    "coach_off": _("The coach is off in this room."),
    "no_coach_on_duplicate_dice": _(
        "A game on shared dice is played without the coach, so it compares fairly."
    ),
    "odds_hidden": _("In this room the players do not see who is likely to win."),
    "stale": _("The game has moved on: ask again."),
    "chat_too_long": _("That message is too long."),
    "chat_rate_limited": _("Too many chat messages: wait a moment."),
    "chat_closed": _("The game is over and its chat is closed."),
    "log_full": _("This game's record is full: chat is closed."),
    "not_a_watcher": _("The watchers' chat is for watchers: players talk in the players' chat."),
}


def worded(code: str, english: str) -> str:
    """The message of refusal ``code`` for the reader of the active language.

    In English, ``english`` itself (the engine's words, with the moment's details); in
    another language, the code's sentence; a code without one keeps ``english``.
    """
    sentence = REFUSALS.get(code)
    if sentence is None or (get_language() or "en").split("-")[0] == "en":
        return english
    return str(sentence)


def language_of(scope: Mapping[str, Any]) -> str:
    """The language a websocket's reader reads, from its handshake: the cookie the footer's
    switcher set, else the browser's Accept-Language, else the site's default.

    A socket has no request and its messages come long after the handshake, so the
    consumer reads this once at connect and words its refusals in it. Django's own
    choice (``get_language_from_request``) decides, from a request made of the
    handshake's cookies and headers, so a page and its socket always agree.
    """
    request = HttpRequest()
    request.COOKIES = dict(scope.get("cookies") or {})
    for name, value in scope.get("headers") or ():
        if name.lower() == b"accept-language":
            request.META["HTTP_ACCEPT_LANGUAGE"] = value.decode("latin-1")
    return get_language_from_request(request)
