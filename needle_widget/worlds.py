"""Possible worlds: whole live games that a seat cannot tell from the real one, drawn from its view alone.

`sample(view, n, seed=...)` reads only the dict `game.view(p)` gives (so it cannot
cheat) and returns `n` full `Game`s at the same step, each with `world.view(p) ==
view`, whose hidden parts are drawn from the posterior that is uniform over every
world consistent with the view. That is the posterior of `knowledge`'s model
(A1 uniform deal and reshuffles, A2 uniform needle picks, A3 choices that tell
nothing hidden): under it every consistent world has the same likelihood (the
deal, each reshuffle order and each pick have fixed chances, each steal takes a
card with chance 1 / a public hand size), so the posterior is uniform.

The method, for player p (opponent q)
-------------------------------------
Every card p cannot place sits in a *slot* of a *pool*. Pool 0 is the deal: the
52 - h cards outside p's dealt hand, over q's h dealt-hand slots and the draw
pile's positions. Reshuffle k (D1) makes pool k: its cards are public (the
discards under the top), its slots the new pile's positions. A pile position is
drawn by p (p saw the card: fixed), by q (a *q-slot*, filled at a known action),
or not yet. Every card that leaves q's hand in p's sight (q's discard or set, p's
steal) and that p did not know q held (`known_opponent_cards`: q stole it from
p) is *revealed*: it was in a q-slot of the pool it belonged to then, filled before
it left. Within one pool the q-slots filled before a reveal grow with its time,
so placing the revealed cards in order of time, each uniformly among its free
eligible slots, leaves e_i - (i - 1) choices for the i-th whatever came before;
the other cards of the pool then fill the other slots in a uniform random order.
Every consistent placement is reached in exactly one way, with probability
1 / prod(e_i - i + 1) / r!: uniform.

q's needle N was never in a q-slot (S3, E1) and never public (E2, E3), so it is
one of p's hand cards that q never held, or the card at a pile position of pool 0
that nobody has drawn yet. That count is the same in every placement, so N is
drawn uniformly among them after the placement (exactly uniform jointly). At the
end of the round N is shown: then it is fixed, in the last q-slot if q found it
(E1), else at an undrawn pile position if p never saw it. p's own needle needs
nothing: p would have seen it come into their hand.

The spectator, by rejection
---------------------------
For the spectator both hands are hidden and a steal moves an unseen card between
them, which breaks the nesting above. Its sampler is exact by rejection from a
proposal that is uniform over a superset. Every card a hand receives is a *token*
(the pool position it came from). The proposal plays the public history forward:
each steal takes a uniformly random token of the victim's hand (the game's own
chance, 1 / a public hand size); each card that leaves a hand in sight is put on
one of the e_i tokens of its pool in that hand, uniformly; the other cards fill the
other positions uniformly; each live needle is one of the |V_x| cards its owner
never held and nobody showed. A world's proposal probability is then a constant
times prod 1/e_i * prod 1/|V_x|, so accepting it with probability
prod (e_i / B_i) * prod (|V_x| / B_x), for public bounds B >= e and B_x >= |V_x|,
leaves every consistent world equally likely. Before the first reshuffle e_i is
the whole hand (it equals its bound), so only the needles cost: about 9 proposals
in 10 are accepted early in a round, fewer than 1 in 10 after many steals (the
needle bound is loose). After reshuffles with hidden steals the tokens of a card's
pool can be rare in the hand, and acceptance can fall below 1 in 5,000
(`MAX_TRIES`): then `sample` raises ReplayError saying so, rather than run on.

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

import copy
import dataclasses
import math
import random
import reprlib
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from . import actions as A
from .actions import Action
from .cards import DECK, Card
from .errors import ArgumentError, BotError, IllegalAction, NeedleError, PerspectiveError, ReplayError
from .game import Game
from .observation import reads_history
from .rules import Rules

__all__ = ["MAX_WORLDS", "Outcomes", "evaluation", "outcomes", "sample", "wilson"]

MAX_WORLDS = 100_000
"""The most worlds one call of `sample` makes (1,000 take a fraction of a second)."""
MAX_TRIES = 5_000
"""The most proposals the spectator's rejection sampler makes for one world before it gives up."""

_OUTCOME_KINDS = ("draw_pile", "steal", "end_sets")
"""Actions whose "cards" field in a view is what entered the hand, not part of the action."""


