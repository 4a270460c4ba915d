# Sourced by serve.sh and test.sh: make .venv with Python 3.11 or newer and install the
# project into it. The first argument names pip extras ("" or "test").
set -euo pipefail

python_bin="${PYTHON:-python3}"
"$python_bin" -c 'import sys; sys.exit(sys.version_info < (3, 11))' || {
  echo "Yahtzee Live needs Python 3.11 or newer; $python_bin is $("$python_bin" --version 2>&1)." >&2
  exit 1
}
if [ ! -x .venv/bin/python ]; then
  echo "Creating .venv"
  "$python_bin" -m venv .venv
  .venv/bin/python -m pip install --quiet --upgrade pip
fi
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
echo "Installing dependencies into .venv"
.venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
export PATH="$PWD/.venv/bin:$PATH"
