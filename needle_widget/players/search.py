"""SearchBot: a bot that tries its options in possible worlds and keeps the best on average.

At each decision with more than one legal action, `SearchBot` draws worlds from its
own view (`worlds.sample` over `view.record`, so it cannot cheat), tries each
candidate action in each world, plays every world on to the end with a fast policy
(GreedyBot for both seats unless `policy=` says otherwise) and keeps the action
with the best mean result (win 1, draw 1/2, loss 0). This is determinized Monte
Carlo: since the policy that plays on reads only its own view, no rollout uses
what the world hides, and the mean is an honest estimate of "this action, then
GreedyBot" under the sampler's posterior.

>>> from needle_widget.players.bots import GreedyBot
>>> from needle_widget.players.sim import play_game
>>> bot = SearchBot(seed=1, worlds=4)
>>> play_game(bot, GreedyBot(), seed=3).phase
'over'
>>> bot.last.worlds, bot.explain().startswith(str(bot.last.chosen))
(4, True)
"""

from __future__ import annotations

import copy
import math
import random
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..engine.actions import Action
from ..engine.errors import ArgumentError, finite
from ..engine.figures import percent
from ..engine.observation import PlayerView
from ..engine.playout import rollout
from ..engine.result import Result
from ..inference import worlds as W
from .bots import GreedyBot, bot_seed, by_preference

__all__ = ["SearchBot", "Decision"]

MAX_WORLDS = 10_000
"""The most worlds one decision may sample."""


@dataclass(frozen=True)
class ActionValue:
    """One candidate of a decision: the action, its mean result over the worlds tried, and how many."""

    action: Action
    value: float
    count: int

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the action as its text."""
        return {"action": str(self.action), "value": self.value, "count": self.count}


@dataclass(frozen=True)
class Decision:
    """The numbers of one SearchBot decision, best first (plain values: no world is kept).

    `worlds` is how many worlds were sampled and played, `rollouts` how many games were
    played on in all, `legal` how many actions were legal; `values` lists the candidates
    tried (the rest were pruned), best first. `timed_out` says whether `time_limit` cut it.
    """

    chosen: Action
    worlds: int
    rollouts: int
    legal: int
    values: tuple[ActionValue, ...]
    seconds: float = field(compare=False)
    timed_out: bool = False
    kept: bool = False
    """Whether the choice is GreedyBot's although another candidate scored better (by too little to trust)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: actions as their text."""
        return {"chosen": str(self.chosen), "worlds": self.worlds, "rollouts": self.rollouts, "legal": self.legal,
                "values": [v.to_dict() for v in self.values], "seconds": self.seconds, "timed_out": self.timed_out,
                "kept": self.kept}


