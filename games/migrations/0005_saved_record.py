"""One saved record per game: the rules engine's game as a JSON document on the game's row.

Before this migration a game's state was kept twice beside its log: in columns
of the game's row (the seat on turn, the dice, the roll-off), in ``has_left`` on
each seat, and in a ``FilledBox`` row for each box written. This migration
replays every game's log through the rules engine, saves the game it ends with
as the row's ``record`` and checks it against those tables; the next migration
drops them.

It also rewrites each event's payload to the facts the rules engine gives for
it (:mod:`games.engine.events`): the options of a roll, the card, round and total of a
score are no longer stored, since they follow from the game and are added
when a message is sent (:mod:`games.wire.presentation`); the name of a seat that
left the game comes from the seats.

It uses the rules engine, the events and their codec as they are when it is
written; those modules keep reading what they wrote.
"""

from django.db import migrations, models

from games.engine import codec, events, replay, rules


class MigrationFailed(Exception):
    """A game whose log does not follow, or does not agree with its tables."""


def _facts(log):
    """The log's events as the rules engine gives them, from the old payloads."""
    game = None
    players = []
    owed = []
    facts = []
    for kind, data in log:
        if owed:
            made = owed.pop(0)
            if made.kind != kind:
                raise MigrationFailed(f"the rules gave {made}, the log {kind!r}")
            _agree(made, data)
            facts.append(made)
            continue
        if kind == "created":
            made = events.Created(
                data["preset"], data["seats"], data.get("coach", False), data.get("rematch_of")
            )
        elif kind == "joined":
            made = events.Joined(data["seat"], data["name"], data["host"], data.get("bot"))
            players.append(data["name"])
        elif kind == "left" and game is None:
            made = events.Unseated(data["seat"], data["name"], data["host"])
            del players[data["seat"]]
        elif kind == "started":
            game = rules.Game.new(len(data["players"]), rules.get_rules(log[0][1]["preset"]))
            made = events.Started(tuple(data["players"]), game.current)
        elif kind in {"chat", "coach", "rematch"}:
            made = codec.decode_event(kind, data)
        else:
            if game is None:
                raise MigrationFailed(f"{kind!r} before the game started")
            if kind == "roll_off":
                progress = game.throw_roll_off({seat: dice for seat, dice in data["throws"]})
            elif kind == "rolled":
                fresh = [face for i, face in enumerate(data["dice"]) if i not in data["held"]]
                progress = game.roll(data["seat"], fresh, data["held"])
            elif kind == "held":
                progress = game.hold(data["seat"], data["held"])
            elif kind == "scored":
                progress = game.score(data["seat"], data["category"])
            elif kind == "left":
                progress = game.leave(data["seat"])
            else:
                raise MigrationFailed(f"{kind!r} does not follow")
            game, (made, *more) = progress.game, progress.events
            owed.extend(more)
            _agree(made, data)
        facts.append(made)
    if owed:
        raise MigrationFailed(f"the log ends before {owed[0]}")
    return facts


def _agree(made, data):
    """The old payload says what the rules say about the same move."""
    for name, value in codec.encode_event(made)[1].items():
        if name in data and data[name] != value:
            raise MigrationFailed(f"{made.kind}: the log says {name}={data[name]!r}, not {value!r}")


def _check(game_row, players, boxes, state):
    """The record agrees with the tables it replaces."""
    if state is None:
        return
    mirror = {
        "current": game_row.current_seat,
        "dice": list(game_row.dice) if game_row.dice else None,
        "rolls_used": game_row.rolls_used,
        "held": sorted(game_row.held or []),
        "left": sorted(p.seat for p in players if p.has_left),
        "boxes": {(p.seat, b.category): b.points for p in players for b in boxes.get(p.pk, [])},
    }
    record = {
        "current": state.current,
        "dice": list(state.turn.dice) if state.turn.dice else None,
        "rolls_used": state.turn.rolls_used,
        "held": sorted(state.turn.held),
        "left": sorted(state.left),
        "boxes": {
            (seat, category.value): points
            for seat, card in enumerate(state.cards)
            for category, points in card.filled.items()
        },
    }
    if mirror != record:
        raise MigrationFailed(f"game {game_row.code}: the log gives {record}, the tables {mirror}")


def to_saved_records(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Player = apps.get_model("games", "Player")
    FilledBox = apps.get_model("games", "FilledBox")
    GameEvent = apps.get_model("games", "GameEvent")
    for game in Game.objects.order_by("pk").iterator(chunk_size=200):
        rows = list(GameEvent.objects.filter(game=game).order_by("seq"))
        log = [(row.kind, row.payload) for row in rows]
        try:
            facts = _facts(log)
            room = replay.replay(facts)
        except (MigrationFailed, rules.RuleError, replay.ReplayError, KeyError) as error:
            raise MigrationFailed(f"game {game.code}: {error!r}") from error
        players = list(Player.objects.filter(game=game).order_by("seat"))
        boxes = {}
        for box in FilledBox.objects.filter(player__game=game):
            boxes.setdefault(box.player_id, []).append(box)
        _check(game, players, boxes, room.game)
        for row, event in zip(rows, facts, strict=True):
            row.payload = codec.encode_event(event)[1]
        GameEvent.objects.bulk_update(rows, ["payload"], batch_size=500)
        game.record = codec.encode_game(room.game) if room.game is not None else None
        game.save(update_fields=["record"])


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0004_coach_and_bots"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="record",
            field=models.JSONField(blank=True, null=True),
        ),
        # Going back leaves the old tables empty: only for a database without games.
        migrations.RunPython(to_saved_records, migrations.RunPython.noop),
    ]
