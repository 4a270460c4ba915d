"""The room page's HTML shell, through Django's test client."""

import json

import pytest
from django.urls import reverse

from games.engine.rules import YAHTZEE_BOXES
from games.live import services

pytestmark = pytest.mark.django_db


def test_it_answers_404_for_an_unknown_invite_code(client):
    assert client.get("/g/no-such-room/").status_code == 404


def test_it_gives_a_new_browser_a_session_before_the_socket_opens(client):
    game, _ = services.create_game()

    response = client.get(reverse("room", args=[game.code]))

    assert response.status_code == 200
    assert client.session.session_key
    assert response.cookies["sessionid"].value == client.session.session_key


def test_it_shows_the_invite_link_and_its_qr_code_drawn_on_the_server(client):
    game, _ = services.create_game()

    content = client.get(reverse("room", args=[game.code])).content.decode()

    assert f'value="http://testserver/g/{game.code}/"' in content
    assert '<svg viewBox="0 0 ' in content
    assert "<title>QR code of the invite link</title>" in content
    assert '<script type="module" src="/static/js/room.js">' in content


def test_it_gives_the_script_the_boxes_in_card_order(client):
    game, _ = services.create_game(preset="free_joker")

    response = client.get(reverse("room", args=[game.code]))
    content = response.content.decode()
    start = content.index('<script id="room-config" type="application/json">')
    raw = content[start:].split(">", 1)[1].split("</script>", 1)[0]
    config = json.loads(raw)

    assert config["websocket"] == f"/ws/games/{game.code}/"
    assert [c["id"] for c in config["categories"]] == [c.value for c in YAHTZEE_BOXES]
    assert [c["upper"] for c in config["categories"]] == [True] * 6 + [False] * 7
    assert (config["upperBonusThreshold"], config["upperBonus"]) == (63, 35)


def test_every_script_and_style_it_loads_is_served_from_static(client):
    game, _ = services.create_game()
    content = client.get(reverse("room", args=[game.code])).content.decode()

    for path in ("/static/js/room.js", "/static/css/room.css", "/static/css/site.css"):
        assert path in content
        assert client.get(path).status_code == 200
    for module in ("socket.js", "state.js", "commands.js"):
        assert client.get(f"/static/js/{module}").status_code == 200
    assert "http://" not in content.replace(f"http://testserver/g/{game.code}/", "")
    assert "https://" not in content
