r"""A review's answer in words: did the decisions or the cards decide this game?

The verdict reads the ledger (`Review.skill_total`, `Review.luck_total` and their standard errors) in points
of win chance, the unit of the marks and of every luck-adjusted figure a student or a teacher is shown (`UNIT`:
a win is 100, a draw 50, a loss 0; `in_points`, `signed_points`). Skill is measured against the reference player
(GreedyBot on both seats), so `start value + skill + luck = result` holds for the figures the sentence gives.

- A part counts only when it clears `ABOUT` (3 points, the inaccuracy threshold) by `NOISE` standard
  errors (1.5, as the marks): below that the review says "about as well" or "about even".
- Of two parts that count, the larger "decided this game". Neither: the game went about as the deal gave it.
- Decisions that cost points with none of them marked: the sentence says where the loss is, so that the seat knows
  which decision to look at in the list of decisions: spread over several choices (the costliest under half of it)
  with the costliest one's step, or most of it at one step; and why none is marked: too small (the costliest within
  the inaccuracy's 3 points) or within the review's noise (larger, but not by 1.5 standard errors).
- A luck-adjusted result outside 0-100 points gets a sentence of its own: each luck term is an unbiased but noisy
  estimate, so one game's total can pass the ends; over many games the noise averages out.

>>> from needle_widget import examples
>>> from needle_widget.review import review
>>> verdict(review(examples.load("found_early"), 0, worlds=8)).startswith(("You", "Your"))
True
>>> print(sentence(-0.14, 0.01, 0.08, 0.01).replace("; ", ";\n"))
Your decisions cost you about 14 points of win chance against GreedyBot's;
the cards gave you 8 points back. Your decisions decided more than the cards.
>>> sentence(0.0, 0.0, -0.31, 0.05)
'You played as well as GreedyBot would have; the cards cost you 31 points. The cards decided this game.'
>>> print(sentence(-0.19, 0.02, 0.0, 0.01, costliest=(14, -0.03)).replace(", spread", ",\nspread").replace("; ", ";\n"))
Your decisions cost you about 19 points of win chance against GreedyBot's,
spread over several choices, none marked (the costliest: step 14, 3 points, too small to mark);
the cards were about even. Your decisions decided more than the cards.
>>> print(sentence(-0.13, 0.05, -0.46, 0.05, costliest=(2, -0.13)).split("; ")[0].replace(", most", ",\nmost"))
Your decisions cost you about 13 points of win chance against GreedyBot's,
most of it at step 2 (13 points), left unmarked as within the review's noise
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from . import marks

if TYPE_CHECKING:
    from .review import Review

__all__ = ["ABOUT", "MARKED", "NOISE", "UNIT", "costliest_unmarked", "in_points", "outside_note", "points_text",
           "sentence", "signed_points", "verdict"]

UNIT = "points of win chance (a win is 100, a draw 50, a loss 0)"
"""The unit of every luck-adjusted figure shown (a score share times 100), of luck and of skill: the verdict's and
the marks' "points"."""

MARKED = ("inaccuracy", "mistake", "blunder")
"""The labels that mark a decision in the review."""

ABOUT = marks.THRESHOLDS["inaccuracy"]
"""A part of the ledger (skill or luck) smaller than this (3 points of win chance), by its noise, is "about even"."""

NOISE = marks.NOISE
"""How many standard errors a part must clear `ABOUT` by to count (the marks' 1.5)."""


def in_points(share: float) -> int:
    """A score share (win 1, draw 1/2, loss 0) or a change of one, in whole points of win chance, halves away from
    zero (as the front end's `points` rounds the same binary value).

    >>> in_points(0.724), in_points(0.125), in_points(-0.125), in_points(1.0), in_points(-0.004)
    (72, 13, -13, 100, 0)
    """
    n = math.floor(abs(100 * share) + 0.5)
    return -n if share < 0 and n else n


def points_text(share: float) -> str:
    """A score share in points, as shown: "72", "−25" (the minus sign U+2212, as the front end writes it)."""
    n = in_points(share)
    return f"−{-n}" if n < 0 else str(n)


def signed_points(share: float) -> str:
    """A change of win chance in points, signed: "+19", "−4", "0".

    >>> signed_points(0.19), signed_points(-0.04), signed_points(0.001), points_text(-0.25)
    ('+19', '−4', '0', '−25')
    """
    return f"+{points_text(share)}" if in_points(share) > 0 else points_text(share)


