"""The strategy engine: optimal solitaire play, exactly, under each rules preset.

Pure Python and numpy, no Django. Every score comes from :mod:`games.engine.rules`,
so the engine plays by exactly the rules the site enforces.

>>> from games.strategy import advise, expected_score, find_choice, points_given_up
>>> expected_score("official")                                   # doctest: +SKIP
254.58772873...
>>> choices = advise(card, [6, 1, 6, 2, 6], rolls_left=2)        # doctest: +SKIP
>>> choices[0]                                                   # doctest: +SKIP
Choice(kind='keep', expected=265.11..., hold=(0, 2, 4), kept=(6, 6, 6), ...)
>>> chosen = find_choice(choices, [6, 1, 6, 2, 6], category="chance")  # doctest: +SKIP
>>> points_given_up(choices, chosen)                             # doctest: +SKIP
24.15...

``advise`` lists every choice open (which dice to keep, which box to score
in) with the expected final grand total each leads to, best first: what a
coach shows, and what post-game analysis compares the move made with. A bot
calls :meth:`Strategy.best`, which finds the first choice without listing the
others. :meth:`Strategy.advise_position` and :meth:`Strategy.best_position` do
the same for a :class:`games.engine.rules.Position`, which is how the coach, the bots
and the analysis ask.

The first use of a preset computes its table (a few seconds) and saves it on
disk (:mod:`.cache`, where it is kept and when it is stale); later uses, in
this process or another, load it in a few tens of milliseconds. ``python -m
games.strategy`` computes the tables ahead of time. How the table is computed
is told in :mod:`.solver`.
"""

from .choices import Choice, find_choice, points_given_up
from .engine import Strategy, advise, expected_score, forget_loaded, load

__all__ = [
    "Choice",
    "Strategy",
    "advise",
    "expected_score",
    "find_choice",
    "forget_loaded",
    "load",
    "points_given_up",
]
