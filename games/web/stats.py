"""A player's record over their finished games, as the profile page shows it.

What counts:

- **Games** are the account's finished games. Games still in play do not count yet.
- **Wins** are the games against others where the account's seat is among the
  winners; a tie for first place shares the victory, so it is a win for each tied
  player. A solo game has nobody to beat: it counts as played, never as a win,
  and the **win rate** is over the games against others.
- A game the player **left** before its end counts as played and not won, and
  nothing else on its unfinished card counts: not its score (in the average, the
  best score and the score distribution), not its Yahtzees, not its upper bonus.
  Every figure but games and wins comes from the cards played to the end.
- **Yahtzees** are the Yahtzees scored as such: 50 in the Yahtzee box, plus each
  Yahtzee bonus (see :attr:`games.web.history.Seat.yahtzees`). A Yahtzee written
  elsewhere as a Joker, without a bonus, is not counted.
- The **upper bonus rate** is the share of completed cards whose upper section
  earned the bonus.

An account seated twice in one game (two browsers' guest seats claimed into it)
counts each seat.

The numbers come from the rules engine: each game's saved record gives its cards
and its outcome (:mod:`games.web.history`), in two queries whatever the number of games.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.models import Game
from games.web import history


@dataclass(frozen=True)
class PlayerStats:
    """An account's record; see the module docstring for what each figure counts."""

    #: Finished games the account had a seat in, left ones included.
    games: int = 0
    #: Finished games with other players in them (the win rate's games).
    versus: int = 0
    #: Finished games against others that the account's seat won, alone or tied.
    wins: int = 0
    #: The final total of each completed card, newest game first.
    totals: tuple[int, ...] = ()
    #: Yahtzees scored on completed cards, bonus Yahtzees included.
    yahtzees: int = 0
    #: Completed cards that earned the upper section's bonus.
    upper_bonuses: int = 0

    @property
    def win_rate(self) -> float | None:
        """Wins per game against others, from 0 to 1; ``None`` before the first one."""
        return self.wins / self.versus if self.versus else None

    @property
    def average_score(self) -> float | None:
        """The mean final total of the completed cards; ``None`` without any."""
        return sum(self.totals) / len(self.totals) if self.totals else None

    @property
    def best_score(self) -> int | None:
        """The highest final total; ``None`` without a completed card."""
        return max(self.totals, default=None)

    @property
    def upper_bonus_rate(self) -> float | None:
        """The share of completed cards with the upper bonus, from 0 to 1; ``None`` without any."""
        return self.upper_bonuses / len(self.totals) if self.totals else None


def player_stats(user_id: int) -> PlayerStats:
    """The record of the account ``user_id`` over its finished games."""
    finished = history.games_of(user_id=user_id).filter(status=Game.Status.FINISHED)
    games = versus = wins = yahtzees = upper_bonuses = 0
    totals: list[int] = []
    for summary in history.summaries(finished):
        for seat in summary.seats:
            if seat.player.user_id != user_id:
                continue
            games += 1
            if not summary.solo:
                versus += 1
                wins += seat.is_winner
            if seat.has_left:
                continue  # Played and lost; the unfinished card counts for nothing else.
            totals.append(seat.total)
            yahtzees += seat.yahtzees
            if seat.card.upper_bonus > 0:
                upper_bonuses += 1
    return PlayerStats(
        games=games,
        versus=versus,
        wins=wins,
        totals=tuple(totals),
        yahtzees=yahtzees,
        upper_bonuses=upper_bonuses,
    )
