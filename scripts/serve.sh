#!/usr/bin/env bash
# Install Yahtzee Live into .venv and serve it at http://127.0.0.1:8000 on the embedded
# default: a SQLite file under var/ and the in-memory channel layer, one Daphne process.
#
# For friends on the same home network: `bash scripts/serve.sh --lan` (or LAN=1). It
# listens on every interface (0.0.0.0), answers to this machine's addresses and names,
# and invite links and QR codes carry its address (yahtzee_site/lan.py).
set -euo pipefail
cd "$(dirname "$0")/.."
for arg in "$@"; do
  case "$arg" in
    --lan) export LAN=true ;;
    *) echo "usage: bash scripts/serve.sh [--lan]" >&2; exit 2 ;;
  esac
done
source scripts/setup-venv.sh ""

# A local site: Django's debug mode, plain http. A public site sets DEBUG=false and
# SECRET_KEY (see the README).
export DEBUG="${DEBUG:-true}"
mkdir -p var/staticfiles
python manage.py migrate --noinput
# The strategy tables of the coach, the bots and the analysis: computed once (seconds),
# then loaded from var/strategy/ (or $YAHTZEE_STRATEGY_CACHE) in a blink.
python -m games.strategy
case "${DEBUG,,}" in
  1|true|yes|on) ;;
  *) python manage.py collectstatic --noinput --verbosity 0 ;;
esac
port="${PORT:-8000}"
case "${LAN:-false}" in
  1|true|TRUE|True|yes|on)
    host="${HOST:-0.0.0.0}"
    echo "Yahtzee Live is at http://127.0.0.1:$port/ on this machine."
    python -m yahtzee_site.lan --port "$port" --address "${LAN_ADDRESS:-}"
    ;;
  *)
    host="${HOST:-127.0.0.1}"
    echo "Yahtzee Live is at http://$host:$port/"
    ;;
esac
exec daphne --bind "$host" --port "$port" yahtzee_site.asgi:application
