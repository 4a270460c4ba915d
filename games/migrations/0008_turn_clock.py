"""The turn clock (games/live/clock.py): each game's clock, deadline, wake-up time, last
person's move and attendance, and the one-statement save of a move with them.

Games already in play get the time of their last event as their last person's move,
and a wake-up time a day after it, when they are abandoned if nobody plays.
"""

import importlib
from datetime import timedelta

from django.db import migrations, models


# The view and trigger as games/live/store.py had them then (migration 0017 adds the bots'
# pace, and store.py now writes them from its list of saved fields).
SQLITE_VIEW = """
CREATE VIEW games_move (
    game_id, expected_version, record, version, state_version, status,
    started_at, finished_at, coach, deadline, wake_at, acted_at, attendance,
    created_at, events
) AS SELECT NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL,
    NULL, NULL
"""
SQLITE_TRIGGER = """
CREATE TRIGGER games_move_insert INSTEAD OF INSERT ON games_move
BEGIN
    UPDATE games_game
    SET record = NEW.record, version = NEW.version, state_version = NEW.state_version,
        status = NEW.status, started_at = NEW.started_at, finished_at = NEW.finished_at,
        coach = NEW.coach, deadline = NEW.deadline, wake_at = NEW.wake_at,
        acted_at = NEW.acted_at, attendance = NEW.attendance
    WHERE id = NEW.game_id AND version = NEW.expected_version;
    SELECT RAISE(ABORT, 'stale') WHERE changes() = 0;
    INSERT INTO games_gameevent (game_id, seq, kind, payload, created_at)
    SELECT NEW.game_id, json_extract(value, '$.seq'), json_extract(value, '$.kind'),
           json(json_extract(value, '$.payload')), NEW.created_at
    FROM json_each(NEW.events);
END
"""


# A day, as games/live/clock.py's ABANDON_AFTER was when this was written.
ABANDON_AFTER = timedelta(hours=24)


def drop_move_view(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute("DROP TRIGGER IF EXISTS games_move_insert")
        schema_editor.execute("DROP VIEW IF EXISTS games_move")


def create_move_view(apps, schema_editor):
    if schema_editor.connection.vendor == "sqlite":
        schema_editor.execute(SQLITE_VIEW)
        schema_editor.execute(SQLITE_TRIGGER)


def create_old_move_view(apps, schema_editor):
    """Undoing this migration: 0007's view and trigger again."""
    if schema_editor.connection.vendor == "sqlite":
        old = importlib.import_module("games.migrations.0007_one_statement_moves")
        schema_editor.execute(old.SQLITE_VIEW)
        schema_editor.execute(old.SQLITE_TRIGGER)


def wake_games_in_play(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.filter(status="playing"):
        last = GameEvent.objects.filter(game=game).order_by("-seq").first()
        game.acted_at = last.created_at if last else game.started_at
        game.wake_at = game.acted_at + ABANDON_AFTER if game.acted_at else None
        game.save(update_fields=["acted_at", "wake_at"])


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0007_one_statement_moves'),
    ]

    operations = [
        migrations.RunPython(drop_move_view, create_old_move_view),
        migrations.AddField(
            model_name='game',
            name='acted_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='attendance',
            field=models.JSONField(blank=True, default=dict),
        ),
        migrations.AddField(
            model_name='game',
            name='deadline',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='turn_seconds',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='game',
            name='wake_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name='game',
            name='status',
            field=models.CharField(choices=[('lobby', 'Waiting for players'), ('playing', 'Playing'), ('finished', 'Finished'), ('abandoned', 'Abandoned')], default='lobby', max_length=10),
        ),
        migrations.AlterField(
            model_name='gameevent',
            name='kind',
            field=models.CharField(choices=[('created', 'Created'), ('joined', 'Joined'), ('left', 'Left'), ('started', 'Started'), ('roll_off', 'Roll Off'), ('rolled', 'Rolled'), ('held', 'Held'), ('scored', 'Scored'), ('finished', 'Finished'), ('rematch', 'Rematch'), ('coach', 'Coach'), ('chat', 'Chat'), ('away', 'Away'), ('back', 'Back'), ('handed', 'Handed'), ('abandoned', 'Abandoned')], max_length=12),
        ),
        migrations.AddIndex(
            model_name='game',
            index=models.Index(condition=models.Q(('wake_at__isnull', False)), fields=['wake_at'], name='game_wake_at'),
        ),
        migrations.RunPython(wake_games_in_play, migrations.RunPython.noop),
        migrations.RunPython(create_move_view, drop_move_view),
    ]
