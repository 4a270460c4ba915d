#!/usr/bin/env bash
# The production shape of Yahtzee Live on one machine: nginx in front of several Daphne
# processes that share PostgreSQL and Redis. It starts PostgreSQL and Redis when they
# are not answering (as .ci/run does), migrates, collects the static files, starts
# DAPHNES Daphne processes and nginx, and stops them all on Ctrl-C or SIGTERM. A Daphne
# that dies (a crash, kill -9) is started again on its port a second later, as a
# service manager would (systemd's Restart=always); its pid is in RUN_DIR/daphne-PORT.pid.
#
#   bash deploy/run.sh                      # http://127.0.0.1:8080/, two Daphnes
#   DAPHNES=4 PORT=9000 bash deploy/run.sh
#
# Settings come from the environment as in the README; the defaults here are this
# machine's services: DATABASE_URL=postgres://postgres@127.0.0.1:5432/yahtzee (the
# database is created when missing) and REDIS_URL=redis://127.0.0.1:6379/0. Plain http
# on 127.0.0.1 (Chromium keeps secure cookies on localhost); in front of the public
# site, terminate TLS before nginx and set SECURE_PROXY_SSL_HEADER=true.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"

port="${PORT:-8080}"
daphnes="${DAPHNES:-2}"
first_daphne="${FIRST_DAPHNE_PORT:-8001}"
run="${RUN_DIR:-$root/var/deploy}"
mkdir -p "$run"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# A bound on a failure, not a pause: a Daphne on a loaded machine took more than 10 s to
# import and listen (the soak's quick run at a load average of 20 to 30).
wait_for_port() {
  for _ in $(seq 300); do port_open "$1" && return; sleep 0.2; done
  echo "nothing answers on port $1" >&2; exit 1
}

if ! port_open 5432; then
  echo "Starting PostgreSQL"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
  wait_for_port 5432
fi
if ! port_open 6379; then
  echo "Starting Redis"
  redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no
  wait_for_port 6379
fi
if ! command -v nginx >/dev/null 2>&1; then
  echo "Installing nginx (apt-get)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx-light >/dev/null
fi

export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/yahtzee}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379/0}"
if [[ "$DATABASE_URL" == postgres://postgres@127.0.0.1:5432/yahtzee ]]; then
  psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname = 'yahtzee'" \
    | grep -q 1 || createdb -h 127.0.0.1 -U postgres yahtzee
fi
export DEBUG="${DEBUG:-false}"
if [ ! -s var/secret_key ]; then
  python3 -c 'import secrets; print(secrets.token_urlsafe(50))' > var/secret_key
  chmod 600 var/secret_key
fi
export SECRET_KEY="${SECRET_KEY:-$(cat var/secret_key)}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-localhost,127.0.0.1}"
export CSRF_TRUSTED_ORIGINS="${CSRF_TRUSTED_ORIGINS:-http://localhost:$port,http://127.0.0.1:$port}"
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-false}"
export SECURE_HSTS_SECONDS="${SECURE_HSTS_SECONDS:-0}"
export CLIENT_ADDRESS_HEADER="${CLIENT_ADDRESS_HEADER:-X-Real-IP}"  # Set by nginx below.

# Inside an activated virtual environment (the fault tests' own), use it as it is.
[ -n "${VIRTUAL_ENV:-}" ] || source scripts/setup-venv.sh ""
# Web Push's VAPID key, made once and kept like the secret key (a new one would orphan
# every browser's subscription).
if [ ! -s var/vapid_private_key ]; then
  python manage.py vapid_keys --private-key > var/vapid_private_key
  chmod 600 var/vapid_private_key
fi
export VAPID_PRIVATE_KEY="${VAPID_PRIVATE_KEY:-$(cat var/vapid_private_key)}"
python manage.py migrate --noinput
python manage.py collectstatic --noinput --verbosity 0
python -m games.strategy  # The strategy tables, once, before any process needs them.

rm -f "$run/stopping"
keepers=()
stop() {
  trap - INT TERM EXIT
  touch "$run/stopping"  # The keepers below start nothing more.
  [ -f "$run/nginx.pid" ] && kill -QUIT "$(cat "$run/nginx.pid")" 2>/dev/null || true
  # Each Daphne closes its sockets with 1012 and leaves within 5 s (games/live/shutdown.py).
  for pidfile in "$run"/daphne-*.pid; do
    [ -f "$pidfile" ] && kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
  done
  wait || true
  rm -f "$run"/daphne-*.pid
}
trap stop INT TERM EXIT

# One Daphne on port $1, started again whenever it dies, until stop() says stopping.
keep_daphne() {
  local daphne_port="$1"
  trap - INT TERM EXIT
  while [ ! -e "$run/stopping" ]; do
    # A handshake's 30 s rather than Daphne's 5: the consumer accepts before any other
    # work, so a handshake that takes longer is only queued behind a burst (every browser
    # reconnecting at once) on a busy machine; refused, its browser would only come back.
    daphne --bind 127.0.0.1 --port "$daphne_port" --proxy-headers \
      --websocket_connect_timeout 30 \
      yahtzee_site.asgi:application >>"$run/daphne-$daphne_port.log" 2>&1 &
    echo "$!" >"$run/daphne-$daphne_port.pid"
    wait "$!" && status=0 || status=$?
    [ -e "$run/stopping" ] && break
    echo "$(date -u +%FT%TZ) Daphne on port $daphne_port exited ($status); starting it again" \
      >>"$run/daphne-$daphne_port.log"
    sleep 1
  done
}

upstreams=""
for n in $(seq 0 $((daphnes - 1))); do
  daphne_port=$((first_daphne + n))
  keep_daphne "$daphne_port" &
  keepers+=("$!")
  upstreams+="        server 127.0.0.1:$daphne_port max_fails=1 fail_timeout=5s;"$'\n'
done
for n in $(seq 0 $((daphnes - 1))); do wait_for_port $((first_daphne + n)); done

sed -e "s|@RUN@|$run|g" -e "s|@LISTEN@|127.0.0.1:$port|g" \
  -e "s|@STATIC_ROOT@|$root/var/staticfiles|g" -e "s|@MIME_TYPES@|/etc/nginx/mime.types|g" \
  deploy/nginx.conf.template | awk -v ups="$upstreams" '{ if ($0 == "@UPSTREAMS@") printf "%s", ups; else print }' \
  >"$run/nginx.conf"
nginx -t -q -p "$run" -c "$run/nginx.conf" -g "user $(id -un);"
nginx -p "$run" -c "$run/nginx.conf" -g "user $(id -un);"
echo "Yahtzee Live is at http://127.0.0.1:$port/ ($daphnes Daphne processes behind nginx; logs in $run)"
wait "${keepers[@]}"
