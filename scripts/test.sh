#!/usr/bin/env bash
# Install Yahtzee Live with its test tools into .venv, then lint, type-check the rules
# engine and the server, test the page modules with Node and run the whole test suite (browser tests
# included). Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-venv.sh test

# The browser tests drive Debian's Chromium: Playwright cannot download its own here.
if [ -z "${CHROMIUM:-}" ] && ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing Chromium for the browser tests (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
  else
    echo "No Chromium found: install it (apt-get install chromium) or set CHROMIUM=/path." >&2
  fi
fi

# axe-core, the accessibility checker the browser tests run in each page (package.json).
echo "== npm ci (axe-core for the accessibility tests)"
if command -v npm >/dev/null 2>&1; then
  npm ci --no-audit --no-fund --loglevel=error
elif [ -n "${CI:-}" ]; then
  echo "No npm found: the accessibility tests need axe-core from npm, and CI runs them." >&2
  exit 1
else
  echo "No npm found: the accessibility tests will be skipped (install Node 20 and npm)." >&2
fi

echo "== ruff"
ruff check .
ruff format --check .
# The pure modules, then the server's with django-stubs' plugin (pyproject.toml's
# [tool.mypy]). Not yet: games/accounts.py and games/urls.py, which imports it.
echo "== mypy --strict"
mypy --strict games/rules.py games/events.py games/codec.py games/replay.py \
  games/presentation.py games/protocol.py games/charts.py games/analysis.py games/strategy \
  games/models.py games/services.py games/store.py games/outbox.py games/bots.py games/consumers.py \
  games/views.py games/api.py games/history.py games/stats.py games/review.py \
  games/forms.py games/qr.py games/coach.py games/chances.py games/admin.py games/routing.py games/apps.py \
  games/clock.py games/watch.py games/heartbeat.py games/shutdown.py games/names.py \
  games/limits.py games/audit.py games/layers.py games/management yahtzee_site/origins.py yahtzee_site/csp.py yahtzee_site/errors.py \
  yahtzee_site/lan.py
echo "== node --test (the page modules in static/js)"
if command -v node >/dev/null 2>&1; then
  node --test --test-reporter=spec tests/js/*.test.mjs
elif [ -n "${CI:-}" ]; then
  echo "No node found: the page modules' tests need Node 20 or newer, and CI runs them." >&2
  exit 1
else
  echo "No node found: skipping the page modules' tests (install Node 20 or newer to run them)." >&2
fi
echo "== pytest (database: ${DATABASE_URL:-sqlite default}, channel layer: ${REDIS_URL:-in-memory})"
pytest "$@"
