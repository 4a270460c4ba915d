"""The home page, through Django's test client."""

import pytest
from django.urls import reverse

from games.rules import Category

pytestmark = pytest.mark.django_db


def test_it_renders_through_the_base_layout(client):
    response = client.get(reverse("home"))

    assert response.status_code == 200
    assert [t.name for t in response.templates][:2] == ["games/home.html", "base.html"]
    assert b'href="/static/css/site.css"' in response.content


def test_it_lists_every_box_with_its_label(client):
    content = client.get(reverse("home")).content.decode()

    for category in Category:
        assert f'<th scope="row">{category.label}</th>' in content


def test_it_names_both_rule_presets(client):
    content = client.get(reverse("home")).content.decode()

    assert "Official (forced Joker)" in content
    assert "Free Joker (house rule)" in content


def test_it_refuses_to_be_posted_to(client):
    assert client.post(reverse("home")).status_code == 405


def test_static_files_are_served_by_the_app(client):
    # WhiteNoise serves static/ from the same process as the pages, under Daphne too.
    response = client.get("/static/css/site.css")

    assert response.status_code == 200
    assert b".die__pip" in b"".join(response.streaming_content)
