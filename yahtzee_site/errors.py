"""What a request that failed answers: 503 while the database is away, 500 otherwise.

Django calls :func:`server_error` (``handler500`` in :mod:`yahtzee_site.urls`) for an
exception no view handled, from anywhere in the request: the view, the session
saved on the way out, the login looked up on the way in. While PostgreSQL is
away (a restart, an outage) that is not a fault of the site's but a moment to
wait, and a balancer or a script should try again: 503 with ``Retry-After``, as
the websocket's close 1013 and the commands' ``unavailable`` say it. The pages
are rendered without the request, so no context processor reaches the database.
"""

from __future__ import annotations

import sys
from typing import Final

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string

#: What the database raises while it cannot be reached (as the websocket consumer's).
DATABASE_AWAY: Final = (OperationalError, InterfaceError)
#: Seconds a client is asked to wait before trying again.
RETRY_AFTER: Final = 2


def server_error(request: HttpRequest) -> HttpResponse:
    """``handler500``: 503 for the database away, 500 for anything else (JSON for the API)."""
    away = isinstance(sys.exc_info()[1], DATABASE_AWAY)
    status = 503 if away else 500
    response: HttpResponse
    if request.path.startswith("/api/"):
        code, message = (
            ("unavailable", "the server cannot reach its database just now: try again soon")
            if away
            else ("server_error", "something went wrong on the server")
        )
        response = JsonResponse({"error": {"code": code, "message": message}}, status=status)
    else:
        response = HttpResponse(render_to_string(f"errors/{status}.html"), status=status)
    if away:
        response["Retry-After"] = str(RETRY_AFTER)
    return response
