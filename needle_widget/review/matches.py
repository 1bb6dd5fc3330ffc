"""Duplicate matches and luck-adjusted tournaments: bots compared with the luck of the deal taken out.

`tournament(bots, games, duplicate=True, luck_adjusted=True)` is `players.sim.round_robin` (every
parameter and row of it) with two ways of cutting the luck (docs/REVIEW.md, "Duplicate matches and
luck", has the method and the measured figures):

- `duplicate=True` plays every deal twice with the seats swapped: each bot gets each deal's good
  and bad cards once. The summary's 95% intervals take the deal as the unit.
- `luck_adjusted=True` reviews both seats of every game (`ledger`, the ledger of
  `review.review` at `review_worlds` worlds a decision) and scores each seat with the luck taken out:
  `adjusted = 1/2 + (start - other's start)/2 + skill - other's skill` (`match_score`). The rows
  keep each seat's ledger (`start1`, `skill1`, `luck1`, `luck_adjusted1`, ... and `adjusted1`).

Why both skills: a seat's review counts everything between its decisions as luck, and that
includes the opponent's choices; what the opponent gains by them the seat loses. So the seat's
`luck_adjusted` (its start value plus its own skill) leaves out half of a match: the opponent's
skill, which the opponent's own review measures. The match score counts both, and the two seats'
scores add up to 1, as results do.

>>> from needle_widget import bots
>>> t = tournament([bots.GreedyBot(), bots.OddsBot()], games=4, seed=3, duplicate=True, luck_adjusted=True,
...                review_worlds=4, progress=False)
>>> [(r["deal"], r["seed"], r["player1"]) for r in t.rows]
[(0, 3, 'greedy'), (0, 3, 'odds'), (1, 4, 'greedy'), (1, 4, 'odds')]
>>> all(abs(r["adjusted1"] + r["adjusted2"] - 1) < 1e-9 for r in t.rows)
True
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from ..engine.errors import ArgumentError, TournamentError, quote
from ..engine.game import Game
from ..engine.playout import is_trusted
from ..engine.rules import Rules
from ..inference.worlds import MAX_WORLDS
from ..players import sim
from ..players.bots import GreedyBot
from ..players.sim import RoundRobin
from ..records.replay import Replay
from .story import check_seat, seat_story
from .values import Settings, Valuation, mean, score, value_decision

__all__ = ["MATCH_WORLDS", "SeatLedger", "LuckScorer", "ledger", "match_score", "tournament"]

MATCH_WORLDS = 16
"""Worlds per decision in a luck-adjusted tournament's reviews. Measured (docs/REVIEW.md, "Duplicate matches
and luck"): the luck-adjusted score's noise is almost all the reviews' (its variance falls as 1/worlds),
and 16 worlds gave the most precision per second of the budgets tried; any budget is as unbiased."""

LUCK_CHUNK = 2
"""Games per chunk of a luck-adjusted tournament (a game's reviews take a good fraction of a second)."""


@dataclass(frozen=True)
class SeatLedger:
    """One seat's ledger of a finished game, as its review has it: `start` (the value of its first
    decision, played as the rollout policy would), `skill` (the sum of its decisions' skill) and
    `end` (its result: win 1, draw 1/2, loss 0).
    """

    seat: int
    start: float
    skill: float
    end: float
    valued: int
    """How many of the seat's decisions were valued (the others' skill is 0 without valuing them)."""
    valuations: Mapping[int, Valuation] = field(default_factory=dict, repr=False, compare=False)
    """Those decisions' valuations by step: the very ones the review makes of them (`review(known=...)`)."""

    @property
    def luck_adjusted(self) -> float:
        """The result with the luck taken out: `start + skill` (= the review's `luck_adjusted`)."""
        return self.start + self.skill

    @property
    def luck(self) -> float:
        """The sum of the luck terms: `end - luck_adjusted` (= the review's `luck_total`)."""
        return self.end - self.luck_adjusted


def ledger(replay: Replay, seat: int, *, worlds: int, seed: int, model: Any = None,
           policy: Any = None) -> SeatLedger:
    """The ledger of `review.review(replay, seat, worlds=, seed=, model=, policy=)` for a finished game,
    at a fraction of its cost: with a trusted rollout policy (GreedyBot, the default) a decision where
    the seat chose what the policy chooses has skill exactly 0 (both are the same row of values), so
    only the seat's first decision (for the start value) and the decisions where it chose otherwise
    are valued, each exactly as the review values it (the same worlds, the same seeds).

    >>> from needle_widget import examples
    >>> from needle_widget.review import review
    >>> replay = examples.load("found_early")
    >>> fast, full = ledger(replay, 1, worlds=4, seed=0), review(replay, 1, worlds=4, seed=0)
    >>> abs(fast.luck_adjusted - full.luck_adjusted) < 1e-9, fast.valued < full.decisions
    (True, True)
    """
    story = seat_story(replay, check_seat(seat))
    if story.result is None:
        raise ArgumentError(f"a ledger needs a finished game; this replay stops after {story.length} actions")
    settings = Settings(worlds, seed, model, policy)
    rollout = GreedyBot() if policy is None else policy
    trusted = is_trusted(rollout)
    start, skills, valued = None, [], {}
    for k, moment in enumerate(story.moments):
        if k and trusted and moment.action == rollout.choose_trusted(replay.game_at(moment.step).player_view(seat)):
            continue
        v = valued[moment.step] = value_decision(moment.view, moment.action, settings, f"{seat} {moment.step}")
        reference = mean(v.reference)
        skills.append(mean(v.rows[v.chosen]) - reference)
        if k == 0:
            start = reference
    end = score(story.result, seat)
    return SeatLedger(seat, end if start is None else start, math.fsum(skills), end, len(valued), valued)


def match_score(mine: SeatLedger, theirs: SeatLedger) -> float:
    """A seat's luck-adjusted score in a match (0..1 on average; one game's may stray outside):
    `1/2 + (mine.start - theirs.start)/2 + mine.skill - theirs.skill`.

    Each seat's start value is its chance from its own first view; halving their difference makes the
    two seats' scores add up to 1. The opponent's skill counts against the seat, since the seat's own
    review counted it as luck (see the module docstring).
    """
    return 0.5 + (mine.start - theirs.start) / 2 + mine.skill - theirs.skill


@dataclass(frozen=True)
class LuckScorer:
    """A `players.sim.Scorer`: reviews both seats of a finished game (`ledger`) and returns their ledgers
    and match scores as row columns: `start1`, `skill1`, `luck1`, `luck_adjusted1`, `adjusted1`, and the
    same for seat 2. The review's seed is the deal's seed, so both games of a duplicate deal are valued
    on the same worlds wherever their positions agree (their start values cancel exactly). Picklable:
    it runs where the game was played.
    """

    worlds: int = MATCH_WORLDS
    model: Any = None
    policy: Any = None

    def __call__(self, game: Game) -> dict[str, Any]:
        """The columns for the row of `game`."""
        replay = game.replay()
        seats = [ledger(replay, p, worlds=self.worlds, seed=game.seed, model=self.model, policy=self.policy)
                 for p in (0, 1)]
        row: dict[str, Any] = {}
        for p, mine in enumerate(seats, start=1):
            row[f"start{p}"] = mine.start
            row[f"skill{p}"] = mine.skill
            row[f"luck{p}"] = mine.luck
            row[f"luck_adjusted{p}"] = mine.luck_adjusted
        row["adjusted1"] = match_score(seats[0], seats[1])
        row["adjusted2"] = 1.0 - row["adjusted1"]
        return row


def tournament(
    bots: Sequence[Any],
    games: int,
    seed: int = 0,
    executor: Executor | None = None,
    progress: bool = True,
    rules: Rules | None = None,
    chunk: int | None = None,
    *,
    duplicate: bool = False,
    luck_adjusted: bool = False,
    review_worlds: int = MATCH_WORLDS,
) -> RoundRobin:
    """Every pair of `bots` plays `games` games (`players.sim.round_robin`: the same parameters, rows and
    summary), optionally as a duplicate match and with luck-adjusted scores.

    `duplicate=True`: deal k of a pair (seed `seed + k`) is played twice, the seats swapped; `games`
    (even) counts both; rows carry `deal`. `luck_adjusted=True`: both seats of every game are reviewed
    at `review_worlds` worlds a decision (`LuckScorer`) and the summary adds each bot's mean `adjusted`
    score with its 95% interval, beside its mean result (`score`). Both run on any executor, as the
    games do (the reviews run beside their games). `chunk` defaults to 200 games, `LUCK_CHUNK` with
    reviews. Bad arguments raise `TournamentError` (an `ArgumentError`) quoting them.

    >>> from needle_widget import bots
    >>> t = tournament([bots.GreedyBot(), bots.OddsBot()], games=40, seed=1, duplicate=True, progress=False)
    >>> {s["bot"]: (s["deals"], s["games"]) for s in t.summary}
    {'greedy': (20, 40), 'odds': (20, 40)}
    """
    if type(luck_adjusted) is not bool:
        raise TournamentError(f"luck_adjusted must be True or False, not {quote(luck_adjusted)}")
    if type(review_worlds) is not int or not 2 <= review_worlds <= MAX_WORLDS:
        raise TournamentError(f"review_worlds must be an integer from 2 to {MAX_WORLDS:,}, not {quote(review_worlds)}")
    if chunk is None:
        chunk = LUCK_CHUNK if luck_adjusted else 200
    scorer = LuckScorer(review_worlds) if luck_adjusted else None
    return sim.round_robin(bots, games, seed, executor, progress, rules, chunk, duplicate=duplicate, scorer=scorer,
                           scores=("adjusted",) if luck_adjusted else ())
