"""The review's words, in the reader's language: its moments, the analysis's verdicts and the
turning points of the chances.

:mod:`games.insight` is pure Python without Django, and words nothing: a moment holds the
event that made it, a decision its figures and choices, a swing the dice it was about.
They are cached as they are (the analysis and the chances are worked out once per game,
:func:`games.web.views.review`), so a word saved there would be in one language for
every later reader. The words are made here instead, each time a page or an export is
read, through Django's translations: whole sentences with named placeholders, the boxes
named as on the game's card (:func:`games.words.box_label`: Yatzy's names in a Yatzy
room), and the figures written as the reader's locale writes them ("2,06" in German).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext, ngettext, pgettext

from games.engine import events, rules
from games.insight.analysis import Analysis, Decision
from games.insight.chances import Swing, WinChances
from games.insight.review import Entry, Moment, Review, Turn
from games.strategy import Choice
from games.words import box_label, percent

MINUS = "\N{MINUS SIGN}"


def names_list(names: Sequence[str]) -> str:
    """Names one after another: "ana", "ana and ben", "ana, ben and cy"."""
    if len(names) <= 1:
        return "".join(names)
    return pgettext("a list of names, the last one apart", "%(names)s and %(last)s") % {
        "names": ", ".join(names[:-1]),
        "last": names[-1],
    }


def faces(dice: Sequence[int]) -> str:
    """Dice as the review writes them: "6 6 5 2 1"."""
    return " ".join(str(face) for face in dice)


# The moments --------------------------------------------------------------------------------


def _stand_in(moment: Moment, name: str) -> str | None:
    """Who made the move for the seat's player, as the subject of its sentence."""
    if moment.stand_in == "clock_ran_out":
        return pgettext(
            "the subject of a move made for a player", "%(name)s's time ran out: the clock"
        ) % {"name": name}
    if moment.stand_in == "clock_playing_on":
        return pgettext(
            "the subject of a move made for a player", "The clock, playing on for %(name)s,"
        ) % {"name": name}
    if moment.stand_in == "bot_handed":
        return pgettext("the subject of a move made for a player", "The bot in %(name)s's seat") % {
            "name": name
        }
    if moment.stand_in == "bot_away":
        return pgettext(
            "the subject of a move made for a player", "A bot, playing for %(name)s (away),"
        ) % {"name": name}
    return None


def moment_text(review: Review, index: int) -> str:
    """Moment ``index`` of ``review`` in words: "Ana rolled 3 3 3 5 5.", "Ana scored 25 in
    Full house.", "The game was abandoned: nobody played for a long while."."""
    return _told(review, review.moments[index], brief=False)


def brief(review: Review, index: int) -> str:
    """A moment's words without the player's name, in the list of moves under the name of
    the turn: "Rolled 6 5 4 2 1 (2 rolls left)." A move made for the player keeps its
    subject ("The clock, playing on for ana, ..."), and a note its own words."""
    moment = review.moments[index]
    return _told(review, moment, brief=moment.stand_in is None)


def _told(review: Review, moment: Moment, *, brief: bool) -> str:
    names, event = review.names, moment.event
    if moment.kind == "start":
        return _start(names, moment.turn)
    if isinstance(event, events.Rolled | events.Held | events.Scored):
        name = names[event.seat]
        who = _stand_in(moment, name) or name
        if isinstance(event, events.Rolled):
            return _rolled(moment, event, who, brief=brief)
        if isinstance(event, events.Held):
            return _held(moment, event, who, brief=brief)
        return _scored(review.preset, event, who, brief=brief)
    return _note(names, moment, event)


def _start(names: Sequence[str], first_seat: int | None) -> str:
    first = names[first_seat] if first_seat is not None else "?"
    if len(names) == 1:
        return gettext("%(name)s starts a solo game.") % {"name": first}
    return gettext("%(names)s sit down; %(first)s won the roll-off and starts.") % {
        "names": names_list(names),
        "first": first,
    }


