"""A table of named players for service tests: ``Table("alice", "bob")``."""

from __future__ import annotations

from collections.abc import Iterable

from games import rules, services
from games.models import Game, GameEvent, Player


class Table:
    """A game room with players seated in the order named; the first is the host."""

    def __init__(self, *names: str, preset: str = "official", seats: int = 6) -> None:
        host = names[0]
        game, player = services.create_game(
            preset=preset, seats=seats, host_name=host, session_key=f"session-{host}"
        )
        assert player is not None
        self.code = game.code
        self.players: dict[str, Player] = {host: player}
        for name in names[1:]:
            self.join(name)

    def join(self, name: str) -> Player:
        self.players[name] = services.join_game(self.code, name, session_key=f"session-{name}")
        return self.players[name]

    @property
    def game(self) -> Game:
        return Game.objects.get(code=self.code)

    @property
    def version(self) -> int:
        return self.game.version

    def id(self, name: str | None) -> int | None:
        return None if name is None else self.players[name].pk

    def start(self, name: str | None = None) -> None:
        name = name or next(iter(self.players))
        services.start_game(self.code, self.id(name), version=self.version)

    def roll(self, name: str, hold: Iterable[int] = ()) -> None:
        services.roll(self.code, self.id(name), hold, version=self.version)

    def hold(self, name: str, hold: Iterable[int]) -> None:
        services.hold(self.code, self.id(name), hold)

    def score(self, name: str, category: str) -> None:
        services.score(self.code, self.id(name), category, version=self.version)

    def leave(self, name: str) -> None:
        services.leave_game(self.code, self.id(name))

    def state(self) -> rules.Game:
        _, _, state = services.rules_state(self.code)
        assert state is not None
        return state

    def kinds(self) -> list[str]:
        return list(
            GameEvent.objects.filter(game__code=self.code)
            .order_by("seq")
            .values_list("kind", flat=True)
        )

    def last_event(self) -> GameEvent:
        return GameEvent.objects.filter(game__code=self.code).latest("seq")

    def seats(self) -> dict[str, int]:
        return {p.name: p.seat for p in Player.objects.filter(game__code=self.code)}


def fingerprint(code: str) -> tuple[object, ...]:
    """Everything stored about a game, to check that a refused command changed nothing."""
    game = Game.objects.get(code=code)
    return (
        game.version,
        game.state_version,
        game.status,
        game.current_seat,
        game.dice,
        game.rolls_used,
        game.held,
        game.roll_off,
        list(Player.objects.filter(game=game).values_list("seat", "name", "is_host", "has_left")),
        list(
            GameEvent.objects.filter(game=game)
            .values_list("seq", "kind", "payload")
            .order_by("seq")
        ),
        services.snapshot(code)["players"],
    )
