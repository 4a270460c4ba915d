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


def vapid_public_key(private_key: str, name: str = "VAPID_PRIVATE_KEY") -> str:
    """The public key of the VAPID private key ``private_key`` (a P-256 key's 32 bytes,
    base64url, as ``manage.py vapid_keys`` prints it), as browsers take it: the
    uncompressed point, base64url without padding."""
    import base64

    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    try:
        raw = base64.urlsafe_b64decode(private_key + "=" * (-len(private_key) % 4))
        if len(raw) != 32:
            raise ValueError("not 32 bytes")
        key = ec.derive_private_key(int.from_bytes(raw, "big"), ec.SECP256R1())
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must be a P-256 private key's 32 bytes in base64url "
            "(python manage.py vapid_keys makes one)."
        ) from None
    point = key.public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(point).rstrip(b"=").decode()