def _rolled(moment: Moment, event: events.Rolled, who: str, *, brief: bool) -> str:
    left = moment.rolls_left
    said = {"who": who, "dice": faces(event.dice), "left": left}
    if event.held:
        said["kept"] = faces([event.dice[i] for i in sorted(event.held)])
    if brief:
        if event.held and left:
            return (
                ngettext(
                    "Rolled %(dice)s, keeping %(kept)s (%(left)s roll left).",
                    "Rolled %(dice)s, keeping %(kept)s (%(left)s rolls left).",
                    left,
                )
                % said
            )
        if event.held:
            return gettext("Rolled %(dice)s, keeping %(kept)s.") % said
        if left:
            return (
                ngettext(
                    "Rolled %(dice)s (%(left)s roll left).",
                    "Rolled %(dice)s (%(left)s rolls left).",
                    left,
                )
                % said
            )
        return gettext("Rolled %(dice)s.") % said
    if event.held and left:
        return (
            ngettext(
                "%(who)s rolled %(dice)s, keeping %(kept)s (%(left)s roll left).",
                "%(who)s rolled %(dice)s, keeping %(kept)s (%(left)s rolls left).",
                left,
            )
            % said
        )
    if event.held:
        return gettext("%(who)s rolled %(dice)s, keeping %(kept)s.") % said
    if left:
        return (
            ngettext(
                "%(who)s rolled %(dice)s (%(left)s roll left).",
                "%(who)s rolled %(dice)s (%(left)s rolls left).",
                left,
            )
            % said
        )
    return gettext("%(who)s rolled %(dice)s.") % said


def _held(moment: Moment, event: events.Held, who: str, *, brief: bool) -> str:
    if not event.held or moment.dice is None:
        if brief:
            return gettext("Let go of every die.")
        return gettext("%(who)s let go of every die.") % {"who": who}
    kept = faces([moment.dice[i] for i in sorted(event.held)])
    if brief:
        return gettext("Kept %(kept)s.") % {"kept": kept}
    return gettext("%(who)s kept %(kept)s.") % {"who": who, "kept": kept}


def _scored(preset: str, event: events.Scored, who: str, *, brief: bool) -> str:
    said = {
        "who": who,
        "points": event.points,
        "box": box_label(event.category, preset),
        "bonus": rules.YAHTZEE_BONUS,
    }
    if brief and event.yahtzee_bonus:
        return gettext("Scored %(points)s in %(box)s and a %(bonus)s-point Yahtzee bonus.") % said
    if brief:
        return gettext("Scored %(points)s in %(box)s.") % said
    if event.yahtzee_bonus:
        return (
            gettext("%(who)s scored %(points)s in %(box)s and a %(bonus)s-point Yahtzee bonus.")
            % said
        )
    return gettext("%(who)s scored %(points)s in %(box)s.") % said


def _note(names: Sequence[str], moment: Moment, event: events.AnyEvent | None) -> str:
    """A moment without a move: someone left, went away or came back, the end."""
    if isinstance(event, events.Left):
        name = names[event.seat]
        if event.by == events.BY_HOST and moment.host is not None:
            return gettext(
                "%(host)s, the host, removed %(name)s from the game; %(name)s's score stands."
            ) % {"host": names[moment.host], "name": name}
        if event.by == events.BY_HOST:
            return gettext("The host removed %(name)s from the game; %(name)s's score stands.") % {
                "name": name
            }
        return gettext("%(name)s left the game.") % {"name": name}
    if isinstance(event, events.WentAway):
        return gettext(
            "%(name)s is away: the clock played %(name)s's last turns, "
            "so a bot plays for %(name)s until %(name)s is back."
        ) % {"name": names[event.seat]}
    if isinstance(event, events.CameBack):
        return gettext("%(name)s is back: the bot stops playing for %(name)s.") % {
            "name": names[event.seat]
        }
    if isinstance(event, events.Handed):
        return gettext(
            "%(host)s, the host, handed %(name)s's seat to a bot for the rest of the game."
        ) % {"host": names[event.host], "name": names[event.seat]}
    if isinstance(event, events.Abandoned):
        return gettext("The game was abandoned: nobody played for a long while.")
    if isinstance(event, events.Finished):
        return _finished(names, event)
    return moment.kind


