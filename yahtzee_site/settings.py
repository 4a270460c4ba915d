"""Settings for Yahtzee Live, read from the environment with safe embedded defaults.

With nothing set, the site runs on a SQLite file and the in-memory channel
layer in one process. Set ``DATABASE_URL`` and ``REDIS_URL`` to run several
processes on PostgreSQL and Redis. Every variable is listed in the README.
"""

import os
from datetime import timedelta
from pathlib import Path
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from yahtzee_site.env import env_bool, env_int, env_list, env_str, vapid_public_key

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

# Only a development site may fall back on a known key; a deployed one must set its own.
SECRET_KEY = env_str(
    "SECRET_KEY",
    default="django-insecure-development-only-key-never-use-in-production" if DEBUG else None,
)

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", default=[])

# Serving friends on the same home network (yahtzee_site/lan.py): the site answers to this
# machine's addresses and names there, and invite links carry its address, not 127.0.0.1.
LAN = env_bool("LAN", default=False)
YAHTZEE_LAN_ADDRESS: str | None = None
if LAN:
    from yahtzee_site import lan

    _lan = lan.detect(env_str("LAN_ADDRESS", default=""))
    ALLOWED_HOSTS = [*ALLOWED_HOSTS, *(h for h in _lan.hosts if h not in ALLOWED_HOSTS)]
    YAHTZEE_LAN_ADDRESS = _lan.invite_address

INSTALLED_APPS = [
    # daphne first: its runserver serves websockets too.
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "axes",
    "games",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "yahtzee_site.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # After the session, before CommonMiddleware, as Django's docs ask: the language comes
    # from the cookie set_language writes, else the browser's Accept-Language.
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "yahtzee_site.urls"
ASGI_APPLICATION = "yahtzee_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.web.scripts_catalog.scripts_catalog",
            ],
        },
    },
]


# Database -------------------------------------------------------------------

SQLITE_PATH = BASE_DIR / "var" / "db.sqlite3"
DATABASES = {
    "default": dj_database_url.parse(
        env_str("DATABASE_URL", default=f"sqlite:///{SQLITE_PATH}"),
        conn_max_age=0,
        conn_health_checks=True,
    )
}
#: The PostgreSQL backend's options (below); the fault tests give them to a private server.
POSTGRES_OPTIONS: dict[str, Any] = {
    "pool": {"min_size": 2, "max_size": 20, "timeout": 0.25, "reconnect_timeout": 2},
    "connect_timeout": 2,
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Under ASGI every HTTP request runs in a thread of its own, so persistent connections
    # would pile up: connections come from a pool instead, and go back to it after each
    # request and after each websocket command.
    # Bounded on purpose: a request or a command waits up to 3 s for a free connection
    # (back-pressure under a burst), then fails cleanly (a command is answered
    # ``unavailable``); a new connection gives up after 2 s when PostgreSQL is away.
    # The pool's own timeout is 0.25 s: after it the backend asks PostgreSQL itself
    # whether it is there, and waits on (up to those 3 s) only if it is.
    # The backend is Django's behind a circuit breaker (yahtzee_site/db): while
    # PostgreSQL is away, connections are refused at once instead of after those 3 s.
    # It checks each connection the pool hands out itself (the pool's own check sleeps
    # a second on a broken one), and the pool gives up reconnecting after 2 s instead
    # of retrying for 5 minutes at a growing interval: the breaker finds the database
    # back, and the pool then connects at once, not when its next retry falls due.
    DATABASES["default"]["ENGINE"] = "yahtzee_site.db.postgresql"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"]["OPTIONS"] = POSTGRES_OPTIONS
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Keep connections open. Closing the last connection to a WAL database checkpoints
    # the log into the file and deletes it, with fsyncs: once per websocket command, that
    # cost several times the command itself. (The websocket commands all run on one
    # thread, so they share one connection.)
    DATABASES["default"]["CONN_MAX_AGE"] = 600
    DATABASES["default"]["OPTIONS"] = {
        # Take the write lock when a transaction begins, so two commands on one game
        # queue up instead of failing halfway with "database is locked".
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": (
            "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;"
        ),
    }
    # The browser tests serve pages from a second process, which cannot see an
    # in-memory database: test on a file.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / "test-db.sqlite3")}

#: Threads that run the websocket commands' database work. A game's commands always go
#: to the same thread, so they run in order; different games' run side by side, each
#: thread with its own connection. One by default: on PostgreSQL, four threads on two
#: cores gave no shorter waits and fewer commands a second (benchmarks/README.md), and
#: SQLite takes one writer at a time anyway. Try more on a machine with more cores.
DATABASE_THREADS = env_int("DATABASE_THREADS", default=1)
if DATABASE_THREADS < 1:
    raise ImproperlyConfigured("DATABASE_THREADS is a whole number, 1 or more")

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"


