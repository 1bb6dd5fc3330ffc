"""`needle-widget bench record`: does the class's record claim only what holds, tell skill from luck, and how many
deals does it need?

**False claims.** Equally strong simulated students (`ClassPool`: NoisyBot with a quarter of its moves random, in
pairs, every deal played `games` times) play a term of duplicate matches of 8 deals, seated as `classroom.match`
seats them, every game through the room's own `Record` (its entries, the pool's figures, its standings). Any order
the board shows between them is false. `false_claims` reports in how many classes of each size the board showed
one at any moment of the term: the standings' claims never go away (their evidence is the largest reached), so the
claims at the end of a term are every claim made in it.

**Deals needed.** Simulated students of known strength (`players.noisy.NoisyBot`: GreedyBot with a share of random
moves) each play a pool of deals against the room's bot (GreedyBot), the seat alternating from deal to deal, every
student the same deals from the same seats, as a challenge gives them. Every game goes through the room's own
record (`classroom.record.Record`: its entries, the figures of `seat_figures` at the record's budget, and its
standings). Classes are then drawn from the pool: `deals` deals at random for each, all students on them.

The bench reports, over the pairs of students of different strength, how often the board orders a pair on its
own rightly, wrongly, or leaves it level, by luck-adjusted score and by raw results on the same games; and for 0%
against each other share, the deals needed before the board orders the pair in 80% of classes, in classes of 2, 4,
8, 16 and 30 students whose other students are level (`class_level`: the hardest case).
"""

from __future__ import annotations

import itertools
import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..classroom.record import RECORD_WORLDS, FinishedGame, Record, RecordEntry, seat_figures
from ..players import sim
from ..players.bots import GreedyBot
from ..players.noisy import NoisyBot
from ..review.standings import ALPHA, claims, compare, mean_interval, t95
from ..review.values import score

__all__ = ["SHARES", "Pool", "ClassPool", "play_pool", "play_class_pool", "term", "false_claims", "orderings",
           "deals_needed", "record_figures", "MATCH_DEALS", "CLASS_SIZES", "TERMS"]

MATCH_DEALS = 8
"""The deals of each match of a simulated term."""
CLASS_SIZES = (4, 8, 16, 30)
TERMS = (8, 16, 40)
"""Deals in a term (a match of 8 deals, two, five)."""

SHARES = (0.0, 0.25, 0.5, 1.0)
"""The simulated students: shares of random moves (0: GreedyBot; 1: random)."""


@dataclass
class Pool:
    """Every simulated student's game of every deal, through a `Record`; `scores(field)` as the record has them."""

    shares: tuple[float, ...]
    deals: int
    record: Record
    seconds: float
    """Wall time of playing and reviewing the pool."""

    def scores(self, field: str = "adjusted") -> dict[int, dict[tuple[str, int], float]]:
        """Student (index in `shares`) -> (deal, seat) -> `field`."""
        return self.record.scores(field)


def _figures(args: tuple[dict[str, Any], int, int]) -> tuple[float, float, float]:
    return seat_figures(args[0], args[1], args[2])


def play_pool(shares: Sequence[float] = SHARES, deals: int = 48, seed: int = 0, worlds: int = RECORD_WORLDS,
              executor: Executor | None = None) -> Pool:
    """Each of `shares` plays `deals` deals (seeds `seed`, `seed + 1`, ...) against GreedyBot, at seat k % 2 on deal
    k; every game recorded and reviewed at `worlds` (on `executor` if given).
    """
    start = time.perf_counter()
    record = Record(worlds=worlds)
    jobs = []
    for k in range(deals):
        seat = k % 2
        for student, share in enumerate(shares):
            me = NoisyBot(share, seed=seed * 1000 + student)
            bot0, bot1 = (me, GreedyBot()) if seat == 0 else (GreedyBot(), me)
            game = sim.play_game(bot0, bot1, seed=seed + k)
            replay = game.replay()
            seats = (student, None) if seat == 0 else (None, student)
            entry, = record.add(FinishedGame(f"deal {k}/student {student}", f"deal {k}", replay, seats, "greedy"))
            jobs.append((entry, (replay.to_dict(), seat, worlds)))
    results = executor.map(_figures, [a for _, a in jobs]) if executor else map(_figures, [a for _, a in jobs])
    for (entry, _), (adjusted, skill, luck) in zip(jobs, results, strict=True):
        entry.adjusted, entry.skill, entry.luck = adjusted, skill, luck
    return Pool(tuple(shares), deals, record, time.perf_counter() - start)


