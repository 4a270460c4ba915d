"""The ASGI entry point: HTTP through Django, websockets through Channels.

Run it with ``daphne yahtzee_site.asgi:application``.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yahtzee_site.settings")
# Set Django up before importing anything that touches models.
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.sessions import CookieMiddleware  # noqa: E402

from games.live import watch  # noqa: E402
from games.live.routing import websocket_urlpatterns  # noqa: E402
from yahtzee_site.origins import SameOriginValidator  # noqa: E402

# Every process keeps the turn clock's watch (games/live/watch.py), from its start.
application = watch.KeepingWatch(
    ProtocolTypeRouter(
        {
            "http": django_asgi_app,
            # A socket opened from a page on another site (another scheme, host or port)
            # is refused before it reaches a game. Only the cookies are read before the
            # consumer: the browser's session and account are read on arrival, after the
            # handshake is accepted, in the database trip it makes anyway
            # (games.live.arrivals.arrive_from), not in two trips before it, as
            # AuthMiddlewareStack does.
            "websocket": SameOriginValidator(CookieMiddleware(URLRouter(websocket_urlpatterns))),
        }
    )
)
watch.start_when_serving()
