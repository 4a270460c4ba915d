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
  # uv (from PyPI, like the rest) installs the project into a new .venv in 13 s, where pip
  # took 29 s (itself upgraded first) or 36 s (Python 3.11's own).
  .venv/bin/python -m pip install --quiet --disable-pip-version-check uv
fi
extras="${1:-}"
target="."
[ -n "$extras" ] && target=".[$extras]"
# What was installed last, and from which pyproject.toml: the same again installs nothing
# (pip would take seconds to find that out). The project itself is installed editable, so
# a change to its code needs no new install.
stamp="$target $(sha256sum pyproject.toml | cut -d ' ' -f 1)"
if [ "$(cat .venv/.installed 2>/dev/null)" != "$stamp" ]; then
  echo "Installing dependencies into .venv"
  if [ -x .venv/bin/uv ]; then
    # Compiled to bytecode as pip does, or a machine that sets PYTHONDONTWRITEBYTECODE (as
    # this one does) compiles every package again in every process: django.setup() took
    # 2.6 s of CPU without, 1.0 s with.
    .venv/bin/uv pip install --quiet --compile-bytecode --python .venv/bin/python -e "$target"
  else  # A .venv made before uv: pip, as then.
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$target"
  fi
  echo "$stamp" >.venv/.installed
fi
export PATH="$PWD/.venv/bin:$PATH"
