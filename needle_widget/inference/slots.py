"""Slots: where the cards a seat cannot see can be, worked out once from its view.

`plan_for(view)` reads the dict `game.view(p)` gives and returns a plan: for a
player a `PlayerPlan` (pools of cards, the slots they fill, the cards revealed
from the opponent's hand, where the opponent's needle can be), for the spectator
a `SpectatorPlan`. `plan.world(rng)` draws one consistent world uniformly;
`worlds` samples with it, and `posterior` reweights its slots by an opponent model.

The method, for player p (opponent q)
-------------------------------------
Every card p cannot place sits in a *slot* of a *pool*. Pool 0 is the deal: the
52 - h_p cards outside p's dealt hand, over q's h_q dealt-hand slots and the draw
pile's positions (h_p, h_q: the deal sizes `Rules.dealt`, unequal under V1).
Reshuffle k (D1) makes pool k: its cards are public (the discards under the
top), its slots the new pile's positions. A pile position is
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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple, cast

from ..engine import actions as A
from ..engine.actions import Action
from ..engine.cards import DECK, Card
from ..engine.draws import below, shuffle
from ..engine.errors import ArgumentError, IllegalAction, NeedleError, PerspectiveError, ReplayError
from ..engine.game import Game, Hidden
from ..engine.rules import Rules

__all__ = ["MAX_TRIES", "PlayerPlan", "Pool", "SeenAction", "SpectatorPlan", "Step", "plan_for"]

MAX_TRIES = 5_000
"""The most proposals the spectator's rejection sampler makes for one world before it gives up."""

_OUTCOME_KINDS = ("draw_pile", "steal", "end_sets")
"""Actions whose "cards" field in a view is what entered the hand, not part of the action."""

_Event = tuple[int, str, Action | None, list[int] | None, int, list[int]]
"""An event of a view's history as `_event` reads it."""
_Op = tuple[Any, ...]
"""One step the spectator's proposal plays forward, tagged by its first item: ("draw", x, tokens),
("steal", x, y, action index), ("reveal", x, x, card, pool, bound, action index) or ("found", x, y,
needle, 0, 0, action index) (see `SpectatorPlan.sample_hidden`)."""
_Hidden = tuple[list[list[int]], dict[int, int], list[int | None]]
"""One accepted spectator proposal: (each pool's cards by position, the token each steal took by action
index, each player's needle or None)."""

class SeenAction(NamedTuple):
    """One action of the history as p saw it, to re-apply in a world: None for the opponent's hidden needle pick."""

    action: Action | None
    stolen: Card | None
    pool: int | None
    """The pool this action's reshuffle makes, or None."""
    player: int
    """Who acted."""


Step = SeenAction
"""The earlier name of `SeenAction`, kept for code that imports it."""


class Pool:
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


