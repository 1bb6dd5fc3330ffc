"""Outcomes: play a seat's sampled worlds to the end, the hidden-information counterpart of an engine's evaluation.

`outcomes(view, bots, n)` plays `n` worlds drawn by `worlds.sample` to the end with
two bots and reports the seat's win, draw and loss shares with Wilson 95%
intervals; `evaluation(replay, seat, n, bots=...)` does so at every step of a
replay, each from the seat's own view then. Both are also reachable as
`worlds.outcomes`, `worlds.evaluation`, `worlds.wilson` and `worlds.Outcomes`.
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
import reprlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.actions import Action
from ..engine.errors import ArgumentError, BotError, PerspectiveError
from ..engine.figures import interval, percent
from ..engine.game import Game
from ..engine.playout import play_out
from ..engine.result import Reason, Result
from .worlds import check_count, check_seed, sample

__all__ = ["Outcomes", "Z95", "evaluation", "outcomes", "wilson"]

Z95 = 1.959963984540054
"""The standard normal quantile of 0.975: Wilson intervals at the 95% level."""
_REASONS = ("found", "discarded", "melded", "exhausted", "turn_limit")
"""Every `Reason` value, in rule order (E1-E5)."""


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a share of k successes in n trials (95% by default).

    It always contains k / n, stays within [0, 1], and is 0 (or 1) at the end where
    k is 0 (or n).

    >>> lo, hi = wilson(116, 200)
    >>> round(lo, 3), round(hi, 3)
    (0.511, 0.646)
    >>> wilson(0, 10)[0], wilson(10, 10)[1]
    (0.0, 1.0)
    """
    if type(n) is not int or n < 1 or type(k) is not int or not 0 <= k <= n:
        raise ArgumentError(f"wilson needs integers 0 <= k <= n, n >= 1, not k={k!r}, n={n!r}"[:200])
    p = k / n
    zz = z * z / n
    centre = (p + zz / 2) / (1 + zz)
    half = z * math.sqrt(p * (1 - p) / n + zz / (4 * n)) / (1 + zz)
    low = 0.0 if k == 0 else min(p, max(0.0, centre - half))
    high = 1.0 if k == n else max(p, min(1.0, centre + half))
    return low, high


