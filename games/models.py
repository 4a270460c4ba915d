"""What a game saves: the room, its seats, the game itself and the log of what happened.

A game is saved as one record on its row (:attr:`Game.record`, the rules
engine's game as a JSON document, :mod:`games.engine.codec`) and an append-only log
(:class:`GameEvent`) of everything that happened, from which
:mod:`games.engine.replay` rebuilds the same record with the rules engine alone. A
command reads the record, applies the rules, and saves the new
record with the new events at its version (:mod:`games.live.pipeline`).

:class:`Player` rows are kept beside the record because queries need them: the
history and the profile find the games of an account or a browser session by
their seats (:func:`games.web.history.games_of`), and a connection finds its seat by
session, account or token. What happens in play (cards, turns, who left) is in
the record only.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from games.engine import codec, events, rules
from games.engine.grid import SIZE as GRID_SIZE
from games.engine.rules import Game as RulesGame  # In Game's body, "rules" is its property.

#: 12 random bytes: 96 bits, written as 16 URL-safe characters.
INVITE_CODE_BYTES = 12
NAME_MAX_LENGTH = 24


def new_invite_code() -> str:
    """A fresh invite code that nobody can guess (96 bits from ``secrets``)."""
    return secrets.token_urlsafe(INVITE_CODE_BYTES)


def new_player_token() -> str:
    """A secret that lets a client without the browser's session take its seat back."""
    return secrets.token_urlsafe(24)


def room_group(code: str) -> str:
    """The channel layer group of everyone connected to the game with this invite code."""
    return f"game-{code}"


def choices(
    values: Iterable[str], labels: Mapping[str, str] | None = None
) -> list[tuple[str, str]]:
    """A field's choices from the engine's names: each value, labelled as Django would
    label a ``TextChoices`` member of that name unless ``labels`` says otherwise."""
    labels = labels or {}
    return [(str(v), labels.get(v, str(v).replace("_", " ").title())) for v in values]


PRESET_CHOICES = [(name, preset.label) for name, preset in rules.PRESETS.items()]


