"""The home page, through Django's test client."""

import pytest
from django.urls import reverse

from games.engine.rules import YAHTZEE_BOXES
from games.live import services
from games.models import Game

pytestmark = pytest.mark.django_db


def test_it_renders_through_the_base_layout(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["games/home.html", "base.html"]
    assert b'href="/static/css/site.css"' in response.content


def test_it_lists_every_box_with_its_label(client):
    content = client.get(reverse("home")).content.decode()

    for category in YAHTZEE_BOXES:
        assert f'<th scope="row">{category.label}</th>' in content


def test_it_names_both_rule_presets(client):
    content = client.get(reverse("home")).content.decode()

    assert "Official (forced Joker)" in content
    assert "Free Joker (house rule)" in content
    # Yatzy, offered in the room form, is named under the two ways to play a second Yahtzee.
    note = content[content.index('id="yatzy-note"') :]
    note = note[: note.index("</p>")]
    assert "Yatzy (Scandinavian)" in note
    assert "15 boxes" in note
    assert f'href="{reverse("rules")}#yatzy"' in note


def test_it_opens_a_room_with_its_creator_seated_as_host(client):
    response = client.post(
        reverse("home"), {"name": "  Ana ", "preset": "free_joker", "seats": "3"}
    )

    game = Game.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"/g/{game.code}/"
    assert (game.preset, game.seats, game.status) == ("free_joker", 3, "lobby")
    host = game.players.get()
    assert (host.name, host.seat, host.is_host) == ("Ana", 0, True)
    # The seat belongs to this browser's session.
    assert host.session_key == client.session.session_key


@pytest.mark.parametrize(
    ("seats", "clock", "turn_seconds"),
    [("4", "30", 30), ("2", "86400", 86400), ("4", "", None), ("1", "60", None)],
)
def test_it_opens_a_room_with_the_turn_clock_chosen(client, seats, clock, turn_seconds):
    form = {"name": "Ana", "preset": "official", "seats": seats, "turn_seconds": clock}

    client.post(reverse("home"), form)

    assert Game.objects.get().turn_seconds == turn_seconds


def test_the_form_offers_a_minute_a_turn_first(client):
    field = client.get(reverse("home")).context["form"]["turn_seconds"]

    assert field.value() == 60
    assert [str(value) for value, _ in field.field.choices] == ["30", "60", "120", "86400", ""]


@pytest.mark.parametrize(
    ("form", "field"),
    [
        ({"name": "", "preset": "official", "seats": "2"}, "name"),
        ({"name": "x" * 25, "preset": "official", "seats": "2"}, "name"),
        ({"name": "Ana\x07", "preset": "official", "seats": "2"}, "name"),
        ({"name": "Ana", "preset": "yahtzee", "seats": "2"}, "preset"),
        ({"name": "Ana", "preset": "official", "seats": "7"}, "seats"),
        ({"name": "Ana", "preset": "official", "seats": "0"}, "seats"),
        ({"name": "Ana", "preset": "official", "seats": "2", "turn_seconds": "45"}, "turn_seconds"),
    ],
)
def test_it_shows_what_is_wrong_with_a_form_and_opens_nothing(client, form, field):
    response = client.post(reverse("home"), form)

    assert response.status_code == 200
    assert response.context["form"].errors[field]
    assert not Game.objects.exists()


def test_it_lists_games_being_played_to_watch(client):
    lobby, _ = services.create_game(host_name="Lobbyist")
    playing, host = services.create_game(host_name="Ana")
    services.join_game(playing.code, "Bob")
    assert host is not None
    services.start_game(playing.code, host.pk, version=3)

    content = client.get(reverse("home")).content.decode()

    assert f'href="/g/{playing.code}/"' in content
    assert "Ana · Bob" in content
    assert f"/g/{lobby.code}/" not in content


def test_static_files_are_served_by_the_app(client):
    # WhiteNoise serves static/ from the same process as the pages, under Daphne too.
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert b".die__pip" in b"".join(response.streaming_content)
