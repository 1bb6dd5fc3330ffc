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

__all__ = ["BEST_NOISE", "BEST_WITHIN", "LABELS", "NOISE", "THRESHOLDS", "accuracy", "check_thresholds",
           "custom_thresholds", "label", "points"]

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


def label(loss: float, se: float, is_best: bool, thresholds: tuple[float, float, float] | None = None) -> str:
    """The mark for a decision that lost `loss` of win chance (standard error `se`); `is_best`: the chosen
    action is the best candidate by the estimate. `thresholds`: the inaccuracy's, mistake's and blunder's
    (win chance, 0..1; default `THRESHOLDS`, a teacher may set others: `check_thresholds`).

    >>> label(0.05, 0.0, False), label(0.05, 0.0, False, (0.01, 0.02, 0.04))
    ('inaccuracy', 'blunder')
    """
    sure = loss - NOISE * se
    bars = dict(zip(("inaccuracy", "mistake", "blunder"), thresholds, strict=True)) if thresholds else THRESHOLDS
    for name in ("blunder", "mistake", "inaccuracy"):
        if sure > bars[name]:
            return name
    return "best" if is_best or loss < BEST_WITHIN or loss <= BEST_NOISE * se else "good"


def accuracy(loss: float) -> float:
    """A decision's accuracy, 0-100, from its loss of win chance (0..1): lichess's move accuracy,
    `103.1668 * exp(-0.04354 * loss in points) - 3.1669`, on the same 0-100 scale of win chance, rounded
    to two decimals (so no loss reads 100, not the formula's 99.9999).
    """
    return round(min(100.0, max(0.0, 103.1668 * math.exp(-0.04354 * 100 * loss) - 3.1669)), 2)


DEFAULT_POINTS = (3, 6, 12)
"""`THRESHOLDS` in points of win chance, as a teacher sets them."""


def check_thresholds(points: object) -> tuple[float, float, float]:
    """A teacher's thresholds in points of win chance ((3, 6, 12): inaccuracy, mistake, blunder) as win chance
    (0..1); ArgumentError (a NeedleError) quoting anything else: three numbers, each larger than the one before,
    from above 0 to 100.

    >>> check_thresholds((2, 5, 10))
    (0.02, 0.05, 0.1)
    """
    from ..engine.errors import ArgumentError, quote

    if not (isinstance(points, (tuple, list)) and len(points) == 3
            and all(type(p) in (int, float) and p == p for p in points)
            and 0 < points[0] < points[1] < points[2] <= 100):
        raise ArgumentError(f"thresholds must be three numbers of points, each larger than the one before, from "
                            f"above 0 to 100 (inaccuracy, mistake, blunder; default 3, 6, 12), not {quote(points)}")
    return tuple(round(p / 100, 6) for p in points)


def custom_thresholds(points: object) -> tuple[float, float, float] | None:
    """`check_thresholds(points)`, or None where they are the default (what review settings keep).

    >>> custom_thresholds((3, 6, 12)) is None, custom_thresholds((2, 4, 8))
    (True, (0.02, 0.04, 0.08))
    """
    bars = check_thresholds(points)
    return None if bars == tuple(THRESHOLDS.values()) else bars


def points(thresholds: tuple[float, float, float] | None) -> tuple[float, float, float]:
    """Thresholds (win chance) in points, for the words: (3, 6, 12) by default."""
    bars = thresholds or tuple(THRESHOLDS[k] for k in ("inaccuracy", "mistake", "blunder"))
    return tuple(round(100 * t, 4) for t in bars)  # type: ignore[return-value]
