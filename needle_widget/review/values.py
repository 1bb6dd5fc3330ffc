"""Valuing a position from a seat's view: every candidate on the same worlds, with the same luck.

`value_decision(view, chosen, settings, key)` samples worlds from the seat's view alone
(`worlds.sample`, with the opponent model if one is given), plays every candidate action in every
world and then the game to its end with the rollout policy on both seats, and keeps each game's
score for the seat (win 1, draw 1/2, loss 0). Common random numbers: each candidate starts from a
copy of the same world, with the same generator state (so the same reshuffles and steals where the
game allows) and freshly seated policies, so the differences between candidates are measured on the
same luck.

Each world's seed comes from the review's seed, the seat and the step (`key`), never from the
game: two games the seat cannot tell apart get the same worlds.
"""

from __future__ import annotations

import copy
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.game import Game
from ..engine.playout import is_trusted, rollout, rollouts
from ..engine.result import Result
from ..inference import worlds as W
from ..players.bots import GreedyBot, bot_seed, by_preference

__all__ = ["NEEDLE_CANDIDATES", "SCREEN", "Settings", "Valuation", "mean", "sampled", "score", "std_error",
           "value_decision",
           "value_now"]

SCREEN = {"needle": 5, "discard": 5}
"""How many of GreedyBot's favourites (`bots.by_preference`) the review values in a phase, besides the
chosen action: a needle pick has 45 legal cards and a discard up to 8; a draw (2) and the sets (a few) are
valued in full."""
NEEDLE_CANDIDATES = SCREEN["needle"]


@dataclass(frozen=True)
class Settings:
    """How a review values positions: worlds per decision, the review's seed, the opponent model for the
    worlds (None: uniform over the worlds the view allows) and the rollout policy (both seats).
    """

    worlds: int
    seed: int
    model: Any = None
    policy: Any = None
    more: int = 0
    """A decision whose mark is in doubt (`review`) is valued on `more` times as many worlds again."""
    ledger: bool = False
    """Value only what the ledger needs: the chosen action and the rollout policy's (no marks worth reading)."""
    thresholds: tuple[float, float, float] | None = None
    """The marks' thresholds (win chance: inaccuracy, mistake, blunder); None: `marks.THRESHOLDS`."""


@dataclass(frozen=True)
class Valuation:
    """The scores of every candidate in every world: `rows[k][w]` for candidate k in world w.

    `reference` is the row of "play on as the rollout policy would" (the policy's own choice when
    it is deterministic and trusted, else plain play-outs, in `extra`), `chosen` the chosen action's.
    """

    candidates: tuple[Action, ...]
    rows: tuple[tuple[float, ...], ...]
    chosen: int
    reference: tuple[float, ...]

    @property
    def worlds(self) -> int:
        """How many worlds every candidate was played in."""
        return len(self.reference)


def score(result: Result, seat: int) -> float:
    """1 if `seat` won, 1/2 for a draw, 0 for a loss."""
    return 0.5 if result.winner is None else float(result.winner == seat)


def mean(xs: Sequence[float]) -> float:
    """The plain mean."""
    return math.fsum(xs) / len(xs)


def std_error(xs: Sequence[float]) -> float:
    """The standard error of the mean of `xs` (0 for fewer than two)."""
    n = len(xs)
    if n < 2:
        return 0.0
    m = mean(xs)
    return math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1) / n)


def sampled(view: dict[str, Any], settings: Settings, key: str, n: int | None = None) -> list[Game]:
    """The worlds a decision is valued on: `settings.worlds` of them (or `n`), from a seed of the review's seed
    and `key` alone. Without an opponent model, fewer of the same seed are the first of them (`worlds.sample`
    draws them in turn); with one, not (the particle filter runs on all of them): draw all, then take a part.
    """
    seed = random.Random(f"needle review {settings.seed} {key}").getrandbits(63)
    return W.sample(view, n or settings.worlds, seed=seed, model=settings.model)


def _policies(settings: Settings, world: Game) -> tuple[Any, Any]:
    """The rollout policy for both seats: GreedyBot (stateless on the trusted path, shared), or fresh copies
    of the given policy told `new_game(world seed, seat)`, the same for every candidate in a world.
    """
    policy = settings.policy
    if policy is None:
        return _GREEDY
    out = (copy.deepcopy(policy), copy.deepcopy(policy))
    for p, bot in enumerate(out):
        hook = getattr(bot, "new_game", None)
        if callable(hook):
            hook(bot_seed(world.seed, p), p)
    return out


_GREEDY = (GreedyBot(), GreedyBot())


def _candidates(world: Game, seat: int, chosen: Action) -> list[Action]:
    legal = world.legal_actions()
    most = SCREEN.get(world.phase)
    if most is None or len(legal) <= most:
        return legal
    ranked = by_preference(world.player_view(seat), legal)[:most]
    return ranked + [chosen] * (chosen not in ranked)


def value_decision(view: dict[str, Any], chosen: Action, settings: Settings, key: str,
                   n: int | None = None, *, worlds: Sequence[Game] | None = None,
                   candidates: Sequence[Action] | None = None) -> Valuation:
    """Every candidate at a decision of `view`'s seat, valued on the same worlds (see the module docstring):
    `settings.worlds` of them, or `n`, or the `worlds` given (`sampled`); `candidates`: the actions to value
    (by default those of the first world, `_candidates`; the rollout policy's choice is added if missing).
    """
    seat = view["perspective"]
    if worlds is None:
        worlds = sampled(view, settings, key, n)
    if candidates is not None:
        candidates = list(candidates)
    else:
        candidates = [chosen] if settings.ledger else _candidates(worlds[0], seat, chosen)
    policy = settings.policy or _GREEDY[0]
    rows: list[list[float]] = [[] for _ in candidates]
    trusted = is_trusted(policy)
    extra: list[float] = []
    roll = rollouts(_GREEDY) if settings.policy is None else None  # stateless: one pair for every rollout
    for world in worlds:
        for k, action in enumerate(candidates):  # else fresh policies for each, as `_policies` tells them
            result = roll(world, action) if roll is not None else rollout(world, _policies(settings, world), action)
            rows[k].append(score(result, seat))
        if not trusted:
            extra.append(score(rollout(world, _policies(settings, world)), seat))
    if settings.ledger and not trusted:
        return Valuation(tuple(candidates), tuple(map(tuple, rows)), 0, tuple(extra))
    if trusted:
        ref = policy.choose_trusted(worlds[0].player_view(seat))
        if ref not in candidates:
            candidates.append(ref)
            rows.append([score(rollout(w, _policies(settings, w), ref), seat) for w in worlds])
        extra = rows[candidates.index(ref)]
    return Valuation(tuple(candidates), tuple(map(tuple, rows)), candidates.index(chosen), tuple(extra))


def value_now(view: dict[str, Any], settings: Settings, key: str) -> tuple[float, ...]:
    """The seat's score in each world when both seats play on as the rollout policy would, from `view`."""
    seat = view["perspective"]
    return tuple(score(rollout(w, _policies(settings, w)), seat) for w in sampled(view, settings, key))
