"""Static files as a deployed site collects them: hashed names, the scripts' imports included."""

import json
import re

from django.core.management import call_command


def test_collected_scripts_import_each_other_by_their_hashed_names(settings, tmp_path):
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "yahtzee_site.storage.StaticFilesStorage"},
    }

    call_command("collectstatic", interactive=False, verbosity=0)

    paths = json.loads((tmp_path / "staticfiles.json").read_text())["paths"]
    room = (tmp_path / paths["js/room.js"]).read_text()
    imports = re.findall(r'from "\./([^"]+)"', room)
    assert sorted(imports) == sorted(
        paths[f"js/{name}"].removeprefix("js/")
        for name in (
            "alerts.js",
            "botpace.js",
            "clock.js",
            "dailyresult.js",
            "i18n.js",
            "odds.js",
            "play.js",
            "showodds.js",
            "socket.js",
            "state.js",
            "watchers.js",
            *(
                f"panels/{panel}.js"
                for panel in (
                    "cards",
                    "coach",
                    "confirm",
                    "console",
                    "dom",
                    "feed",
                    "finish",
                    "lobby",
                    "seat",
                    "status",
                    "tray",
                    "turn",
                )
            ),
        )
    )
    assert all(re.fullmatch(r"(panels/)?\w+\.[0-9a-f]{12}\.js", name) for name in imports)
    # A panel imports the modules beside room.js, one folder up, by their hashed names too.
    cards = (tmp_path / paths["js/panels/cards.js"]).read_text()
    assert sorted(re.findall(r'from "\.\./([^"]+)"', cards)) == sorted(
        paths[f"js/{name}"].removeprefix("js/") for name in ("i18n.js", "odds.js", "state.js")
    )
    socket = (tmp_path / paths["js/socket.js"]).read_text()
    assert re.findall(r'from "\./([^"]+)"', socket) == [paths["js/backoff.js"].removeprefix("js/")]


def test_favicon_ico_leads_to_the_sites_icon(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"] == "/static/img/favicon.svg"
