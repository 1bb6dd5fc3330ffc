"""Possible worlds: whole live games that a seat cannot tell from the real one, drawn from its view alone.

`sample(view, n, seed=...)` reads only the dict `game.view(p)` gives (so it cannot
cheat) and returns `n` full `Game`s at the same step, each with `world.view(p) ==
view`, whose hidden parts are drawn from the posterior that is uniform over every
world consistent with the view. That is the posterior of `knowledge`'s model
(A1 uniform deal and reshuffles, A2 uniform needle picks, A3 choices that tell
nothing hidden): under it every consistent world has the same likelihood (the
deal, each reshuffle order and each pick have fixed chances, each steal takes a
card with chance 1 / a public hand size), so the posterior is uniform.

How: `slots` works out, once per call, where every card the seat cannot see can
be (pools, slots, reveals) and draws each world exactly uniformly from that plan;
the world is then the real history re-applied with those cards. With an opponent
model, `posterior` reweights the opponent's hidden cards by how likely its
observed decisions are (a particle filter; see `posterior`).

>>> from needle_widget import Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS")); g.apply(actions.DrawPile())
>>> worlds = sample(g.view(0), 3, seed=1)
>>> [w.view(0) == g.view(0) for w in worlds], [w.hand(0) == g.hand(0) for w in worlds]
([True, True, True], [True, True, True])
>>> len({tuple(w.hand(1)) for w in worlds})   # Player 2's hand is hidden from Player 1: it varies
3
"""


from __future__ import annotations

import random
import reprlib
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, cast

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.cards import DECK, Card
from ..engine.errors import ArgumentError, NeedleError, ReplayError
from ..engine.game import Game, Hidden
from ..engine.observation import PlayerView, reads_history
from ..engine.seats import Perspective, as_seat
from ..records.replay import Replay
from ..records.variations import World
from .slots import PlayerPlan, plan_for

__all__ = ["EPSILON", "MAX_WORLDS", "Posterior", "posterior", "sample", "world_for"]

MAX_WORLDS = 100_000
"""The most worlds one call of `sample` makes (1,000 take a fraction of a second)."""


EPSILON = 0.05
"""How much a deterministic opponent model is softened: it makes its own choice with probability
1 - EPSILON and each legal action with EPSILON / (the number of legal actions)."""
_CHOOSE = A.CHOOSE_NEEDLE
_LAZY = ("Outcomes", "Z95", "evaluation", "outcomes", "wilson")
"""Names of `outcomes` that are also reached here (imported on first use: outcomes imports this module)."""
_Ask = Callable[[PlayerView, Sequence[Action]], Callable[[Action], float]]
"""An opponent model as the filter asks it: (the opponent's view, its legal actions) -> (action -> probability)."""
_Path = tuple[int, int, int, Any]
"""A particle's filled slots, newest first: (pool, position, card, the older ones as a _Path, or None). The tail
is Any, not `_Path | None`: mypyc cannot compile a recursive tuple alias (python/mypy#15092)."""


def sample(
    view: dict[str, Any], n: int, *, seed: int | None = None, model: Any = None, epsilon: float = EPSILON,
) -> list[Game]:
    """`n` live games a seat could not tell from the real one, drawn from the worlds consistent with
    `view` (the dict `game.view(p)` gives for p = 0, 1 or "spectator").

    Each world is at the same step with the same rules and public history, and
    `world.view(p) == view`. With `model=None` the worlds are drawn exactly
    uniformly among the consistent ones (the posterior of `knowledge`'s model,
    A1-A3). With a model of the opponent (a bot, or an object with
    `policy(view, legal_actions)`), they are drawn from the posterior that weighs
    each world by how likely the opponent's observed decisions are under it (see
    `posterior`, which also reports the effective sample size). The same view, n,
    seed and model give the same worlds; seed None draws a fresh one. The
    spectator's view works model-free (both hands and needles hidden; by rejection,
    see `slots`). A teacher's view raises PerspectiveError; a bad n, seed, model or
    epsilon ArgumentError; a view that no game can give (tampered, or with no
    consistent world) ReplayError, as does a spectator view whose worlds are too
    rare for rejection (`slots.MAX_TRIES`).

    >>> from needle_widget import Game
    >>> sample(Game(seed=1).view("teacher"), 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.PerspectiveError: sample needs a player's or the spectator's view, ...
    """
    if model is not None:
        return posterior(view, n, seed=seed, model=model, epsilon=epsilon).worlds
    n, seed = check_count(n), check_seed(seed)
    plan = plan_for(view)
    rng = random.Random(seed)
    worlds = _made(lambda: plan.worlds(n, rng))
    _verify(worlds, plan.player, view, seed)
    return worlds


