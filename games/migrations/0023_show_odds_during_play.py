"""The host may show the players the chances to win during the game, not only when the room
opens: a new kind of event (``show_odds``), and on SQLite the view and trigger that save a
game in one statement (games/live/store.py), whose list of saved fields has gained
``show_odds``.

The text is as ``store.sqlite_view()`` and ``store.sqlite_trigger()`` wrote it when this
was made; tests/server/test_store.py checks that the database's is still theirs.
"""

import importlib

from django.db import migrations, models

SQLITE_VIEW = """CREATE VIEW games_move (game_id, expected_version, record, version, state_version, status, started_at, finished_at, coach, bot_pace, show_odds, deadline, wake_at, acted_at, attendance, created_at, events) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL"""

SQLITE_TRIGGER = """CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game SET record = NEW.record, version = NEW.version, state_version = NEW.state_version, status = NEW.status, started_at = NEW.started_at, finished_at = NEW.finished_at, coach = NEW.coach, bot_pace = NEW.bot_pace, show_odds = NEW.show_odds, deadline = NEW.deadline, wake_at = NEW.wake_at, acted_at = NEW.acted_at, attendance = NEW.attendance
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
    """Undoing this migration: 0017's view and trigger again."""
    if schema_editor.connection.vendor == "sqlite":
        drop_move_view(schema_editor)
        old = importlib.import_module("games.migrations.0017_saved_fields_from_one_list")
        schema_editor.execute(old.SQLITE_VIEW)
        schema_editor.execute(old.SQLITE_TRIGGER)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_push_language"),
    ]

    operations = [
        migrations.AlterField(
            model_name="gameevent",
            name="kind",
            field=models.CharField(
                choices=[
                    ("created", "Created"),
                    ("joined", "Joined"),
                    ("unseated", "Unseated"),
                    ("started", "Started"),
                    ("roll_off", "Roll Off"),
                    ("rolled", "Rolled"),
                    ("held", "Held"),
                    ("scored", "Scored"),
                    ("left", "Left"),
                    ("finished", "Finished"),
                    ("rematch", "Rematch"),
                    ("coach", "Coach"),
                    ("bot_pace", "Bot Pace"),
                    ("show_odds", "Show Odds"),
                    ("chat", "Chat"),
                    ("away", "Away"),
                    ("back", "Back"),
                    ("handed", "Handed"),
                    ("abandoned", "Abandoned"),
                ],
                max_length=12,
            ),
        ),
        migrations.RunPython(create_move_view, create_old_move_view),
    ]
