#!/usr/bin/env bash
# The whole test command (scripts/test.sh) RUNS times in a row with every core kept busy
# (scripts/hog.sh), to find the tests that fail only on a busy machine. Arguments after
# RUNS go to pytest; DATABASE_URL and REDIS_URL choose the configuration as usual.
#   bash scripts/flakes.sh 3
# Each run's output is in test-artifacts/flakes/run-N.log; its result, wall time, load
# and failures are printed as it ends. Fails if any run failed.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${1:-3}"
[ $# -gt 0 ] && shift
mkdir -p test-artifacts/flakes
failed=0
for run in $(seq "$runs"); do
  log="test-artifacts/flakes/run-$run.log"
  started=$SECONDS
  result=passed
  bash scripts/hog.sh -- bash scripts/test.sh "$@" >"$log" 2>&1 || { result=FAILED; failed=$((failed + 1)); }
  echo "run $run of $runs: $result in $((SECONDS - started)) s, load $(cut -d' ' -f1-3 /proc/loadavg) ($log)"
  grep -aE '^(FAILED|ERROR) |[0-9]+ (passed|failed)' "$log" | tail -n 20 || true
done
echo "$failed of $runs runs failed"
[ "$failed" -eq 0 ]
