from django.apps import AppConfig
from django.conf import settings
from django.db.models.signals import post_save


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from games.models import keep_username_keys

        post_save.connect(
            keep_username_keys,
            sender=settings.AUTH_USER_MODEL,
            dispatch_uid="games.keep_username_keys",
        )