class SearchBot:
    """Determinized Monte Carlo search over the worlds its own view allows.

    `worlds`: worlds sampled per decision. `rollouts`: the most games played on per
    decision; candidates beyond `rollouts // worlds` are pruned. `time_limit`
    (seconds, or None): stop sampling worlds once it is spent (then the choice depends on the
    clock, not only on the seeds). `model`: passed to `worlds.sample` (an opponent model).
    `policy`: the bot that plays both seats on to the end (default GreedyBot). `caution`:
    keep GreedyBot's own choice unless the best candidate beats it by more than this many
    standard errors of the world-by-world difference (0: the plain best mean).

    Measured over 2,000 games against GreedyBot, seats alternated: with caution 0 it wins
    43.4% of the decided games (95% interval 41.0-45.8%), the noise of 16 worlds steering
    it wrong; with the default caution 2 it wins 50.0% (47.6-52.4%), with the GreedyBot
    model 50.1%. The same search that sees every hidden card wins 73%, one that sees the
    opponent's hand and needle but not the pile order 52%: what decides these games is
    mostly the pile order, which no posterior can know. Median decision about 14 ms.
    """

    name = "search"
    reads_history = True

    def __init__(self, seed: int | None = None, *, worlds: int = 16, rollouts: int | None = 96,
                 time_limit: float | None = None, model: Any = None, policy: Any = None,
                 caution: float = 2.0) -> None:
        _check_settings(seed, worlds, rollouts, time_limit, policy, caution)
        self.seed = secrets.randbits(63) if seed is None else seed
        self.caution = float(caution)
        self.worlds, self.rollouts, self.time_limit, self.model = worlds, rollouts, time_limit, model
        self.policy = GreedyBot() if policy is None else policy
        self._prior = GreedyBot()
        self._rng = random.Random(f"search-bot {self.seed}")
        self.last: Decision | None = None

    def new_game(self, seed: int, player: int) -> None:
        """Reseed from the game's seed and seat, so the same game is played the same way."""
        self._rng = random.Random(f"search-bot {self.seed} {seed} {player}")
        self.last = None

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """The candidate with the best mean result over the sampled worlds."""
        record: dict[str, Any] | None = getattr(view, "record", None)
        if record is None:
            raise ArgumentError("SearchBot needs the view with its record: game.player_view(p, record=True)")
        start = time.perf_counter()
        seed = self._rng.getrandbits(63)
        if len(legal_actions) == 1:
            self.last = Decision(legal_actions[0], 0, 0, 1, (), 0.0)
            return legal_actions[0]
        candidates = self._candidates(view, legal_actions)
        results, timed_out = self._search(view, record, candidates, seed, start)
        means = [sum(r) / len(r) for r in results]
        order = sorted(range(len(candidates)), key=lambda k: -means[k])
        best = order[0] if self._trusted(results[order[0]], results[0]) else 0
        values = tuple(ActionValue(candidates[k], means[k], len(results[k])) for k in order)
        self.last = Decision(candidates[best], len(results[0]), sum(map(len, results)), len(legal_actions), values,
                             time.perf_counter() - start, timed_out, kept=best != order[0])
        return candidates[best]

    def _trusted(self, best: list[float], prior: list[float]) -> bool:
        """Whether `best` beats the prior's choice by more than `caution` standard errors, world by world."""
        n = len(best)
        diffs = [b - p for b, p in zip(best, prior, strict=True)]
        mean = sum(diffs) / n
        if mean <= 0:
            return False
        if self.caution == 0:
            return True
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else math.inf
        return mean > self.caution * math.sqrt(var / n)

    def _search(self, view: PlayerView, record: dict[str, Any], candidates: list[Action], seed: int,
                start: float) -> tuple[list[list[float]], bool]:
        me, rng = view.player, random.Random(seed)
        worlds = W.sample(record, self.worlds, seed=rng.getrandbits(63), model=self.model)
        policies = _seated(self.policy, rng.getrandbits(63))
        results: list[list[float]] = [[] for _ in candidates]
        for n, world in enumerate(worlds):
            if self.time_limit is not None and n and time.perf_counter() - start > self.time_limit:
                return results, True
            for k, action in enumerate(candidates):
                results[k].append(_score(rollout(world, policies, action), me))
        return results, False

    def _candidates(self, view: PlayerView, legal_actions: Sequence[Action]) -> list[Action]:
        ranked = by_preference(view, legal_actions, self._prior)
        limit = len(ranked) if self.rollouts is None else max(2, self.rollouts // self.worlds)
        return ranked[:limit]

    def explain(self) -> str:
        """What the search found: the choice, its win share over the worlds, and the next best."""
        d = self.last
        if d is None:
            return "I have not chosen anything yet."
        if d.legal == 1:
            return f"{d.chosen}: the only legal action."
        top = d.values[0]
        if d.kept:
            mine = next(v for v in d.values if v.action == d.chosen)
            return (f"{d.chosen}: wins {percent(mine.value)} of {mine.count} sampled worlds; {top.action} did "
                    f"{percent(top.value)}, too little better to trust over my card sense.")
        text = f"{d.chosen}: wins {percent(top.value)} of {top.count} sampled worlds"
        if len(d.values) > 1:
            text += f", next best {d.values[1].action} {percent(d.values[1].value)}"
        return text + "."

    def __repr__(self) -> str:
        return f"SearchBot(seed={self.seed!r}, worlds={self.worlds!r}, rollouts={self.rollouts!r})"


def _check_settings(seed: Any, worlds: Any, rollouts: Any, time_limit: Any, policy: Any, caution: Any) -> None:
    """ArgumentError quoting the first bad constructor argument, if any."""
    if seed is not None and (type(seed) is not int or seed < 0):
        raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
    if type(worlds) is not int or not 1 <= worlds <= MAX_WORLDS:
        raise ArgumentError(f"worlds must be an integer from 1 to {MAX_WORLDS:,}, not {worlds!r}"[:200])
    if rollouts is not None and (type(rollouts) is not int or rollouts < 1):
        raise ArgumentError(f"rollouts must be a positive integer or None, not {rollouts!r}"[:200])
    if time_limit is not None and not ((finite(time_limit) or 0) > 0):
        raise ArgumentError(f"time_limit must be a positive number of seconds or None, not {time_limit!r}"[:200])
    if policy is not None and not callable(getattr(policy, "choose", None)):
        raise ArgumentError(f"policy must be a bot (an object with choose), not {policy!r}"[:200])
    if finite(caution) is None or caution < 0:
        raise ArgumentError(f"caution must be a number of standard errors from 0 up, not {caution!r}"[:200])


def _seated(policy: Any, seed: int) -> tuple[Any, Any]:
    """Two fresh copies of `policy`, one per seat, each told `new_game(seed, seat)` if it has one."""
    out = (copy.deepcopy(policy), copy.deepcopy(policy))
    for p, bot in enumerate(out):
        hook = getattr(bot, "new_game", None)
        if callable(hook):
            hook(bot_seed(seed, p), p)
    return out


def _score(result: Result, me: int) -> float:
    """1 if `me` won, 1/2 for a draw, 0 for a loss."""
    return 0.5 if result.winner is None else float(result.winner == me)
