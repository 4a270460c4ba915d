#!/usr/bin/env bash
# Take the README's screenshots again (docs/screenshots/*.png): run it when the pages change.
# The browser tests take them on the way (tests/browser); a test run keeps its own under
# test-artifacts/ and never writes docs/, so this is the one command that does. It runs the
# browser tests into a fresh folder, then copies over each image the README shows or
# docs/screenshots holds. Nothing is copied if a test fails. Arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/setup-venv.sh test
if [ ! -d node_modules/axe-core ]; then
  npm ci --no-audit --no-fund --loglevel=error  # The accessibility sweep takes most of them.
fi

taken="$PWD/test-artifacts/readme-screenshots"
rm -rf "$taken"
mkdir -p "$taken"
echo "== pytest -m browser (screenshots into ${taken#"$PWD"/})"
YAHTZEE_SCREENSHOTS_DIR="$taken" REQUIRE_BROWSER=1 \
  pytest -m browser -n 3 --dist loadgroup -p no:cacheprovider -q "$@"

shown="$( (grep -o 'docs/screenshots/[A-Za-z0-9_-]*\.png' README.md; ls docs/screenshots/*.png) \
  | xargs -n 1 basename | sort -u)"
copied=0
missing=()
for name in $shown; do
  if [ -f "$taken/$name" ]; then
    cp "$taken/$name" "docs/screenshots/$name"
    copied=$((copied + 1))
  else
    missing+=("$name")
  fi
done
echo "Copied $copied screenshots into docs/screenshots/."
if [ "${#missing[@]}" -gt 0 ]; then
  echo "No test took: ${missing[*]} (a test renamed, or deselected by the arguments)." >&2
  exit 1
fi
