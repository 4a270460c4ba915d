"""Static files as a deployed site collects them: hashed names, the scripts' imports included."""

import json
import re
from pathlib import Path

import pytest
from channels.testing import HttpCommunicator
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


async def _asgi_get(app, path: str, method: str = "GET") -> tuple[int, dict[str, str], bytes]:  # type: ignore[no-untyped-def]
    """One request to an ASGI application: its status, headers and whole body.

    Not HttpCommunicator.get_response, which wants a ``body`` in every body message: Django
    ends a file's answer with one that has none, as ASGI allows."""
    communicator = HttpCommunicator(app, method, path)
    await communicator.send_input({"type": "http.request", "body": b""})
    # Timeouts bound a failure: Django's handler answers on threads, slowly on a busy machine.
    start = await communicator.receive_output(timeout=15)
    assert start["type"] == "http.response.start"
    body = b""
    while True:
        message = await communicator.receive_output(timeout=15)
        assert message["type"] == "http.response.body"
        body += message.get("body", b"")
        if not message.get("more_body", False):
            break
    await communicator.send_input({"type": "http.disconnect"})  # The client leaves.
    await communicator.wait(timeout=15)
    headers = {k.decode().lower(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, body


@pytest.mark.asyncio
async def test_the_browser_tests_server_answers_static_files_as_django_does() -> None:
    """tests/live_static.py stands in for Django's ASGIStaticFilesHandler in the browser
    tests' Daphne: every file under static/ comes back with the same status, type, encoding
    and body, and a missing file or a folder as the same 404."""
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.core.asgi import get_asgi_application

    from tests.live_static import StaticFiles

    async def no_site(scope, receive, send) -> None:  # type: ignore[no-untyped-def]
        raise AssertionError(f"{scope['path']} went past the static files")

    django_static = ASGIStaticFilesHandler(get_asgi_application())
    ours = StaticFiles(no_site)
    root = Path(__file__).resolve().parent.parent / "static"
    files = sorted(path for path in root.rglob("*") if path.is_file())
    paths = [f"/static/{path.relative_to(root).as_posix()}" for path in files]
    assert "/static/js/room.js" in paths
    assert "/static/img/icon-192.png" in paths
    for path in [*paths, "/static/js/nothing-here.js", "/static/js/"]:
        status, headers, body = await _asgi_get(ours, path)
        expected_status, expected_headers, expected_body = await _asgi_get(django_static, path)
        assert status == expected_status, path
        if status == 200:
            assert body == expected_body, path
            for name in ("content-type", "content-encoding", "content-length", "last-modified"):
                assert headers.get(name) == expected_headers.get(name), (path, name)
        # A HEAD has the headers without the body, as Django's answer.
        status, head_headers, body = await _asgi_get(ours, path, "HEAD")
        assert (status, body) == (expected_status, b"")
        assert head_headers.get("content-length") == headers.get("content-length")
    status, _, _ = await _asgi_get(ours, "/static/js/room.js", "POST")
    assert status == 405
    # A path out of the static folders is not found (Django's handler raises on it).
    status, _, body = await _asgi_get(ours, "/static/../manage.py")
    assert (status, body) == (404, b"Not found")
    # Everything else goes to the site.
    with pytest.raises(AssertionError, match="/rules/ went past"):
        await ours({"type": "http", "method": "GET", "path": "/rules/"}, None, None)
