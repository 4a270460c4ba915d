"""Settings come from the environment, with safe defaults and loud errors.

Each case imports the real settings module in a fresh interpreter with a
chosen environment, as a deployment would.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from yahtzee_site import env

ROOT = Path(__file__).resolve().parent.parent
STRONG_KEY = "k3Jq9Zr7Xw2Lp5Vt8Nb4Hs6Md1Fg0Ya-Ec_Ru3Oi7Tz9Wq2Ux5Pl8Kj4Hn6Bv"
# Cleared for each case; DJANGO_ALLOW_ASYNC_UNSAFE is set by the browser tests' fixture.
ENVIRONMENT = (
    "DEBUG",
    "SECRET_KEY",
    "DATABASE_URL",
    "REDIS_URL",
    "CHANNEL_LAYER_CAPACITY",
    "CHANNEL_LAYER",
    "REDIS_MAX_CONNECTIONS",
    "ALLOWED_HOSTS",
    "LAN",
    "LAN_ADDRESS",
    "DJANGO_ALLOW_ASYNC_UNSAFE",
    "VAPID_PRIVATE_KEY",
    "VAPID_SUBJECT",
)


def load_settings(**environ: str) -> subprocess.CompletedProcess[str]:
    """Import yahtzee_site.settings under ``environ`` alone; print a few values as JSON.

    The settings are read as Django reads them (``django.conf.settings``: the module is
    imported at the first value asked for), without ``django.setup()``, which would load
    every app as well: a second of CPU for each of these cases, and nothing that the
    settings decide. ``manage.py check --deploy`` below loads them all."""
    clean = {k: v for k, v in os.environ.items() if k not in ENVIRONMENT}
    script = (
        "import json; from django.conf import settings;"
        "db = settings.DATABASES['default'];"
        "print(json.dumps({'debug': settings.DEBUG, 'engine': db['ENGINE'],"
        " 'name': str(db['NAME']),"
        " 'options': db.get('OPTIONS', {}), 'host': db.get('HOST', ''),"
        " 'layer': settings.CHANNEL_LAYERS['default'], 'hosts': settings.ALLOWED_HOSTS,"
        " 'ssl_redirect': getattr(settings, 'SECURE_SSL_REDIRECT', False),"
        " 'vapid_public_key': settings.VAPID_PUBLIC_KEY}))"
    )
    return subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings", **environ},
        capture_output=True,
        text=True,
        timeout=60,
    )


def loaded(**environ: str) -> dict:
    result = load_settings(**environ)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_it_refuses_to_start_without_a_secret_key_when_debug_is_off():
    result = load_settings()

    assert result.returncode != 0
    assert "ImproperlyConfigured: Set the SECRET_KEY environment variable" in result.stderr


def test_debug_is_off_unless_asked_for():
    assert loaded(SECRET_KEY=STRONG_KEY)["debug"] is False
    assert loaded(DEBUG="true")["debug"] is True


def test_the_default_database_is_a_sqlite_file_that_locks_for_writing_at_begin():
    settings = loaded(DEBUG="1")

    assert settings["engine"] == "django.db.backends.sqlite3"
    assert settings["name"] == str(ROOT / "var" / "db.sqlite3")
    assert settings["options"]["transaction_mode"] == "IMMEDIATE"
    assert "journal_mode=WAL" in settings["options"]["init_command"]


def test_database_url_selects_postgresql():
    settings = loaded(DEBUG="1", DATABASE_URL="postgres://alice:pw@db.internal:5433/yahtzee")

    # Django's PostgreSQL backend behind the circuit breaker (yahtzee_site/db).
    assert settings["engine"] == "yahtzee_site.db.postgresql"
    assert settings["name"] == "yahtzee"
    assert settings["host"] == "db.internal"


def test_the_default_channel_layer_is_in_memory():
    assert loaded(DEBUG="1")["layer"] == {"BACKEND": "games.live.layers.InMemoryChannelLayer"}


def test_channel_layer_core_selects_channels_redis_core_layer():
    from channels_redis.core import RedisChannelLayer

    layer = loaded(DEBUG="1", REDIS_URL="redis://cache.internal:6379/2", CHANNEL_LAYER="core")[
        "layer"
    ]

    assert layer == {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {
            "hosts": [
                {
                    "address": "redis://cache.internal:6379/2",
                    "socket_timeout": 15,
                    "max_connections": 1000,
                }
            ],
            "capacity": 10_000,
        },
    }
    # A consumer waits for messages with a blocking pop; redis-py 8 would time the read out
    # after 5 s by default, just as Redis answers the pop, and crash the consumer.
    assert layer["CONFIG"]["hosts"][0]["socket_timeout"] > 2 * RedisChannelLayer.brpop_timeout


def test_redis_url_selects_the_redis_pub_sub_layer():
    layer = loaded(DEBUG="1", REDIS_URL="redis://r:6379/2")["layer"]

    assert layer == {
        "BACKEND": "games.live.layers.PubSubChannelLayer",
        "CONFIG": {
            "hosts": [
                {"address": "redis://r:6379/2", "socket_timeout": 15, "max_connections": 1000}
            ]
        },
    }


def test_it_refuses_a_channel_layer_it_does_not_know():
    result = load_settings(DEBUG="1", REDIS_URL="redis://r:6379/2", CHANNEL_LAYER="rabbit")

    assert result.returncode != 0
    assert "CHANNEL_LAYER is core or pubsub" in result.stderr


def test_the_redis_layers_capacity_is_sized_for_a_whole_process_and_can_be_set():
    # channels-redis bounds one process's inbox, shared by all its consumers (issue 15).
    core = {"REDIS_URL": "redis://r:6379/2", "CHANNEL_LAYER": "core"}
    default = loaded(DEBUG="1", **core)["layer"]
    chosen = loaded(DEBUG="1", **core, CHANNEL_LAYER_CAPACITY="50000")

    assert default["CONFIG"]["capacity"] >= 10_000
    assert chosen["layer"]["CONFIG"]["capacity"] == 50_000


def test_allowed_hosts_is_a_comma_separated_list():
    hosts = loaded(DEBUG="1", ALLOWED_HOSTS="yahtzee.example, www.yahtzee.example")["hosts"]

    assert hosts == ["yahtzee.example", "www.yahtzee.example"]


def test_a_deployed_site_redirects_to_https():
    assert loaded(SECRET_KEY=STRONG_KEY)["ssl_redirect"] is True
    assert loaded(DEBUG="1")["ssl_redirect"] is False


def test_check_deploy_has_nothing_to_say_with_debug_off():
    clean = {k: v for k, v in os.environ.items() if k not in ENVIRONMENT}
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "DEBUG"],
        cwd=ROOT,
        env={**clean, "DJANGO_SETTINGS_MODULE": "yahtzee_site.settings", "SECRET_KEY": STRONG_KEY},
        capture_output=True,
        text=True,
        timeout=60,
    )

    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (0 silenced)." in result.stdout


@pytest.mark.parametrize(
    ("raw", "expected"),
    [("1", True), ("true", True), ("YES", True), ("on", True), ("0", False), ("off", False)],
)
def test_env_bool_reads_the_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("SOME_FLAG", raw)

    assert env.env_bool("SOME_FLAG", default=not expected) is expected


@pytest.mark.parametrize(("reader", "raw"), [(env.env_bool, "maybe"), (env.env_int, "ten")])
def test_env_readers_refuse_values_they_cannot_read(monkeypatch, reader, raw):
    monkeypatch.setenv("SOME_SETTING", raw)

    with pytest.raises(ImproperlyConfigured, match="SOME_SETTING must be"):
        reader("SOME_SETTING", default=0)


def test_env_str_without_a_default_requires_the_variable(monkeypatch):
    monkeypatch.delenv("SOME_SETTING", raising=False)

    with pytest.raises(ImproperlyConfigured, match="Set the SOME_SETTING environment variable"):
        env.env_str("SOME_SETTING", default=None)


# Web Push's VAPID key (games/live/push.py) -------------------------------------------


def test_a_deployed_site_without_a_vapid_key_sends_no_notifications():
    assert loaded(SECRET_KEY=STRONG_KEY)["vapid_public_key"] == ""


def test_a_development_site_has_a_vapid_key_of_its_own():
    assert len(env.vapid_public_key("mWUiZImQg5SdNz4xooRBBY3AUqo8VC_CC8seMLnHwLU")) == 87
    assert loaded(DEBUG="true")["vapid_public_key"] == env.vapid_public_key(
        "mWUiZImQg5SdNz4xooRBBY3AUqo8VC_CC8seMLnHwLU"
    )


def test_the_vapid_key_made_once_gives_its_public_key_to_the_browsers():
    made = subprocess.run(
        [sys.executable, "manage.py", "vapid_keys", "--private-key"],
        cwd=ROOT,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    key = made.stdout.strip()

    public = loaded(SECRET_KEY=STRONG_KEY, VAPID_PRIVATE_KEY=key)["vapid_public_key"]

    assert public == env.vapid_public_key(key)
    assert public.startswith("B")  # 0x04: an uncompressed point, 65 bytes.


@pytest.mark.parametrize("key", ["short", "!!!!", "A" * 60])
def test_it_refuses_to_start_with_a_vapid_key_it_cannot_read(key):
    result = load_settings(SECRET_KEY=STRONG_KEY, VAPID_PRIVATE_KEY=key)

    assert result.returncode != 0
    assert "VAPID_PRIVATE_KEY must be a P-256 private key's 32 bytes" in result.stderr


def test_it_refuses_a_vapid_subject_that_is_no_mailto_or_https_url():
    result = load_settings(SECRET_KEY=STRONG_KEY, VAPID_SUBJECT="admin@example.org")

    assert "VAPID_SUBJECT is a mailto: or https: URL" in result.stderr