class PlayerPlan:
    """Everything the view fixes; `world(rng)` draws one consistent world."""

    def __init__(self, player: int, rules: Rules, first_player: int) -> None:
        self.player = player
        self.rules = rules
        self.first_player = first_player
        self.dealt: list[int] = []
        self.pools: list[Pool] = []
        self.steps: list[SeenAction] = []
        self.needle_hand: list[int] = []
        """Live round, q has picked: p's hand cards that can be q's needle (with pool 0's undrawn positions)."""
        self.needle_picked = False
        self.shown_needle: int | None = None
        self.needle_pool: int | None = None
        """The pool in which a shown needle of q must sit at an undrawn position, if p never saw it."""
        self._hidden: list[int] | None = None
        self.drawn: dict[int, list[tuple[int, int]]] = {}
        """Per pile-drawing step: the (pool, position) of each card drawn, in order."""

    def world(self, rng: random.Random) -> Game:
        """One world: each pool placed as the module docstring says, then the history re-applied."""
        placed, needle = self.draw(rng)
        return self.build(placed, needle, rng.getrandbits(63))

    def worlds(self, n: int, rng: random.Random) -> list[Game]:
        """The n worlds: the first built by replaying the history, the others from it (`variant`).

        Only the current pool (the last reshuffle's, or the deal's) decides a world's present: every older
        pool's pile was drawn to the end, so its free cards are all in q's hand, wherever they sat. So each
        world places only that pool and q's needle now, from `rng`, and leaves the older pools to a generator
        of its own (seeded from `rng`), placed when its deal or history is first read: the same uniform
        draw (the pools are placed independently), at a cost that does not grow with the game's length.
        """
        template = self.world(rng)
        out = [template]
        current = len(self.pools) - 1
        for _ in range(n - 1):
            last = self._place(current, self.pools[current], rng)
            needle = self._needle(last, rng)
            seed = rng.getrandbits(63)
            later: Callable[[], tuple[list[Card], dict[int, Hidden]]]
            if current:
                later = partial(self._recorded_from, last, needle, rng.getrandbits(63))
            else:
                later = partial(self.recorded, [last], needle)
            out.append(self.variant_of(template, last, needle, seed, later))
        return out

    def draw(self, rng: random.Random) -> tuple[list[list[int]], int | None]:
        """A uniform placement of every pool, and q's needle (None before its pick)."""
        placed = [self._place(k, pool, rng) for k, pool in enumerate(self.pools)]
        return placed, self._needle(placed[-1], rng)

    def _needle(self, last: list[int], rng: random.Random) -> int | None:
        """The opponent q's needle (None before its pick), given the current pool's placement `last`: uniform among p's
        hand cards q never held and, while the deal's pile is the pile, the cards at its undrawn positions.
        """
        needle = self.shown_needle
        if needle is None and self.needle_picked:
            undrawn = self.pools[0].undrawn if len(self.pools) == 1 else []
            r = below(rng, len(self.needle_hand) + len(undrawn))
            needle = self.needle_hand[r] if r < len(self.needle_hand) else last[undrawn[r - len(self.needle_hand)]]
        return needle

    def build(self, placed: list[list[int]], needle: int | None, seed: int) -> Game:
        """The world with each pool's cards at `placed[k]` (position -> card index) and q's needle
        `needle`: the history re-applied to a new Game seeded with `seed`.
        """
        game = self.start(placed, seed)
        for k, action, stolen, order in self.moves(placed, needle):
            try:
                if stolen is None and order is None:
                    game.apply(action)  # no chance in it: the same as apply_recorded, and quicker
                else:
                    game.apply_recorded(action, stolen=stolen, reshuffle=order)
            except IllegalAction as error:
                raise ReplayError(f"view history[{k}]: no game gives this view ({error})") from None
        return game

    def variant(self, template: Game, placed: list[list[int]], needle: int | None, seed: int) -> Game:
        """The same world as `build(placed, needle, seed)` (its generator aside), made from `template`,
        any world of this plan, by replacing what p cannot see (`Game.with_hidden`): no replay. Its deal and
        history are written out when first read (`recorded`).
        """
        return self.variant_of(template, placed[-1], needle, seed, partial(self.recorded, placed, needle))

    def variant_of(self, template: Game, last: list[int], needle: int | None, seed: int,
               later: Callable[[], tuple[list[Card], dict[int, Hidden]]]) -> Game:
        """`template` with q's hand, the pile and q's needle of a world whose current pool is placed as `last`."""
        q = 1 - self.player
        pile = [last[pos] for pos in self.pools[-1].undrawn]
        needles = [-1, -1]
        mine = template.needle(self.player)
        needles[self.player] = mine.index if mine is not None else -1
        needles[q] = -1 if needle is None else needle
        hand_masks: list[int | None] = [None, None]
        hand_masks[self.player] = template.hand_mask(self.player)
        return template.with_hidden(seed=seed, hands=(hand_masks[0], hand_masks[1]), pile=pile,
                                    needles=(needles[0], needles[1]), later=later)

    def _recorded_from(self, last: list[int], needle: int | None, seed: int) -> tuple[list[Card], dict[int, Hidden]]:
        """`recorded` for a world whose older pools are placed now, by a generator seeded with `seed`."""
        rng = random.Random(seed)
        placed = [self._place(k, pool, rng) for k, pool in enumerate(self.pools[:-1])]
        return self.recorded([*placed, last], needle)

    def recorded(self, placed: list[list[int]], needle: int | None) -> tuple[list[Card], dict[int, Hidden]]:
        """The deal and the log entries p cannot see, of the world placed as `placed` with q's needle `needle`."""
        deck = self.deal(placed[0])
        events: dict[int, Hidden] = {}
        for k in self.hidden_steps():
            step = self.steps[k]
            action = step.action
            if action is None:
                assert needle is not None  # a hidden pick is q's (`_Walk.apply`): `draw` gave q's needle
                action = A.CHOOSE_NEEDLE[needle]
            cards = tuple(DECK[placed[pool][pos]] for pool, pos in self.drawn.get(k, ()))
            shuffles = (tuple(DECK[i] for i in placed[step.pool]),) if step.pool is not None else ()
            events[k] = (action, cards, shuffles)
        return deck, events

    def hidden_steps(self) -> list[int]:
        """The steps whose record holds something p cannot see: q's pile draws, reshuffles, q's needle pick."""
        if self._hidden is None:
            q = 1 - self.player
            self._hidden = [k for k, step in enumerate(self.steps)
                            if step.action is None or step.pool is not None or (step.player == q and k in self.drawn)]
        return self._hidden

    def start(self, placed: list[list[int]], seed: int) -> Game:
        """The world at the deal: p's dealt hand, q's from pool 0's first slots, the pile from the rest."""
        return Game(rules=self.rules, seed=seed, deck=self.deal(placed[0]), first_player=self.first_player)

    def deal(self, first: list[int]) -> list[Card]:
        """The deck as dealt (S2) from pool 0's placement: Player 1's hand, Player 2's, then the pile.
        q's hand is pool 0's first `Rules.dealt(q, first_player)` positions (V1: the hands can differ).
        """
        hq = self.rules.dealt(1 - self.player, self.first_player)
        hands = [self.dealt, first[:hq]] if self.player == 0 else [first[:hq], self.dealt]
        return [DECK[i] for i in hands[0] + hands[1] + first[hq:]]

    def moves(
        self, placed: list[list[int]], needle: int | None
    ) -> list[tuple[int, Action, Card | None, list[Card] | None]]:
        """(index, action, stolen card, reshuffle order) for each step of the history in that world."""
        out = []
        for k, step in enumerate(self.steps):
            action = step.action
            if action is None:
                assert needle is not None  # a hidden pick is q's (`_Walk.apply`): `draw` gave q's needle
                action = A.CHOOSE_NEEDLE[needle]
            order = None if step.pool is None else [DECK[i] for i in placed[step.pool]]
            out.append((k, action, step.stolen, order))
        return out

    def complete(self, k: int, assigned: dict[int, int], needle: int | None, rng: random.Random) -> list[int]:
        """Pool k's cards on its positions, given the cards `assigned` to every q-slot (position -> card):
        q's needle (if it is one of this pool's free cards, or a shown needle that must be here) at a
        uniformly chosen undrawn position, the other free cards in a uniform random order on the rest.
        """
        pool = self.pools[k]
        out: list[int | None] = [None] * pool.size
        for pos, card in pool.fixed.items():
            out[pos] = card
        for pos, card in assigned.items():
            out[pos] = card
        here = self.shown_needle if k == self.needle_pool else needle if needle in pool.free else None
        if here is not None:
            out[pool.undrawn[below(rng, len(pool.undrawn))]] = here
        taken = set(assigned.values())
        rest = sorted(c for c in pool.free if c not in taken and c != here)
        shuffle(rng, rest)
        it = iter(rest)
        return [next(it) if card is None else card for card in out]

    def _place(self, k: int, pool: Pool, rng: random.Random) -> list[int]:
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
            i = below(rng, len(open_))  # the plan checked that there is a choice
            out[open_[i]] = card
            open_[i] = open_[-1]
            open_.pop()
        if k == self.needle_pool:
            out[pool.undrawn[below(rng, len(pool.undrawn))]] = self.shown_needle
        rest = sorted(pool.free)
        shuffle(rng, rest)
        it = iter(rest)
        return [next(it) if card is None else card for card in out]