def world_for(replay: Replay, step: int, seat: Perspective, seed: int | None = None) -> World:
    """One possible world drawn uniformly from `seat`'s view (0 or "p1", 1 or "p2", "spectator") of `replay` at `step`,
    with `seed` (None: a fresh one), as the `World` of a variation (`Replay.add_variation(step, moves,
    world=...)`): it holds nothing of the game that `seat` could not see.

    >>> from needle_widget import examples
    >>> r = examples.load("found_early")
    >>> v = r.add_variation(6, world=world_for(r, 6, seat=1, seed=3))
    >>> v.open_to(1), v.open_to(0), v.world.seed, r.line(v).game_at(6).view(1) == r.game_at(6).view(1)
    (True, False, 3, True)
    """
    # as_seat maps a Perspective to a Perspective (a seat's name to its int, any other value unchanged)
    seed, seat = check_seed(seed), cast(Perspective, as_seat(seat))
    world = sample(replay.game_at(step).view(seat), 1, seed=seed)[0]
    return World.of(world, seat, seed)


def check_count(n: Any) -> int:
    """`n` if it is a whole number of worlds from 1 to MAX_WORLDS, else ArgumentError."""
    if type(n) is not int or not 1 <= n <= MAX_WORLDS:
        raise ArgumentError(f"n must be an integer from 1 to {MAX_WORLDS:,}, not {n!r}"[:200])
    return n


def check_seed(seed: Any) -> int:
    """`seed`, or a fresh one for None; anything but a non-negative integer raises ArgumentError."""
    if seed is None:
        return secrets.randbits(63)
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
    return seed


def _made(make: Callable[[], list[Game]]) -> list[Game]:
    """`make()`, with any NeedleError of the engine (e.g. rules that contradict the view) as a ReplayError."""
    try:
        return make()
    except NeedleError as error:
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(f"view: {error}") from None


def _verify(worlds: list[Game], perspective: int | str, view: dict[str, Any], seed: int) -> None:
    """The first world gives exactly `view` (one full check catches a tampered view: the placements are
    exact), and every other world the same state in brief (the tests compare every view in full).
    """
    if worlds[0].view(perspective) != view:
        raise ReplayError("view: no game gives this view (it was changed, or was not made by game.view)")
    first = _fingerprint(worlds[0], perspective)
    for k, world in enumerate(worlds):
        if _fingerprint(world, perspective) != first:
            raise ReplayError(f"view: world {k} does not match it (a bug: please report the view and seed {seed})")