class Game(models.Model):
    """A game room, from the lobby to the final scores."""

    #: How long the bots take over their moves: the engine's enum (:func:`games.live.bots.pause`).
    BotPace = events.BotPace

    class Status(models.TextChoices):
        LOBBY = "lobby", "Waiting for players"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"
        #: Nobody played for a long while: ended unfinished (:mod:`games.live.clock`).
        ABANDONED = "abandoned", "Abandoned"

    code = models.CharField(max_length=32, unique=True, default=new_invite_code, editable=False)
    preset = models.CharField(max_length=20, choices=PRESET_CHOICES, default=rules.OFFICIAL.name)
    seats = models.PositiveSmallIntegerField(
        default=rules.MAX_PLAYERS, help_text="How many players may sit down (1 to 6)."
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LOBBY)
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    #: The sequence number of the last event; every broadcast carries it.
    version = models.PositiveIntegerField(default=0)
    #: The sequence number of the last event that changed the play (anything but chat and
    #: holds). A command sent by a client that had not seen it is stale.
    state_version = models.PositiveIntegerField(default=0)
    #: The game in play (:func:`games.engine.codec.encode_game`); ``None`` in the lobby.
    record = models.JSONField(null=True, blank=True)
    #: Whether the player on turn may ask the strategy engine for the best move (the coach).
    coach = models.BooleanField(default=False)
    #: How long the bots take over their moves; the host chooses (:mod:`games.live.bots`).
    bot_pace = models.CharField(
        max_length=8, choices=choices(events.BotPace), default=events.BotPace.NATURAL
    )
    #: Whether the players see each seat's chance to win as the game goes (the host's choice
    #: when the room opens; off, so nobody is told they have lost). Watchers always see it.
    show_odds = models.BooleanField(default=False)
    #: The turn clock: seconds a player has for a turn, or ``None`` for no clock.
    turn_seconds = models.PositiveIntegerField(null=True, blank=True)
    #: When the turn in play runs out (``None`` when no clock runs); see :mod:`games.live.clock`.
    deadline = models.DateTimeField(null=True, blank=True)
    #: When the server must next look at this game by itself: the deadline, a bot that
    #: should have moved, or the time it is abandoned. ``None`` once it is over.
    wake_at = models.DateTimeField(null=True, blank=True)
    #: When a person last gave a command at this table (a bot's or the clock's moves do not
    #: count): a game nobody plays is abandoned.
    acted_at = models.DateTimeField(null=True, blank=True)
    #: Who plays which seat beside its player (:class:`games.live.clock.Attendance`, as JSON).
    attendance = models.JSONField(default=dict, blank=True)
    #: The finished game this one is the rematch of; each game has at most one rematch.
    rematch_of = models.OneToOneField(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch"
    )
    #: The duplicate dice this game rolls (:class:`games.engine.grid.Grid`, as its digits), set
    #: when the room opens and never changed; empty for fresh dice. Never sent to a client
    #: before the game is over (:mod:`games.live.duplicate`).
    grid = models.CharField(max_length=GRID_SIZE, blank=True, default="", editable=False)
    #: The UTC day whose dice a daily game plays (:class:`DailyEntry`); ``None`` for others.
    daily = models.DateField(null=True, blank=True)
    #: The finished game whose dice this one plays again ("play my dice").
    dice_of = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.SET_NULL, related_name="duplicates"
    )

    class Meta:
        ordering = ["-created_at"]
        indexes = [
            # The clock's watch reads the games due soonest: only those with a wake-up time.
            models.Index(
                fields=["wake_at"], condition=models.Q(wake_at__isnull=False), name="game_wake_at"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.code} ({self.get_status_display()})"

    @property
    def group_name(self) -> str:
        """The channel layer group of everyone in the room."""
        return room_group(self.code)

    @property
    def rules(self) -> rules.Rules:
        return rules.get_rules(self.preset)

    @property
    def state(self) -> RulesGame | None:
        """The game in play, decoded from its record (afresh each time); ``None`` in the lobby."""
        return None if self.record is None else codec.decode_game(self.record)


class DailyEntry(models.Model):
    """One attempt at a day's dice: the board of that day (:mod:`games.live.daily`).

    Kept beside the game because the board and the one-attempt rule need it: the
    constraints below are what allows one daily game per account and per browser each
    day, even when two tabs ask at once. The score and the points given away against the
    engine are written once the game is over. An attempt that ended with boxes left empty
    (abandoned, or its player left) is kept, not ranked: it was the day's one attempt.
    """

    day = models.DateField()
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily_entry")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    session_key = models.CharField(max_length=40, blank=True)
    #: The name played under: the account's, or the one a guest chose.
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    score = models.PositiveIntegerField(null=True, blank=True)
    #: Expected points given away against the optimal strategy (:mod:`games.insight.analysis`).
    given_away = models.FloatField(null=True, blank=True)
    #: The card as share symbols, one per box in card order
    #: (:meth:`games.live.daily.Result.share_text`).
    card = models.CharField(max_length=len(rules.YAHTZEE_BOXES), blank=True, default="")
    #: How many boxes the card had filled when the game ended: all of them for a finished
    #: attempt, fewer for one abandoned or left (not ranked); ``None`` until it is over.
    boxes = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["day", "-score"]
        constraints = [
            models.UniqueConstraint(
                fields=["day", "user"],
                condition=models.Q(user__isnull=False),
                name="one_daily_per_account",
            ),
            models.UniqueConstraint(
                fields=["day", "session_key"],
                condition=~models.Q(session_key=""),
                name="one_daily_per_browser",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} on {self.day}"

    @property
    def guest(self) -> bool:
        """Played without an account: the name is the one the guest chose."""
        return self.user_id is None

    @property
    def finished(self) -> bool:
        """Played to the end, every box filled: only such attempts are ranked."""
        return self.boxes == len(rules.YAHTZEE_BOXES)


class DailyEngine(models.Model):
    """The engine's score on a day's dice: the Optimal bot playing the day's grid, computed
    once (:func:`games.live.daily.engine_of`), and how long that took."""

    day = models.DateField(unique=True)
    score = models.PositiveIntegerField()
    seconds = models.FloatField()

    def __str__(self) -> str:
        return f"engine {self.score} on {self.day}"


class Player(models.Model):
    """A seat at a game, held by a browser session (or a client with the seat's token), or a bot."""

    #: Who plays a seat the computer plays: the engine's enum (:mod:`games.live.bots`).
    Bot = events.BotLevel

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="players")
    seat = models.PositiveSmallIntegerField()
    name = models.CharField(max_length=NAME_MAX_LENGTH)
    is_host = models.BooleanField(default=False)
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    token = models.CharField(max_length=64, unique=True, default=new_player_token, editable=False)
    #: Empty for a person; for a bot, its level.
    bot = models.CharField(
        max_length=10,
        choices=choices(events.BotLevel, {events.BotLevel.WIN: "To win"}),
        blank=True,
        default="",
    )
    joined_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "seat"]  # By the column: "game" would join games_game.
        constraints = [
            models.UniqueConstraint(fields=["game", "seat"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.name} (seat {self.seat} of {self.game.code})"

    @property
    def level(self) -> events.BotLevel | None:
        """The bot's level, or ``None`` for a person."""
        return events.BotLevel(self.bot) if self.bot else None


class Connection(models.Model):
    """One open websocket to a room, alive while its server process refreshes ``seen_at``.

    Who is here is read from these rows (:mod:`games.live.heartbeat`): a seat is connected
    while one of its rows was seen within :data:`games.live.heartbeat.EXPIRY`.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="connections")
    #: The seat the socket acts for; ``None`` while it watches (a seat freed, it watches).
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.SET_NULL, related_name="connections"
    )
    seen_at = models.DateTimeField(db_index=True)
    #: The name a watching socket goes by in the watchers' chat
    #: (:func:`games.live.services.watcher_name`); empty until it has one. Kept on the row so
    #: that two watchers of a room, whatever process serves them, never share a name.
    name = models.CharField(max_length=NAME_MAX_LENGTH, blank=True, default="")
    #: The N of a default name ``Watcher N`` the server gave it; ``None`` for a name the
    #: watcher chose (or none yet). A newcomer's default name is found from the numbers
    #: in use and the few chosen names, not by reading a crowd's every name
    #: (:func:`games.live.watchers.watcher_name`).
    number = models.PositiveIntegerField(null=True, blank=True)

    def __str__(self) -> str:
        return f"connection {self.pk} to {self.game_id}"


class GameEvent(models.Model):
    """One thing that happened in a game. Append-only: never edited, never deleted alone."""

    #: Every kind of event (:data:`games.engine.events.EVENT_TYPES`), as its class declares it.
    KINDS: ClassVar[list[str]] = [cls.kind for cls in events.EVENT_TYPES]

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    kind = models.CharField(max_length=12, choices=choices(KINDS))
    payload = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="one_event_per_seq"),
        ]

    def __str__(self) -> str:
        return f"{self.game.code} #{self.seq} {self.kind}"

    def save(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not self._state.adding:
            raise ValueError("game events are append-only and cannot be changed")
        super().save(*args, **kwargs)


class UsernameKey(models.Model):
    """One of the forms an account's username is compared in
    (:func:`games.engine.names.clash_keys`), so that sign-up finds a look-alike of any
    account with one indexed lookup.

    Kept by :func:`keep_username_keys` whenever an account is saved, however it was made
    (sign-up, the admin, ``createsuperuser``).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="username_keys"
    )
    key = models.TextField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key!r} of account {self.user_id}"


