"""``--quick``, the same for every benchmark: a few games and a few seconds, at the smallest sizes.

``tests/test_benchmarks.py`` runs each script with it, so that a change that
breaks a benchmark fails the suite; the figures printed are not checked, and a
quick run's figures are not worth quoting.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from typing import Any


def parse_args(
    parser: argparse.ArgumentParser, quick: Mapping[str, Any], argv: Sequence[str] | None = None
) -> argparse.Namespace:
    """Parse ``argv`` (the command line by default) with a ``--quick`` option added to
    ``parser``: when it is given, the values of ``quick`` (by option destination) replace
    the defaults, and an option written on the command line still wins over them."""
    shown = ", ".join(
        f"--{name.replace('_', '-')} {_shown(value)}" for name, value in quick.items()
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"a few seconds, to see that the script still runs: {shown or 'as described'}",
    )
    if parser.parse_known_args(argv)[0].quick:
        parser.set_defaults(**quick)
    return parser.parse_args(argv)


def _shown(value: Any) -> str:
    if isinstance(value, list | tuple):
        return " ".join(str(item) for item in value)
    return str(value)