# Bots -----------------------------------------------------------------------

#: Seconds a bot waits before each of its moves whatever its room's pace, from
#: YAHTZEE_BOT_PAUSE_MS (milliseconds): an override for tests and fault runs (0: at once).
#: Unset, the room's pace decides, as the host chose it (games/live/bots.py, pause).
YAHTZEE_BOT_PAUSE: float | None = (
    env_int("YAHTZEE_BOT_PAUSE_MS", default=0) / 1000
    if os.environ.get("YAHTZEE_BOT_PAUSE_MS")
    else None
)

#: Whether this process keeps the turn clock's watch (games/live/watch.py): plays the turns
#: whose time ran out, restarts stalled bots and ends abandoned games. Every server
#: process should; the test suite turns it off and wakes games itself.
YAHTZEE_CLOCK_WATCH = env_bool("YAHTZEE_CLOCK_WATCH", default=True)


# Channel layer --------------------------------------------------------------

REDIS_URL = env_str("REDIS_URL", default="")

#: Seconds a read from Redis may take. A consumer waits for its next message with a
#: blocking pop that Redis answers after 5 seconds when nothing came (channels-redis's
#: ``brpop_timeout``). redis-py 8 gives every read a 5-second timeout by default, so the
#: client could give up on that answer just before it came, and the consumer would crash
#: and drop its websocket (django/channels_redis#422). The timeout must outlast the pop.
REDIS_SOCKET_TIMEOUT = 15

#: How many messages may wait in Redis for the consumers of one process. channels-redis
#: keeps the messages for all of a process's consumers in one sorted set, and its
#: ``capacity`` (100 by default) bounds that set, not each consumer: once a busy process
#: has 100 messages unread (a few hundred rooms starting at once), ``group_send`` drops
#: the next event for every socket of that process in the room, raising nothing, and the
#: room waits for an event that never comes (issue 15). So it is sized for a process's
#: whole inbox; messages unread still expire after 60 seconds.
CHANNEL_LAYER_CAPACITY = env_int("CHANNEL_LAYER_CAPACITY", default=10_000)

#: Connections to Redis one process may open. redis-py 8's pools open at most 100 and
#: then raise ("Too many connections") instead of waiting, and every group send, group
#: add and receive takes one for its round trips: a few hundred rooms sending at once
#: crashed consumers, and their sockets closed with 1011 (issue 15). Redis itself
#: accepts 10,000 clients by default.
REDIS_MAX_CONNECTIONS = env_int("REDIS_MAX_CONNECTIONS", default=1000)

#: Which channels-redis layer carries the rooms with Redis: ``pubsub`` (Redis
#: PUBLISH/SUBSCRIBE; each process reads one subscription and hands every socket its own
#: messages) or ``core`` (lists in Redis, one blocking pop per process shared by its
#: sockets). pub/sub is the default: in a burst of 1,000 reconnections it gave every
#: socket its snapshot sooner (p99 5.8-6.7 s against 8.3-8.4 s), it has no capacity to
#: overflow (the core layer dropped events silently when full, issue 15), and a socket
#: closed in the middle of a read cannot take another socket's message with it, as the
#: core layer's shared pop can (benchmarks/README.md, "burst.py").
CHANNEL_LAYER = env_str("CHANNEL_LAYER", default="pubsub")
if CHANNEL_LAYER not in ("core", "pubsub"):
    raise ImproperlyConfigured("CHANNEL_LAYER is core or pubsub")

if REDIS_URL and CHANNEL_LAYER == "pubsub":
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "games.live.layers.PubSubChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": REDIS_SOCKET_TIMEOUT,
                        "max_connections": REDIS_MAX_CONNECTIONS,
                    }
                ],
            },
        }
    }
elif REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": REDIS_SOCKET_TIMEOUT,
                        "max_connections": REDIS_MAX_CONNECTIONS,
                    }
                ],
                "capacity": CHANNEL_LAYER_CAPACITY,
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "games.live.layers.InMemoryChannelLayer"}}


# Limits ---------------------------------------------------------------------

# The counters of games/live/limits.py. With Redis, on the channel layer's Redis under a
# prefix of their own (the layer's keys start with "asgi"), so every process counts
# together; without, in this process's memory. Kept apart from the default cache, which
# holds large values (the analyses) that must not share Redis with counters.
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "limits": (
        {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "yahtzee-limits",
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
        if REDIS_URL
        else {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "limits",
            # The default (300 keys) would drop live counters under a flood of new ones.
            "OPTIONS": {"MAX_ENTRIES": 100_000},
        }
    ),
}