def sample(view: dict[str, Any], n: int, *, seed: int | None = None, model: None = None) -> list[Game]:
    """`n` live games a seat could not tell from the real one, drawn uniformly from the worlds
    consistent with `view` (the dict `game.view(p)` gives for p = 0, 1 or "spectator").

    Each world is at the same step with the same rules and public history, and
    `world.view(p) == view`. The same view, n and seed give the same worlds; seed
    None draws a fresh one. `model` is reserved for opponent models (a later
    version): only None is accepted. The spectator's view works too (both hands
    and needles hidden; by rejection, see the module docstring). A teacher's view
    raises PerspectiveError; a bad n, seed or model ArgumentError; a view that no
    game can give (tampered, or with no consistent world) ReplayError, as does a
    spectator view whose worlds are too rare for rejection (`MAX_TRIES`).

    >>> from needle_widget import Game
    >>> sample(Game(seed=1).view("teacher"), 1)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.errors.PerspectiveError: sample needs a player's or the spectator's view, not the teacher's: ...
    """
    if model is not None:
        raise ArgumentError(f"model={model!r}"[:120] + ": opponent models come in a later version; use model=None")
    if type(n) is not int or not 1 <= n <= MAX_WORLDS:
        raise ArgumentError(f"n must be an integer from 1 to {MAX_WORLDS:,}, not {n!r}"[:200])
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
    plan = _plan(view)
    rng = random.Random(seed)
    try:
        worlds = [plan.world(rng) for _ in range(n)]
    except NeedleError as error:  # e.g. rules that contradict the view's first player
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(f"view: {error}") from None
    if worlds[0].view(plan.player) != view:  # the placements are exact: one full check catches a tampered view
        raise ReplayError("view: no game gives this view (it was changed, or was not made by game.view)")
    first = _fingerprint(worlds[0], plan.player)
    for k, world in enumerate(worlds):  # and a cheap one for every world (the tests compare every view)
        if _fingerprint(world, plan.player) != first:
            raise ReplayError(f"view: world {k} does not match it (a bug: please report the view and seed {seed})")
    return worlds


def _fingerprint(game: Game, perspective: int | str) -> tuple:
    """What `perspective` sees of the state now, in brief (a few µs): the public record, plus a player's hand."""
    mine = (game.hand_mask(perspective), game.known_opponent_mask(perspective)) if perspective in (0, 1) else ()
    return (len(game), game.phase, game.turn, game.to_move, game.pile_size, game.reshuffles, tuple(game.discard_pile),
            game.scores, game.hand_size(0), game.hand_size(1), game.result, *mine)


# ---- the plan: what the view fixes, worked out once per call ------------------------------


class _Step(NamedTuple):
    """One action to re-apply: None for the opponent's hidden needle pick."""

    action: Action | None
    stolen: Card | None
    pool: int | None
    """The pool this action's reshuffle makes, or None."""


class _Pool:
    """Cards p cannot place and the slots they fill (see the module docstring)."""

    __slots__ = ("size", "fixed", "q_slots", "reveals", "free", "undrawn", "next")

    def __init__(self, cards: Sequence[int], size: int) -> None:
        self.size = size
        self.fixed: dict[int, int] = {}
        """Position -> card, for the cards p drew (and q's needle where q found it)."""
        self.q_slots: list[tuple[int, int]] = []
        """(action index at which q filled it, position), in order."""
        self.reveals: list[tuple[int, int]] = []
        """(action index, card): cards that left q's hand in p's sight, from a q-slot of this pool."""
        self.free = set(cards)
        """Cards not fixed and not revealed: they fill the slots left over."""
        self.undrawn: list[int] = []
        """Positions of the pile nobody has drawn yet (only the last pool has any)."""
        self.next = 0
        """The next position drawn from this pool's pile."""


