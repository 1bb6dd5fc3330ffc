"""Standings that claim no more than their evidence: students' means with 95% intervals, and an order
between two students only where their comparison separates them.

Each student has scores, one a game, each under a key saying what it can be paired with (the deal and the
seat: two students who held the same cards). `compare(a, b)` compares two students' scores:

- **paired**, over the keys both have (at least `MIN_PAIRED`): the mean difference on the same deals
  from the same seats, with a t interval, as duplicate scoring compares pairs who held the same cards;
- else **unpaired**, the difference of their means with Welch's t interval;
- else (too few games) no interval.

A student is above another only when the 95% interval of the difference excludes 0; otherwise they are
level ("cannot tell apart yet"). `standings(scores)` gives each student a place as a range: from 1 + the
number of students surely above to the class size - the number surely below. Ties in the range are shown as
such, never broken by a mean that the evidence cannot back: students who share a place range are listed by
`tiebreak` (the record's: their won–drew–lost, which the teacher reads beside them), then by mean.

What is shown of a student's mean is cut to the range its expected value can take (`ranges`, `clip`): the 95%
t interval of a mean of bounded figures can pass the bounds ("-0.77 to 1.81" of a figure whose expected value lies
in 0..1); clipped, it still holds the expected value whenever the t interval did. The comparisons use the intervals
as computed, unclipped.

>>> a = {("d1", 0): 0.9, ("d2", 0): 0.8, ("d3", 0): 0.85, ("d4", 0): 0.95}
>>> b = {("d1", 0): 0.2, ("d2", 0): 0.3, ("d3", 0): 0.1, ("d4", 0): 0.25}
>>> c = {("d1", 0): 0.1, ("d2", 0): 0.35, ("d3", 0): 0.2, ("d4", 0): 0.15}
>>> compare(a, b).verdict, compare(a, b).method, compare(a, b).pairs
('a', 'paired', 4)
>>> compare(b, c).verdict
'level'
>>> [(s.student, s.places) for s in standings({"Ann": a, "Ben": b, "Cai": c})]
[('Ann', '1'), ('Ben', '2–3'), ('Cai', '2–3')]
>>> [s.student for s in standings({"Ann": a, "Ben": b, "Cai": c}, tiebreak={"Ben": 1, "Cai": 0}.get)]
['Ann', 'Cai', 'Ben']
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["MIN_PAIRED", "PROVISIONAL", "Comparison", "Standing", "clip", "compare", "standings", "t95",
           "mean_interval"]

MIN_PAIRED = 3
"""Shared keys needed for a paired comparison (fewer: the students' means are compared unpaired)."""
PROVISIONAL = 10
"""A student's figure is provisional below this many games. Measured (`needle-widget bench record`, 120 deals at
the record's budget): a student's 95% interval narrows to ±0.15 of a game after 9, 10, 12 and 20 games for
simulated students making 0%, 25%, 50% and 100% random moves (docs/REVIEW.md, "A class's record")."""

_T975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
         2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
         2.045, 2.042)
_Z = 1.959963984540054