#: Whether the rate limits below count at all. Off only for load benchmarks, which open
#: hundreds of rooms from one address; the log's cap and the chat allowance after a game
#: stay on.
YAHTZEE_RATE_LIMITS = env_bool("YAHTZEE_RATE_LIMITS", default=True)
#: Behind a proxy, the request header that carries the client's address (X-Real-IP):
#: without it every request would count as the proxy's.
CLIENT_ADDRESS_HEADER = env_str("CLIENT_ADDRESS_HEADER", default="")

# Each limit is a list of (count, seconds): so many in every window of so many seconds.
# Opening a room: a person opens one per game (a game takes 10 minutes or more), and
# perhaps a few in a row while choosing rules, so 10 a minute and 60 an hour from one
# browser are far above anyone's need. An address may be a school or an office behind
# one router: three times as much. (3,000 rooms in 35 s were accepted before.)
LIMIT_ROOMS_PER_SESSION = [(10, 60), (60, 60 * 60)]
LIMIT_ROOMS_PER_ADDRESS = [(30, 60), (200, 60 * 60)]
# Chat, per seat across all its sockets: a quick "gg" "nice" "again?" is three lines in
# a few seconds; nobody types 8 lines in 10 s or 40 in a minute. (20 sockets of one seat
# sent 170 a second before.)
LIMIT_CHAT_PER_SEAT = [(8, 10), (40, 60)]
# After the game is over (finished or abandoned), each seat may say this much more, for
# a day: "good game", a word on the result, then the room is closed to chat.
LIMIT_CHAT_AFTER_END = 20
LIMIT_CHAT_AFTER_END_SECONDS = 24 * 60 * 60
# The watchers' chat (games/live/services.py, watcher_chat), kept in no log. Per watcher (its
# browser session; sockets without one, scripts, count as one watcher per address): a
# little less than a seat may say. Per address, all its browsers together: a household
# or a class room watching, and a script that opens many sockets is held to it. Not per
# room: a room-wide budget let five cookie-less sockets cost a watcher 4 lines of 10.
LIMIT_WATCHER_CHAT_PER_WATCHER = [(5, 10), (30, 60)]
LIMIT_WATCHER_CHAT_PER_ADDRESS = [(20, 10), (90, 60)]
# Events in one game's log beyond which chat is refused (play never is). A six-seat game
# of bots that show their held dice, with two lines of chat a round, logs about 490
# (tests/server/test_limits.py); six people holding dice one click at a time, about
# 1,100 at most. Ten times the first leaves chat room in a long game and keeps an
# export near 1 MB (a flood grew one to 20.8 MB).
LIMIT_LOG_EVENTS = 5_000
# Signing up, per address: a person who meets a taken name or a weak password tries
# perhaps five times; 20 an hour leaves a family or a class room to spare.
LIMIT_SIGNUPS_PER_ADDRESS = [(20, 60 * 60)]
# Failed logins beyond django-axes' pairs (below), as (free, window, most): past `free`
# failures within `window` seconds, each failure makes the next login wait 2, 4, 8 ...
# seconds, `most` at most (games/live/limits.py, slowed). Slowed, never banned: one
# address may be a school or an office, where one person's failures must not lock out
# the others (30 failures once refused every login from an address for an hour). Per
# address whatever the account (one address trying many accounts), and per account
# whatever the address (many addresses guessing one): a script gets a few dozen tries
# an hour where it had thousands. A browser that has logged in to the account before
# (a signed cookie, games/web/accounts.py) is never slowed: only its own pair can lock.
LIMIT_LOGIN_FAILURES_PER_ADDRESS = (10, 60 * 60, 60)
LIMIT_LOGIN_FAILURES_PER_ACCOUNT = (20, 60 * 60, 60)

# Logins (django-axes): 5 wrong passwords for one account from one address lock that
# pair for 15 minutes, and each try meanwhile starts the wait again. A person who forgot
# a password tries a handful; a guesser gets 5 guesses a quarter of an hour instead of
# 190 a minute. The pair, not the account alone, so nobody can lock another person out.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "games.web.accounts.locked_out"
AXES_CLIENT_IP_CALLABLE = "games.live.limits.client_address"
AXES_DISABLE_ACCESS_LOG = True  # Failures are what it needs; not a row per login.


# Web Push -------------------------------------------------------------------

