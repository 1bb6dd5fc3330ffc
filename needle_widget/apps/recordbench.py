"""`needle-widget bench record`: does the class's record tell skill from luck, and how many deals does it need?

Simulated students of known strength (`players.noisy.NoisyBot`: GreedyBot with a share of random moves) each
play a pool of deals against the room's bot (GreedyBot), the seat alternating from deal to deal, every
student the same deals from the same seats, as a challenge gives them. Every game goes through the room's own
record (`classroom.record.Record`: its entries, the figures of `seat_figures` at the record's budget, and its
standings). Classes are then drawn from the pool: `deals` deals at random for each, all students on them.

For each class size the bench reports, over the pairs of students of different strength, how often the board
orders a pair rightly, wrongly, or leaves it level, by luck-adjusted score and by raw results on the same games;
and for 0% against each other share, the deals needed before the board orders the pair in 80% of classes.
"""

from __future__ import annotations

import itertools
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

from ..classroom.record import RECORD_WORLDS, FinishedGame, Record, seat_figures
from ..players import sim
from ..players.bots import GreedyBot
from ..players.noisy import NoisyBot
from ..review.standings import compare

__all__ = ["SHARES", "Pool", "play_pool", "orderings", "deals_needed", "record_figures"]

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


def _class(scores: dict[int, dict[tuple[str, int], float]], keys: set[tuple[str, int]]) -> dict[int, dict]:
    return {s: {k: v for k, v in mine.items() if k in keys} for s, mine in scores.items()}


def orderings(pool: Pool, deals: int, classes: int, field: str = "adjusted", seed: int = 0,
              paired: bool = True) -> dict[str, int]:
    """Over `classes` classes of `deals` deals drawn from the pool: the pairs of students of different strength the
    board orders rightly, wrongly, or leaves level. `paired=False` gives the two students of a pair different deals
    (as students at different tables of a match hold), so they are compared unpaired.
    """
    rng = random.Random(seed)
    scores = pool.scores(field)
    all_keys = sorted({k for mine in scores.values() for k in mine})
    out = {"right": 0, "wrong": 0, "level": 0}
    for _ in range(classes):
        for a, b in itertools.combinations(range(len(pool.shares)), 2):
            if pool.shares[a] == pool.shares[b]:
                continue
            if paired:
                keys = set(rng.sample(all_keys, deals))
                mine, theirs = _class(scores, keys)[a], _class(scores, keys)[b]
            else:
                drawn = rng.sample(all_keys, 2 * deals)
                mine = {k: scores[a][k] for k in drawn[:deals]}
                theirs = {k: scores[b][k] for k in drawn[deals:]}
            verdict = compare(mine, theirs).verdict
            better = "a" if pool.shares[a] < pool.shares[b] else "b"
            out["level" if verdict == "level" else "right" if verdict == better else "wrong"] += 1
    return out


def deals_needed(pool: Pool, a: int, b: int, field: str = "adjusted", share: float = 0.8, classes: int = 200,
                 seed: int = 0) -> int | None:
    """The fewest deals (2, 3, ...) at which the board orders students `a` and `b` rightly in `share` of `classes`
    classes drawn from the pool; None if the pool's deals are not enough.
    """
    scores = pool.scores(field)
    keys = sorted({k for mine in scores.values() for k in mine})
    better = "a" if pool.shares[a] < pool.shares[b] else "b"
    for deals in range(2, len(keys) + 1):
        rng = random.Random(seed)
        right = 0
        for _ in range(classes):
            drawn = set(rng.sample(keys, deals))
            right += compare(_class(scores, drawn)[a], _class(scores, drawn)[b]).verdict == better
        if right >= share * classes:
            return deals
    return None


def record_figures(deals: int = 200, worlds: int = RECORD_WORLDS, classes: int = 400, seed: int = 0,
                   executor: Executor | None = None, out: Callable[[str], None] = print) -> Pool:
    """Print the bench's figures (see the module docstring) and return the pool."""
    out(f"playing and reviewing {len(SHARES)} simulated students x {deals} deals at {worlds} worlds a decision…")
    pool = play_pool(SHARES, deals, seed, worlds, executor)
    games = len(pool.record)
    out(f"  {games} games in {pool.seconds:.1f} s: {pool.seconds / games * 1000:.0f} ms a game (play and review)")
    for size in (1, 4, 8, 16, 32):
        if size > deals:
            continue
        line = [f"classes of {size:2d} deals:"]
        for field, name in (("adjusted", "luck-adjusted"), ("result", "raw")):
            o = orderings(pool, size, classes, field, seed)
            total = sum(o.values())
            ordered = o["right"] + o["wrong"]
            right = o["right"] / ordered if ordered else float("nan")
            line.append(f"{name}: right {o['right'] / total:.0%}, wrong {o['wrong'] / total:.0%}, level "
                        f"{o['level'] / total:.0%} (of the ordered, {right:.1%} right)")
        out("  " + "; ".join(line))
    for b in range(1, len(SHARES)):
        adjusted = deals_needed(pool, 0, b, "adjusted", classes=classes // 2, seed=seed)
        raw = deals_needed(pool, 0, b, "result", classes=classes // 2, seed=seed)
        out(f"  0% against {SHARES[b]:.0%} random moves ordered in 80% of classes after: luck-adjusted "
            f"{adjusted or f'more than {deals}'} deals, raw results {raw or f'more than {deals}'} deals")
    return pool
