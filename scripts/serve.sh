#!/usr/bin/env bash
# Install Yahtzee Live into .venv and serve it at http://127.0.0.1:8000 on the embedded
# default: a SQLite file under var/ and the in-memory channel layer, one Daphne process.
set -euo pipefail
cd "$(dirname "$0")/.."
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
host="${HOST:-127.0.0.1}"
port="${PORT:-8000}"
echo "Yahtzee Live is at http://$host:$port/"
exec daphne --bind "$host" --port "$port" yahtzee_site.asgi:application
