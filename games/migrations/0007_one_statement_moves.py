"""On SQLite, the view and trigger that save a move in one statement (games/store.py).

PostgreSQL needs nothing: it does the same with a data-modifying WITH.
"""

from django.db import migrations

from games.store import SQLITE_TRIGGER, SQLITE_VIEW


def create(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(SQLITE_VIEW)
        schema_editor.execute(SQLITE_TRIGGER)


def drop(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS games_move_insert")
        schema_editor.execute("DROP VIEW IF EXISTS games_move")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_drop_mirror_tables"),
    ]

    operations = [migrations.RunPython(create, drop)]