class _Plan:
    """Everything the view fixes; `world(rng)` draws one consistent world."""

    def __init__(self, player: int, rules: Rules, first_player: int) -> None:
        self.player = player
        self.rules = rules
        self.first_player = first_player
        self.dealt: list[int] = []
        self.pools: list[_Pool] = []
        self.steps: list[_Step] = []
        self.needle_hand: list[int] = []
        """Live round, q has picked: p's hand cards that can be q's needle (with pool 0's undrawn positions)."""
        self.needle_picked = False
        self.shown_needle: int | None = None
        self.needle_pool: int | None = None
        """The pool in which a shown needle of q must sit at an undrawn position, if p never saw it."""

    def world(self, rng: random.Random) -> Game:
        """One world: each pool placed as the module docstring says, then the history re-applied."""
        placed = [self._place(k, pool, rng) for k, pool in enumerate(self.pools)]
        needle = self.shown_needle
        if needle is None and self.needle_picked:
            undrawn = self.pools[0].undrawn if len(self.pools) == 1 else []
            r = rng.randrange(len(self.needle_hand) + len(undrawn))
            needle = self.needle_hand[r] if r < len(self.needle_hand) else placed[0][undrawn[r - len(self.needle_hand)]]
        h = self.rules.hand_size
        first = placed[0]
        hands = [self.dealt, first[:h]] if self.player == 0 else [first[:h], self.dealt]
        deck = [DECK[i] for i in hands[0] + hands[1] + first[h:]]
        game = Game(rules=self.rules, seed=rng.getrandbits(63), deck=deck, first_player=self.first_player)
        for k, step in enumerate(self.steps):
            action = step.action if step.action is not None else A.ChooseNeedle(DECK[needle])
            try:
                if step.stolen is None and step.pool is None:
                    game.apply(action)  # no chance in it: the same as apply_recorded, and quicker
                else:
                    order = None if step.pool is None else [DECK[i] for i in placed[step.pool]]
                    game.apply_recorded(action, stolen=step.stolen, reshuffle=order)
            except IllegalAction as error:
                raise ReplayError(f"view history[{k}]: no game gives this view ({error})") from None
        return game

    def _place(self, k: int, pool: _Pool, rng: random.Random) -> list[int]:
        """A uniform placement of pool k's cards on its positions (revealed cards in eligible q-slots)."""
        out: list[int | None] = [None] * pool.size
        for pos, card in pool.fixed.items():
            out[pos] = card
        slots, open_ = pool.q_slots, []
        j = 0
        for when, card in pool.reveals:
            while j < len(slots) and slots[j][0] < when:
                open_.append(slots[j][1])
                j += 1
            i = rng.randrange(len(open_))  # the plan checked that there is a choice
            out[open_[i]] = card
            open_[i] = open_[-1]
            open_.pop()
        if k == self.needle_pool:
            out[pool.undrawn[rng.randrange(len(pool.undrawn))]] = self.shown_needle
        rest = sorted(pool.free)
        rng.shuffle(rest)
        it = iter(rest)
        return [next(it) if card is None else card for card in out]  # type: ignore[misc]


