"""Settings for the test suite: the deployed settings, served over plain http.

Everything comes from ``yahtzee_site.settings`` and the same environment
(``DATABASE_URL``, ``REDIS_URL``), so CI tests both configurations; only what
needs TLS or ``collectstatic`` is turned off, because the test servers have neither.
"""

import os
from urllib.parse import urlsplit

os.environ.setdefault("SECRET_KEY", "tests-only-" + "x7Qp2vLk9sRt4wYz8bNc3mHf6jDg1aKe5uVo0iXq")
# A key pair for the tests' Web Push (tests/server/test_push.py); a deployed site makes its own.
os.environ.setdefault("VAPID_PRIVATE_KEY", "G5efiXfODnP_4LwR7XIO5F_x5ZTGa1wFl7rwTFj11_E")

#: The pytest-xdist worker this process is ("gw0", "gw1", ...), or "" in a run of one process.
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def worker_redis_url(url: str, worker: str) -> str:
    """Redis for one xdist worker: the database index after ``url``'s, by worker number.

    With ``redis://host/6`` the workers gw0, gw1, gw2 use databases 6, 7 and 8. A worker
    must not share one: the tests clear the limits' cache between tests, and Django's
    Redis cache clears with FLUSHDB, which would empty the other workers' counters and
    queues too.
    """
    parts = urlsplit(url)
    base = int(parts.path.strip("/") or 0)
    return parts._replace(path=f"/{base + int(worker.removeprefix('gw'))}").geturl()


# Set before the deployed settings read it, so everything built from it (the channel
# layer, the limits' cache) and the servers forked from this process follow.
if XDIST_WORKER and os.environ.get("REDIS_URL"):
    os.environ["REDIS_URL"] = worker_redis_url(os.environ["REDIS_URL"], XDIST_WORKER)

from yahtzee_site.settings import *  # noqa: E402, F403
from yahtzee_site.settings import CHANNEL_LAYERS, REDIS_URL, STORAGES  # noqa: E402

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
LANGUAGE_COOKIE_SECURE = False
SECURE_HSTS_SECONDS = 0
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
# Fast hashing: tests create users, not secrets.
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
# Serve static/ straight from the finders, as in development: no collectstatic in tests.
WHITENOISE_USE_FINDERS = True
STATIC_ROOT = None

if REDIS_URL and XDIST_WORKER:
    # Redis's PUBLISH reaches subscribers on every database index: each worker's rooms
    # (numbered from 1 in each worker's database) also need names of their own.
    _layer_config = CHANNEL_LAYERS["default"]["CONFIG"]
    assert isinstance(_layer_config, dict)  # Both Redis layers are configured by a dict.
    _layer_config["prefix"] = f"asgi-{XDIST_WORKER}"

# pytest-django gives each xdist worker a test database of its own (test_<name>_gw0, ...;
# the SQLite file's name gets the same ending).
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # One file per test run, so two runs in one checkout never share (or delete) a database.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")  # noqa: F405
    }

# Bots move at once in tests; a test that wants to watch them sets its own pause.
YAHTZEE_BOT_PAUSE = 0.0

# Tests wake games themselves (games.live.services.wake, with a clock of their own); a live
# server forked for a test keeps its watch (tests/conftest.py, make_application).
YAHTZEE_CLOCK_WATCH = False

# The tests' push service is a plain-http server on 127.0.0.1 (tests/server/test_push.py).
PUSH_HTTPS_ONLY = False

# No notices leave the commands (push.enabled() is false): the tests about push turn it on
# (tests/server/test_push.py's push_on), as the sending thread outlives the test that woke it.
PUSH_SENDING = False
