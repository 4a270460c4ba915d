"""Small typed readers for settings from environment variables.

Each fails loudly with ``ImproperlyConfigured`` on a value it cannot read,
rather than guessing: a typo in a deployment should stop the site at start.
"""

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None) -> str:
    """The variable ``name``; with no ``default``, a missing variable is an error."""
    value = os.environ.get(name)
    if value is not None:
        return value
    if default is None:
        raise ImproperlyConfigured(
            f"Set the {name} environment variable (it has no default when DEBUG is off)."
        )
    return default


def env_bool(name: str, default: bool) -> bool:
    """``1/true/yes/on`` or ``0/false/no/off``, in any case."""
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, got {value!r}.")


def env_int(name: str, default: int) -> int:
    """A whole number."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        return int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, got {value!r}.") from None


def env_list(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blanks around items are dropped."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]
