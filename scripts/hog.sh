#!/usr/bin/env bash
# Keep CPU cores busy, to hunt flakes: tests that pass on a quiet machine and fail on a
# busy one (an answer that comes later than a test assumed).
#   bash scripts/hog.sh                          every core, until Ctrl+C
#   bash scripts/hog.sh -n 1                     one core
#   bash scripts/hog.sh -- bash scripts/test.sh  a command with every core kept busy; the
#                                                hog stops with it, and exits with its status
# scripts/flakes.sh runs the whole test command this way several times in a row.
set -euo pipefail

cores="$(nproc)"
while [ $# -gt 0 ]; do
  case "$1" in
    -n) cores="$2"; shift 2 ;;
    --) shift; break ;;
    *) echo "usage: hog.sh [-n CORES] [-- COMMAND...]" >&2; exit 2 ;;
  esac
done

hogs=()
stop_hogs() {
  if [ "${#hogs[@]}" -gt 0 ]; then
    kill "${hogs[@]}" 2>/dev/null || true
    wait "${hogs[@]}" 2>/dev/null || true
  fi
}
trap stop_hogs EXIT
trap 'exit 130' INT TERM

for _ in $(seq "$cores"); do
  # A shell loop that never sleeps: one core's worth of work at the normal priority.
  ( trap - EXIT INT TERM; while :; do :; done ) &
  hogs+=("$!")
done
echo "hog: $cores busy loop(s), pids ${hogs[*]}" >&2

if [ $# -gt 0 ]; then
  status=0
  "$@" || status=$?
  exit "$status"
fi
wait
