r"""A review's answer in words: did the decisions or the cards decide this game?

The verdict reads the ledger (`Review.skill_total`, `Review.luck_total` and their standard errors) in points
of win chance, the unit of the marks. Skill is measured against the reference player (GreedyBot on both
seats), so `start value + skill + luck = result` holds for the figures the sentence gives.

- A part counts only when it clears `ABOUT` (3 points, the inaccuracy threshold) by `NOISE` standard
  errors (1.5, as the marks): below that the review says "about as well" or "about even".
- Of two parts that count, the larger "decided this game". Neither: the game went about as the deal gave it.
- A luck-adjusted result outside 0-1 gets a sentence of its own: each luck term is an unbiased but noisy
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
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import marks

if TYPE_CHECKING:
    from .review import Review

__all__ = ["ABOUT", "NOISE", "outside_note", "sentence", "verdict"]

ABOUT = marks.THRESHOLDS["inaccuracy"]
"""A part of the ledger (skill or luck) smaller than this (3 points of win chance), by its noise, is "about even"."""

NOISE = marks.NOISE
"""How many standard errors a part must clear `ABOUT` by to count (the marks' 1.5)."""


def _points(share: float) -> str:
    n = round(100 * abs(share))
    return f"{n} point" + ("" if n == 1 else "s")


def _counts(value: float, se: float) -> bool:
    return abs(value) - NOISE * se > ABOUT


def sentence(skill: float, skill_se: float, luck: float, luck_se: float, who: str | None = None,
             reference: str = "GreedyBot") -> str:
    """The verdict from the ledger's two figures (win chance, 0..1) and their standard errors; told to the
    seat, or about `who` (a name: "Player 2's decisions cost them ...").
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


def outside_note(review: Review, who: str | None = None) -> str | None:
    """Why a luck-adjusted result outside 0-1 is shown as it is; None inside."""
    value = review.luck_adjusted
    if 0.0 <= value <= 1.0:
        return None
    whose = "Your" if who is None else f"{who}'s"
    return (f"{whose} luck-adjusted result, {value:.2f}, is outside 0-1: each luck term is an unbiased but noisy "
            f"estimate (the total ±{_points(review.luck_se)} here), so one game's can pass the ends; over many "
            "games the noise averages out.")


def verdict(review: Review, who: str | None = None, reference: str = "GreedyBot") -> str:
    """The seat's verdict in words (module docstring), with the note on a luck-adjusted result outside 0-1."""
    text = sentence(review.skill_total, review.skill_se, review.luck_total, review.luck_se, who, reference)
    note = outside_note(review, who)
    return text if note is None else f"{text} {note}"
