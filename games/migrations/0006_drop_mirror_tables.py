"""The tables the saved record replaced (0005): the row's state columns, has_left, FilledBox.

Apart from 0005 so that no table is altered in the transaction that rewrote its rows.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_saved_record"),
    ]

    operations = [
        migrations.RemoveField(model_name="game", name="current_seat"),
        migrations.RemoveField(model_name="game", name="dice"),
        migrations.RemoveField(model_name="game", name="held"),
        migrations.RemoveField(model_name="game", name="roll_off"),
        migrations.RemoveField(model_name="game", name="rolls_used"),
        migrations.RemoveField(model_name="player", name="has_left"),
        migrations.DeleteModel(name="FilledBox"),
    ]
