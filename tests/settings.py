"""Settings for the test suite: the deployed settings, served over plain http.

Everything comes from ``yahtzee_site.settings`` and the same environment
(``DATABASE_URL``, ``REDIS_URL``), so CI tests both configurations; only what
needs TLS or ``collectstatic`` is turned off, because the test servers have neither.
"""

import os

os.environ.setdefault("SECRET_KEY", "tests-only-" + "x7Qp2vLk9sRt4wYz8bNc3mHf6jDg1aKe5uVo0iXq")

from yahtzee_site.settings import *  # noqa: F403
from yahtzee_site.settings import STORAGES

SECURE_SSL_REDIRECT = False
SESSION_COOKIE_SECURE = False
CSRF_COOKIE_SECURE = False
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

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # One file per test run, so two runs in one checkout never share (or delete) a database.
    DATABASES["default"]["TEST"] = {  # noqa: F405
        "NAME": str(BASE_DIR / "var" / f"test-db-{os.getpid()}.sqlite3")  # noqa: F405
    }

# Bots move at once in tests; a test that wants to watch them sets its own pause.
YAHTZEE_BOT_PAUSE = 0.0

# Tests wake games themselves (games.services.wake, with a clock of their own); a live
# server forked for a test keeps its watch (tests/conftest.py, make_application).
YAHTZEE_CLOCK_WATCH = False