# Browsers that asked for it are told of their turn, a game starting and a rematch while
# no tab of the room is open (games/live/push.py). The messages are signed with the
# site's VAPID key pair (RFC 8292): made once (python manage.py vapid_keys) and kept like
# SECRET_KEY, since a new key orphans every browser's subscription. Only a development
# site may fall back on a known key; a deployed one without VAPID_PRIVATE_KEY offers no
# notifications (the room hides the control).
VAPID_PRIVATE_KEY = env_str(
    "VAPID_PRIVATE_KEY",
    default="mWUiZImQg5SdNz4xooRBBY3AUqo8VC_CC8seMLnHwLU" if DEBUG else "",
)
#: What browsers are given to subscribe with; derived from the private key.
VAPID_PUBLIC_KEY = vapid_public_key(VAPID_PRIVATE_KEY) if VAPID_PRIVATE_KEY else ""
#: Who runs the site, for the push services to write to (a mailto: or an https: URL).
#: Apple's service refuses a localhost address: set it on a deployed site.
VAPID_SUBJECT = env_str("VAPID_SUBJECT", default="mailto:webmaster@localhost")
if not VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("VAPID_SUBJECT is a mailto: or https: URL")
#: Seconds the sending thread waits for a push service before giving up on one message.
PUSH_TIMEOUT = env_int("PUSH_TIMEOUT", default=10)
#: How long a push service keeps a message for a browser that is offline, in seconds: a
#: day, as long as a turn in the slowest game.
PUSH_TTL = 24 * 60 * 60
#: Only https: endpoints are taken (every browser's push service is one): the server posts
#: to the URL a browser gives, and must not be sent to this network's plain-http services.
#: The tests turn it off for their own push service on 127.0.0.1.
PUSH_HTTPS_ONLY = True
#: Whether commands hand their notices to the sending thread at all. The tests turn it off but
#: for those about push: every game of theirs would otherwise wake the thread, which reads
#: subscriptions after the test that played may have ended. The room offers the opt-ins either way.
PUSH_SENDING = True


# Internationalisation -------------------------------------------------------

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

#: The languages the site speaks. The browser's Accept-Language picks one (LocaleMiddleware);
#: the footer's switcher (Django's set_language) overrides it with a cookie. Each has a
#: catalog in locale/<code>/LC_MESSAGES/ (README, "Translations"). The names are each
#: language's own, as a switcher shows them to someone who does not read the current one.
LANGUAGES = [
    ("en", "English"),
    ("de", "Deutsch"),
    ("fr", "Français"),
    ("es", "Español"),
    ("sv", "Svenska"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
#: Dates follow the reader's language (templates name formats: ``date:"DATE_FORMAT"``);
#: English keeps the site's "26 November 2026" rather than Django's "Nov. 26, 2026".
FORMAT_MODULE_PATH = ["yahtzee_site.formats"]
#: Dates follow the reader's language (templates name formats: ``date:"DATE_FORMAT"``);
#: English keeps the site's "26 November 2026" rather than Django's "Nov. 26, 2026".
FORMAT_MODULE_PATH = ["yahtzee_site.formats"]
#: The switcher's choice is remembered for a year (Django's default forgets it with the
#: browser session), and sent with same-site navigations only.
LANGUAGE_COOKIE_AGE = 60 * 60 * 24 * 365
LANGUAGE_COOKIE_SAMESITE = "Lax"


# Static files ---------------------------------------------------------------

STATIC_URL = "/static/"
STATICFILES_DIRS = [BASE_DIR / "static"]

# Accounts are optional: guests play without one (see games/web/accounts.py).
LOGIN_URL = "login"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": f"django.contrib.auth.password_validation.{name}"}
    for name in (
        "UserAttributeSimilarityValidator",
        "MinimumLengthValidator",
        "CommonPasswordValidator",
        "NumericPasswordValidator",
    )
]
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"
# None where nothing is collected (the test settings serve straight from the finders).
STATIC_ROOT: Path | None = BASE_DIR / "var" / "staticfiles"
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "yahtzee_site.storage.StaticFilesStorage"
        )
    },
}
# In development WhiteNoise serves straight from static/, no collectstatic needed.
WHITENOISE_USE_FINDERS = DEBUG
WHITENOISE_AUTOREFRESH = DEBUG


# Security -------------------------------------------------------------------

SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_AGE = 60 * 60 * 24 * 365  # A seat belongs to the browser for a year.
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"

#: The Content-Security-Policy of every response (yahtzee_site/csp.py), in the shape of
#: Django 6.0's SECURE_CSP. Scripts and styles come from files of this site only: no
#: inline <script>, style attribute or event handler attribute (the pages' JSON config
#: is a <script type="application/json">, which is data, never run, so CSP leaves it
#: alone). The QR code is inline SVG, part of the page, not an image; nothing uses
#: data: URLs. connect-src also names the page's own ws:// or wss:// origin.
CONTENT_SECURITY_POLICY: dict[str, list[str]] = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
}

if not DEBUG:
    # A deployed site sits behind HTTPS. Behind a proxy that terminates TLS, set
    # SECURE_PROXY_SSL_HEADER=1 so Django trusts X-Forwarded-Proto.
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    LANGUAGE_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    if env_bool("SECURE_PROXY_SSL_HEADER", default=False):
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")


# Logging --------------------------------------------------------------------

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", default="INFO")},
    # django-axes says every login at INFO; its lockouts are warnings.
    "loggers": {"axes": {"level": "WARNING"}},
}