def keep_username_keys(sender: object, instance: Any, **kwargs: object) -> None:
    """After an account is saved: its :class:`UsernameKey` rows, for its username now."""
    from games.engine import names  # names reads Unicode's data: only when an account is saved.

    keys = names.clash_keys(instance.get_username())
    if set(instance.username_keys.values_list("key", flat=True)) != keys:
        instance.username_keys.all().delete()
        UsernameKey.objects.bulk_create(UsernameKey(user=instance, key=key) for key in keys)


class PushSubscription(models.Model):
    """A browser that asked to be told of its games while no tab of the room is open (Web
    Push, :mod:`games.live.push`): where its push service takes messages, the keys they are
    encrypted to, whose browser it is, and which news it asked for. Off unless asked for;
    turning every kind off deletes the row, and so does a push service that no longer knows
    the subscription (404 or 410)."""

    #: The push service's URL for this browser (a capability: whoever knows it may post).
    endpoint = models.URLField(max_length=1000, unique=True)
    #: The browser's P-256 public key and its authentication secret (RFC 8291), base64url.
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    #: Whose browser: its session (a guest's seats are held by it) and its account, if any.
    session_key = models.CharField(max_length=40, blank=True, db_index=True)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
    )
    #: The news it asked for: its turn (in games with a clock of an hour or more, or none),
    #: a game it sits in started, a rematch it was invited to.
    turns = models.BooleanField(default=False)
    starts = models.BooleanField(default=False)
    rematches = models.BooleanField(default=False)
    #: The language its notifications are worded in: the page's when it subscribed.
    language = models.CharField(max_length=16, blank=True, default="")
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"push subscription {self.pk} ({self.endpoint[:40]}...)"
