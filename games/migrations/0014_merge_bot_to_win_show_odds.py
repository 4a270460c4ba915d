"""Joins two lines of migrations made side by side: the To-win bot's level (0011_bot_to_win,
a choice of Player.bot, nothing in the database) and the room's settings after 0011
(watcher names, the bots' pace, who sees the odds). Nothing to do but join them."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('games', '0011_bot_to_win'),
        ('games', '0013_show_odds'),
    ]

    operations = []
