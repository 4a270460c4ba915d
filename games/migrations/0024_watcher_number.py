"""A watcher's default name keeps its number (``Watcher N``) on its connection's row, so a
newcomer's is found without reading every name in a crowd (issue 28).

Rows already there keep ``number`` empty: their names count as chosen ones, which are
still compared whole, so no name is given twice. Presence rows live for seconds.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0023_show_odds_during_play"),
    ]

    operations = [
        migrations.AddField(
            model_name="connection",
            name="number",
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
    ]
