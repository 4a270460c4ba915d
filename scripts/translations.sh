#!/usr/bin/env bash
# The translation catalogs (README, "Translations"). Needs GNU gettext (xgettext, msgmerge,
# msgfmt: apt-get install gettext).
#
#   bash scripts/translations.sh update   # re-read every message from the source into locale/*/django.po
#                                         # (the page scripts' into locale/*/djangojs.po)
#   bash scripts/translations.sh compile  # locale/*/django.po -> django.mo (committed; a test fails when stale)
#   bash scripts/translations.sh add xx   # a new language's catalog (also add it to LANGUAGES in the settings)
set -euo pipefail
cd "$(dirname "$0")/.."
python=.venv/bin/python
[ -x "$python" ] || python=python3
# Our sources only: not the virtualenv, Node's packages, what the site writes, or the tests.
ignore=(--ignore '.venv' --ignore 'node_modules' --ignore 'var' --ignore 'tests' --ignore 'benchmarks'
        --ignore 'docs' --ignore 'deploy' --ignore 'scripts' --ignore 'test-artifacts')
languages=()
for dir in locale/*/; do languages+=(--locale "$(basename "$dir")"); done
export DEBUG=true  # manage.py needs a SECRET_KEY otherwise; nothing else here depends on it.
case "${1:-}" in
  update)
    # --add-location file: where each message is used, without line numbers that churn.
    "$python" manage.py makemessages "${languages[@]}" --no-obsolete --add-location file "${ignore[@]}"
    # The page scripts' messages (static/js/, read by static/js/i18n.js): djangojs.po.
    "$python" manage.py makemessages -d djangojs "${languages[@]}" --no-obsolete --add-location file \
      "${ignore[@]}" ;;
  compile)
    "$python" manage.py compilemessages "${languages[@]}" "${ignore[@]}" ;;
  add)
    [ -n "${2:-}" ] || { echo "usage: $0 add <language code>" >&2; exit 2; }
    "$python" manage.py makemessages --locale "$2" --no-obsolete --add-location file "${ignore[@]}"
    "$python" manage.py makemessages -d djangojs --locale "$2" --no-obsolete --add-location file \
      "${ignore[@]}" ;;
  *)
    echo "usage: $0 update | compile | add <language code>" >&2; exit 2 ;;
esac
