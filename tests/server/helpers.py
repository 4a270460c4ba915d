"""A table of named players for service tests: ``Table("alice", "bob")``."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import codec, rules
from games.live import bots, clock, services
from games.live.services import rules_state
from games.models import Game, GameEvent, Player
from games.strategy import policies
from games.wire import presentation
from tests import dice


@dataclass(frozen=True)
class Told:
    """An event as it was broadcast: its kind and its ``data`` (here ``payload``)."""

    seq: int
    kind: str
    payload: dict[str, Any]


def told(code: str, row: GameEvent) -> Told:
    """The event saved as ``row`` as the room was told it, if it is the game's last event
    (what it adds from the game after it is read from the game as it is now)."""
    table = services.table(code)
    event = codec.decode_event(row.kind, row.payload)
    state = table.state if row.seq == table.game.version else None
    return Told(row.seq, row.kind, presentation.event_data(event, table.names, state))


def told_events(code: str, kind: str | None = None) -> list[Told]:
    """Every event of the log as the export gives it, optionally of one ``kind``."""
    logged = presentation.log_json(services.log(code))
    return [Told(e["seq"], e["kind"], e["data"]) for e in logged if kind in (None, e["kind"])]


class Table:
    """A game room with players seated in the order named; the first is the host."""

    def __init__(
        self,
        *names: str,
        preset: str = "official",
        seats: int = 6,
        turn_seconds: int | None = clock.DEFAULT_TURN_SECONDS,
    ) -> None:
        host = names[0]
        game, player = services.create_game(
            preset=preset,
            seats=seats,
            host_name=host,
            session_key=f"session-{host}",
            turn_seconds=turn_seconds,
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

    def last_event(self) -> Told:
        """The last event as the room was told it (its data with what the game after it adds)."""
        return told(self.code, GameEvent.objects.filter(game__code=self.code).latest("seq"))

    def seats(self) -> dict[str, int]:
        return {p.name: p.seat for p in Player.objects.filter(game__code=self.code)}

    def play_out(self, rolls: int = 1) -> None:
        """Play the game to its end: each turn rolls ``rolls`` times and takes the best box.

        With the fixed_dice fixture loaded, the scores are known in advance;
        otherwise the server's real dice decide them.
        """
        if self.game.status == Game.Status.LOBBY:
            self.start()
        play_out(self.code, rolls=lambda: rolls)


def play_out(code: str, *, rolls: Callable[[], int] = lambda: 1, turns_left: int = 0) -> None:
    """Play a started game through the services, each turn rolling ``rolls()`` times and
    taking the box worth the most (the first of equals, in card order), until only
    ``turns_left`` turns remain."""
    while True:
        _, players, state = rules_state(code)
        assert state is not None
        if sum(len(card.empty) for card in state.cards) <= turns_left or state.is_over:
            return
        player = next(p for p in players if p.seat == state.current)
        for _ in range(rolls()):
            services.roll(code, player.pk, [], version=Game.objects.get(code=code).version)
        _, _, state = rules_state(code)
        assert state is not None
        options = state.cards[player.seat].options(state.turn.dice or ())
        best = max(options, key=lambda box: options[box])
        services.score(code, player.pk, best.value, version=Game.objects.get(code=code).version)


def play_as_bots(code: str, seed: int, levels: Sequence[str] = ("optimal", "casual")) -> None:
    """Play a started game to its end through the services, each seat as a bot of its level
    in ``levels`` (in turn) plays it, on dice drawn from ``seed`` (the fixed_dice fixture's
    queue is loaded before each roll): a whole game with keeps, as people play."""
    rng = random.Random(seed)
    while True:
        _, players, state = rules_state(code)
        assert state is not None
        position = state.position()
        if state.is_over or position is None:
            return
        player = next(p for p in players if p.seat == position.seat)
        move = policies.choose(levels[position.seat % len(levels)], position)
        version = Game.objects.get(code=code).version
        if move.category is not None:
            services.score(code, player.pk, move.category.value, version=version)
        else:
            dice.load(*(rng.randint(1, 6) for _ in range(5 - len(move.hold))))
            services.roll(code, player.pk, list(move.hold), version=version)


def play_solo_as(game: Game, level: str = "optimal") -> None:
    """Play solo ``game`` to its end through the services as the bot of ``level`` would,
    on the dice the server throws (or takes from the game's grid)."""
    player = Player.objects.get(game=game, seat=0)
    while True:
        _, _, state = rules_state(game.code)
        assert state is not None
        position = state.position()
        if state.is_over or position is None:
            return
        move = policies.choose(level, position)
        version = Game.objects.get(pk=game.pk).version
        if move.category is not None:
            services.score(game.code, player.pk, move.category.value, version=version)
        else:
            services.roll(game.code, player.pk, move.hold, version=version)


# A solo game, turn by turn: the dice rolled and the box they go in. The upper boxes
# reach exactly 63 in round 6, which brings the 35 bonus; the grand total is 293.
SOLO = [
    ((1, 1, 1, 2, 3), "ones"),  # 3
    ((2, 2, 2, 1, 3), "twos"),  # 6
    ((3, 3, 3, 1, 2), "threes"),  # 9
    ((4, 4, 4, 1, 2), "fours"),  # 12
    ((5, 5, 5, 1, 2), "fives"),  # 15
    ((6, 6, 6, 1, 2), "sixes"),  # 18: 63 in all, and the bonus
    ((6, 6, 6, 1, 2), "three_of_a_kind"),  # 21
    ((1, 2, 3, 4, 6), "four_of_a_kind"),  # 0
    ((2, 2, 3, 3, 3), "full_house"),  # 25
    ((1, 2, 3, 4, 6), "small_straight"),  # 30
    ((1, 2, 3, 4, 5), "large_straight"),  # 40
    ((6, 6, 6, 6, 6), "yahtzee"),  # 50
    ((6, 6, 6, 6, 5), "chance"),  # 29
]
SOLO_RUNNING = [3, 9, 18, 30, 45, 98, 119, 119, 144, 174, 214, 264, 293]


def play_solo(fixed_dice, name: str = "ana") -> Table:  # type: ignore[no-untyped-def]
    """The SOLO game, played to its end by ``name`` with the fixed_dice fixture."""
    table = Table(name)
    table.start()
    for faces, box in SOLO:
        fixed_dice.load(*faces)
        table.roll(name)
        table.score(name, box)
    return table


def fingerprint(code: str) -> tuple[object, ...]:
    """Everything stored about a game, to check that a refused command changed nothing."""
    game = Game.objects.get(code=code)
    return (
        game.version,
        game.state_version,
        game.status,
        game.record,
        list(Player.objects.filter(game=game).values_list("seat", "name", "is_host", "bot")),
        list(
            GameEvent.objects.filter(game=game)
            .values_list("seq", "kind", "payload")
            .order_by("seq")
        ),
        services.snapshot(code)["players"],
    )


def on_turn(table: Table) -> str:
    """The name of the player on turn."""
    seat = table.state().on_turn
    return next(name for name, s in table.seats().items() if s == seat)


def abandoned_with_stand_ins(fake_clock) -> Table:  # type: ignore[no-untyped-def]
    """A game of ana (the host), ben and cy with a 30 s clock, on the server's own dice,
    in which every stand-in plays, then nobody: the clock plays two of ben's turns and ben
    is away; a bot plays his next; ben is back; ana hands cy's seat to a bot and removes
    ben; then ana lets the clock play until she is away too, and the game is abandoned.

    Ana plays her own turns (one roll, the first empty box) until then.
    """
    table = Table("ana", "ben", "cy", turn_seconds=30)
    table.start()

    def until_turn_of(name: str) -> None:
        while on_turn(table) != name:
            plan = bots.next_plan(table.code)
            if plan is not None:  # A bot plays for cy.
                assert bots.make(plan)
                continue
            other = on_turn(table)
            table.roll(other)
            table.score(other, table.state().cards[table.seats()[other]].empty[0].value)

    def clock_plays_turn_of(name: str) -> None:
        until_turn_of(name)
        fake_clock.until(table.game.deadline)
        services.wake(table.code)

    clock_plays_turn_of("ben")
    clock_plays_turn_of("ben")  # Ben is away.
    until_turn_of("ben")
    while on_turn(table) == "ben":
        plan = bots.next_plan(table.code)
        assert plan is not None
        assert plan.by == "bot"
        assert bots.make(plan)
    services.come_back(table.code, table.id("ben"))
    services.hand_to_bot(table.code, table.id("ana"), table.seats()["cy"])
    until_turn_of("ana")
    services.remove_player(table.code, table.id("ana"), table.seats()["ben"])
    while table.game.status == Game.Status.PLAYING:  # The clock, a bot, then nobody.
        plan = bots.next_plan(table.code)
        if plan is not None:
            assert bots.make(plan)
        else:
            fake_clock.until(table.game.wake_at)
            services.wake(table.code)
    return table


def as_reviewed_now(moments: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A stored review's moments as the review tells them now: a solo game ends on its
    score, not on a win ("ana finished with 120.", was "ana wins with 120.": issue 29)."""
    solo = bool(moments) and moments[0]["text"].endswith(" starts a solo game.")
    return [
        {**m, "text": m["text"].replace(" wins with ", " finished with ")}
        if solo and m["kind"] == "finished"
        else m
        for m in moments
    ]