def _points(share: float) -> str:
    n = abs(in_points(share))
    return f"{n} point" + ("" if n == 1 else "s")


def _counts(value: float, se: float) -> bool:
    return abs(value) - NOISE * se > ABOUT


def sentence(skill: float, skill_se: float, luck: float, luck_se: float, who: str | None = None,
             reference: str = "GreedyBot", costliest: tuple[int, float] | None = None) -> str:
    """The verdict from the ledger's two figures (win chance, 0..1) and their standard errors; told to the
    seat, or about `who` (a name: "Player 2's decisions cost them ..."). `costliest`: where no decision is marked,
    the step (as shown: 1, 2, ...) and the skill of the decision that cost the most (`costliest_unmarked`): a loss
    is then said to be spread over several choices or most of it at that step, and why it is not marked.
    """
    you, your, them = ("You", "your", "you") if who is None else (who, f"{who}'s", "them")
    play, cards = _counts(skill, skill_se), _counts(luck, luck_se)
    if not play and skill == 0.0:
        first = f"{you} played as well as {reference} would have"
    elif not play:
        noisy = f" (within the review's noise, ±{_points(skill_se)})" if abs(skill) > ABOUT else ""
        first = f"{you} played about as well as {reference} would have{noisy}"
    elif skill < 0:
        first = f"{your.capitalize()} decisions cost {them} about {_points(skill)} of win chance against {reference}'s"
        if costliest is not None:
            step, worst = costliest
            cost = _points(worst) if in_points(worst) else "less than a point"
            why = "too small to mark" if -worst <= ABOUT else "within the review's noise"
            if -worst < -skill / 2:
                first += f", spread over several choices, none marked (the costliest: step {step}, {cost}, {why})"
            else:
                first += f", most of it at step {step} ({cost}), left unmarked as {why}"
    else:
        first = (f"{your.capitalize()} decisions gained {them} about {_points(skill)} of win chance over what "
                 f"{reference} would have played")
    if not cards:
        noisy = f", within the review's noise (±{_points(luck_se)})" if abs(luck) > ABOUT else ""
        second = f"the cards were about even{noisy}"
    elif luck > 0:
        more = " back" if play and skill < 0 else " more" if play else ""
        second = f"the cards gave {them} {_points(luck)}{more}"
    else:
        second = f"the cards cost {them} {'another ' if play and skill < 0 else ''}{_points(luck)}"
    if cards and (not play or abs(luck) > abs(skill)):
        third = "The cards decided this game."
    elif play:
        third = f"{your.capitalize()} decisions decided more than the cards."
    else:
        third = "Neither moved it by much: the game went about as the deal gave it."
    return f"{first}; {second}. {third}"


def costliest_unmarked(review: Review) -> tuple[int, float] | None:
    """Where the review marked none of the seat's decisions: the step (as shown: 1, 2, ...) and the skill of the
    one that cost the most against the reference; None where a decision is marked, or none cost anything.
    """
    if any(e.label in MARKED for e in review.entries):
        return None
    worst = min(review.entries, key=lambda e: e.skill, default=None)
    return None if worst is None or worst.skill >= 0 else (worst.step + 1, worst.skill)


def outside_note(review: Review, who: str | None = None) -> str | None:
    """Why a luck-adjusted result outside 0-100 points is shown as it is; None inside."""
    value = review.luck_adjusted
    if 0.0 <= value <= 1.0:
        return None
    whose = "Your" if who is None else f"{who}'s"
    return (f"{whose} luck-adjusted result, {points_text(value)} points, is outside 0-100: each luck "
            f"term is an unbiased but noisy estimate (the total ±{_points(review.luck_se)} here), so one game's can "
            "pass the ends; over many games the noise averages out.")


def verdict(review: Review, who: str | None = None, reference: str = "GreedyBot") -> str:
    """The seat's verdict in words (module docstring), with the note on a luck-adjusted result outside 0-100."""
    text = sentence(review.skill_total, review.skill_se, review.luck_total, review.luck_se, who, reference,
                    costliest_unmarked(review))
    note = outside_note(review, who)
    return text if note is None else f"{text} {note}"
