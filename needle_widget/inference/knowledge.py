"""Knowledge: what a player can infer about the two needles, from their own view only.

For a player (a `PlayerView`), `opponent_needle_odds` gives the probability that
each card is the opponent's needle, and `own_needle_odds` where their own needle
is (draw pile or the opponent's hand) and the chance the top card of the pile is
it. `for_player` packs both as JSON for the widget's info panel; `teacher_summary`
puts where each needle really is beside what each player believes.

The method: Bayes over the hidden worlds the player cannot tell apart
----------------------------------------------------------------------
Assumptions (the model):

- A1. The deal and every reshuffle (D1) are uniformly random.
- A2. Each player picks their needle uniformly among the cards not in their own
  hand (S3), whatever that hand is.
- A3. The players' choices carry no information about hidden cards or needles
  beyond what they show: the chance that the opponent discards card X (lays set S,
  steals rather than draws) is the same in every hidden world where X is in
  their hand. A uniformly random player satisfies this exactly for discards,
  draws and steals; laying sets breaks it a little (a player who could lay a
  set and did not, says something about their hand), and so does a player who
  steers by their needle. Steals are uniform (T1).

A2 and A3 hold for RandomBot, and the figures are calibrated against it (within
0.013). They do not hold for GreedyBot, which picks the card its hand needs
least (an ace 47% of the time, a king 21%) and steers its discards: over 1,000
GreedyBot games "the opponent's needle is in my hand" was predicted at 0.167 and
happened 0.111 of the time. Read the figures as what a player can know without a
model of the opponent.

Let p be the player and q the opponent. A live round gives p hard facts about
q's needle N: N was never in q's hand (S3 at the deal; E1 once the round is on)
and was never discarded or laid (E2, E3). So N is none of the cards p knows q
has held (`opponent_held_mask`: steals both ways, q's discards and sets), none of
the public cards (`public_mask`), none of the cards p knows are in q's hand now
(`known_opponent_mask`). Every other card is either in p's hand, or *unseen*:
p has never seen it, so it is in the draw pile or in the unseen part of q's hand.
Call the unseen cards U.

Before the first reshuffle the draw pile holds only cards nobody has seen, so
U = pile + q's unseen hand cards, #U = m + k (m = pile size, k = q's hand size
minus the cards p knows in it). By A1 and A3, whatever places the history forces
on the cards p did see, the unseen cards fill the other m + k places in every
order with equal chance. The history also says q never drew N; weighing each
world by the number of needles it allows (p's eligible cards, plus the m unseen
cards in the pile: the same count in every world) keeps that uniform. Hence:

* an unseen card is in the pile with probability m / #U, and
* P(N = c) is proportional to 1 for an eligible card c in p's hand (it cannot
  be in q's hand) and to m / #U for an unseen card c (it must be in the pile).

After the first reshuffle the pile is made only of once-discarded, public cards
(D1 refills an empty pile from the discards), so every unseen card is in q's
hand: unseen cards get weight 0, and N is certainly one of p's eligible cards.
While q has not picked yet (needle phase) the same weights hold for the pick q
is about to make. When the round is over, q's needle is shown, and gets 1.

p's own needle n is, in a live round, never in p's hand and never public, so it
is unseen (or, in principle, known to be in q's hand). Before a reshuffle
P(n in pile) = m / #U, P(n in q's hand) = 1 - that, and the chance that the top
card of the pile is n is 1 / #U. After a reshuffle n is in q's hand for sure,
and an empty pile (the next draw reshuffles public cards) never gives n.

The method is checked in `tests/test_knowledge.py` against small cases by hand,
against a Monte Carlo that replays the history in resampled hidden worlds, and
against the real frequencies over many games of uniformly random players
(calibration). Against players who break A2 or A3 (a bot that picks the needle
its hand needs least, or steers by its needle) the figures are a model, not the
truth: they can be off by a few hundredths, because such choices do tell.

>>> from needle_widget import Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
>>> odds = opponent_needle_odds(g.player_view(0))
>>> round(odds.in_my_hand, 4), round(7 / 45, 4)   # 7 cards of mine, each 1/45
(0.1556, 0.1556)
>>> [round(x, 4) for x in own_needle_odds(g.player_view(0))]   # 38 of the 45 unseen cards are in the pile
[0.8444, 0.1556, 0.0222]
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..engine.bitmasks import FULL
from ..engine.cards import DECK, SUITS, Card
from ..engine.errors import ArgumentError
from ..engine.game import Game
from ..engine.observation import PlayerView

__all__ = [
    "MODEL_WORLDS", "ModelNeedleOdds", "NeedleOdds", "OwnNeedleOdds", "opponent_needle_odds", "own_needle_odds",
    "for_player", "teacher_summary",
]

MODEL_WORLDS = 400
"""How many worlds (particles) `opponent_needle_odds` weighs with a model, by default."""

_BYTE_BITS: tuple[tuple[int, ...], ...] = tuple(tuple(i for i in range(8) if b >> i & 1) for b in range(256))


def _indices(mask: int) -> list[int]:
    """The bit positions of `mask`, ascending (a byte table: no loop over 52 bits)."""
    out: list[int] = []
    base = 0
    while mask:
        byte = mask & 255
        if byte:
            out += [base + i for i in _BYTE_BITS[byte]]
        mask >>= 8
        base += 8
    return out


class NeedleOdds:
    """P(the opponent's needle is card c) for every card c, as one player sees it.

    Cards fall in at most two groups of equal probability (`my_weight` for the
    player's own eligible cards, `unseen_weight` for unseen cards); everything
    else is 0. `probs` is built on first use, so making one is cheap.

    >>> from needle_widget import Game, Card, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> odds = opponent_needle_odds(g.player_view(0))
    >>> round(sum(odds.probs), 9), len(odds.grid()), len(odds.grid()[0])
    (1.0, 4, 13)
    >>> mine = g.hand(0)[0]
    >>> round(odds.of(mine), 4), round(odds.of(Card.parse("7h")), 4)   # 1/45 and (38/45)/45
    (0.0222, 0.0188)
    """

    __slots__ = ("hand_mask", "my_mask", "my_weight", "unseen_mask", "unseen_weight", "in_my_hand", "_probs")

    def __init__(self, hand_mask: int, my_mask: int, my_weight: float, unseen_mask: int, unseen_weight: float) -> None:
        self.hand_mask = hand_mask
        """The viewer's hand."""
        self.my_mask = my_mask
        """Cards with probability `my_weight` (the viewer's eligible cards, or the revealed needle)."""
        self.my_weight = my_weight
        self.unseen_mask = unseen_mask
        """Cards with probability `unseen_weight` (unseen by the viewer and still possible)."""
        self.unseen_weight = unseen_weight
        self.in_my_hand: float = my_weight * (my_mask & hand_mask).bit_count() + unseen_weight * (
            unseen_mask & hand_mask
        ).bit_count()
        """Probability that the opponent's needle is one of the viewer's hand cards."""
        self._probs: tuple[float, ...] | None = None

    @property
    def probs(self) -> tuple[float, ...]:
        """52 probabilities by card index (sum 1; 0 for impossible cards)."""
        if self._probs is None:
            out = [0.0] * 52
            for i in _indices(self.my_mask):
                out[i] = self.my_weight
            for i in _indices(self.unseen_mask):
                out[i] = self.unseen_weight
            self._probs = tuple(out)
        return self._probs

    @property
    def possible_mask(self) -> int:
        """Cards with a probability above 0."""
        return (self.my_mask if self.my_weight > 0 else 0) | (self.unseen_mask if self.unseen_weight > 0 else 0)

    @property
    def possible(self) -> int:
        """How many cards could still be the opponent's needle."""
        return self.possible_mask.bit_count()

    def of(self, card: Card | str) -> float:
        """P(the opponent's needle is `card`); text such as "7h" is read with `Card.parse`."""
        i = Card.parse(card).index
        if self.my_mask >> i & 1:
            return self.my_weight
        if self.unseen_mask >> i & 1:
            return self.unseen_weight
        return 0.0

    def grid(self) -> list[list[float]]:
        """4 rows (suits C, D, H, S) of 13 probabilities (ranks A, 2, ..., K)."""
        probs = self.probs
        return [[probs[4 * r + s] for r in range(13)] for s in range(len(SUITS))]

    def most_likely(self, n: int = 5) -> list[tuple[Card, float]]:
        """The `n` likeliest cards, likeliest first (ties by card index); impossible cards left out."""
        pairs = [(self.my_weight, i) for i in _indices(self.my_mask)]
        pairs += [(self.unseen_weight, i) for i in _indices(self.unseen_mask)]
        ranked = sorted(pairs, key=lambda pair: (-pair[0], pair[1]))
        return [(DECK[i], w) for w, i in ranked[: max(n, 0)] if w > 0]

    def __repr__(self) -> str:
        top = ", ".join(f"{c} {w:.3f}" for c, w in self.most_likely(3))
        return f"<NeedleOdds: {self.possible} possible, in my hand {self.in_my_hand:.3f}; {top}>"


class ModelNeedleOdds(NeedleOdds):
    """Needle odds from a model's posterior (`opponent_needle_odds(view, model=...)`): any 52 probabilities.

    The same API as NeedleOdds; `ess` is the effective sample size of the worlds
    behind it and `model` the model's name.
    """

    __slots__ = ("ess", "model")

    def __init__(self, hand_mask: int, probs: tuple[float, ...], ess: float, model: str) -> None:
        possible = sum(1 << i for i, p in enumerate(probs) if p > 0)
        super().__init__(hand_mask, possible, 0.0, 0, 0.0)
        self._probs = tuple(probs)
        self.in_my_hand = sum(p for i, p in enumerate(probs) if hand_mask >> i & 1)
        self.ess = ess
        self.model = model

    def of(self, card: Card | str) -> float:
        """P(the opponent's needle is `card`); text such as "7h" is read with `Card.parse`."""
        return self.probs[Card.parse(card).index]

    def most_likely(self, n: int = 5) -> list[tuple[Card, float]]:
        """The `n` likeliest cards, likeliest first (ties by card index); impossible cards left out."""
        ranked = sorted((-p, i) for i, p in enumerate(self.probs) if p > 0)
        return [(DECK[i], -p) for p, i in ranked[: max(n, 0)]]

    @property
    def possible_mask(self) -> int:
        """Cards with a probability above 0."""
        return self.my_mask

    def __repr__(self) -> str:
        top = ", ".join(f"{c} {w:.3f}" for c, w in self.most_likely(3))
        return (f"<NeedleOdds under {self.model}: {self.possible} possible, in my hand {self.in_my_hand:.3f}; {top}; "
                f"ESS {self.ess:.0f}>")


class OwnNeedleOdds(NamedTuple):
    """Where a player's own needle is, as they see it.

    `in_pile` and `in_opponent_hand` (they sum to 1 in a live round; both 0 once
    the needle is in the player's hand or public); `next_draw`: the chance that
    the top card of the draw pile is the needle, i.e. that a pile draw now finds
    it (the player's next draw on their own turn). All None before the player
    has picked; `next_draw` is None once the round is over.
    """

    in_pile: float | None
    in_opponent_hand: float | None
    next_draw: float | None



def unseen_mask(view: PlayerView) -> int:
    """U: the cards `view`'s player has never seen (not in hand, never public, not known in the
    opponent's hand): they are in the draw pile or the unseen part of the opponent's hand.
    """
    return FULL & ~(view.hand_mask | view.public_mask | view.known_opponent_mask)


def unseen_pile_share(view: PlayerView, unseen: int | None = None) -> float:
    """P(an unseen card is in the draw pile): pile size / #U before the first reshuffle, else 0."""
    if view.reshuffles:
        return 0.0
    size = (unseen_mask(view) if unseen is None else unseen).bit_count()
    return view.pile_size / size if size else 0.0


def opponent_needle_odds(
    view: PlayerView | dict[str, Any], model: Any = None, *, n: int = MODEL_WORLDS, seed: int = 0,
    epsilon: float | None = None,
) -> NeedleOdds:
    """P(the opponent's needle is c) for each card c, given only what `view`'s player knows.

    `view` is a `PlayerView` (`game.player_view(p)`). Eligible cards (never held
    by the opponent, never public) weigh 1 in the player's hand and m/#U when
    unseen (0 after a reshuffle); see the module docstring for why. Once the round
    is over the opponent's needle is shown and gets probability 1.

    With a `model` of the opponent (a bot such as `bots.GreedyBot()`, or an object
    with `policy(view, legal_actions)`), the odds are the posterior that also weighs
    how likely the opponent's observed decisions are under it (`worlds.posterior`,
    `n` particles, `seed`, `epsilon`): A2 and A3 give way to the model. That needs
    the history, so `view` is then the dict `game.view(p)` gives, or a PlayerView
    with its `record` (`game.player_view(p, record=True)`). The result has the same
    API (`probs`, `of`, `grid`, `in_my_hand`, `most_likely`), plus `ess`.
    """
    if model is not None:
        return _modelled_odds(view, model, n, seed, epsilon)
    if not isinstance(view, PlayerView):
        raise ArgumentError(f"view must be a PlayerView (game.player_view(p)), not {type(view).__name__}"
                            " (a view dict needs a model)")
    hand = view.hand_mask
    shown = view.opponent_needle
    if shown is not None:
        return NeedleOdds(hand, 1 << shown.index, 1.0, 0, 0.0)
    known = view.public_mask | view.known_opponent_mask
    unseen = FULL & ~(hand | known)
    n_unseen = unseen.bit_count()
    share = 0.0 if view.reshuffles or not n_unseen else view.pile_size / n_unseen
    eligible = FULL & ~(known | view.opponent_held_mask)
    mine = eligible & hand
    unseen &= eligible  # a no-op in a real game: cards the opponent held were all seen
    total = mine.bit_count() + share * unseen.bit_count()
    if total <= 0.0:  # no world fits what the player saw (cannot happen under the model): spread evenly
        count = eligible.bit_count()
        return NeedleOdds(hand, eligible, 1.0 / count if count else 0.0, 0, 0.0)
    return NeedleOdds(hand, mine, 1.0 / total, unseen, share / total)


def _modelled_odds(view: Any, model: Any, n: int, seed: int, epsilon: float | None) -> NeedleOdds:
    """The model's posterior needle odds (see `opponent_needle_odds`)."""
    from . import worlds

    record = view.record if isinstance(view, PlayerView) else view
    if not isinstance(record, dict):
        raise ArgumentError("with a model, view must be game.view(p) or game.player_view(p, record=True): "
                            "the model reads the opponent's decisions in the history")
    post = worlds.posterior(record, n, seed=seed, model=model,
                            epsilon=worlds.EPSILON if epsilon is None else epsilon)
    hand = 0
    for code in record["players"][record["perspective"]]["hand"]:
        hand |= 1 << Card.parse(code).index
    probs = post.needle_probs
    assert probs is not None  # the pick's odds before the opponent picks, the posterior's after: never None
    return ModelNeedleOdds(hand, probs, post.ess, post.model)


def own_needle_odds(view: PlayerView) -> OwnNeedleOdds:
    """Where `view`'s player's own needle is: P(in the draw pile), P(in the opponent's hand),
    and P(the top card of the pile is it).

    Before a reshuffle an unseen card is in the pile with probability m/#U, and
    each pile position holds it with probability 1/#U; after one, the pile holds
    only public cards. None before the player has picked a needle.
    """
    needle = view.needle
    if needle is None:
        return OwnNeedleOdds(None, None, None)
    over = view.phase == "over"
    bit = 1 << needle.index
    if view.known_opponent_mask & bit:
        return OwnNeedleOdds(0.0, 1.0, None if over else 0.0)
    unseen = unseen_mask(view)
    if not unseen & bit:  # in my hand (found) or public (discarded, laid): the round is over
        return OwnNeedleOdds(0.0, 0.0, None if over else 0.0)
    share = unseen_pile_share(view, unseen)
    next_draw = None if over else (share / view.pile_size if view.pile_size else 0.0)
    return OwnNeedleOdds(share, 1.0 - share, next_draw)


def _card_code(card: Card | None) -> str | None:
    return card.code if card is not None else None


def odds_to_json(view: PlayerView, top: int = 5) -> dict[str, Any]:
    """The JSON form of one player's figures (what `for_player` returns), from a `PlayerView`."""
    odds = opponent_needle_odds(view)
    own = own_needle_odds(view)
    return {
        "player": view.player,
        "opponent_needle": {
            "grid": odds.grid(),
            "in_my_hand": odds.in_my_hand,
            "top": [[card.code, p] for card, p in odds.most_likely(top)],
            "possible": odds.possible,
            "revealed": _card_code(view.opponent_needle),
        },
        "own_needle": {
            "card": _card_code(view.needle),
            "in_pile": own.in_pile,
            "in_opponent_hand": own.in_opponent_hand,
            "next_draw": own.next_draw,
        },
    }


def for_player(game: Game, player: int) -> dict[str, Any]:
    """Player `player`'s figures as JSON, built from `game.player_view(player)` only::

        {"player": p,
         "opponent_needle": {"grid": 4 x 13 (suits C D H S, ranks A..K), "in_my_hand": float,
                             "top": [[code, prob], ...] (likeliest 5), "possible": int,
                             "revealed": code or None},
         "own_needle": {"card": code or None, "in_pile", "in_opponent_hand", "next_draw": float or None}}

    >>> from needle_widget import Game
    >>> info = for_player(Game(seed=1), 0)   # nobody has picked yet
    >>> info["own_needle"], info["opponent_needle"]["top"][0]
    ({'card': None, 'in_pile': None, 'in_opponent_hand': None, 'next_draw': None}, ['AH', 0.022222222222222223])
    """
    return odds_to_json(game.player_view(player))


def needle_location(game: Game, player: int) -> dict[str, Any]:
    """Where `player`'s needle really is (omniscient: for the teacher).

    {"player": p, "card": code or None, "where": "pile" | "hand" (the owner's, found) |
    "opponent_hand" | "discards" | "sets" | None, "pile_position": k (0 = top) or None}
    """
    needle = game.needle(player)
    out: dict[str, Any] = {"player": player, "card": _card_code(needle), "where": None, "pile_position": None}
    if needle is None:
        return out
    pile = game.draw_pile
    if needle in game.hand(player):
        out["where"] = "hand"
    elif needle in game.hand(1 - player):
        out["where"] = "opponent_hand"
    elif needle in pile:
        out["where"] = "pile"
        out["pile_position"] = pile.index(needle)
    elif needle in game.discard_pile:
        out["where"] = "discards"
    elif any(needle in s for q in (0, 1) for s in game.sets(q)):
        out["where"] = "sets"
    return out


def teacher_summary(game: Game) -> dict[str, Any]:
    """Where each needle really is, beside what each player infers (`for_player`).

    {"needles": [needle_location(game, 0), needle_location(game, 1)], each also with
     "opponent_belief": the probability the opponent gives that card;
     "players": [for_player(game, 0), for_player(game, 1)]}

    >>> from needle_widget import Game, actions
    >>> g = Game(seed=7)
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> s = teacher_summary(g)
    >>> s["needles"][0]["card"], s["needles"][0]["where"], s["players"][1]["own_needle"]["card"]
    ('7H', 'pile', 'QS')
    """
    players = [for_player(game, 0), for_player(game, 1)]
    needles = []
    for p in (0, 1):
        where = needle_location(game, p)
        needle = game.needle(p)
        where["opponent_belief"] = (
            opponent_needle_odds(game.player_view(1 - p)).of(needle) if needle is not None else None
        )
        needles.append(where)
    return {"needles": needles, "players": players}
