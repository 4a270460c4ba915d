"""The admin shows games as they were played; nothing in it can change a game's course."""

from django.contrib import admin
from django.http import HttpRequest

from games.models import Game, GameEvent, Player


class ReadOnlyInline(admin.TabularInline):  # type: ignore[type-arg]
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class PlayerInline(ReadOnlyInline):
    model = Player
    fields = ["seat", "name", "is_host", "bot", "joined_at"]


class EventInline(ReadOnlyInline):
    model = GameEvent
    fields = ["seq", "kind", "payload", "created_at"]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["code", "preset", "status", "seats", "version", "created_at", "finished_at"]
    list_filter = ["status", "preset"]
    search_fields = ["code", "players__name"]
    date_hierarchy = "created_at"
    inlines = [PlayerInline, EventInline]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # Games are created by playing, so their log starts at the beginning.

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # The state follows from the log; editing it would split the two.


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["name", "game", "seat", "is_host", "bot", "user"]
    search_fields = ["name", "game__code"]
    readonly_fields = [f.name for f in Player._meta.fields if f.name not in ("name", "user")]
    exclude = ["token"]  # A seat's secret stays out of view.

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(GameEvent)
class GameEventAdmin(admin.ModelAdmin):  # type: ignore[type-arg]
    list_display = ["game", "seq", "kind", "created_at"]
    list_filter = ["kind"]
    search_fields = ["game__code"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # The log is append-only; a game goes with its whole log or not at all.
