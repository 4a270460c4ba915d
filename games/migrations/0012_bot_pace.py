"""The bots' pace, a room's setting (games/live/bots.py).

On SQLite, adding a column with a default rebuilds the game's table, which the
one-statement move's trigger names: the view and the trigger are dropped first and
made again after, as in 0009.
"""

import importlib

from django.db import migrations, models

clock = importlib.import_module("games.migrations.0008_turn_clock")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_watcher_names'),
    ]

    operations = [
        migrations.RunPython(clock.drop_move_view, clock.create_move_view),
        migrations.AddField(
            model_name='game',
            name='bot_pace',
            field=models.CharField(choices=[('instant', 'Instant'), ('quick', 'Quick'), ('natural', 'Natural')], default='natural', max_length=8),
        ),
        migrations.AlterField(
            model_name='gameevent',
            name='kind',
            field=models.CharField(choices=[('created', 'Created'), ('joined', 'Joined'), ('left', 'Left'), ('started', 'Started'), ('roll_off', 'Roll Off'), ('rolled', 'Rolled'), ('held', 'Held'), ('scored', 'Scored'), ('finished', 'Finished'), ('rematch', 'Rematch'), ('coach', 'Coach'), ('bot_pace', 'Bot Pace'), ('chat', 'Chat'), ('away', 'Away'), ('back', 'Back'), ('handed', 'Handed'), ('abandoned', 'Abandoned')], max_length=12),
        ),
        migrations.RunPython(clock.create_move_view, clock.drop_move_view),
    ]
