"""Migration 0010: accounts made before it get their usernames' keys, so look-alikes are found."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from games.engine import names
from games.models import UsernameKey

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("games", "0009_presence_rows")]
AFTER = [("games", "0010_username_keys")]


def test_accounts_made_before_the_migration_get_their_keys() -> None:
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps.get_model("auth", "User")
    old.objects.create(username="alice")
    old.objects.create(username="Bob")
    try:
        executor.loader.build_graph()
        executor.migrate(AFTER)

        keys = set(UsernameKey.objects.values_list("user__username", "key"))
        assert keys == {("alice", k) for k in names.clash_keys("alice")} | {
            ("Bob", k) for k in names.clash_keys("Bob")
        }
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())  # The rest, for later tests.


def test_an_account_with_overlay_marks_gets_its_keys_again() -> None:
    """Migration 0016 (issue 28): the skeleton drops overlay marks now, so "A̶n̶n̶" looks
    like "Ann" to sign-up too, however long ago the account was made."""
    before = [("games", "0015_event_kinds_from_classes")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old_apps = executor.loader.project_state(before).apps
    struck = old_apps.get_model("auth", "User").objects.create(username="A\u0336nn")
    old_apps.get_model("games", "UsernameKey").objects.create(user_id=struck.pk, key="a\u0336nn")
    try:
        executor.loader.build_graph()
        executor.migrate([("games", "0016_username_keys_without_overlays")])

        keys = set(UsernameKey.objects.filter(user_id=struck.pk).values_list("key", flat=True))
        assert keys == names.clash_keys("Ann")
    finally:
        executor.loader.build_graph()
        executor.migrate(executor.loader.graph.leaf_nodes())