def plan_for(view: Any) -> PlayerPlan | SpectatorPlan:
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
        return SpectatorPlan(view) if perspective == "spectator" else _Walk(view, perspective).plan
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
        self.plan = plan = PlayerPlan(p, rules, first)
        history = view["history"]
        if not isinstance(history, list):
            raise ReplayError(f"view history: expected a list, got {type(history).__name__}")
        events = [_event(e, k) for k, e in enumerate(history)]
        hand = {Card.parse(c).index for c in view["players"][p]["hand"]}
        plan.dealt = dealt = sorted(_undo(hand, events, p))
        hp, hq = rules.dealt(p, first), rules.dealt(self.q, first)  # S2, V1: the second player may get more
        if len(dealt) != hp:
            raise ReplayError(f"view: the history gives Player {p + 1} a dealt hand of {len(dealt)} cards, "
                              f"not {hp}")
        pool0 = Pool([i for i in range(52) if i not in set(dealt)], 52 - hp)
        pool0.q_slots = [(-1, i) for i in range(hq)]
        pool0.next = hq
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
            c = cast("list[int]", cards)[0]  # a steal is shown to both players (None, TypeError: a ReplayError)
            stolen = DECK[c]
            if mine:
                self.leave_q(k, c)
                self.hand.add(c)
            else:
                self.hand.remove(c)
                self.known.add(c)
                self.held.add(c)
        elif kind in ("discard", "lay_set"):
            assert action is not None  # `_event` hides no action but a needle pick
            for card in A.cards_of(action):
                if mine:
                    self.hand.remove(card.index)
                else:
                    self.leave_q(k, card.index)
                self.public.add(card.index)
            if type(action) is A.Discard:  # kind == "discard"
                self.discards.append(action.card.index)
        elif kind == "choose_needle" and not mine:
            self.plan.needle_picked = True
        elif kind == "choose_needle" and action is None:
            raise ReplayError(f"view history[{k}]: Player {self.p + 1}'s own needle pick is hidden")
        self.plan.steps.append(SeenAction(action, stolen, made, player))

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
        drawn = self.plan.drawn[k] = []
        seen: list[int] = cards if cards is not None else []  # read for p's own draws only, which p sees
        for i in range(count):
            pool = pools[-1]
            if pool.next == pool.size:
                if len(self.discards) < 2:
                    raise ReplayError(f"view history[{k}]: a draw from an empty pile with nothing to reshuffle")
                rest = self.discards[:-1]
                del self.discards[:-1]
                pool = Pool(rest, len(rest))
                made = len(pools)
                pools.append(pool)
                for card in rest:
                    self.pool_of[card] = made
                done.append(len(rest))
            pos = pool.next
            pool.next += 1
            drawn.append((len(pools) - 1, pos))
            if mine:
                card = seen[i]
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
        home = self.pool_of.get(needle)
        if result.get("reason") == "found" and result.get("needle_owner") == self.q and home is not None:
            where = self.last_q_slot
            if where is None or where[0] != home or where[2] != len(plan.steps) - 1:
                raise ReplayError(f"view: no consistent world: Player {self.q + 1} cannot have drawn {shown}")
            target = plan.pools[home]
            target.free.remove(needle)
            target.fixed[where[1]] = needle
            target.q_slots.remove((where[2], where[1]))
        elif home is not None:
            if plan.pools[home] is not last or not last.undrawn:
                raise ReplayError(f"view: no consistent world: {shown} must be in the draw pile, which is empty")
            last.free.remove(needle)
            plan.needle_pool = len(plan.pools) - 1