@dataclass(frozen=True)
class Outcomes:
    """How the sampled worlds of one view ended, from `player`'s side: counts, shares and 95% intervals.

    `seat` is the view's perspective (0, 1 or "spectator") and `player` the side the
    shares are for (the seat itself for a player; Player 1 for the spectator unless
    told otherwise). `wins`, `draws` and `losses` count worlds (they sum to `n`);
    `reasons` counts the worlds by how the round ended (every `Reason` value, in rule
    order E1-E5). `seed` is the seed the worlds and the bots' games were drawn from:
    `outcomes(view, bots, n, seed=o.seed)` gives these Outcomes again. `step` is the
    replay step for `evaluation`, else None. `certain` is True when the view shows a
    finished round: then every world has its result, and each interval is the share
    itself. Otherwise each interval is the Wilson score interval at the 95% level
    (`wilson`): a statement about the rollouts under the model and the bots, not
    about what a better player would make of the position.
    """

    seat: int | str
    player: int
    n: int
    wins: int
    draws: int
    losses: int
    reasons: tuple[tuple[str, int], ...]
    seed: int
    bots: tuple[str, str]
    step: int | None = None
    certain: bool = False

    @property
    def win(self) -> float:
        """The share of worlds `player` wins."""
        return self.wins / self.n

    @property
    def draw(self) -> float:
        """The share of worlds that end in a draw."""
        return self.draws / self.n

    @property
    def loss(self) -> float:
        """The share of worlds `player` loses."""
        return self.losses / self.n

    def interval(self, kind: str) -> tuple[float, float]:
        """The 95% interval of the share of "win", "draw" or "loss" (the share itself if `certain`)."""
        counts = {"win": self.wins, "draw": self.draws, "loss": self.losses}
        if kind not in counts:
            raise ArgumentError(f"interval kind must be 'win', 'draw' or 'loss', not {kind!r}"[:120])
        if self.certain:
            share = counts[kind] / self.n
            return share, share
        return wilson(counts[kind], self.n)

    def describe(self) -> str:
        """In words, e.g. "Player 1 wins 58% (51%–65%) of 200 worlds; draws 3.0% (1.4%–6.4%); loses 39%
        (33%–46%) ... (ends: found 150, laid in a set 50)." (figures by `figures.percent`).
        """
        def share(kind: str) -> str:
            value = {"win": self.win, "draw": self.draw, "loss": self.loss}[kind]
            if self.certain:
                return percent(value)
            return f"{percent(value)} ({interval(*self.interval(kind))})"

        who = "Player 1" if self.player == 0 else "Player 2"
        head = f"{who} wins {share('win')} of {self.n} worlds; draws {share('draw')}; loses {share('loss')}"
        ends = ", ".join(f"{Reason(reason).words} {count}" for reason, count in self.reasons if count)
        where = "" if self.step is None else f" at step {self.step}"
        how = "the round is over" if self.certain else f"{self.bots[0]} vs {self.bots[1]}, 95% intervals"
        return f"{head}{where} ({how}; ends: {ends})."

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: counts, shares, intervals, reasons, and what made them (seat, player, seed, bots)."""
        return {
            "seat": self.seat, "player": self.player, "n": self.n, "step": self.step, "seed": self.seed,
            "bots": list(self.bots), "certain": self.certain,
            "wins": self.wins, "draws": self.draws, "losses": self.losses,
            "win": self.win, "draw": self.draw, "loss": self.loss,
            "intervals": {kind: list(self.interval(kind)) for kind in ("win", "draw", "loss")},
            "reasons": dict(self.reasons),
        }


def outcomes(
    view: dict[str, Any], bots: Sequence[Any], n: int, *, seed: int | None = None, model: Any = None,
    for_player: int | None = None,
) -> Outcomes:
    """How the round goes on from `view`: `n` worlds drawn by `sample`, each played to the end by `bots`.

    `bots` is (the bot for Player 1, the bot for Player 2): objects with
    `choose(view, legal_actions)`. In each world each bot sees only its own
    `world.player_view(p)` and is asked only when it has a choice (as
    `sim.play_game`); a bot with `new_game(seed, player)` is told a per-world seed
    drawn from `seed` first, so seeded bots play reproducibly. The same object in
    both seats is deep-copied for Player 2 (a bot keeps per-seat state). Every round
    ends by the turn limit at the latest (`Rules.max_turns`, E5).

    The shares are `for_player`'s: by default the seat's own, and Player 1's for the
    spectator. The worlds are drawn by `worlds.sample(view, n, model=model)`: the
    hidden past is uniform among the consistent worlds with model=None (a hidden
    needle already picked is uniform), or weighed by an opponent model (a player's
    view only); future choices come from the bots (a needle not yet picked is picked
    by its bot in the rollout). A finished round gives certain Outcomes.

    The result depends only on the view, the bots, n, seed and model: twin games that
    differ only in what the seat cannot see give the same Outcomes. seed None draws
    one, kept in `Outcomes.seed`. Bad input raises a NeedleError: ArgumentError (n,
    seed, model, bots, for_player), PerspectiveError (a teacher's view), ReplayError
    (a view no game gives), and BotError naming the bot if a bot raises or returns an
    action that is not legal in its world.

    >>> from needle_widget import Game, bots
    >>> g = Game(seed=7)
    >>> pair = (bots.GreedyBot(), bots.RandomBot(seed=1))
    >>> o = outcomes(g.view(0), pair, 50, seed=3)
    >>> o.wins + o.draws + o.losses == o.n == 50, o == outcomes(g.view(0), pair, 50, seed=3)
    (True, True)
    >>> o.describe().startswith("Player 1 wins ")
    True
    """
    n, seed = check_count(n), check_seed(seed)
    pair = _check_bots(bots)
    given: object = view  # checked as given: `sample` refuses anything but a view dict, below
    seat = given.get("perspective") if isinstance(given, dict) else None
    player = _check_for_player(for_player, seat)
    rng = random.Random(seed)
    over = isinstance(given, dict) and given.get("result") is not None
    worlds = sample(view, 1 if over else n, seed=rng.getrandbits(63), model=model)
    assert seat is not None  # `sample` took the view: a player's or the spectator's
    names = (_bot_label(pair[0]), _bot_label(pair[1]))
    results: list[Result]
    if over:
        final = worlds[0].result
        assert final is not None  # the world gives the view (`sample` checks), which shows the round over
        results = [final] * n
    else:
        results = [_roll(world, pair, rng.getrandbits(63), k, n) for k, world in enumerate(worlds)]
    wins = sum(1 for r in results if r.winner == player)
    draws = sum(1 for r in results if r.winner is None)
    reasons = {reason: 0 for reason in _REASONS}
    for r in results:
        reasons[r.reason.value] += 1
    return Outcomes(seat, player, n, wins, draws, n - wins - draws, tuple(reasons.items()), seed, names,
                    certain=over)


def evaluation(
    replay: Any, seat: int | str, n: int, *, bots: Sequence[Any], seed: int | None = None, model: Any = None,
    steps: Sequence[int] | None = None, for_player: int | None = None,
) -> list[Outcomes]:
    """`outcomes` at every step 0..len(replay) of a recorded game (or at `steps`), each from
    `seat`'s own view at that step (`replay.game_at(k).view(seat)`).

    Step k uses the seed drawn from (seed, k) alone, so a step gives the same Outcomes
    whichever other steps are asked for; each Outcomes keeps its own seed and step.
    The last step of a finished game is certain (shares 0 and 1). Steps in the
    needle phase work as `outcomes` says (bots pick the needles not yet picked).
    Cost: about len(steps) calls of `outcomes`.

    >>> from needle_widget import bots
    >>> from needle_widget.players.sim import play_game
    >>> replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
    >>> last = evaluation(replay, 0, 20, bots=(bots.GreedyBot(), bots.GreedyBot()), seed=1, steps=[len(replay)])
    >>> last[0].certain, last[0].win in (0.0, 1.0)
    (True, True)
    """
    from ..records.replay import Replay

    if not isinstance(replay, Replay):
        raise ArgumentError(f"replay must be a needle_widget Replay, not {replay!r}"[:200])
    if seat == "teacher":
        raise PerspectiveError("evaluation needs a player's or the spectator's seat, not the teacher's")
    if seat != "spectator" and (type(seat) is not int or seat not in (0, 1)):
        raise PerspectiveError(f"seat {seat!r}"[:120] + " is not a player (0 or 1) or 'spectator'")
    n, seed = check_count(n), check_seed(seed)
    _check_bots(bots)
    _check_for_player(for_player, seat)
    last = len(replay)
    if steps is None:
        ks = list(range(last + 1))
    else:
        if isinstance(steps, (str, bytes)) or not hasattr(steps, "__iter__"):
            raise ArgumentError(f"steps must be a list of step numbers 0..{last}, not {steps!r}"[:200])
        ks = list(steps)
        bad = [k for k in ks if type(k) is not int or not 0 <= k <= last]
        if bad:
            raise ArgumentError(f"steps must be integers from 0 to {last}; got {bad[:5]!r}"[:200])
    out = []
    for k in ks:
        step_seed = random.Random(f"needle evaluation {seed} {k}").getrandbits(63)
        o = outcomes(replay.game_at(k).view(seat), bots, n, seed=step_seed, model=model, for_player=for_player)
        out.append(dataclasses.replace(o, step=k))
    return out


def _check_bots(bots: Any) -> tuple[Any, Any]:
    """(bot for Player 1, bot for Player 2): two objects with a choose method, else ArgumentError."""
    if isinstance(bots, (str, bytes, dict)) or not isinstance(bots, Sequence) or len(bots) != 2:
        raise ArgumentError(f"bots must be (bot for Player 1, bot for Player 2), not {reprlib.repr(bots)}")
    for p, bot in enumerate(bots):
        if not callable(getattr(bot, "choose", None)):
            raise ArgumentError(f"bots[{p}] = {reprlib.repr(bot)} is not a bot: it needs a choose(view, legal_actions) "
                                "method")
    return bots[0], bots[1]


def _check_for_player(for_player: Any, seat: Any) -> int:
    """The side the shares are for: `for_player`, else the seat's own player (Player 1 for the spectator)."""
    if for_player is None:
        return seat if type(seat) is int and seat in (0, 1) else 0
    if type(for_player) is not int or for_player not in (0, 1):
        raise ArgumentError(f"for_player must be 0, 1 or None, not {for_player!r}"[:120])
    return for_player


def _bot_label(bot: Any) -> str:
    name = getattr(bot, "name", None)
    return (name if isinstance(name, str) and name else type(bot).__name__)[:40]


def _roll(world: Game, bots: tuple[Any, Any], seed: int, k: int, n: int) -> Result:
    """Play `world` to the end with `bots` (each told `new_game(seed, p)` first); its Result.

    A bot that raises or returns an action that is not legal raises BotError naming
    it, its seat, the world and the seed.
    """
    players = (bots[0], copy.deepcopy(bots[1]) if bots[1] is bots[0] else bots[1])
    for p, bot in enumerate(players):
        hook = getattr(bot, "new_game", None)
        if callable(hook):
            try:
                hook(seed, p)
            except Exception as error:
                raise _bot_error(bot, p, "raised", (), k, n, seed, cause=error) from error

    def fail(bot: Any, p: int, problem: str, legal: Sequence[Action], action: Any, cause: BaseException) -> Exception:
        return _bot_error(bot, p, problem, legal, k, n, seed, action=action, cause=cause)

    return play_out(world, players, fail=fail)


def _bot_error(bot: Any, p: int, problem: str, legal: Sequence[Action], k: int, n: int, seed: int, *,
               action: Any = None, cause: BaseException | None = None) -> BotError:
    who = f"{_bot_label(bot)} ({type(bot).__name__}, Player {p + 1})"
    told = {"raised": f"raised {cause!r}"[:300], "not an action": f"returned {reprlib.repr(action)}, not an action",
            "illegal": f"returned {action}, which is illegal: {cause}"}[problem]
    public = {"raised": f"{who} raised {type(cause).__name__}", "not an action": f"{who} returned a "
              f"{type(action).__name__}, not an action", "illegal": f"{who} made an illegal move"}[problem]
    detail = (f"{who} {told}, in sampled world {k + 1} of {n} (bot seed {seed})"
              + (f"; legal were: {', '.join(map(str, legal[:8]))}{', ...' if len(legal) > 8 else ''}" if legal else ""))
    return BotError(detail, public=public + " in a sampled world", player=p, bot=bot, problem=problem,
                    action=action, legal=tuple(legal), cause=cause)
