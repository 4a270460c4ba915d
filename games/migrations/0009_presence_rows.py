"""Who is here, as rows that expire (games/live/heartbeat.py), instead of counters that never healed.

On SQLite, dropping a column rebuilds the game's table, which the one-statement
move's trigger names: the view and the trigger are dropped first and made again after.
"""

import importlib

import django.db.models.deletion
from django.db import migrations, models

clock = importlib.import_module("games.migrations.0008_turn_clock")


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0008_turn_clock'),
    ]

    operations = [
        migrations.RunPython(clock.drop_move_view, clock.create_move_view),
        migrations.RemoveField(
            model_name='game',
            name='watchers',
        ),
        migrations.RemoveField(
            model_name='player',
            name='connections',
        ),
        migrations.CreateModel(
            name='Connection',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('seen_at', models.DateTimeField(db_index=True)),
                ('game', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='connections', to='games.game')),
                ('player', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='connections', to='games.player')),
            ],
        ),
        migrations.RunPython(clock.create_move_view, clock.drop_move_view),
    ]