def _plan(view: Any) -> _Plan | _SpectatorPlan:
    """Check the view and work out its plan; anything malformed raises a NeedleError."""
    if not isinstance(view, dict):
        raise ArgumentError(f"view must be the dict game.view(player) gives, not {view!r}"[:200])
    perspective = view.get("perspective")
    if perspective == "teacher":
        raise PerspectiveError(
            "sample needs a player's or the spectator's view, not the teacher's: it sees every world"
        )
    if perspective != "spectator" and (type(perspective) is not int or perspective not in (0, 1)):
        raise PerspectiveError(f"view perspective {perspective!r}"[:120] + " is not a player (0 or 1) or 'spectator'")
    try:
        return _SpectatorPlan(view) if perspective == "spectator" else _Walk(view, perspective).plan
    except NeedleError as error:
        if isinstance(error, ReplayError):
            raise
        raise ReplayError(f"view: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise ReplayError(f"view: not a view game.view(player) gives ({type(error).__name__}: {error})"[:240]) from None


class _Walk:
    """One pass over the view's history, as p saw it, building the plan."""

    def __init__(self, view: dict[str, Any], p: int) -> None:
        rules = Rules.from_dict(view["rules"])
        first = view["first_player"]
        if type(first) is not int or first not in (0, 1):
            raise ReplayError(f"view first_player {first!r} is not 0 or 1")
        self.p, self.q = p, 1 - p
        self.plan = plan = _Plan(p, rules, first)
        history = view["history"]
        if not isinstance(history, list):
            raise ReplayError(f"view history: expected a list, got {type(history).__name__}")
        events = [_event(e, k) for k, e in enumerate(history)]
        hand = {Card.parse(c).index for c in view["players"][p]["hand"]}
        plan.dealt = dealt = sorted(_undo(hand, events, p))
        if len(dealt) != rules.hand_size:
            raise ReplayError(f"view: the history gives Player {p + 1} a dealt hand of {len(dealt)} cards, "
                              f"not {rules.hand_size}")
        h = rules.hand_size
        pool0 = _Pool([i for i in range(52) if i not in set(dealt)], 52 - h)
        pool0.q_slots = [(-1, i) for i in range(h)]
        pool0.next = h
        plan.pools.append(pool0)
        self.pool_of = dict.fromkeys(pool0.free, 0)
        """Each card p cannot place now: the pool it is in."""
        self.hand = set(dealt)
        self.known: set[int] = set()
        self.held: set[int] = set()
        self.public: set[int] = set()
        self.discards: list[int] = []
        self.last_q_slot: tuple[int, int, int] | None = None
        """(pool, position, action index) of q's last pile draw."""
        for k, (player, kind, action, cards, count, shuffles) in enumerate(events):
            self.apply(k, player, kind, action, cards, count, shuffles)
        self.finish(view)

    def apply(self, k: int, player: int, kind: str, action: Action | None, cards: list[int] | None, count: int,
              shuffles: list[int]) -> None:
        """Follow one event: place p's draws, open q-slots, note reveals, make pools at reshuffles."""
        mine = player == self.p
        stolen = None
        made: int | None = None
        if kind in ("draw_pile", "end_sets"):
            made = self.draws(k, mine, cards, count, shuffles)
        elif kind == "steal":
            card = cards[0]  # a steal is shown to both players
            stolen = DECK[card]
            if mine:
                self.leave_q(k, card)
                self.hand.add(card)
            else:
                self.hand.remove(card)
                self.known.add(card)
                self.held.add(card)
        elif kind in ("discard", "lay_set"):
            for card in A.cards_of(action):
                if mine:
                    self.hand.remove(card.index)
                else:
                    self.leave_q(k, card.index)
                self.public.add(card.index)
            if kind == "discard":
                self.discards.append(action.card.index)
        elif kind == "choose_needle" and not mine:
            self.plan.needle_picked = True
        self.plan.steps.append(_Step(action, stolen, made))

    def leave_q(self, k: int, card: int) -> None:
        """`card` leaves q's hand in p's sight: known to be there, or revealed from a q-slot of its pool."""
        self.held.add(card)
        if card in self.known:
            self.known.remove(card)
            return
        pool = self.pool_of.pop(card, None)
        if pool is None:
            raise ReplayError(f"view history[{k}]: {DECK[card]} leaves Player {self.q + 1}'s hand, but Player "
                              f"{self.p + 1} knows it was elsewhere")
        self.plan.pools[pool].free.remove(card)
        self.plan.pools[pool].reveals.append((k, card))

    def draws(self, k: int, mine: bool, cards: list[int] | None, count: int, shuffles: list[int]) -> int | None:
        """Pile draws (T1, T4): reshuffle when the pile is empty (D1), then draw position by position."""
        made = None
        done = []
        pools = self.plan.pools
        for i in range(count):
            pool = pools[-1]
            if pool.next == pool.size:
                if len(self.discards) < 2:
                    raise ReplayError(f"view history[{k}]: a draw from an empty pile with nothing to reshuffle")
                rest = self.discards[:-1]
                del self.discards[:-1]
                pool = _Pool(rest, len(rest))
                made = len(pools)
                pools.append(pool)
                for card in rest:
                    self.pool_of[card] = made
                done.append(len(rest))
            pos = pool.next
            pool.next += 1
            if mine:
                card = cards[i]
                if self.pool_of.pop(card, None) != len(pools) - 1:
                    raise ReplayError(f"view history[{k}]: Player {self.p + 1} draws {DECK[card]}, which cannot "
                                      "be in the draw pile there")
                pool.free.remove(card)
                pool.fixed[pos] = card
                self.hand.add(card)
            else:
                pool.q_slots.append((k, pos))
                self.last_q_slot = (len(pools) - 1, pos, k)
        if done != shuffles:
            raise ReplayError(f"view history[{k}]: records reshuffles of {shuffles} cards, but the pile gives {done}")
        return made

    def finish(self, view: dict[str, Any]) -> None:
        """Where q's needle can be; the undrawn positions of the last pool; a reveal needs a slot."""
        plan = self.plan
        last = plan.pools[-1]
        last.undrawn = list(range(last.next, last.size))
        for pool in plan.pools:
            pool_slots = [when for when, _ in pool.q_slots]
            for i, (when, card) in enumerate(pool.reveals):
                if sum(1 for w in pool_slots if w < when) <= i:
                    raise ReplayError(f"view: no consistent world: Player {self.q + 1} cannot have held "
                                      f"{DECK[card]} at history[{when}]")
        shown = view["players"][self.q]["needle"]
        if shown is None:
            if plan.needle_picked:
                plan.needle_hand = sorted(self.hand - self.held - self.public)
                if not plan.needle_hand and not (len(plan.pools) == 1 and last.undrawn):
                    raise ReplayError(f"view: no consistent world: no card can be Player {self.q + 1}'s needle")
            return
        needle = plan.shown_needle = Card.parse(shown).index
        result = view["result"] or {}
        pool = self.pool_of.get(needle)
        if result.get("reason") == "found" and result.get("needle_owner") == self.q and pool is not None:
            where = self.last_q_slot
            if where is None or where[0] != pool or where[2] != len(plan.steps) - 1:
                raise ReplayError(f"view: no consistent world: Player {self.q + 1} cannot have drawn {shown}")
            target = plan.pools[pool]
            target.free.remove(needle)
            target.fixed[where[1]] = needle
            target.q_slots.remove((where[2], where[1]))
        elif pool is not None:
            if plan.pools[pool] is not last or not last.undrawn:
                raise ReplayError(f"view: no consistent world: {shown} must be in the draw pile, which is empty")
            last.free.remove(needle)
            plan.needle_pool = len(plan.pools) - 1


def _event(raw: Any, k: int) -> tuple[int, str, Action | None, list[int] | None, int, list[int]]:
    """(player, type, action or None if hidden, cards seen entering the hand or None, count, reshuffle sizes)."""
    if not isinstance(raw, dict) or raw.get("index") != k:
        raise ReplayError(f"view history[{k}]: not an event of game.view: {raw!r}"[:200])
    player, kind = raw["player"], raw["type"]
    if type(player) is not int or player not in (0, 1):
        raise ReplayError(f"view history[{k}]: player {player!r} is not 0 or 1")
    cards = None
    count = 0
    if kind in _OUTCOME_KINDS:
        fields = {"type": kind}
        count = raw.get("count", 0)
        seen = raw.get("cards")
        if seen is not None:
            cards = [Card.parse(c).index for c in seen]
            if len(cards) != count:
                raise ReplayError(f"view history[{k}]: count {count!r} but {len(cards)} cards")
        if type(count) is not int or count < 0 or (kind != "end_sets" and count != 1):
            raise ReplayError(f"view history[{k}]: {kind} with a count of {count!r}")
    else:
        fields = {key: raw[key] for key in ("type", "card", "cards") if key in raw}
    shuffles = raw.get("reshuffles", [])
    if not isinstance(shuffles, list) or not all(type(s) is int for s in shuffles):
        raise ReplayError(f"view history[{k}]: reshuffles {shuffles!r} are not counts"[:200])
    if kind == "choose_needle" and "card" not in raw:
        return player, kind, None, None, 0, shuffles
    return player, kind, A.from_dict(fields), cards, count, shuffles


def _undo(hand: set[int], events: list, p: int) -> set[int]:
    """The dealt hand of p: the hand now with p's history undone, last event first."""
    dealt = set(hand)
    for player, kind, action, cards, _, _ in reversed(events):
        if kind in _OUTCOME_KINDS and cards is not None and (player == p or kind == "steal"):
            if player == p:
                dealt.difference_update(cards)
            else:
                dealt.update(cards)  # the opponent stole it from p
        elif kind in ("discard", "lay_set") and player == p:
            dealt.update(c.index for c in A.cards_of(action))
    return dealt


class _SpectatorPlan:
    """The public skeleton of a spectator's view: tokens, pools and bounds; `world(rng)` samples one world."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.player = "spectator"
        self.rules = rules = Rules.from_dict(view["rules"])
        first = view["first_player"]
        if type(first) is not int or first not in (0, 1):
            raise ReplayError(f"view first_player {first!r} is not 0 or 1")
        self.first_player = first
        h = rules.hand_size
        history = view["history"]
        if not isinstance(history, list):
            raise ReplayError(f"view history: expected a list, got {type(history).__name__}")
        events = [_event(e, k) for k, e in enumerate(history)]
        self.pool_sizes = [52]
        self.pool_cards: list[list[int]] = [list(range(52))]
        self.tok_pool: list[int] = []
        self.tok_pos: list[int] = []
        self.tok_holder: list[int] = []
        for x in (0, 1):
            for i in range(h):
                self._token(0, x * h + i, x)
        self.dealt = [list(range(h)), list(range(h, 2 * h))]
        nxt = 2 * h  # next pile position of the current pool
        pool_of = dict.fromkeys(range(52), 0)
        discards: list[int] = []
        hand = [h, h]
        draws = [{0: h}, {0: h}]  # draws[x][k]: tokens of pool k that came into x's hand by deal or draw
        steals_since = [{0: 0}, {0: 0}]  # steals by x since pool k was made
        reveals = [{0: 0}, {0: 0}]
        alive = {0: 2 * h}
        self.public: set[int] = set()
        self.shed: list[set[int]] = [set(), set()]
        self.pool0_draws = [0, 0]
        self.steal_count = [0, 0]
        self.picked = [False, False]
        self.ops: list[tuple] = []
        self.steps: list[tuple[Action | None, int, int, int | None]] = []
        """(action, or None for a hidden needle pick; player; action index; the pool its reshuffle makes)."""
        for k, (player, kind, action, cards, count, shuffles) in enumerate(events):
            x, y = player, 1 - player
            made_pool = None
            if kind in ("draw_pile", "end_sets"):
                toks = []
                done = []
                for _ in range(count):
                    if nxt == self.pool_sizes[-1]:
                        if len(discards) < 2:
                            raise ReplayError(f"view history[{k}]: a draw from an empty pile, nothing to reshuffle")
                        rest = discards[:-1]
                        del discards[:-1]
                        made_pool = len(self.pool_sizes)
                        self.pool_sizes.append(len(rest))
                        self.pool_cards.append(sorted(rest))
                        for c in rest:
                            pool_of[c] = made_pool
                        for z in (0, 1):
                            draws[z][made_pool] = 0
                            steals_since[z][made_pool] = 0
                            reveals[z][made_pool] = 0
                        alive[made_pool] = 0
                        nxt = 0
                        done.append(len(rest))
                    pool = len(self.pool_sizes) - 1
                    toks.append(self._token(pool, nxt, x))
                    if pool == 0:
                        self.pool0_draws[x] += 1
                    draws[x][pool] += 1
                    alive[pool] += 1
                    nxt += 1
                if done != shuffles:
                    raise ReplayError(
                        f"view history[{k}]: records reshuffles of {shuffles} cards, but the pile gives {done}"
                    )
                hand[x] += count
                self.ops.append(("draw", x, toks))
            elif kind == "steal":
                if cards is not None or not hand[y]:
                    raise ReplayError(f"view history[{k}]: not a spectator's steal")
                hand[y] -= 1
                hand[x] += 1
                self.steal_count[x] += 1
                for pool in steals_since[x]:
                    steals_since[x][pool] += 1
                self.ops.append(("steal", x, y, k))
            elif kind in ("discard", "lay_set"):
                for card in A.cards_of(action):
                    c = card.index
                    pool = pool_of.get(c)
                    if pool is None:
                        raise ReplayError(f"view history[{k}]: {card} was already public")
                    bound = min(hand[x], alive[pool], draws[x][pool] + steals_since[x][pool] - reveals[x][pool])
                    if bound <= 0:
                        raise ReplayError(f"view history[{k}]: no consistent world: {card} cannot be in that hand")
                    self.ops.append(("reveal", x, x, c, pool, bound, k))
                    reveals[x][pool] += 1
                    alive[pool] -= 1
                    hand[x] -= 1
                    del pool_of[c]
                    self.public.add(c)
                    self.shed[x].add(c)
                if kind == "discard":
                    discards.append(action.card.index)
            elif kind == "choose_needle":
                self.picked[x] = True
            self.steps.append((action, x, k, made_pool))
        self.pool_of = pool_of
        self._needles(view)

    def _token(self, pool: int, pos: int, holder: int) -> int:
        """A new token: the card at `pos` of `pool`, coming into `holder`'s hand."""
        self.tok_pool.append(pool)
        self.tok_pos.append(pos)
        self.tok_holder.append(holder)
        return len(self.tok_pool) - 1

    def _needles(self, view: dict[str, Any]) -> None:
        """Shown needles (round over), where a found needle must be, and the needle bounds."""
        self.shown: list[int | None] = [None, None]
        self.found_token: int | None = None
        self.fixed: dict[tuple[int, int], int] = {}
        h = self.rules.hand_size
        for x in (0, 1):
            code = view["players"][x]["needle"]
            if code is not None:
                self.shown[x] = Card.parse(code).index
        result = view["result"] or {}
        if result.get("reason") == "found":
            x = result["needle_owner"]
            needle = self.shown[x]
            last = self.ops[-1] if self.ops else None
            if last is None or needle is None or self.pool_of.get(needle) != 0:
                raise ReplayError("view: no consistent world for the needle found")
            if last[0] == "draw":
                tok = last[2][-1] if last[2] else None
                if tok is None or self.tok_pool[tok] != 0 or last[1] != x:
                    raise ReplayError("view: no consistent world for the needle found")
                self.fixed[(0, self.tok_pos[tok])] = needle
                self.found_token = tok
            elif last[0] == "steal" and last[1] == x:
                _, _, y, k = last
                # forced: the steal takes the token that holds the needle (a reveal in y's hand)
                self.ops[-1] = ("found", x, y, needle, 0, 0, k)  # bound 0: the victim's hand size
            else:
                raise ReplayError("view: no consistent world for the needle found")
        # needle bounds: x held its dealt cards and its draws from pool 0 (all different), and of the cards
        # y showed and x did not, at most one per steal by y came from x; so in every world
        # |V_x| <= 52 - (h + pool-0 draws of x + max(0, |shed_y - shed_x| - steals of y))
        self.needle_bound = [
            52 - (h + self.pool0_draws[x] + max(0, len(self.shed[1 - x] - self.shed[x]) - self.steal_count[1 - x]))
            for x in (0, 1)
        ]

    def sample_hidden(self, rng: random.Random) -> tuple | None:
        """One proposal: None if rejected, else (pool arrays, steal tokens by action, needles)."""
        tok_pool = self.tok_pool
        hands = [self.dealt[0][:], self.dealt[1][:]]
        held = [1 << holder for holder in self.tok_holder]
        card_of: dict[int, int] = {}
        taken: dict[int, int] = {}
        for op in self.ops:
            kind = op[0]
            if kind == "draw":
                hands[op[1]].extend(op[2])
            elif kind == "steal":
                _, x, y, k = op
                source = hands[y]
                i = rng.randrange(len(source))
                tok = source[i]
                source[i] = source[-1]
                source.pop()
                hands[x].append(tok)
                held[tok] |= 1 << x
                taken[k] = tok
            else:  # a card leaves a hand in sight: "reveal" (x's discard or set) or "found" (x steals their needle)
                _, x, owner, c, pool, bound, k = op
                eligible = [t for t in hands[owner] if tok_pool[t] == pool]
                if rng.random() * (bound or len(hands[owner])) >= len(eligible):
                    return None
                tok = eligible[rng.randrange(len(eligible))]
                card_of[tok] = c
                hands[owner].remove(tok)
                if kind == "found":
                    taken[k] = tok  # held by the finder only at the very end: not in held
        arrays = self._fill(card_of, rng)
        ever: list[set[int]] = [set(), set()]
        for tok, bits in enumerate(held):
            if tok != self.found_token:
                card = arrays[tok_pool[tok]][self.tok_pos[tok]]
                if bits & 1:
                    ever[0].add(card)
                if bits & 2:
                    ever[1].add(card)
        needles: list[int | None] = [None, None]
        for x in (0, 1):
            shown = self.shown[x]
            if shown is not None:
                if shown in ever[x]:
                    return None
                needles[x] = shown
            elif self.picked[x]:
                valid = [c for c in range(52) if c not in ever[x] and c not in self.public]
                if rng.random() * self.needle_bound[x] >= len(valid):
                    return None
                needles[x] = valid[rng.randrange(len(valid))]
        return arrays, taken, needles

    def _fill(self, card_of: dict[int, int], rng: random.Random) -> list[list[int]]:
        """Each pool's placed cards where they go, the others in a uniform random order on the free positions."""
        arrays: list[list[int | None]] = [[None] * len(cards) for cards in self.pool_cards]
        for (pool, pos), c in self.fixed.items():
            arrays[pool][pos] = c
        for tok, c in card_of.items():
            arrays[self.tok_pool[tok]][self.tok_pos[tok]] = c
        out = []
        for cards, array in zip(self.pool_cards, arrays, strict=True):
            placed = {c for c in array if c is not None}
            rest = [c for c in cards if c not in placed]
            rng.shuffle(rest)
            it = iter(rest)
            out.append([next(it) if c is None else c for c in array])
        return out

    def world(self, rng: random.Random) -> Game:
        """One world, drawn exactly uniformly by rejection (at most MAX_TRIES proposals)."""
        for _ in range(MAX_TRIES):
            hidden = self.sample_hidden(rng)
            if hidden is not None:
                break
        else:
            raise ReplayError(
                f"view: no spectator world accepted in {MAX_TRIES:,} proposals: after reshuffles with hidden "
                "steals they can be too rare for this sampler (or the view is not a real one); use a player's view"
            )
        arrays, taken, needles = hidden
        deck = [DECK[i] for i in arrays[0]]
        game = Game(rules=self.rules, seed=rng.getrandbits(63), deck=deck, first_player=self.first_player)
        for action, x, k, made in self.steps:
            if action is None:
                action = A.ChooseNeedle(DECK[needles[x]])
            stolen = None
            if k in taken:
                tok = taken[k]
                stolen = DECK[arrays[self.tok_pool[tok]][self.tok_pos[tok]]]
            order = None if made is None else [DECK[i] for i in arrays[made]]
            try:
                if stolen is None and order is None:
                    game.apply(action)
                else:
                    game.apply_recorded(action, stolen=stolen, reshuffle=order)
            except IllegalAction as error:
                raise ReplayError(f"view history[{k}]: no game gives this view ({error})") from None
        return game


# ---- outcomes: play the sampled worlds to the end ------------------------------------------

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
        """In words, e.g. "Player 1 wins 58% (51-65%) of 200 worlds; draws 3% (1-6%); loses 39% (32-46%)."."""
        def share(kind: str) -> str:
            value = {"win": self.win, "draw": self.draw, "loss": self.loss}[kind]
            if self.certain:
                return f"{value:.0%}"
            lo, hi = self.interval(kind)
            return f"{value:.0%} ({100 * lo:.0f}-{100 * hi:.0f}%)"

        who = "Player 1" if self.player == 0 else "Player 2"
        head = f"{who} wins {share('win')} of {self.n} worlds; draws {share('draw')}; loses {share('loss')}"
        ends = ", ".join(f"{reason} {count}" for reason, count in self.reasons if count)
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
    view: dict[str, Any], bots: Sequence[Any], n: int, *, seed: int | None = None, model: None = None,
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
    spectator. Hidden past choices come from the model (model=None: uniform needle
    picks, as `sample` draws them), future ones from the bots. In the needle phase
    that means: a needle not yet picked is picked by its bot in the rollout, a hidden
    one already picked is uniform. A finished round gives certain Outcomes.

    The result depends only on the view, the bots, n and seed: twin games that
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
    if model is not None:
        raise ArgumentError(f"model={model!r}"[:120] + ": opponent models come in a later version; use model=None")
    if type(n) is not int or not 1 <= n <= MAX_WORLDS:
        raise ArgumentError(f"n must be an integer from 1 to {MAX_WORLDS:,}, not {n!r}"[:200])
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
    pair = _check_bots(bots)
    seat = view.get("perspective") if isinstance(view, dict) else None
    player = _check_for_player(for_player, seat)
    rng = random.Random(seed)
    over = isinstance(view, dict) and view.get("result") is not None
    worlds = sample(view, 1 if over else n, seed=rng.getrandbits(63))
    names = (_bot_label(pair[0]), _bot_label(pair[1]))
    if over:
        results = [worlds[0].result] * n
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
    replay: Any, seat: int | str, n: int, *, bots: Sequence[Any], seed: int | None = None, model: None = None,
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
    >>> from needle_widget.sim import play_game
    >>> replay = play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay()
    >>> last = evaluation(replay, 0, 20, bots=(bots.GreedyBot(), bots.GreedyBot()), seed=1, steps=[len(replay)])
    >>> last[0].certain, last[0].win in (0.0, 1.0)
    (True, True)
    """
    from .replay import Replay

    if not isinstance(replay, Replay):
        raise ArgumentError(f"replay must be a needle_widget Replay, not {replay!r}"[:200])
    if seat == "teacher":
        raise PerspectiveError("evaluation needs a player's or the spectator's seat, not the teacher's")
    if seat != "spectator" and (type(seat) is not int or seat not in (0, 1)):
        raise PerspectiveError(f"seat {seat!r}"[:120] + " is not a player (0 or 1) or 'spectator'")
    if model is not None:
        raise ArgumentError(f"model={model!r}"[:120] + ": opponent models come in a later version; use model=None")
    if type(n) is not int or not 1 <= n <= MAX_WORLDS:
        raise ArgumentError(f"n must be an integer from 1 to {MAX_WORLDS:,}, not {n!r}"[:200])
    if seed is None:
        seed = secrets.randbits(63)
    if type(seed) is not int or seed < 0:
        raise ArgumentError(f"seed must be a non-negative integer or None, not {seed!r}"[:200])
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
        o = outcomes(replay.game_at(k).view(seat), bots, n, seed=step_seed, for_player=for_player)
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


def _roll(world: Game, bots: tuple[Any, Any], seed: int, k: int, n: int) -> Any:
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
    while world.phase != "over":
        p = world.to_move
        legal = world.legal_actions()
        if len(legal) == 1:
            world.apply(legal[0])
            continue
        bot = players[p]
        try:
            action = bot.choose(world.player_view(p, record=reads_history(bot)), legal)
        except Exception as error:
            raise _bot_error(bot, p, "raised", legal, k, n, seed, cause=error) from error
        try:
            world.apply(action)
        except Exception as error:  # IllegalAction, InvalidAction, or whatever a strange object causes
            problem = "illegal" if isinstance(action, Action) else "not an action"
            raise _bot_error(bot, p, problem, legal, k, n, seed, action=action, cause=error) from error
    return world.result


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
