"""On SQLite, the view and trigger that save a game in one statement (games/live/store.py), now
written from its list of saved fields, which has gained the bots' pace: a change of the pace
is saved like any other command, at its version.

The text is as ``store.sqlite_view()`` and ``store.sqlite_trigger()`` wrote it when this
was made; tests/server/test_store.py checks that the database's is still theirs.
"""

import importlib

from django.db import migrations

SQLITE_VIEW = """CREATE VIEW games_move (game_id, expected_version, record, version, state_version, status, started_at, finished_at, coach, bot_pace, deadline, wake_at, acted_at, attendance, created_at, events) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"""

SQLITE_TRIGGER = """CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game SET record = NEW.record, version = NEW.version, state_version = NEW.state_version, status = NEW.status, started_at = NEW.started_at, finished_at = NEW.finished_at, coach = NEW.coach, bot_pace = NEW.bot_pace, deadline = NEW.deadline, wake_at = NEW.wake_at, acted_at = NEW.acted_at, attendance = NEW.attendance
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    SELECT RAISE(ABORT, 'stale') WHERE changes() = 0;
    INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
    SELECT NEW.game_id, json_extract(value, '$.seq'), json_extract(value, '$.kind'),
           json(json_extract(value, '$.payload')), NEW.created_at
    FROM json_each(NEW.events);
END"""


def drop_move_view(schema_editor):
    schema_editor.execute("DROP TRIGGER IF EXISTS games_move_insert")
    schema_editor.execute("DROP VIEW IF EXISTS games_move")


def create_move_view(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        drop_move_view(schema_editor)
        schema_editor.execute(SQLITE_VIEW)
        schema_editor.execute(SQLITE_TRIGGER)


def create_old_move_view(apps, schema_editor):
    """Undoing this migration: 0008's view and trigger again."""
    if schema_editor.connection.vendor == "sqlite":
        drop_move_view(schema_editor)
        old = importlib.import_module("games.migrations.0008_turn_clock")
        schema_editor.execute(old.SQLITE_VIEW)
        schema_editor.execute(old.SQLITE_TRIGGER)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0016_username_keys_without_overlays"),
    ]

    operations = [
        migrations.RunPython(create_move_view, create_old_move_view),
    ]
