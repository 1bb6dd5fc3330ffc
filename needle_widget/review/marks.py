"""Marks for decisions: the labels, their thresholds, and accuracy (docs/REVIEW.md says how they were chosen).

A loss is in win chance, 0..1 (0.06 is "6 points"). A decision is marked worse than "good" only
when its loss exceeds the threshold by its noise: `loss - NOISE * se > threshold`.

>>> label(0.0, 0.0, True), label(0.025, 0.01, False), label(0.30, 0.02, False)
('best', 'good', 'blunder')
>>> label(0.30, 0.17, False)   # as large, but too noisy to be sure of more than an inaccuracy
'inaccuracy'
>>> round(accuracy(0.0)), round(accuracy(0.05)), round(accuracy(0.20))
(100, 80, 40)
"""

from __future__ import annotations

import math

__all__ = ["BEST_NOISE", "BEST_WITHIN", "LABELS", "NOISE", "THRESHOLDS", "accuracy", "label"]

LABELS = ("best", "good", "inaccuracy", "mistake", "blunder")
"""From the best choice found to the worst mark."""

THRESHOLDS = {"inaccuracy": 0.03, "mistake": 0.06, "blunder": 0.12}
"""The loss of win chance (0..1) a decision must exceed, by its noise, to get each mark."""

NOISE = 1.5
"""How many standard errors a loss must clear its threshold by (one-sided, about 93% if normal)."""

BEST_WITHIN = 0.01
"""A chosen action whose loss is below this (one point) counts as "best"."""

BEST_NOISE = 2.0
"""So does one whose loss is within this many standard errors of zero: the worlds cannot tell it from the best."""


def label(loss: float, se: float, is_best: bool) -> str:
    """The mark for a decision that lost `loss` of win chance (standard error `se`); `is_best`: the chosen
    action is the best candidate by the estimate.
    """
    sure = loss - NOISE * se
    for name in ("blunder", "mistake", "inaccuracy"):
        if sure > THRESHOLDS[name]:
            return name
    return "best" if is_best or loss < BEST_WITHIN or loss <= BEST_NOISE * se else "good"


def accuracy(loss: float) -> float:
    """A decision's accuracy, 0-100, from its loss of win chance (0..1): lichess's move accuracy,
    `103.1668 * exp(-0.04354 * loss in points) - 3.1669`, on the same 0-100 scale of win chance, rounded
    to two decimals (so no loss reads 100, not the formula's 99.9999).
    """
    return round(min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100 * loss) - 3.1669)), 2)
