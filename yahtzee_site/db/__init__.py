"""The database backend: Django's PostgreSQL backend behind a circuit breaker.

``ENGINE = "yahtzee_site.db.postgresql"`` (``settings.py`` sets it for a
``postgres://`` ``DATABASE_URL``). :mod:`yahtzee_site.db.breaker` says how the breaker
works; :mod:`yahtzee_site.db.postgresql.base` where it sits.
"""

from __future__ import annotations

from django.db import OperationalError


class DatabaseAway(OperationalError):
    """The database was found away a moment ago, so this attempt was not made at all.

    An :class:`~django.db.OperationalError`, so whatever handles an outage already
    (a command answered ``unavailable``, an HTTP 503, a bot that waits) handles it.
    """

    def __init__(self, retry_in: float) -> None:
        super().__init__(f"the database is away: trying again in {retry_in:.2f} s at the earliest")
        #: Seconds until the database is tried again.
        self.retry_in = retry_in
