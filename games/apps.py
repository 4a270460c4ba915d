from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.live import bots, outbox
        from games.models import keep_username_keys

        # The outbox sits below the bots (they play through the services, which post to
        # it), so the bots' driver is handed to it here rather than imported by it.
        outbox.drive_bots_with(bots.kick)

        post_save.connect(
            keep_username_keys,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="games.keep_username_keys",
        )
