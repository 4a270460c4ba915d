"""Today's dice and the day's board, through Django's test client."""

from __future__ import annotations

import datetime
import json

import pytest
from django.urls import reverse

from games.live import daily, duplicate, services
from games.models import DailyEntry, Game
from tests.server.helpers import play_solo, play_solo_as

pytestmark = pytest.mark.django_db


def test_the_home_page_leads_to_todays_dice(client) -> None:  # type: ignore[no-untyped-def]
    content = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("daily")}"' in content
    assert "Today's dice" in content


def test_a_guest_plays_today_once_then_sees_the_result(client) -> None:  # type: ignore[no-untyped-def]
    response = client.post(reverse("daily-play"), {"name": "ana"})
    game = DailyEntry.objects.get().game
    assert response.url == reverse("room", args=[game.code])
    assert (game.coach, game.turn_seconds, game.seats, game.status) == (False, None, 1, "playing")

    again = client.post(reverse("daily-play"), {"name": "ana"})
    assert again.url == reverse("room", args=[game.code])  # The same game, not a new one.

    play_solo_as(game)
    assert client.post(reverse("daily-play"), {"name": "ana"}).url == reverse("daily")
    page = client.get(reverse("daily")).content.decode()
    engine = daily.engine_of(daily.today())
    assert 'id="daily-score"' in page
    assert f'id="engine-score">{engine.score}<' in page
    assert 'id="daily-place">1 of 1<' in page
    assert f"Yahtzee Live daily #{daily.day_number(daily.today())}: " in page
    assert "Play today&#x27;s dice" not in page
    assert DailyEntry.objects.count() == 1


