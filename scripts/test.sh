#!/usr/bin/env bash
# Install Yahtzee Live with its test tools into .venv, then lint, type-check the rules
# engine and the server, test the page modules with Node and run the whole test suite (browser tests
# included), in parallel. Arguments go to pytest. Nothing git tracks is written: the tests
# write under test-artifacts/ (the README's screenshots: scripts/screenshots.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# The suite starts a hundred Python processes or more (its workers, servers, benchmarks):
# each compiled the project's modules again where PYTHONDONTWRITEBYTECODE is set (as on
# this machine), about a quarter of a second of CPU each. Their bytecode goes to
# __pycache__/, which git ignores.
unset PYTHONDONTWRITEBYTECODE
source scripts/setup-venv.sh test

# The browser tests drive Debian's Chromium: Playwright cannot download its own here. Most
# run in its headless shell (chromium-headless-shell: the same Blink at about half the CPU),
# the few that need the whole browser in chromium (tests/browser/chromium.py). They need a
# colour emoji font too, or Chromium draws the daily game's share symbols (🟩 🟨 ⬛ ⬜) as
# empty boxes in the screenshots: Debian's fonts-noto-color-emoji.
missing=()
if [ -z "${CHROMIUM:-}" ]; then
  for package in chromium chromium-headless-shell; do
    command -v "$package" >/dev/null 2>&1 || missing+=("$package")
  done
fi
if ! { command -v fc-list >/dev/null 2>&1 && fc-list | grep -qi "Noto Color Emoji"; }; then
  missing+=(fonts-noto-color-emoji)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "Installing ${missing[*]} for the browser tests (apt-get)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "Missing for the browser tests: ${missing[*]} (apt-get install ${missing[*]});" \
      "set CHROMIUM=/path for a Chromium of your own." >&2
  fi
fi

# From npm (package.json, pinned in package-lock.json): axe-core, the accessibility checker
# the browser tests run in each page, and happy-dom, the DOM the panels' node tests draw in.
echo "== npm ci (axe-core for the accessibility tests, happy-dom for the panels' tests)"
if command -v npm >/dev/null 2>&1; then
  # Once per package-lock.json: npm ci removes node_modules and installs it all again.
  lock="$(sha256sum package-lock.json | cut -d ' ' -f 1)"
  if [ "$(cat node_modules/.installed 2>/dev/null)" != "$lock" ]; then
    npm ci --no-audit --no-fund --loglevel=error
    echo "$lock" >node_modules/.installed
  fi
elif [ -n "${CI:-}" ]; then
  echo "No npm found: the accessibility and the panels' tests need packages from npm, and CI runs them." >&2
  exit 1
else
  echo "No npm found: the accessibility tests will be skipped, and the page modules' tests too (install Node 20 and npm)." >&2
fi

# The strategy and odds tables the tests read, solved into test-artifacts/strategy-cache/ (or
# $YAHTZEE_STRATEGY_CACHE, which .ci/run sets) beside the linters and the page modules'
# tests (a fresh checkout: about 80 s of CPU, on the cores they leave idle; a checkout
# that has them: a second). pytest waits for them below.
mkdir -p test-artifacts
python -m tests.tables >test-artifacts/strategy-cache.log 2>&1 &
solver=$!
trap 'kill "$solver" ${mypy:-} 2>/dev/null || true' EXIT  # A check failed: the rest stop too.

if [ -n "${REDIS_URL:-}" ] && [[ "${DATABASE_URL:-}" == postgres* ]]; then
  # What they check is the same whatever the database and the channel layer: the default
  # pass (CI's first) runs them, as it runs the tests listed in tests/configurations.py.
  echo "== ruff, mypy and node --test: the default pass runs them (the same in every configuration)"
else
  echo "== ruff"
  ruff check .
  ruff format --check .
  # Both packages whole, the server's modules with django-stubs' plugin (pyproject.toml's
  # [tool.mypy], which leaves out the generated migrations): a new module cannot be missed.
  # It runs beside the page modules' tests (each uses about one core); its report follows
  # theirs.
  mypy --strict games yahtzee_site >test-artifacts/mypy.log 2>&1 &
  mypy=$!
  echo "== node --test (the page modules in static/js, the panels in happy-dom's DOM)"
  if command -v node >/dev/null 2>&1 && [ -d node_modules/happy-dom ]; then
    # Two test files at a time (Node's default is one on two cores).
    node --test --test-concurrency=2 --test-reporter=spec tests/js/*.test.mjs
  elif [ -n "${CI:-}" ]; then
    echo "No node or no node_modules: the page modules' tests need Node 20 or newer and npm ci, and CI runs them." >&2
    exit 1
  else
    echo "No node or no npm: skipping the page modules' tests (install Node 20 or newer and npm to run them)." >&2
  fi
  echo "== mypy --strict"
  mypy_status=0
  wait "$mypy" || mypy_status=$?
  cat test-artifacts/mypy.log
  [ "$mypy_status" = 0 ] || exit "$mypy_status"
fi
if ! wait "$solver"; then
  cat test-artifacts/strategy-cache.log >&2
  exit 1
fi
echo "== pytest (database: ${DATABASE_URL:-sqlite default}, channel layer: ${REDIS_URL:-in-memory})"
# In 3 processes side by side (pytest-xdist), each with its own databases, Redis index,
# servers and Chromium (tests/settings.py, tests/conftest.py). The suite waits more than
# it computes: on 2 cores, three workers finished sooner than two or one (README).
# loadgroup keeps the fault tests on one worker (tests/faults). A later -n wins: -n 0
# runs in this one process.
# --durations: the 25 slowest tests close the report, so a run shows where its time went.
pytest -n 3 --dist loadgroup --durations=25 "$@"