@dataclass
class ClassPool:
    """Equally strong students' games: `games[k][g]` is the g-th game of deal k, each seat's (luck-adjusted score,
    skill, luck, result, margin), two NoisyBot(`share`) playing it, reviewed at `worlds`.
    """

    share: float
    worlds: int
    seed: int
    games: list[list[tuple[tuple[float, float, float, float, int], ...]]]
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (tests/data/class_pool.json)."""
        return {"share": self.share, "worlds": self.worlds, "seed": self.seed, "games": self.games}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> ClassPool:
        """The inverse of `to_dict`."""
        games = [[tuple(tuple(seat) for seat in game) for game in deal] for deal in data["games"]]
        return cls(data["share"], data["worlds"], data["seed"], games)


def _class_game(args: tuple[int, int, float, int, int]) -> tuple[tuple[float, float, float, float, int], ...]:
    k, g, share, seed, worlds = args
    first = seed * 100_000 + k * 100 + 2 * g
    bots = NoisyBot(share, seed=first), NoisyBot(share, seed=first + 1)
    game = sim.play_game(bots[0], bots[1], seed=seed + k)
    result = game.result
    assert result is not None
    replay = game.replay().to_dict()
    out = []
    for seat in (0, 1):
        adjusted, skill, luck = seat_figures(replay, seat, worlds)
        out.append((adjusted, skill, luck, score(result, seat), result.scores[seat] - result.scores[1 - seat]))
    return tuple(out)


def play_class_pool(deals: int = 48, games: int = 16, share: float = 0.25, worlds: int = RECORD_WORLDS, seed: int = 0,
                    executor: Executor | None = None, first: int = 0) -> ClassPool:
    """Deals `first`..`deals - 1` (seeds `seed + k`), each played `games` times by two NoisyBot(`share`), both seats
    reviewed at `worlds` (on `executor` if given).
    """
    start = time.perf_counter()
    jobs = [(k, g, share, seed, worlds) for k in range(first, deals) for g in range(games)]
    done = list(executor.map(_class_game, jobs) if executor else map(_class_game, jobs))
    table = [done[i:i + games] for i in range(0, len(done), games)]
    return ClassPool(share, worlds, seed, table, time.perf_counter() - start)


def term(pool: ClassPool, size: int, deals: int, seed: int, match_deals: int = MATCH_DEALS) -> Record:
    """A class of `size` equally strong students (an even number) over a term of `deals` deals: matches of
    `match_deals` deals, each table of `classroom.match`'s seating (students 2t and 2t + 1, the seats swapped when
    t + round is odd), each deal drawn from the pool (no deal twice in a term) with a game of it for each table (no
    game twice in a deal); the tables finish each round in a random order. Every game is an entry of one `Record`.
    """
    rng = random.Random(seed)
    chosen = rng.sample(range(len(pool.games)), deals)
    record = Record(worlds=pool.worlds)
    number = 0
    for r, k in enumerate(chosen):
        match, rnd = divmod(r, match_deals)
        deal = f"match {match + 1} · deal {rnd + 1}"
        tables = list(range(size // 2))
        picks = rng.sample(range(len(pool.games[k])), len(tables))
        rng.shuffle(tables)
        for t in tables:
            game = pool.games[k][picks[t]]
            number += 1
            source = f"match {match + 1}/table {t + 1}/deal {rnd + 1}"
            record.games[source] = number
            swapped = (t + rnd) % 2 == 1
            for seat in (0, 1):
                student = 2 * t + (1 - seat if swapped else seat)
                opponent = 2 * t + (seat if swapped else 1 - seat)
                adjusted, skill, luck, result, margin = game[seat]
                record.entries.append(RecordEntry(number, source, deal, student, seat, opponent, None, result, margin,
                                                  False, adjusted, skill, luck))
    return record


def false_claims(pool: ClassPool, size: int, deals: int, classes: int, seed: int = 0, field: str = "adjusted",
                 earlier: bool = False) -> int:
    """In how many of `classes` simulated terms (`term`) the board showed an order between the equally strong
    students at any moment: by `field` ("adjusted" or "result"), the claims at the end of the term (they never go
    away). `earlier=True`: by the rule before issue 46 (each pair's 95% t interval, looked at after every deal).
    """
    out = 0
    for c in range(classes):
        record = term(pool, size, deals, seed * 1_000_003 + c)
        if earlier:
            out += _earlier_claims(record, size, deals, field)
        else:
            out += bool(_claims(record, size, field))
    return out


def _claims(record: Record, size: int, field: str) -> set[tuple[int, int]]:
    """The pairs the record's standings claim for a class of `size` (`review.standings.claims`, as `Record.standings`
    makes them, without each student's interval, which no claim uses).
    """
    _, claimed = claims(record.compared(field), family=size, order=record.order())
    return claimed


def _earlier_claims(record: Record, size: int, deals: int, field: str) -> bool:
    entries = record.entries
    per_deal = len(entries) // deals
    for look in range(1, deals + 1):
        scores = Record(entries[:look * per_deal], record.games, record.worlds).scores(field)
        for a in range(size):
            for b in range(a + 1, size):
                if _earlier_verdict(scores.get(a, {}), scores.get(b, {})) != "level":
                    return True
    return False


def _earlier_verdict(mine: dict, theirs: dict) -> str:
    """The rule before issue 46: the 95% t interval of the paired differences (3 shared deals or more), else Welch's
    interval of the two means; "a" or "b" where it leaves out 0.
    """
    shared = [k for k in mine if k in theirs]
    if len(shared) >= 3:
        _, low, high = mean_interval([mine[k] - theirs[k] for k in shared])
    elif len(mine) >= 2 and len(theirs) >= 2:
        low, high = _welch(list(mine.values()), list(theirs.values()))
    else:
        return "level"
    return "a" if low is not None and low > 0 else "b" if high is not None and high < 0 else "level"


def _welch(x: list[float], y: list[float]) -> tuple[float, float]:
    mx, my = sum(x) / len(x), sum(y) / len(y)
    sx = sum((v - mx) ** 2 for v in x) / (len(x) - 1) / len(x)
    sy = sum((v - my) ** 2 for v in y) / (len(y) - 1) / len(y)
    if sx + sy == 0:
        return mx - my, mx - my
    df = (sx + sy) ** 2 / (sx * sx / (len(x) - 1) + sy * sy / (len(y) - 1))
    half = t95(df) * math.sqrt(sx + sy)
    return mx - my - half, mx - my + half


def class_level(size: int) -> float:
    """The level a pair's claim must reach in a class of `size` whose other students are all level: Holm's first
    step, ALPHA over the class's pairs (the hardest case; each claim made lowers the next one's bar).
    """
    return ALPHA / max(1, size * (size - 1) // 2)


def _verdict(mine: dict, theirs: dict, level: float, earlier: bool) -> str:
    return _earlier_verdict(mine, theirs) if earlier else compare(mine, theirs, level).verdict


def orderings(pool: Pool, deals: int, classes: int, field: str = "adjusted", seed: int = 0, size: int = 2,
              earlier: bool = False) -> dict[str, int]:
    """Over `classes` classes of `deals` deals drawn from the pool (every student on the same deals from the same
    seats): the pairs of students of different strength the board orders rightly, wrongly, or leaves level, each at
    `class_level(size)`. `earlier=True`: by the rule before issue 46 (each pair's 95% t interval, one look).
    """
    rng = random.Random(seed)
    scores = pool.record.compared(field)
    all_keys = sorted({k for mine in scores.values() for k in mine})
    out = {"right": 0, "wrong": 0, "level": 0}
    for _ in range(classes):
        keys = rng.sample(all_keys, deals)
        for a, b in itertools.combinations(range(len(pool.shares)), 2):
            if pool.shares[a] == pool.shares[b]:
                continue
            mine, theirs = ({k: scores[s][k] for k in keys} for s in (a, b))
            verdict = _verdict(mine, theirs, class_level(size), earlier)
            better = "a" if pool.shares[a] < pool.shares[b] else "b"
            out["level" if verdict == "level" else "right" if verdict == better else "wrong"] += 1
    return out


def deals_needed(pool: Pool, a: int, b: int, field: str = "adjusted", share: float = 0.8, classes: int = 200,
                 seed: int = 0, size: int = 2, earlier: bool = False, most: int | None = None) -> int | None:
    """The fewest deals (2, 3, ...) at which the board orders students `a` and `b` rightly in `share` of `classes`
    classes drawn from the pool (the deals in the order drawn), in a class of `size` whose other students are level
    (`class_level`); None if the pool's deals (or `most`) are not enough. `earlier=True`: by the rule before issue
    46, looked at once.
    """
    scores = pool.record.compared(field)
    keys = sorted({k for mine in scores.values() for k in mine})
    better = "a" if pool.shares[a] < pool.shares[b] else "b"
    level = class_level(size)
    draws = [random.Random(seed * 7919 + c).sample(keys, min(len(keys), most or len(keys))) for c in range(classes)]
    for deals in range(2, (most or len(keys)) + 1):
        right = 0
        for drawn in draws:
            mine = {k: scores[a][k] for k in drawn[:deals]}
            theirs = {k: scores[b][k] for k in drawn[:deals]}
            right += _verdict(mine, theirs, level, earlier) == better
        if right >= share * classes:
            return deals
    return None


def record_figures(deals: int = 200, worlds: int = RECORD_WORLDS, classes: int = 400, seed: int = 0,
                   executor: Executor | None = None, out: Callable[[str], None] = print,
                   class_deals: int = 48, terms: int = 100) -> Pool:
    """Print the bench's figures (see the module docstring) and return the strength pool."""
    out(f"playing and reviewing equally strong students' games: {class_deals} deals x 16 games at {worlds} worlds…")
    equal = play_class_pool(class_deals, 16, worlds=worlds, seed=seed, executor=executor)
    out(f"  {class_deals * 16} games in {equal.seconds:.1f} s")
    out(f"false claims: classes of equally strong students in which the board showed an order at any moment of "
        f"the term, looked at after every game ({terms} terms each; at most {ALPHA:.0%} allowed):")
    for size in CLASS_SIZES:
        line = []
        for length in TERMS:
            if length <= class_deals:
                n = false_claims(equal, size, length, terms, seed)
                line.append(f"{length} deals {n} of {terms}")
        out(f"  {size:2d} students: " + ", ".join(line))
    out(f"playing and reviewing {len(SHARES)} simulated students x {deals} deals at {worlds} worlds a decision…")
    pool = play_pool(SHARES, deals, seed, worlds, executor)
    games = len(pool.record)
    out(f"  {games} games in {pool.seconds:.1f} s: {pool.seconds / games * 1000:.0f} ms a game (play and review)")
    for size in (1, 4, 8, 16, 32):
        if size > deals:
            continue
        parts = []
        for field, name in (("adjusted", "luck-adjusted"), ("result", "raw")):
            o = orderings(pool, size, classes, field, seed)
            total = sum(o.values())
            parts.append(f"{name}: right {o['right'] / total:.0%}, wrong {o['wrong'] / total:.0%}, level "
                         f"{o['level'] / total:.0%}")
        out(f"  one pair on {size} {'deal' if size == 1 else 'deals'}: " + "; ".join(parts))
    out("deals before the board orders 0% against each share of random moves in 80% of classes, in a class whose "
        "other students are level (the hardest case):")
    for b in range(1, len(SHARES)):
        for field, name, sizes in (("adjusted", "luck-adjusted", (2, *CLASS_SIZES)), ("result", "raw", (2, 8))):
            cells = []
            for size in sizes:
                needed = deals_needed(pool, 0, b, field, classes=classes // 2, seed=seed, size=size)
                cells.append(f"{size} students {needed or f'more than {deals}'}")
            out(f"  0% against {SHARES[b]:.0%}, {name}: " + ", ".join(cells))
    return pool