def _finished(names: Sequence[str], event: events.Finished) -> str:
    winners = [names[s] for s in event.winners]
    if not winners:
        return gettext("The game is over.")
    said = {
        "name": winners[0],
        "names": names_list(winners),
        "points": event.totals[event.winners[0]],
    }
    if len(names) == 1:  # A solo game: nobody to beat, a score to tell.
        return gettext("%(name)s finished with %(points)s.") % said
    if len(winners) == 1:
        return gettext("%(name)s wins with %(points)s.") % said
    return gettext("%(names)s share the win with %(points)s.") % said


# The analysis -------------------------------------------------------------------------------


def decimal(value: float, places: int) -> str:
    """``value`` with ``places`` decimals as the reader's locale writes them, rounded as Python
    rounds (Django's ``number_format`` cuts the digits beyond ``places`` off)."""
    return number_format(round(value, places), decimal_pos=places)


def expected(value: float) -> str:
    """An expected total, with one decimal as the reader's locale writes it: "265.1", "265,1"."""
    return decimal(value, 1)


def points_given_up(value: float) -> str:
    """Points given up, with two decimals, never a misleading 0.00: "2.06", "less than 0.01"."""
    if 0 < value < 0.005:
        return pgettext("points given up", "less than %(points)s") % {
            "points": number_format(0.01, decimal_pos=2)
        }
    return decimal(value, 2)


def choice_label(choice: Choice, preset: str) -> str:
    """A choice as a person reads it: "Keep 3 3 5", "Throw all", "Full house (25)"."""
    if choice.category is not None:
        return pgettext("a choice: a box and its points", "%(box)s (%(points)s)") % {
            "box": box_label(choice.category, preset),
            "points": choice.points,
        }
    if not choice.kept:
        return pgettext("a choice: throw all five dice again", "Throw all")
    return pgettext("a choice: the dice to keep", "Keep %(dice)s") % {"dice": faces(choice.kept)}


def decision_text(decision: Decision, preset: str) -> str:
    """The decision in words, as the review shows it under the move.

    "Best: Keep 6 6 6, 265.1 expected. Played: Keep 6 6, 263.0 expected: gave up 2.06
    points." A decision made for the player starts by saying so: "Played by the clock,
    not counted in the player's figures. Best: ..."
    """
    said = {
        "best": choice_label(decision.best, preset),
        "best_expected": expected(decision.best.expected),
        "chosen": choice_label(decision.chosen, preset),
        "chosen_expected": expected(decision.chosen.expected),
        "loss": points_given_up(decision.loss),
    }
    if decision.chosen == decision.best:
        text = gettext(
            "Best: %(best)s, %(best_expected)s expected. Played: %(chosen)s, the best choice."
        )
    elif decision.is_optimal:
        text = gettext(
            "Best: %(best)s, %(best_expected)s expected. Played: %(chosen)s, as good as the best."
        )
    else:
        text = gettext(
            "Best: %(best)s, %(best_expected)s expected. Played: %(chosen)s, "
            "%(chosen_expected)s expected: gave up %(loss)s points."
        )
    text %= said
    if decision.by == events.BY_CLOCK:
        return gettext("Played by the clock, not counted in the player's figures. %(text)s") % {
            "text": text
        }
    if decision.by is not None:
        return gettext("Played by a bot, not counted in the player's figures. %(text)s") % {
            "text": text
        }
    return text


def decision_json(decision: Decision, preset: str) -> dict[str, Any]:
    """The decision for the review page's script: its figures and its words (``text``)."""
    return decision.as_json() | {
        "best": choice_label(decision.best, preset),
        "chosen": choice_label(decision.chosen, preset),
        "text": decision_text(decision, preset),
    }


def moments_json(review: Review, analysis: Analysis | None = None) -> list[dict[str, Any]]:
    """Every moment for the review page's script (:meth:`Review.moments_json`), each with its
    words (``text``) and the words of the decision it made (``analysis``)."""
    judged: Mapping[int, Mapping[str, Any]] = (
        {d.seq: decision_json(d, review.preset) for d in analysis.decisions} if analysis else {}
    )
    return [
        {**data, "text": moment_text(review, index)}
        for index, data in enumerate(review.moments_json(judged))
    ]


