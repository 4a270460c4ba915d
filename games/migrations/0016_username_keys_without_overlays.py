# Issue 28: the skeleton drops overlay marks (games/engine/names.py), so accounts whose
# usernames hold any get their keys again; the others' keys are unchanged.

import unicodedata

from django.conf import settings
from django.db import migrations


def keys_again(apps, schema_editor):
    from games.engine.names import clash_keys

    User = apps.get_model(settings.AUTH_USER_MODEL)
    UsernameKey = apps.get_model("games", "UsernameKey")
    for user in User.objects.all().only("pk", "username").iterator():
        if any(unicodedata.combining(char) == 1 for char in unicodedata.normalize("NFD", user.username)):
            UsernameKey.objects.filter(user_id=user.pk).delete()
            UsernameKey.objects.bulk_create(
                UsernameKey(user_id=user.pk, key=key) for key in clash_keys(user.username)
            )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0015_event_kinds_from_classes"),
    ]

    operations = [
        migrations.RunPython(keys_again, migrations.RunPython.noop),
    ]
