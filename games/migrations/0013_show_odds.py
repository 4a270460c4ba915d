"""Who sees the chances to win: a room's setting, chosen when it opens (games/insight/chances.py).

On SQLite, adding a column with a default rebuilds the game's table, which the
one-statement move's trigger names: the view and the trigger are dropped first and
made again after, as in 0009 and 0012.
"""

import importlib

from django.db import migrations, models

clock = importlib.import_module("games.migrations.0008_turn_clock")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0012_bot_pace'),
    ]

    operations = [
        migrations.RunPython(clock.drop_move_view, clock.create_move_view),
        migrations.AddField(
            model_name='game',
            name='show_odds',
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(clock.create_move_view, clock.drop_move_view),
    ]