def biggest_mistake(decision: Decision | None, preset: str) -> dict[str, Any] | None:
    """A player's biggest mistake as the analysis table shows it, or ``None``."""
    if decision is None:
        return None
    return {
        "seq": decision.seq,
        "round": decision.round,
        "chosen": choice_label(decision.chosen, preset),
        "best": choice_label(decision.best, preset),
        "loss": points_given_up(decision.loss),
    }


# The list of moves --------------------------------------------------------------------------


def given_up(entry: Entry) -> str:
    """The points a decision gave up, as the list shows them, after a minus sign: "4.00",
    "<0.01"; "" for a move that decided nothing, an optimal one or one made for the player."""
    decision = entry.decision
    if decision is None or decision.is_optimal or decision.by is not None:
        return ""
    if decision.loss < 0.005:
        return MINUS + "<" + number_format(0.01, decimal_pos=2)
    return MINUS + decimal(decision.loss, 2)


def mistake_words(entry: Entry) -> str:
    """ "Ana's biggest mistake", "Ana's second biggest mistake"; "" for a lesser move."""
    said = {"name": entry.player}
    if entry.mistake_rank == 1:
        return gettext("%(name)s's biggest mistake") % said
    if entry.mistake_rank == 2:
        return gettext("%(name)s's second biggest mistake") % said
    if entry.mistake_rank == 3:
        return gettext("%(name)s's third biggest mistake") % said
    return ""


def worded_turns(turns: Sequence[Turn], review: Review) -> list[Turn]:
    """The list of moves (:func:`games.insight.review.move_list`) with each entry's words."""
    return [
        replace(
            turn,
            entries=[
                replace(
                    entry,
                    text=brief(review, entry.index),
                    given_up=given_up(entry),
                    mistake_words=mistake_words(entry),
                )
                for entry in turn.entries
            ],
        )
        for turn in turns
    ]


# The chances --------------------------------------------------------------------------------


def swing_text(swing: Swing, review: Review) -> str:
    """What a turning point was, in words (no full stop: the page puts it after its round):
    "Ana scored 25 in Full house", "Ana kept 5 6 and threw the other 3", "Ana rolled 6 6 6
    beside the 5 6 kept"."""
    if swing.cause == "decision" and review.moments[swing.index].kind == "scored":
        return moment_text(review, swing.index).rstrip(".")
    name = review.names[swing.seat]
    if swing.by == events.BY_CLOCK:
        name = pgettext("a player and who moved for them", "%(name)s (the clock played)") % {
            "name": name
        }
    elif swing.by is not None:
        name = pgettext("a player and who moved for them", "%(name)s (a bot played)") % {
            "name": name
        }
    count = len(swing.thrown) or rules.DICE_COUNT - len(swing.kept)
    said = {"who": name, "kept": faces(swing.kept), "thrown": faces(swing.thrown), "count": count}
    if swing.cause == "decision" and swing.kept:
        return (
            ngettext(
                "%(who)s kept %(kept)s and threw the other %(count)s",
                "%(who)s kept %(kept)s and threw the other %(count)s",
                count,
            )
            % said
        )
    if swing.cause == "decision":
        return gettext("%(who)s threw all five again") % said
    if swing.kept:
        return gettext("%(who)s rolled %(thrown)s beside the %(kept)s kept") % said
    return pgettext("a turning point, without a full stop", "%(who)s rolled %(thrown)s") % said


def turning_words(swing: Swing, names: Sequence[str]) -> str:
    """How a turning point moved its seat's chance: "Ana 48% → 81%"."""
    seat = swing.seat
    return pgettext(
        "a turning point: a player's chance before and after", "%(name)s %(before)s → %(after)s"
    ) % {
        "name": names[seat],
        "before": percent(swing.before[seat]),
        "after": percent(swing.after[seat]),
    }


def win_chances_json(odds: WinChances, review: Review) -> dict[str, Any]:
    """The export's ``win_chances`` (``docs/export.md``), its turning points worded."""
    data = odds.as_json()
    points = odds.turning_points()
    data["turning_points"] = [
        {**shown, "text": swing_text(point, review)}
        for shown, point in zip(data["turning_points"], points, strict=True)
    ]
    return data
