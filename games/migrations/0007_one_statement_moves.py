"""On SQLite, the view and trigger that save a move in one statement (games/live/store.py).

PostgreSQL needs nothing: it does the same with a data-modifying WITH.
"""

from django.db import migrations

# As games/live/store.py had them then (migration 0008 gives the view the clock's columns).
SQLITE_VIEW = """
CREATE VIEW games_move (
    game_id, expected_version, record, version, state_version, status,
    started_at, finished_at, coach, created_at, events
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
"""
SQLITE_TRIGGER = """
CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game
    SET record = NEW.record, version = NEW.version, state_version = NEW.state_version,
        status = NEW.status, started_at = NEW.started_at, finished_at = NEW.finished_at,
        coach = NEW.coach
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    SELECT RAISE(ABORT, 'stale') WHERE changes() = 0;
    INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
    SELECT NEW.game_id, json_extract(value, '$.seq'), json_extract(value, '$.kind'),
           json(json_extract(value, '$.payload')), NEW.created_at
    FROM json_each(NEW.events);
END
"""


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
