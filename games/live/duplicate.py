"""Duplicate games: playing again the dice another game rolled (:mod:`games.engine.grid`).

A game with a grid on its row (a daily game, a duplicate) takes every roll from it
(:func:`games.live.commands.roll`). Every other solo game rolls fresh dice, and those
dice are its own grid: each cell it rolled is the face thrown there, and when the grid
is first asked for (:func:`grid_of`), once the game is over, the cells it never rolled
(the dice it held, the rolls it did not make) are thrown fresh and the whole grid is
written on its row. Nobody has seen those faces, so the grid is as random as one drawn
before the game, and nothing of it existed for a client to learn while it was played.

A grid is secret while it can still be played for a place: a day's grid until the day
is over (:func:`is_secret`). Before that no duplicate of it is opened and no export
shows it.
"""

from __future__ import annotations

from games.engine import grid, rules
from games.engine.grid import Grid
from games.engine.room import Room
from games.live import clock, dice, queries
from games.live.commands import clean_name
from games.live.pipeline import CommandError, Table, open_room, room_refusals, save
from games.models import Game


def is_over(game: Game) -> bool:
    return game.status in (Game.Status.FINISHED, Game.Status.ABANDONED)


def is_secret(game: Game) -> bool:
    """Whether ``game``'s dice may not be shown yet: before it is over, and for a daily
    game until its day is over (others still play the same dice)."""
    if not is_over(game):
        return True
    return game.daily is not None and game.daily >= clock.now().date()


def grid_of(game: Game) -> Grid | None:
    """The grid ``game``'s dice came from, for a game that has one: a grid game's, or the
    own grid of a solo game (one player seated) once it is over, completed and saved the
    first time it is asked for (see the module's docstring); ``None`` for a game of
    several players with fresh dice, or a solo game still in play."""
    if game.grid:
        return Grid.parse(game.grid)
    state = game.state
    if state is None or state.players != 1 or not is_over(game):
        return None
    rolled = grid.played_cells(queries.replay_events(game.code))
    completed = Grid.completed(rolled, dice.secure_roll(grid.SIZE)).text()
    # Two requests may complete it at once: the first one written is the grid for good.
    Game.objects.filter(pk=game.pk, grid="").update(grid=completed)
    game.grid = Game.objects.values_list("grid", flat=True).get(pk=game.pk)
    return Grid.parse(game.grid)


def kind_of(game: Game) -> str:
    """Where ``game``'s dice come from: ``daily`` (a day's grid), ``duplicate`` (another
    game's grid, "play my dice") or ``fresh`` (thrown for it; a solo game's own grid is
    those dice, completed once it is over)."""
    if game.daily is not None:
        return "daily"
    return "duplicate" if game.dice_of_id is not None else "fresh"


def dice_json(game: Game) -> dict[str, object]:
    """Where ``game``'s dice came from, as its export says: the kind (:func:`kind_of`), the
    day of a daily game, the game a duplicate plays again, and the grid once it is no
    secret (:func:`is_secret`; ``null`` before, and for a game of several players)."""
    found = None if is_secret(game) else grid_of(game)
    return {
        "kind": kind_of(game),
        "daily": game.daily.isoformat() if game.daily is not None else None,
        "dice_of": game.dice_of.code if game.dice_of is not None else None,
        "grid": found.text() if found is not None else None,
    }


def on_grid(
    dice_grid: Grid,
    name: str,
    *,
    session_key: str = "",
    user_id: int | None = None,
    preset: str = rules.OFFICIAL.name,
    dice_of: Game | None = None,
) -> Table:
    """A solo game on ``dice_grid``, started at once, its seat held by the browser's
    ``session_key`` (and the account ``user_id``); the coach and the clock off, no bots.
    Not saved yet: the caller saves it (:func:`games.live.pipeline.save`)."""
    name = clean_name(name)
    with room_refusals():
        created = Room.create(preset, 1, coach=False)
        created = created.then(created.room.join(name))
        created = created.then(created.room.start(0))
    table = open_room(created, owners=[(session_key, user_id)], grid=dice_grid)
    table.game.dice_of = dice_of
    return table


def play_dice_of(
    code: str, name: str, *, session_key: str = "", user_id: int | None = None
) -> Game:
    """A new solo game on the dice of finished game ``code`` ("play my dice").

    Refused: ``no_such_game``; ``not_finished`` while the game is played; ``no_grid`` for a
    game of several seats (each seat rolled its own fresh dice); ``dice_secret`` for a
    daily game whose day is not over (``games.live.daily``).
    """
    try:
        game = Game.objects.get(code=code)
    except Game.DoesNotExist:
        raise CommandError("no_such_game", "there is no game at this link") from None
    if not is_over(game):
        raise CommandError("not_finished", "its dice can be played once the game is over")
    if is_secret(game):
        raise CommandError(
            "dice_secret", "today's dice stay secret until the day is over: play today's game"
        )
    found = grid_of(game)
    if found is None:
        raise CommandError("no_grid", "only a solo game's dice can be played again")
    table = on_grid(
        found,
        name,
        session_key=session_key,
        user_id=user_id,
        preset=game.preset,
        dice_of=game.dice_of or game,  # The first game of those dice: the review compares with it.
    )
    save(table)
    return table.game


#: How many games on the same dice the review sets side by side.
SIDE_BY_SIDE = 6


def same_dice(game: Game) -> list[Game]:
    """The finished solo games played on ``game``'s dice, ``game`` among them, the first
    one first: a duplicate's original and its other duplicates, or a game's duplicates.
    Empty when nobody else has played them."""
    first = game.dice_of or game
    others = (
        Game.objects.filter(dice_of=first, status=Game.Status.FINISHED)
        .order_by("finished_at", "pk")
        .prefetch_related("players")
    )
    games = [first, *others[: SIDE_BY_SIDE - 1]]
    if game not in games:
        games[-1] = game
    return games if len(games) > 1 else []