def _fingerprint(game: Game, perspective: int | str) -> tuple[object, ...]:
    """What `perspective` sees of the state now, in brief (a few µs): the public record, plus a player's hand."""
    mine = (game.hand_mask(perspective), game.known_opponent_mask(perspective)) if perspective in (0, 1) else ()
    return (len(game), game.phase, game.turn, game.to_move, game.pile_size, game.reshuffles, tuple(game.discard_pile),
            game.scores, game.hand_size(0), game.hand_size(1), game.result, *mine)


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import outcomes

        return getattr(outcomes, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# ---- the posterior under an opponent model: a particle filter over the opponent's hidden cards ----


@dataclass(frozen=True)
class Posterior:
    """Worlds drawn from a player's view with the opponent's decisions weighed by a model.

    `worlds`: n equally weighted live games (each `world.view(p) == view`).
    `ess`: the effective sample size (sum of weights)^2 / sum of squared weights of
    the n particles after the last decision, before the final resampling; `min_ess`
    the lowest it fell to; `resamples` how often the filter resampled (whenever the
    ESS fell below n / 2); `decisions` how many of the opponent's decisions with a
    choice were weighed. `needle_probs`: P(the opponent's needle is card i) for the 52
    card indices (None before it picks): for a model whose later choices never read
    its own needle (`needle_blind = True`, as GreedyBot) each particle contributes its
    exact conditional over the cards it leaves possible, else the particles' needles
    are counted.
    """

    worlds: list[Game]
    ess: float
    min_ess: float
    resamples: int
    decisions: int
    needle_probs: tuple[float, ...] | None
    seed: int
    model: str
    epsilon: float


def posterior(
    view: dict[str, Any], n: int, *, seed: int | None = None, model: Any, epsilon: float = EPSILON,
) -> Posterior:
    """Worlds from a player's `view`, weighed by how likely the opponent's observed decisions
    (needle pick, draw or steal, sets, discards) are under `model`.

    `model` is a bot (an object with `choose(view, legal_actions)`), softened: it makes
    its own choice with probability 1 - epsilon and each legal action with
    epsilon / len(legal); or an object with `policy(view, legal_actions)` giving the
    probability of each legal action (then epsilon is not used). The model is asked
    from the opponent's own view in each world (its `PlayerView`, hand and needle as
    in that world), only at decisions with a choice. It must not read the history
    (`reads_history`), and should choose from the view alone: calls are cached.

    The method is a particle filter over the opponent's hidden cards, in the order of
    time: each of the n particles fills the opponent's slots (its dealt hand, its
    draws; see `slots`) as they are filled in the game, each card drawn from its exact
    conditional under the uniform prior (so the filled slots always leave room for
    the cards it will show later), and its needle at its pick, drawn in proportion to
    prior times model. Each decision multiplies a particle's weight by the model's
    probability of what the opponent did; when the effective sample size falls below
    n / 2 the particles are resampled (systematic resampling). The rest of the
    hidden state (the undrawn pile) is then drawn uniformly. A model that gives each
    observed decision the same probability in every world (a policy of all ones) tells
    nothing, and this is then the uniform posterior of `sample`. (RandomBot's uniform
    policy is not quite that: a player who could lay a set and ended its sets instead
    says something about its hand, 1 / (sets + 1).)

    The same view, n, seed, model and epsilon give the same Posterior. The spectator's
    view raises ArgumentError (both players are hidden from it: use model=None).
    """
    n, seed = check_count(n), check_seed(seed)
    ask = _model_probability(model, epsilon)
    plan = plan_for(view)
    if not isinstance(plan, PlayerPlan):
        raise ArgumentError("an opponent model needs a player's view: the spectator sees neither hand (use model=None)")
    rng = random.Random(seed)
    template = _made(lambda: [plan.world(random.Random(seed))])[0]
    run = _Filter(plan, _opponent_views(plan, template), ask, n, rng)
    run.go()
    worlds = _made(lambda: run.worlds(template, rng))
    _verify(worlds, plan.player, view, seed)
    probs = run.needle_probs(model) if run.picked else _pick_odds(worlds, 1 - plan.player, ask)
    return Posterior(worlds, run.ess, run.min_ess, run.resamples, run.decisions, probs, seed, _label(model),
                     float(epsilon))


def _pick_odds(worlds: list[Game], q: int, ask: _Ask) -> tuple[float, ...] | None:
    """Before the opponent picks: the model's pick, averaged over the worlds (None once the round is over)."""
    if worlds[0].phase != "needle":
        return None
    out = [0.0] * 52
    for world in worlds:
        view = world.player_view(q)._replace(to_move=q)
        legal = cast("list[A.ChooseNeedle]", view.legal_actions())  # the needle phase: only picks are legal
        prob = ask(view, legal)
        for action in legal:
            out[action.card.index] += prob(action) / len(worlds)
    return tuple(out)


def _label(model: Any) -> str:
    name = getattr(model, "name", None)
    return (name if isinstance(name, str) and name else type(model).__name__)[:40]


def _model_probability(model: Any, epsilon: Any) -> _Ask:
    """A function (opponent's view, legal actions) -> (action -> the model's probability of it).

    A model that raises gives ArgumentError naming it (its message may name cards of a
    sampled world, never of the real one: the model sees only sampled worlds).
    """
    if type(epsilon) not in (int, float) or not 0 <= epsilon <= 1:
        raise ArgumentError(f"epsilon must be a number from 0 to 1, not {epsilon!r}"[:200])
    if reads_history(model):
        raise ArgumentError(f"model {reprlib.repr(model)} reads the history; an opponent model must choose from "
                            "the opponent's PlayerView alone")
    policy = getattr(model, "policy", None)
    choose = getattr(model, "choose", None)
    eps = float(epsilon)
    if callable(policy):  # a policy is asked even if the model also has choose

        def ask_policy(view: PlayerView, legal: Sequence[Action]) -> Callable[[Action], float]:
            try:
                probs = dict(zip(legal, map(float, policy(view, legal)), strict=True))
                return lambda action: probs.get(action, 0.0)
            except Exception as error:
                raise ArgumentError(f"model {_label(model)} raised {type(error).__name__}: {error}"[:300]) from error
        return ask_policy
    if not callable(choose):
        raise ArgumentError(f"model must be a bot (with choose) or have policy(view, legal_actions), not "
                            f"{reprlib.repr(model)}")

    def ask(view: PlayerView, legal: Sequence[Action]) -> Callable[[Action], float]:
        try:
            chosen = choose(view, list(legal))
        except Exception as error:
            raise ArgumentError(f"model {_label(model)} raised {type(error).__name__}: {error}"[:300]) from error
        rest = eps / len(legal)
        return lambda action: rest + (1.0 - eps) * (action == chosen)
    return ask


def _opponent_views(plan: PlayerPlan, template: Game) -> dict[int, tuple[PlayerView, int]]:
    """For each step at which the opponent acts: its PlayerView in `template` (one consistent world)
    before the step, and the cards the player knows the opponent holds then. In every world the
    opponent's view differs from this one only in its hand (beyond the known cards) and its needle.
    """
    q = 1 - plan.player
    out = {}
    game = Game(rules=plan.rules, seed=template.seed, deck=template.deck, first_player=plan.first_player)
    for k, event in enumerate(template.history):
        if event.player == q:
            out[k] = (game.player_view(q), game.known_opponent_mask(plan.player))
        stolen = event.cards[0] if type(event.action) is A.Steal else None
        game.apply_recorded(event.action, stolen=stolen, reshuffle=event.reshuffles[0] if event.reshuffles else None)
    return out


class _Filter:
    """The particle filter of `posterior`: n particles, each the opponent's hidden cards so far."""

    def __init__(self, plan: PlayerPlan, views: dict[int, tuple[PlayerView, int]],
                 ask: _Ask, n: int,
                 rng: random.Random) -> None:
        self.plan, self.views, self.ask, self.n, self.rng = plan, views, ask, n, rng
        self.q = 1 - plan.player
        pools = plan.pools
        self.slot_times = [[when for when, _ in pool.q_slots] for pool in pools]
        self.reveals = [[(sum(1 for w in times if w < when), card) for when, card in pool.reveals]
                        for pool, times in zip(pools, self.slot_times, strict=True)]
        """Per pool: (how many of its q-slots are filled before the reveal, card), in order of time."""
        self.free = [sorted(pool.free) for pool in pools]
        self.free0 = frozenset(self.free[0])
        self.undrawn0 = len(pools[0].undrawn) if len(pools) == 1 else 0
        self.held = [0] * n
        self.used = [0] * n
        """Per particle: bit 52 * pool + card for each card placed in a slot of that pool (or as pool 0's needle)."""
        shown = plan.shown_needle
        self.needle = [-1 if shown is None else shown] * n
        self.path: list[_Path | None] = [None] * n
        self.pick: list[Callable[[Action], float] | None] = [None] * n
        self.w = [1.0] * n
        self.ess = self.min_ess = float(n)
        self.resamples = self.decisions = 0
        self.picked = False

    def schedule(self) -> list[tuple[int, ...]]:
        """Every event that matters, in the order of the game: (step, 0) a decision of the opponent,
        (step, 1, card) a card leaving its hand in sight, (step, 2, pool, slot, position) a slot filled.
        """
        events: list[tuple[int, ...]] = []
        for k, pool in enumerate(self.plan.pools):
            events += [(when, 2, k, j, pos) for j, (when, pos) in enumerate(pool.q_slots)]
            events += [(when, 1, card) for when, card in pool.reveals]
        events += [(k, 0) for k, step in enumerate(self.plan.steps) if step.player == self.q]
        return sorted(events)

    def go(self) -> None:
        """Run the filter through the whole history."""
        for event in self.schedule():
            kind = event[1]
            if kind == 2:
                self.fill(*event[2:])
            elif kind == 1:
                self.reveal(event[0], event[2])
            elif self.plan.steps[event[0]].action is None or type(self.plan.steps[event[0]].action) is A.ChooseNeedle:
                self.choose_needle(event[0])
            else:
                self.decide(event[0])

    def fill(self, k: int, j: int, pos: int) -> None:
        """Slot j of pool k (at position pos) gets a card in every particle, from its exact conditional."""
        reveals, free, rng = self.reveals[k], self.free[k], self.rng
        held, used, path = self.held, self.used, self.path
        base = 52 * k  # a card can be in several pools (discarded, reshuffled, drawn again): used bits per pool
        for i in range(self.n):
            u = used[i] >> base
            card = -1
            open_ = [(c - j, card) for c, card in reveals if not u >> card & 1]
            if open_:
                m = len(open_)
                low = [1] * (m + 1)  # low[t]: product of (e - s - 1) over the first t open reveals
                for t in range(m):
                    low[t + 1] = low[t] * (open_[t][0] - t - 1)
                high = [1] * (m + 1)  # high[t]: product of (e - s) over the open reveals from t on
                for t in range(m - 1, -1, -1):
                    high[t] = high[t + 1] * (open_[t][0] - t)
                r = rng.randrange(low[m] + sum(low[t] * high[t + 1] for t in range(m)))
                if r >= low[m]:
                    r -= low[m]
                    for t in range(m):
                        r -= low[t] * high[t + 1]
                        if r < 0:
                            card = open_[t][1]
                            break
            if card < 0:
                options = [c for c in free if not u >> c & 1]
                card = options[rng.randrange(len(options))]
            held[i] |= 1 << card
            used[i] |= 1 << (base + card)
            path[i] = (k, pos, card, path[i])

    def reveal(self, step: int, card: int) -> None:
        """`card` leaves the opponent's hand in sight: every particle holds it (the fills saw to that)."""
        bit = 1 << card
        for i in range(self.n):
            if not self.held[i] & bit:
                raise ReplayError(f"view history[{step}]: a sampled world lacks {DECK[card]} (a bug: please report)")
            self.held[i] ^= bit

    def choose_needle(self, step: int) -> None:
        """The opponent's pick: weighed by the model; a hidden needle drawn as prior times model."""
        view0, known = self.views[step]
        shown = self.plan.shown_needle
        needle_hand = self.plan.needle_hand
        cache: dict[int, Callable[[Action], float]] = {}
        weight = self.w
        for i in range(self.n):
            hand = self.held[i] | known
            prob = cache.get(hand)
            if prob is None:
                view = view0._replace(hand_mask=hand)
                prob = cache[hand] = self.ask(view, view.legal_actions())
            self.pick[i] = prob
            if shown is not None:
                weight[i] *= prob(_CHOOSE[shown])
                continue
            options = [(c, prob(_CHOOSE[c])) for c in needle_hand]
            spare = [c for c in self.free[0] if not self.used[i] >> c & 1] if self.undrawn0 else []
            if spare:
                share = self.undrawn0 / len(spare)  # a spare card ends at an undrawn position with this chance
                options += [(c, share * prob(_CHOOSE[c])) for c in spare]
            total = sum(p for _, p in options)
            weight[i] *= total
            if total > 0:
                r = self.rng.random() * total
                chosen = options[-1][0]
                for c, p in options:
                    r -= p
                    if r < 0:
                        chosen = c
                        break
                self.needle[i] = chosen
                if chosen in self.free0:
                    self.used[i] |= 1 << chosen
        self.picked = True
        self.reweighed(step)

    def decide(self, step: int) -> None:
        """An observed decision of the opponent: each particle's weight times the model's probability of it."""
        view0, known = self.views[step]
        action = self.plan.steps[step].action
        assert action is not None  # `go` sends the needle picks, hidden or not, to `choose_needle`
        cache: dict[tuple[int, int], float] = {}
        weight = self.w
        chose = False
        for i in range(self.n):
            key = (self.held[i] | known, self.needle[i])
            p = cache.get(key)
            if p is None:
                needle = DECK[key[1]] if key[1] >= 0 else None
                view = view0._replace(hand_mask=key[0], needle=needle)
                legal = view.legal_actions()
                chose = chose or len(legal) > 1
                p = cache[key] = 1.0 if len(legal) <= 1 else self.ask(view, legal)(action)
            weight[i] *= p
        self.decisions += chose
        self.reweighed(step)

    def reweighed(self, step: int) -> None:
        """Normalise the weights; resample when the effective sample size falls below n / 2."""
        total = sum(self.w)
        if not total > 0:
            action = self.plan.steps[step].action
            raise ReplayError(f"view history[{step}]: no sampled world explains Player {self.q + 1}'s "
                              f"{action or 'needle pick'} under the model (with epsilon > 0 every world does)")
        self.w = [x / total for x in self.w]
        self.ess = 1.0 / sum(x * x for x in self.w)
        self.min_ess = min(self.min_ess, self.ess)
        if self.ess < self.n / 2:
            self.take(_systematic(self.w, self.n, self.rng))
            self.resamples += 1

    def take(self, picks: list[int]) -> None:
        """Keep the particles `picks` (with repeats), equally weighted."""
        self.held = [self.held[i] for i in picks]
        self.used = [self.used[i] for i in picks]
        self.needle = [self.needle[i] for i in picks]
        self.path = [self.path[i] for i in picks]
        self.pick = [self.pick[i] for i in picks]
        self.w = [1.0 / self.n] * self.n

    def needle_probs(self, model: Any) -> tuple[float, ...] | None:
        """P(the opponent's needle is card i): see `Posterior.needle_probs`."""
        if not self.picked:
            return None
        out = [0.0] * 52
        if self.plan.shown_needle is not None:
            out[self.plan.shown_needle] = 1.0
            return tuple(out)
        blind = getattr(model, "needle_blind", False) is True
        for i in range(self.n):
            if not blind:
                out[self.needle[i]] += self.w[i]
                continue
            prob, used, mine = self.pick[i], self.used[i], self.needle[i]
            assert prob is not None  # `choose_needle` set every particle's (and `take` keeps them)
            cards = list(self.plan.needle_hand)
            if self.undrawn0:
                cards += [c for c in self.free[0] if c == mine or not used >> c & 1]
            ps = [prob(_CHOOSE[c]) for c in cards]
            total = sum(ps)
            for c, p in zip(cards, ps, strict=True):
                out[c] += self.w[i] * p / total
        return tuple(out)

    def worlds(self, template: Game, rng: random.Random) -> list[Game]:
        """The n worlds: the particles resampled by weight, each completed uniformly (`PlayerPlan.complete`).
        Only the current pool is completed now (an older pool's pile was drawn to the end, so its q-slots,
        all filled by the particle, leave nothing to draw); the older ones when the world's history is read.
        """
        picks = _systematic(self.w, self.n, rng) if self.ess < self.n - 1e-9 else list(range(self.n))
        out = []
        plan = self.plan
        current = len(plan.pools) - 1
        for i in picks:
            assigned: dict[int, int] = {}
            node = self.path[i]
            while node is not None and node[0] == current:  # the path is newest first: the current pool's slots
                _, pos, card, node = node
                assigned[pos] = card
            needle = self.needle[i] if self.needle[i] >= 0 else None
            last = plan.complete(current, assigned, needle, rng)
            shown = needle if plan.shown_needle is None else plan.shown_needle
            out.append(plan.variant_of(template, last, shown, rng.getrandbits(63),
                                       partial(self.recorded, self.path[i], needle, last)))
        return out

    def recorded(self, path: _Path | None, needle: int | None, last: list[int]) -> tuple[list[Card], dict[int, Hidden]]:
        """The deal and hidden log entries of a particle's world (`PlayerPlan.recorded`), its older pools completed
        from its path (they draw nothing: every position is filled).
        """
        plan = self.plan
        assigned: list[dict[int, int]] = [{} for _ in plan.pools]
        node = path
        while node is not None:
            k, pos, card, node = node
            assigned[k][pos] = card
        quiet = random.Random(0)  # asked for nothing: an older pool has no free position left
        placed = [plan.complete(k, assigned[k], needle, quiet) for k in range(len(plan.pools) - 1)]
        shown = needle if plan.shown_needle is None else plan.shown_needle
        return plan.recorded([*placed, last], shown)


def _systematic(weights: list[float], n: int, rng: random.Random) -> list[int]:
    """The indices of n particles drawn by systematic resampling: index i about n * weights[i] times (within one)."""
    step = 1.0 / n
    u = rng.random() * step
    out, total, i = [], weights[0], 0
    for _ in range(n):
        while u > total and i < len(weights) - 1:
            i += 1
            total += weights[i]
        out.append(i)
        u += step
    return out
