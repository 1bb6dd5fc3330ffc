"""Standings that claim no more than their evidence: over every pair of students, at every look.

Each student has scores, one a game, each under a key saying what it can be paired with (the deal and the
seat: two students who held the same cards), in the order the games were played. Two students are compared on a
sequence of differences (`pair_differences`):

- **paired**: over the keys both have, the difference of their scores on the same deal from the same seat, as
  duplicate scoring compares pairs who held the same cards;
- then **matched by seat**: their other games, the first of one's at a seat with the first of the other's at that
  seat, and so on (students who never held the same cards, as two opponents at a match's table);

in the order of the later game of each pair. If the two students are equally strong, each difference is as likely
to be positive as negative, at every size (their games are exchangeable): the test is of that, and a claim is
that the differences lean one way.

**The test** (`compare`) bets against that symmetry. Each difference, in units of `SCALE` (10 points of win chance)
and cut to -1..1, is x; a bet of a fraction λ turns wealth W into W(1 + λx). The evidence is the mean wealth of
betting each fraction of `BETS` on "a is better" and on "b is better", starting from 1: under symmetry each bettor's
wealth is a test martingale (given the sizes of the differences, their signs are fair coins), so by Ville's
inequality the chance that the evidence ever reaches 1/α, at any look however many, is at most α. A pair is placed
when its evidence reaches what Holm's method gives it (`standings`): sorted by evidence, the k-th strongest of K
pairs needs 1/(α/(K - k + 1)); α is `ALPHA` for the whole class, over every pair and every look (docs/REVIEW.md,
"Standings that hold at every look"). The evidence is the largest wealth reached so far, so a claim once shown
stays.

A student's place is a range: from 1 + the students placed above them to the class size - those placed below.
Rows are listed by place, then by mean, then by `tiebreak` (the record's won–drew–lost). The interval shown of a
student's mean (`mean_sequence`) holds for the whole class at once, at every look, at 95%: a betting confidence
sequence for the mean of the student's figures (each cut to -100..200 points), each at 5% / class size.

>>> a = {(f"d{k}", 0): v for k, v in enumerate([0.9, 0.8, 0.85, 0.95, 0.9, 0.8, 0.9, 0.85, 0.9, 0.8])}
>>> b = {(f"d{k}", 0): v for k, v in enumerate([0.2, 0.3, 0.1, 0.25, 0.3, 0.2, 0.1, 0.2, 0.3, 0.2])}
>>> c = {(f"d{k}", 0): v for k, v in enumerate([0.1, 0.35, 0.2, 0.15, 0.2, 0.3, 0.2, 0.1, 0.25, 0.3])}
>>> compare(a, b).verdict, compare(a, b).shared, compare(a, b).ahead
('a', 10, 10)
>>> compare(b, c).verdict
'level'
>>> [(s.student, s.places) for s in standings({"Ann": a, "Ben": b, "Cai": c})]
[('Ann', '1'), ('Ben', '2–3'), ('Cai', '2–3')]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

__all__ = ["ALPHA", "BETS", "SCALE", "FIGURE_RANGE", "PROVISIONAL", "Comparison", "Standing", "claims",
           "clip", "compare", "holm", "mean_interval", "mean_sequence", "pair_differences", "standings", "t95"]

ALPHA = 0.05
"""The chance, over a whole class and a whole term looked at after every game, that the board shows any order that
is not so (a claim between equally strong students)."""
SCALE = 0.1
"""A difference of this much (10 points of win chance) or more counts in full in a bet; a smaller one in part."""
BETS = (0.5, 0.7, 0.85, 0.95)
"""The fractions of wealth bet on each difference, each as a bettor of its own; the evidence is their mean. Chosen
on simulated students (docs/REVIEW.md, "Standings that hold at every look"): a stronger student's differences of
10 points or more lean their way nine times in ten or more, so the best bets are large; eight bettors from 0.2
needed a deal or two more."""
PROVISIONAL = 10
"""A student's figure is provisional below this many games (docs/REVIEW.md, "A class's record")."""

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
    """The mean of `values` and its fixed-sample 95% t interval (valid for one look only); (mean, None, None) from
    one value, all None from none.

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


FIGURE_RANGE = (-1.0, 2.0)
"""The range of one game's figure `mean_sequence` takes (a figure beyond it is cut to it): a game's luck-adjusted
score has expected value 0 to 1 (-1 to 0 for a game left), and the review's noise takes one game's figure past
that by much less than a game (the simulated pools' figures ran from -1.53 to 0.91)."""
_GRID = 200


def mean_sequence(values: Sequence[float], alpha: float = ALPHA, span: tuple[float, float] = FIGURE_RANGE
                  ) -> tuple[float | None, float | None, float | None]:
    """The mean of `values` and an interval for the mean of the values cut to `span` that holds at every look at
    once, at 1 - `alpha`: the hedged betting confidence sequence of Waudby-Smith and Ramdas ("Estimating means of
    bounded random variables by betting", JRSS B 2023), its bets the predictable plug-in ones, on a grid of 200
    candidate means. Exact for values in `span` (no large-sample approximation); (mean, None, None) from one value,
    all None from none.

    >>> [round(x, 2) for x in mean_sequence([0.0, 1.0, 0.5, 0.5] * 10)]
    [0.5, 0.23, 0.77]
    """
    if not values:
        return None, None, None
    mean = math.fsum(values) / len(values)
    if len(values) < 2:
        return mean, None, None
    ends = _sequence_ends(tuple(values), alpha, span)
    return (mean, mean, mean) if ends is None else (mean, *ends)


@lru_cache(maxsize=1024)
def _sequence_ends(values: tuple[float, ...], alpha: float, span: tuple[float, float]) -> tuple[float, float] | None:
    """`mean_sequence`'s interval (None if no candidate mean is left), its ends widened by one step of the grid so
    that it holds whatever lies between two candidates; kept for values seen before (a board is drawn again after
    every game, and a game changes two students' figures of a class's).
    """
    low, high = span
    ys = [(min(max(v, low), high) - low) / (high - low) for v in values]
    bets, total, squares = [], 0.5, 0.25
    for i, y in enumerate(ys, start=1):
        var = squares / i
        bets.append(math.sqrt(2 * math.log(2 / alpha) / (var * i * math.log(i + 1))))
        total += y
        squares += (y - total / (i + 1)) ** 2
    inside = []
    for k in range(_GRID + 1):
        m = k / _GRID
        up = down = 1.0
        for lam, y in zip(bets, ys, strict=True):
            up *= 1 + min(lam, 0.5 / m if m > 0 else lam) * (y - m)
            down *= 1 - min(lam, 0.5 / (1 - m) if m < 1 else lam) * (y - m)
        if (up + down) / 2 < 1 / alpha:
            inside.append(m)
    if not inside:
        return None
    step = 1 / _GRID
    return low + max(0.0, inside[0] - step) * (high - low), low + min(1.0, inside[-1] + step) * (high - low)


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


def _deal_seat(key: Hashable) -> tuple[Hashable, Hashable]:
    """A (deal, seat) key's deal and seat; any other key is a deal of its own, with no seat."""
    return (key[0], key[1]) if isinstance(key, tuple) and len(key) == 2 else (key, None)


def pair_differences(a: Mapping[Any, float], b: Mapping[Any, float],
                     order_a: Mapping[Any, float] | None = None, order_b: Mapping[Any, float] | None = None
                     ) -> tuple[list[float], int]:
    """The differences a - b that `compare` tests, in order, and how many of them are paired.

    The games of both are taken in the order played (`order_a`, `order_b`: key -> when; default each game's place in
    its student's scores). A game pairs with the other student's game of the same key (the same deal from the
    same seat: a (deal, seat) key) if that one is waiting. Two games that can no longer pair that way (each
    student has held the other's deal already) may pair by seat: a game then takes the other's oldest such game
    waiting at its seat; else it waits. So whenever both students play a deal from one seat, those two games pair,
    whoever finishes first. Each deal serves one difference at most: two opponents' games of a deal are one game,
    and two differences that shared a deal would not be independent. A pair once made stays, so the differences of a
    later look extend those of an earlier one; which games pair depends on keys and order only, never on the scores.

    >>> pair_differences({("d1", 0): 0.5, ("d2", 1): 0.25}, {("d1", 0): 0.25, ("d3", 1): 0.5})  # d2, d3: may pair yet
    ([0.25], 1)
    >>> pair_differences({("d1", 0): 1.0, ("d2", 1): 0.0}, {("d1", 1): 0.0, ("d2", 0): 1.0})  # opponents
    ([0.0], 0)
    """
    when = (order_a or {k: i for i, k in enumerate(a)}, order_b or {k: i for i, k in enumerate(b)})
    events = sorted([(when[0][k], 0, n, k) for n, k in enumerate(a)] + [(when[1][k], 1, n, k) for n, k in enumerate(b)],
                    key=lambda e: e[:3])
    values = (a, b)
    queues: tuple[dict[Hashable, list[Hashable]], dict[Hashable, list[Hashable]]] = ({}, {})
    waiting: tuple[set[Hashable], set[Hashable]] = (set(), set())
    played: tuple[set[Hashable], set[Hashable]] = (set(), set())
    used: set[Hashable] = set()
    diffs: list[float] = []
    shared = 0
    for _, side, _, key in events:
        deal, seat = _deal_seat(key)
        played[side].add(deal)
        if deal in used:
            continue
        other = 1 - side
        partner: Hashable | None = None
        if key in waiting[other]:
            partner = key
            shared += 1
        elif deal in played[other]:  # the other student holds this deal already: it can never pair by key
            queue = queues[other].get(seat, [])
            queue[:] = [k for k in queue if k in waiting[other] and _deal_seat(k)[0] not in used]
            partner = next((k for k in queue if _deal_seat(k)[0] in played[side]), None)
        if partner is None:
            queues[side].setdefault(seat, []).append(key)
            waiting[side].add(key)
            continue
        waiting[other].discard(partner)
        mine, theirs = (key, partner) if side == 0 else (partner, key)
        diffs.append(values[0][mine] - values[1][theirs])
        used.update((deal, _deal_seat(partner)[0]))
    return diffs, shared


@dataclass(frozen=True)
class Comparison:
    """Student a's scores against student b's (`compare`): how many differences (`shared` deals in common, `matched`
    games matched by seat), on how many a was ahead and behind, their mean (a - b), the evidence (the largest wealth
    the bets reached, `evidence`: at least 1) and the way it leans ("a", "b" or None: no differences), and the level
    `verdict` is made at (for one pair on its own; `standings` applies Holm's across a class).
    """

    shared: int
    matched: int
    ahead: int
    behind: int
    difference: float | None
    evidence: float
    lean: str | None
    growth: float
    """The growth a difference of the leaning side's best bet made so far, on average (log wealth a difference)."""
    level: float = ALPHA

    @property
    def pairs(self) -> int:
        """The differences compared."""
        return self.shared + self.matched

    @property
    def method(self) -> str | None:
        """"paired" (all on deals in common), "matched" (none), "mixed", or None (nothing to compare)."""
        if not self.pairs:
            return None
        return "paired" if not self.matched else "matched" if not self.shared else "mixed"

    @property
    def p(self) -> float:
        """The anytime-valid p-value: 1 / evidence (at most 1)."""
        return min(1.0, 1.0 / self.evidence)

    @property
    def verdict(self) -> str:
        """"a" (a is above), "b", or "level" (cannot tell apart yet), at `level`."""
        return self.lean if self.lean is not None and self.evidence * self.level >= 1 else "level"

    def needed(self, level: float | None = None) -> int | None:
        """About how many differences in all a claim at `level` (default its own) would need if they went on as
        they have (the leaning side's best bet growing as much a difference): None until the evidence is halfway
        there (at least the square root of 1 / `level`): before that, equally strong students' pairs show a lean
        as often as not, and a forecast from it would mostly not come true.
        """
        level = self.level if level is None else level
        if self.growth <= 0 or self.evidence * self.evidence * level < 1:
            return None
        return max(self.pairs, math.ceil(math.log(2 * len(BETS) / level) / self.growth))

    def flipped(self) -> Comparison:
        """The same comparison from b's side."""
        lean = {"a": "b", "b": "a"}.get(self.lean or "", None)
        return Comparison(self.shared, self.matched, self.behind, self.ahead,
                          None if self.difference is None else -self.difference, self.evidence, lean, self.growth,
                          self.level)


def compare(a: Mapping[Any, float], b: Mapping[Any, float], level: float = ALPHA,
            order_a: Mapping[Any, float] | None = None, order_b: Mapping[Any, float] | None = None) -> Comparison:
    """Compare two students' scores, each a mapping key -> score in the order played (see the module docstring);
    the verdict at `level` for this pair on its own; `order_a`, `order_b`: when each game was played
    (`pair_differences`).
    """
    return _compare(tuple(a.items()), tuple(b.items()), None if order_a is None else tuple(order_a.items()),
                    None if order_b is None else tuple(order_b.items()), level)


@lru_cache(maxsize=8192)
def _compare(a: tuple[tuple[Any, float], ...], b: tuple[tuple[Any, float], ...],
             order_a: tuple[tuple[Any, float], ...] | None, order_b: tuple[tuple[Any, float], ...] | None,
             level: float) -> Comparison:
    """`compare` of the items given, kept for pairs seen before: a game changes only its students' pairs."""
    diffs, shared = pair_differences(dict(a), dict(b), None if order_a is None else dict(order_a),
                                     None if order_b is None else dict(order_b))
    up = [1.0] * len(BETS)
    down = [1.0] * len(BETS)
    best, lean, scale = 1.0, None, 2 * len(BETS)
    for d in diffs:
        x = -1.0 if d <= -SCALE else 1.0 if d >= SCALE else d / SCALE
        up = [w * (1 + bet * x) for w, bet in zip(up, BETS, strict=True)]
        down = [w * (1 - bet * x) for w, bet in zip(down, BETS, strict=True)]
        high, low = sum(up), sum(down)
        if (high + low) / scale > best:
            best, lean = (high + low) / scale, "a" if high >= low else "b"
    total = math.fsum(diffs)
    if lean is None and diffs:
        lean = "a" if total > 0 else "b" if total < 0 else None
    side = up if lean == "a" else down
    growth = math.log(max(max(side), 1e-300)) / len(diffs) if diffs else 0.0
    return Comparison(shared, len(diffs) - shared, sum(d > 0 for d in diffs), sum(d < 0 for d in diffs),
                      total / len(diffs) if diffs else None, best, lean, growth, level)


def holm(pvalues: Mapping[Any, float], alpha: float = ALPHA, family: int | None = None) -> set[Any]:
    """The hypotheses Holm's step-down method rejects at `alpha`: sorted by p-value, the k-th smallest (k = 1, 2,
    ...) is rejected if it and every smaller one is at most alpha / (family - k + 1). `family`: the number of
    hypotheses (default: those given; more when some have no p-value yet).

    >>> sorted(holm({"x": 0.001, "y": 0.02, "z": 0.5}))
    ['x', 'y']
    >>> sorted(holm({"x": 0.001, "y": 0.02, "z": 0.5}, family=10))
    ['x']
    """
    size = max(len(pvalues), family or 0)
    out: set[Any] = set()
    for k, (name, p) in enumerate(sorted(pvalues.items(), key=lambda item: item[1])):
        if p * (size - k) > alpha:
            break
        out.add(name)
    return out


def claims(scores: Mapping[Any, Mapping[Any, float]], alpha: float = ALPHA, family: int | None = None,
           order: Mapping[Any, Mapping[Any, float]] | None = None
           ) -> tuple[dict[tuple[Any, Any], Comparison], set[tuple[Any, Any]]]:
    """Every pair of the students with scores compared (`compare`, in the order of `scores`), and the pairs Holm's
    method claims at `alpha` over the pairs of `family` students (default: those with scores). Each claimed pair's
    order is its comparison's `lean`.
    """
    students = [s for s in scores if scores[s]]
    size = max(len(students), family or 0)
    comparisons = {(a, b): compare(scores[a], scores[b], alpha, order_a=None if order is None else order.get(a),
                                   order_b=None if order is None else order.get(b))
                   for i, a in enumerate(students) for b in students[i + 1:]}
    claimed = holm({pair: c.p for pair, c in comparisons.items() if c.pairs}, alpha, max(1, size * (size - 1) // 2))
    return comparisons, claimed


@dataclass(frozen=True)
class Standing:
    """One student's line: games, mean score with an interval (`low`, `high`: `mean_sequence`'s, for the class at
    once, cut to the student's range where `standings` was given one), whether it is provisional, the place as a
    range (`first`..`last`: 1 + those placed above .. class size - those placed below), the students placed below
    (`above`: this one is above them) and above (`below`), those it cannot be told apart from yet (`level`), and
    the comparison with each other student from this one's side (`evidence`).
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
    above: tuple[Hashable, ...] = ()
    below: tuple[Hashable, ...] = ()
    evidence: Mapping[Hashable, Comparison] | None = None
    next_level: float = ALPHA
    """The level the class's next claim must reach (Holm's, after the claims made): what `Comparison.needed` asks."""

    @property
    def places(self) -> str:
        """The place as shown: "2" or "2–4"."""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


def standings(scores: Mapping[Hashable, Mapping[Hashable, float]], provisional: int = PROVISIONAL,
              ranges: Mapping[Hashable, tuple[float, float]] | None = None,
              tiebreak: Callable[[Hashable], Any] | None = None, against: Mapping[Hashable, Mapping[Hashable, float]]
              | None = None, alpha: float = ALPHA, family: int | None = None,
              order: Mapping[Hashable, Mapping[Hashable, float]] | None = None) -> list[Standing]:
    """Every student with a score, each placed only as far as the claims allow (see the module docstring): by place
    range (its first place, then its last), then best mean first, then `tiebreak(student)` (smallest first).

    `against`: the scores the students are compared on (default `scores`; the record compares each game's figure
    less what the deal gave the seat, which is the same on a shared deal and steadier across deals); `family`: the
    class size the pairs are counted over (default: the students with scores); `order`: when each student's games
    were played (student -> key -> a number; default their order in `scores`); `ranges`: each student's range of
    the expected value of their mean, to which the interval shown is cut (`clip`).
    """
    students = [s for s in scores if scores[s]]
    compared = scores if against is None else against
    comparisons, claimed = claims({s: compared.get(s, {}) for s in students}, alpha, family, order)
    size = max(len(students), family or 0)
    next_level = alpha / max(1, size * (size - 1) // 2 - len(claimed))
    above: dict[Hashable, list[Hashable]] = {s: [] for s in students}
    below: dict[Hashable, list[Hashable]] = {s: [] for s in students}
    level: dict[Hashable, list[Hashable]] = {s: [] for s in students}
    evidence: dict[Hashable, dict[Hashable, Comparison]] = {s: {} for s in students}
    for (a, b), c in comparisons.items():
        evidence[a][b], evidence[b][a] = c, c.flipped()
        if (a, b) in claimed and c.lean is not None:
            top, bottom = (a, b) if c.lean == "a" else (b, a)
            above[top].append(bottom)
            below[bottom].append(top)
        else:
            level[a].append(b)
            level[b].append(a)
    rows = []
    for s in students:
        mean, low, high = mean_sequence(list(scores[s].values()), alpha / max(1, size))
        if ranges is not None and s in ranges:
            low, high = clip(low, high, *ranges[s])
        n = len(scores[s])
        rows.append(Standing(s, n, mean, low, high, n < provisional, 1 + len(below[s]),
                             len(students) - len(above[s]), tuple(level[s]), tuple(above[s]), tuple(below[s]),
                             evidence[s], next_level))
    rows.sort(key=lambda r: (r.first, r.last, -(r.mean or 0.0), () if tiebreak is None else tiebreak(r.student)))
    return rows