def test_an_account_plays_under_its_name_and_the_board_marks_guests(
    client, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    guest = daily.play_today("Bob", session_key="guest-browser")
    play_solo_as(guest, "casual")
    client.force_login(django_user_model.objects.create_user("carol"))
    client.post(reverse("daily-play"), {"name": "not carol"})
    entry = DailyEntry.objects.get(user__username="carol")
    assert entry.name == "carol"
    play_solo_as(entry.game)

    page = client.get(reverse("daily")).content.decode()
    board = page[page.index('id="board"') :]
    assert 'href="/players/carol/"' in board
    assert 'Bob <span class="badge">guest</span>' in board
    assert board.index("carol") < board.index("Bob")  # Optimal play scores more here.


def test_earlier_days_keep_their_board(client, fake_clock) -> None:  # type: ignore[no-untyped-def]
    game = daily.play_today("ana", session_key="browser")
    play_solo_as(game)
    day = daily.today()
    fake_clock.at += datetime.timedelta(days=1)

    page = client.get(reverse("daily-day", args=[day.isoformat()])).content.decode()
    assert "ana" in page
    assert 'id="board"' in page
    assert (
        reverse("daily-day", args=[day.isoformat()])
        in client.get(reverse("daily")).content.decode()
    )
    assert client.get(reverse("daily-day", args=["not-a-day"])).status_code == 404
    assert client.get(reverse("daily-day", args=["2099-01-01"])).status_code == 404


def test_todays_daily_games_are_not_listed_for_others(client) -> None:  # type: ignore[no-untyped-def]
    game = daily.play_today("ana", session_key="browser")
    assert game.code not in client.get(reverse("home")).content.decode()
    assert game.code not in client.get(reverse("history")).content.decode()


def test_a_friend_plays_the_dice_of_a_finished_solo_game_from_its_review(
    client, fixed_dice
) -> None:  # type: ignore[no-untyped-def]
    played = play_solo(fixed_dice)
    review = client.get(reverse("review", args=[played.code])).content.decode()
    assert 'id="play-my-dice"' in review

    response = client.post(reverse("play-my-dice", args=[played.code]), {"name": "ben"})
    friend = Game.objects.get(dice_of__code=played.code)
    assert response.url == reverse("room", args=[friend.code])
    assert friend.grid == Game.objects.get(code=played.code).grid != ""


def test_the_profile_shows_the_daily_history_and_the_average_given_away(
    client, django_user_model, fake_clock
) -> None:  # type: ignore[no-untyped-def]
    dana = django_user_model.objects.create_user("dana")
    for level in ("optimal", "casual"):
        play_solo_as(daily.play_today("dana", session_key="", user_id=dana.pk), level)
        fake_clock.at += datetime.timedelta(days=1)

    page = client.get(reverse("profile", args=["dana"])).content.decode()
    entries = DailyEntry.objects.filter(user=dana)
    average = sum(e.given_away for e in entries) / 2
    assert f'id="daily-average">{average:.1f}<' in page
    for entry in entries:
        assert f'href="{reverse("daily-day", args=[entry.day.isoformat()])}"' in page


def test_a_guest_who_logs_in_keeps_their_daily_game(client, django_user_model) -> None:  # type: ignore[no-untyped-def]
    client.post(reverse("daily-play"), {"name": "erin"})
    django_user_model.objects.create_user("erin", password="a long password 1")
    client.post(reverse("login"), {"username": "erin", "password": "a long password 1"})

    entry = DailyEntry.objects.get()
    assert entry.user is not None
    assert entry.user.username == "erin"
    assert entry.session_key == client.session.session_key
    client.post(reverse("daily-play"), {"name": "erin"})
    assert DailyEntry.objects.count() == 1


def test_the_review_sets_the_cards_on_the_same_dice_side_by_side(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    played = play_solo(fixed_dice)
    assert (
        'id="same-dice"' not in client.get(reverse("review", args=[played.code])).content.decode()
    )
    friend = duplicate.play_dice_of(played.code, "ben", session_key="session-ben")
    play_solo_as(friend, "casual")

    for code in (played.code, friend.code):
        page = client.get(reverse("review", args=[code])).content.decode()
        cards = page[page.index('id="same-dice-cards"') :]
        cards = cards[: cards.index("</table>")]
        assert cards.index(">ana<") < cards.index(">ben<")  # The first game first.
        assert (code == friend.code) == ('id="dice-kind">on the dice of' in page)
        friend_total = services.table(friend.code).state.cards[0].total  # type: ignore[union-attr]
        assert (
            f'<td class="scorecard__total">293</td><td class="scorecard__total">{friend_total}</td>'
            in cards
        )


def api(client, **body: object):  # type: ignore[no-untyped-def]
    return client.post("/api/games/", json.dumps(body), content_type="application/json")


def test_the_api_creates_a_duplicate_of_a_finished_solo_game(client, fixed_dice) -> None:  # type: ignore[no-untyped-def]
    played = play_solo(fixed_dice)
    response = api(client, name="Robot", dice_of=played.code)
    assert response.status_code == 201
    created = Game.objects.get(code=response.json()["code"])
    assert created.dice_of is not None
    assert created.dice_of.code == played.code
    assert (created.status, created.coach, response.json()["seat"]) == ("playing", False, 0)

    assert api(client, dice_of=played.code).json()["error"]["code"] == "invalid_name"
    assert api(client, name="R", dice_of="nope").status_code == 404
    assert api(client, name="R", dice_of=5).json()["error"]["code"] == "invalid_dice_of"


def test_the_api_plays_the_dice_of_a_day_that_is_over_not_todays(client, fake_clock) -> None:  # type: ignore[no-untyped-def]
    day = daily.today()
    refused = api(client, name="Robot", daily=day.isoformat())
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "dice_secret")
    assert api(client, name="R", daily="yesterday").json()["error"]["code"] == "invalid_day"

    fake_clock.at += datetime.timedelta(days=1)
    response = api(client, name="Robot", daily=day.isoformat())
    assert response.status_code == 201
    game = Game.objects.get(code=response.json()["code"])
    assert game.grid == daily.day_grid(day).text()
    assert not DailyEntry.objects.exists()  # Practice: not on the board.


def test_an_account_with_a_long_username_plays_under_its_first_letters(
    client, django_user_model
) -> None:  # type: ignore[no-untyped-def]
    client.force_login(django_user_model.objects.create_user("a" * 30))
    client.post(reverse("daily-play"))
    assert DailyEntry.objects.get().name == "a" * 24