def t95(df: float) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom (a fractional df is rounded
    down, which widens the interval): exact to three places up to 30, then the Cornish-Fisher expansion.

    >>> t95(1), t95(10), round(t95(1000), 3)
    (12.706, 2.228, 1.962)
    """
    if df < 1:
        return math.inf
    k = int(df)
    if k <= len(_T975):
        return _T975[k - 1]
    z = _Z
    return z + (z**3 + z) / (4 * k) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * k * k)


def _mean_var(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = math.fsum(values) / n
    var = math.fsum((x - mean) ** 2 for x in values) / (n - 1) if n > 1 else math.inf
    return mean, var


def mean_interval(values: Sequence[float]) -> tuple[float | None, float | None, float | None]:
    """The mean of `values` and its 95% t interval; (mean, None, None) from one value, all None from none.

    >>> [round(x, 3) for x in mean_interval([0.0, 1.0, 0.5, 0.5])]
    [0.5, -0.15, 1.15]
    """
    if not values:
        return None, None, None
    mean, var = _mean_var(values)
    if len(values) < 2:
        return mean, None, None
    half = t95(len(values) - 1) * math.sqrt(var / len(values))
    return mean, mean - half, mean + half


def clip(low: float | None, high: float | None, floor: float, ceiling: float) -> tuple[float | None, float | None]:
    """An interval (`low`, `high`) cut to `floor`..`ceiling`, the range the quantity it brackets can take: it
    holds that quantity whenever the interval did. One wholly outside the range shrinks to the nearer end.

    >>> clip(-0.77, 1.81, 0.0, 1.0), clip(0.2, 0.4, 0.0, 1.0), clip(None, None, 0.0, 1.0)
    ((0.0, 1.0), (0.2, 0.4), (None, None))
    >>> clip(1.05, 1.3, 0.0, 1.0)
    (1.0, 1.0)
    """
    if low is None or high is None:
        return low, high
    return min(max(low, floor), ceiling), max(min(high, ceiling), floor)


@dataclass(frozen=True)
class Comparison:
    """Student a's scores against student b's: the difference (a - b) with its 95% interval, how it was
    made ("paired" over `pairs` shared keys, "unpaired", or None: too few games) and the verdict: "a"
    (a is above), "b", or "level" (cannot tell apart yet).
    """

    difference: float | None
    low: float | None
    high: float | None
    method: str | None
    pairs: int

    @property
    def verdict(self) -> str:
        """"a", "b" or "level"."""
        if self.low is not None and self.low > 0:
            return "a"
        if self.high is not None and self.high < 0:
            return "b"
        return "level"


def compare(a: Mapping[Hashable, float], b: Mapping[Hashable, float], min_paired: int = MIN_PAIRED) -> Comparison:
    """Compare two students' scores, each a mapping key -> score (see the module docstring)."""
    shared = [k for k in a if k in b]
    if len(shared) >= min_paired:
        diffs = [a[k] - b[k] for k in shared]
        mean, low, high = mean_interval(diffs)
        return Comparison(mean, low, high, "paired", len(shared))
    if len(a) >= 2 and len(b) >= 2:
        ma, va = _mean_var(list(a.values()))
        mb, vb = _mean_var(list(b.values()))
        sa, sb = va / len(a), vb / len(b)
        se2 = sa + sb
        if se2 == 0:
            return Comparison(ma - mb, ma - mb, ma - mb, "unpaired", len(shared))
        df = se2 * se2 / (sa * sa / (len(a) - 1) + sb * sb / (len(b) - 1))
        half = t95(df) * math.sqrt(se2)
        return Comparison(ma - mb, ma - mb - half, ma - mb + half, "unpaired", len(shared))
    diff = (math.fsum(a.values()) / len(a) - math.fsum(b.values()) / len(b)) if a and b else None
    return Comparison(diff, None, None, None, len(shared))


@dataclass(frozen=True)
class Standing:
    """One student's line: games, mean score with its 95% interval (`low`, `high`: cut to the student's range
    where `standings` was given one), whether it is provisional, the place as a range (`first`..`last`: 1 +
    those surely above .. class size - those surely below) and the students it cannot be told apart from yet
    (`level`).
    """

    student: Hashable
    games: int
    mean: float | None
    low: float | None
    high: float | None
    provisional: bool
    first: int
    last: int
    level: tuple[Hashable, ...]

    @property
    def places(self) -> str:
        """The place as shown: "2" or "2–4"."""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def standings(scores: Mapping[Hashable, Mapping[Hashable, float]], provisional: int = PROVISIONAL,
              min_paired: int = MIN_PAIRED, ranges: Mapping[Hashable, tuple[float, float]] | None = None,
              tiebreak: Callable[[Hashable], Any] | None = None) -> list[Standing]:
    """Every student with a score, each placed only as far as the comparisons allow: by place range (its first
    place, then its last), within one range by `tiebreak(student)` (smallest first: the record's won–drew–lost),
    then best mean first. `ranges`: each student's range of the expected value of their mean (floor, ceiling),
    to which the interval shown is cut (`clip`); a student without one keeps the t interval.
    """
    students = [s for s in scores if scores[s]]
    above = {s: 0 for s in students}
    below = {s: 0 for s in students}
    level: dict[Hashable, list[Hashable]] = {s: [] for s in students}
    for i, a in enumerate(students):
        for b in students[i + 1:]:
            verdict = compare(scores[a], scores[b], min_paired).verdict
            if verdict == "a":
                below[a] += 1
                above[b] += 1
            elif verdict == "b":
                below[b] += 1
                above[a] += 1
            else:
                level[a].append(b)
                level[b].append(a)
    rows = []
    for s in students:
        mean, low, high = mean_interval(list(scores[s].values()))
        if ranges is not None and s in ranges:
            low, high = clip(low, high, *ranges[s])
        n = len(scores[s])
        rows.append(Standing(s, n, mean, low, high, n < provisional, 1 + above[s], len(students) - below[s],
                             tuple(level[s])))
    rows.sort(key=lambda r: (r.first, r.last, () if tiebreak is None else tiebreak(r.student), -(r.mean or 0.0)))
    return rows