def _event(raw: Any, k: int) -> _Event:
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


def _undo(hand: set[int], events: list[_Event], p: int) -> set[int]:
    """The dealt hand of p: the hand now with p's history undone, last event first."""
    dealt = set(hand)
    for player, kind, action, cards, _, _ in reversed(events):
        if kind in _OUTCOME_KINDS and cards is not None and (player == p or kind == "steal"):
            if player == p:
                dealt.difference_update(cards)
            else:
                dealt.update(cards)  # the opponent stole it from p
        elif kind in ("discard", "lay_set") and player == p:
            assert action is not None  # `_event` hides no action but a needle pick
            dealt.update(c.index for c in A.cards_of(action))
    return dealt


class SpectatorPlan:
    """The public skeleton of a spectator's view: tokens, pools and bounds; `world(rng)` samples one world."""

    def __init__(self, view: dict[str, Any]) -> None:
        self.player = "spectator"
        self.rules = rules = Rules.from_dict(view["rules"])
        first = view["first_player"]
        if type(first) is not int or first not in (0, 1):
            raise ReplayError(f"view first_player {first!r} is not 0 or 1")
        self.first_player = first
        sizes = [rules.dealt(0, first), rules.dealt(1, first)]  # S2, V1: the second player may get more
        history = view["history"]
        if not isinstance(history, list):
            raise ReplayError(f"view history: expected a list, got {type(history).__name__}")
        events = [_event(e, k) for k, e in enumerate(history)]
        self.pool_sizes = [52]
        self.pool_cards: list[list[int]] = [list(range(52))]
        self.tok_pool: list[int] = []
        self.tok_pos: list[int] = []
        self.tok_holder: list[int] = []
        self.dealt = [list(range(sizes[0])), list(range(sizes[0], sizes[0] + sizes[1]))]
        for x in (0, 1):
            for pos in self.dealt[x]:
                self._token(0, pos, x)
        nxt = sizes[0] + sizes[1]  # next pile position of the current pool
        pool_of = dict.fromkeys(range(52), 0)
        discards: list[int] = []
        hand = sizes[:]
        draws = [{0: sizes[0]}, {0: sizes[1]}]  # draws[x][k]: tokens of pool k that came into x's hand by deal or draw
        steals_since = [{0: 0}, {0: 0}]  # steals by x since pool k was made
        reveals = [{0: 0}, {0: 0}]
        alive = {0: nxt}
        self.public: set[int] = set()
        self.shed: list[set[int]] = [set(), set()]
        self.pool0_draws = [0, 0]
        self.steal_count = [0, 0]
        self.picked = [False, False]
        self.ops: list[_Op] = []
        self.steps: list[tuple[Action | None, int, int, int | None]] = []
        """(action, or None for a hidden needle pick; player; action index; the pool its reshuffle makes)."""
        pool: int | None
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
                assert action is not None  # `_event` hides no action but a needle pick
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
                if type(action) is A.Discard:  # kind == "discard"
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
        # |V_x| <= 52 - (h_x + pool-0 draws of x + max(0, |shed_y - shed_x| - steals of y)), h_x x's deal size
        self.needle_bound = [
            52 - (len(self.dealt[x]) + self.pool0_draws[x]
                  + max(0, len(self.shed[1 - x] - self.shed[x]) - self.steal_count[1 - x]))
            for x in (0, 1)
        ]

    def sample_hidden(self, rng: random.Random) -> _Hidden | None:
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
                i = below(rng, len(source))
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
                tok = eligible[below(rng, len(eligible))]
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
                needles[x] = valid[below(rng, len(valid))]
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
            shuffle(rng, rest)
            it = iter(rest)
            out.append([next(it) if c is None else c for c in array])
        return out

    def worlds(self, n: int, rng: random.Random) -> list[Game]:
        """The n worlds, each drawn by `world`."""
        return [self.world(rng) for _ in range(n)]

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
                needle = needles[x]
                assert needle is not None  # x picked, hidden: `sample_hidden` drew x's needle
                action = A.ChooseNeedle(DECK[needle])
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
