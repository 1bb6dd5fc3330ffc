"""Game: the state machine of one round, phase by phase, exactly as docs/RULES.md reads.

Phases: "needle" (S3, Player 1 then Player 2) -> "draw" (T1) -> "sets" (T3, ended
by EndSets, which replenishes: T4) -> "discard" (T5) -> the next player's "draw",
until "over" (E1-E5); under the optional variant V2 `first_draw="none"` turn 1 starts at
"sets". Every chance event (the deal, each steal, each reshuffle)
comes from one seeded `random.Random` and is recorded in `history`.
"""

from __future__ import annotations

import random
import secrets
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, overload

from mypy_extensions import mypyc_attr

from . import actions as A
from . import rollout
from .actions import Action
from .bitmasks import cards_of, has_set, mask_of
from .cards import DECK, Card, CardLike
from .draws import Start, Stream, below, shuffle
from .errors import ArgumentError, CardError, IllegalAction, InvalidAction, PerspectiveError, RulesError
from .observation import PlayerView, SetCards, legal_for
from .observers import Observers
from .result import Reason, Result
from .rollout import Chooser, Entry, Record
from .rules import Rules, set_points
from .seats import Perspective, player_name

if TYPE_CHECKING:
    from ..records.replay import Replay

PHASES = ("needle", "draw", "sets", "discard", "over")
_DRAW_PILE, _STEAL, _LAY_SET, _END_SETS, _DISCARD, _CHOOSE = (
    A.DrawPile, A.Steal, A.LaySet, A.EndSets, A.Discard, A.ChooseNeedle,
)

_FULL = (1 << 52) - 1
_CARD_RULES = Rules()
"""The card's rules (the default): one instance, validated once."""
_KINDS = frozenset((_DRAW_PILE, _STEAL, _LAY_SET, _END_SETS, _DISCARD, _CHOOSE))


class Event(NamedTuple):
    """One applied action with what it caused.

    `cards`: the cards it moved into the actor's hand (drawn, stolen, replenished),
    in order; `reshuffles`: each D1 reshuffle it caused, as the new draw pile top first.
    """

    turn: int
    player: int
    action: Action
    cards: tuple[Card, ...]
    reshuffles: tuple[tuple[Card, ...], ...]


_new_tuple = tuple.__new__
Outcome = tuple[tuple[Card, ...], tuple[tuple[Card, ...], ...]]
"""What an action caused: the cards it moved into the actor's hand, and each reshuffle's new pile."""
_NOTHING: Outcome = ((), ())
_Entry = Entry
Hidden = tuple[Action, tuple[Card, ...], tuple[tuple[Card, ...], ...]]
"""A replaced log entry (`Game.with_hidden`): the action, the cards it drew, each reshuffle's new pile."""
_Public = tuple[tuple[int, ...], tuple[tuple[SetCards, ...], tuple[SetCards, ...]]]
"""The public record a view shows: the discards (card indices, bottom first), then each player's sets."""


_STATE = (
    "rules", "seed", "_rng", "_start", "_deck", "_later", "first_player", "_observers", "_players", "_forced",
    "_hands", "_pile",
    "_discards", "_table", "_needles", "_sets", "_public", "_scores", "_shed", "_stolen", "_seen_held", "_reshuffles",
    "_last_steal", "_laid", "_log", "_moves", "_legal", "_extra_starts", "_steal_gap", "_first_steal", "_free_steal",
    "_next_steals", "phase", "to_move", "turn", "result",
)
"""A game's fields, in the order a new game sets them: what it pickles (`__getstate__`)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # a test narrows the legality predicate in a subclass
class Game:
    """One round of Needle in a Card Stack.

    >>> g = Game(seed=7)
    >>> g.phase, g.to_move, len(g.hand(0)), len(g.draw_pile)
    ('needle', 0, 7, 38)
    >>> from needle_widget import actions
    >>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS"))
    >>> g.phase, g.turn, g.legal_actions()
    ('draw', 1, [DrawPile(), Steal()])
    >>> g.apply(actions.Discard("7h"))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.IllegalAction: Discard 7♥ not allowed: it is Player 1's draw on turn 1 (legal: ...)
    """

    def __init__(
        self,
        rules: Rules | None = None,
        seed: int | None = None,
        deck: Sequence[CardLike] | None = None,
        first_player: int | None = None,
    ) -> None:
        if rules is not None and not isinstance(rules, Rules):
            hint = " (for a dict, use Rules.from_dict)" if isinstance(rules, dict) else ""
            raise RulesError(f"rules must be a needle_widget Rules, not {rules!r}"[:200] + hint)
        self.rules: Rules = (rules if rules is not None else _CARD_RULES).validate()
        if seed is None:
            seed = secrets.randbits(63)
        if type(seed) is not int or seed < 0:
            raise ArgumentError(f"seed must be a non-negative integer, not {seed!r}"[:200])
        self.seed: int = seed
        self._rng: random.Random | None = None
        """The generator, made from `_start` when first asked for (`_generator`): a copy costs no generator state."""
        self._start = Start(seed, None)
        if deck is None:
            order = list(DECK)
            shuffle(self._generator(), order)
        else:
            order = _check_deck(deck)
        self._deck: tuple[Card, ...] = tuple(order)
        self._later: _Later | None = None
        fp = self.rules.first_player
        if first_player is not None and fp != "random" and first_player != fp:
            raise RulesError(f"first_player {first_player!r} contradicts Rules.first_player {fp!r}"[:200])
        if first_player is not None and (type(first_player) is not int or first_player not in (0, 1)):
            raise PerspectiveError(f"first_player must be 0 or 1, not {first_player!r}"[:200])
        self.first_player: int = (
            first_player if first_player is not None else self._generator().randrange(2) if fp == "random" else int(fp)
        )
        self._observers: Observers | None = None  # made by the first observe(): most games have none
        self._players: tuple[str, str] = ("human", "human")
        self._forced: tuple[int, tuple[int, ...]] | None = None
        h, h2 = self.rules.dealt(0, self.first_player), self.rules.dealt(1, self.first_player)
        self._hands = [mask_of(order[:h]), mask_of(order[h : h + h2])]
        self._pile = [c.index for c in reversed(order[h + h2 :])]
        self._discards: list[int] = []
        self._table = 0
        """The cards in the sets and on the discard pile (a mask), kept as cards are laid, discarded, reshuffled."""
        self._needles = [-1, -1]
        self._sets: list[list[tuple[Card, Card, Card]]] = [[], []]
        self._public: _Public | None = None
        """(the discards, both players' sets) as tuples for views, made once between changes (None: to make)."""
        self._scores = [0, 0]
        self._shed = [0, 0]
        self._stolen = [0, 0]
        self._seen_held = [0, 0]
        self._reshuffles = 0
        self._last_steal: list[int | None] = [None, None]
        self._laid = 0
        self._log: list[_Entry] = []
        """The log, possibly shared with copies (copy-on-write): only the first `_moves` entries are this game's."""
        self._moves = 0
        self._legal: tuple[Action, ...] | None = None
        self._extra_starts = self.rules.set_starts()[11:]
        self._steal_gap = 2 * self.rules.steal_every
        self._first_steal = 3 if self.rules.first_draw == "none" or (
            self.rules.first_draw == "pile" and self._pile) else 1
        """The first turn on which the first player may steal (V2: 3 unless the pile is empty at the deal, D2)."""
        self._free_steal = self.rules.second_free_steal
        self._next_steals = [self._compute_next_steal(0), self._compute_next_steal(1)]
        self.phase: str = "needle"
        self.to_move: int = 0
        self.turn: int = 0
        self.result: Result | None = None

    @property
    def players(self) -> tuple[str, str]:
        """Who plays each seat: a bot's name or "human" (recorded in replays). Setting it tells the observers."""
        return self._players

    @players.setter
    def players(self, names: tuple[str, str]) -> None:
        names = tuple(names)  # type: ignore[assignment]
        if names != self._players:
            self._players = names
            self._changed()

    # ---- observers ---------------------------------------------------------------

    def observe(self, callback: Callable[[Game], Any]) -> Callable[[], None]:
        """Call `callback(game)` after every change of what the game shows: each action applied
        (`apply`, `apply_recorded`; a refused action changes nothing and tells nobody) and each
        change of `players`. Returns a function that stops it.

        A bound method is held weakly (an observer that is gone is dropped); any other callable,
        strongly. Copies (`copy`, `with_hidden`) start with no observers. An open widget of the
        game observes it, so `game.apply(...)` from Python moves the widget on too.

        >>> g = Game(seed=7)
        >>> seen = []
        >>> stop = g.observe(lambda game: seen.append(len(game)))
        >>> g.apply(A.ChooseNeedle("7h")); stop(); g.apply(A.ChooseNeedle("QS"))
        >>> seen
        [1]
        """
        if self._observers is None:
            self._observers = Observers()
        return self._observers.add(callback, ArgumentError, "observe")

    def _changed(self) -> None:
        if self._observers is not None:
            self._observers.notify(self)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled and deep-copied without its observers (a widget is not part of the game)."""
        self._settle()
        state = dict(getattr(self, "__dict__", ()))  # a subclass's own fields too
        state.update((name, getattr(self, name)) for name in _STATE)
        state["_observers"] = None
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        for name, value in state.items():
            setattr(self, name, value)

    # ---- questions -------------------------------------------------------------

    def hand(self, player: int) -> list[Card]:
        """Player's hand, sorted by rank then suit (omniscient: not for a player's eyes)."""
        return cards_of(self._hands[_check_player(player)])

    def needle(self, player: int) -> Card | None:
        """Player's needle, or None before they pick (omniscient)."""
        n = self._needles[_check_player(player)]
        return DECK[n] if n >= 0 else None

    def sets(self, player: int) -> list[tuple[Card, Card, Card]]:
        """The sets player has laid, in order."""
        return list(self._sets[_check_player(player)])

    @property
    def draw_pile(self) -> list[Card]:
        """The draw pile, top first (omniscient)."""
        return [DECK[i] for i in reversed(self._pile)]

    @property
    def discard_pile(self) -> list[Card]:
        """The discard pile, bottom first: the top card is last."""
        return [DECK[i] for i in self._discards]

    @property
    def scores(self) -> tuple[int, int]:
        """Points of each player's sets (P1, P2), plus the needle bonus once awarded (P3)."""
        return (self._scores[0], self._scores[1])

    def hand_size(self, player: int) -> int:
        """How many cards `player` holds (public)."""
        return self._hands[_check_player(player)].bit_count()

    @property
    def pile_size(self) -> int:
        """How many cards the draw pile holds (public)."""
        return len(self._pile)

    @property
    def is_over(self) -> bool:
        """Whether the round has ended (E1-E5)."""
        return self.phase == "over"

    @property
    def history(self) -> list[Event]:
        """Every applied action with the cards it drew and the reshuffles it caused."""
        self._settle()
        return [_new_tuple(Event, entry) for entry in self._log[: self._moves]]

    def event(self, k: int) -> Event:
        """The k-th applied action with what it caused (negative k counts from the end), in O(1)."""
        n = self._moves
        if type(k) is not int or not -n <= k < n:
            raise IndexError(f"event {k!r} out of range for a game of {n} actions")
        self._settle()
        return _new_tuple(Event, self._log[k % n])

    def __len__(self) -> int:
        """The number of actions applied so far."""
        return self._moves

    def last_steal_turn(self, player: int) -> int | None:
        """The turn of `player`'s last steal, or None."""
        return self._last_steal[_check_player(player)]

    def next_steal_turn(self, player: int) -> int:
        """The first turn (numbered as in docs/RULES.md) on which player may steal again under T2
        (and the optional variants V2, V3).
        """
        return self._next_steal(_check_player(player))

    def _next_steal(self, p: int) -> int:
        return self._next_steals[p]

    def _compute_next_steal(self, p: int) -> int:
        """T2 (V2, V3): the first turn on which `p` may steal again, from `p`'s last steal (kept in
        `_next_steals`, updated at each steal: views and bots ask at every decision).
        """
        last = self._last_steal[p]
        if last is None:
            return self._first_steal if p == self.first_player else 2
        if last == 2 and self._free_steal and p != self.first_player:
            return 4  # V3: the second player's steal on their first turn does not count
        return last + self._steal_gap

    def may_steal(self, player: int) -> bool:
        """T2: whether the steal limit and a non-empty opponent hand would let `player` steal on
        this turn (whoever is to move; `is_legal(Steal())` also asks whose draw it is).
        """
        return self._steal_block(_check_player(player), words=False) is None

    @overload
    def _steal_block(self, p: int, words: Literal[True] = ...) -> str | None: ...
    @overload
    def _steal_block(self, p: int, words: Literal[False]) -> Literal[True] | None: ...
    def _steal_block(self, p: int, words: bool = True) -> str | Literal[True] | None:
        """T1/T2: why `p` may not steal on this turn (True instead of the words if `words` is False), or None."""
        if not self._hands[1 - p]:
            return f"{player_name(1 - p)}'s hand is empty" if words else True
        last = self._last_steal[p]
        if last is None:
            if self.turn == 1 and self._first_steal == 3 and p == self.first_player:
                return (("the first player may not draw on turn 1 (V2)" if self.rules.first_draw == "none"
                         else "the first player may not steal on turn 1 (V2)") if words else True)
            return None
        nxt = self._next_steal(p)
        if self.turn < nxt:
            return f"{player_name(p)} stole on turn {last}; next steal on turn {nxt}" if words else True
        return None

    def _may_draw(self) -> bool:
        """D1: whether the player to move may draw from the pile (a card there, or discards to reshuffle)."""
        return bool(self._pile) or len(self._discards) >= 2

    def _draw_block(self) -> str | None:
        """D1: why the player to move may not draw from the pile, or None."""
        if self._may_draw():
            return None
        return f"the draw pile is empty and the discard pile has {len(self._discards)} card(s) to reshuffle"

    # ---- the public record: what views, replays and knowledge read ------------------------

    def hand_mask(self, player: int) -> int:
        """Player's hand as a 52-bit mask, bit `card.index` (omniscient)."""
        return self._hands[_check_player(player)]

    def shed_mask(self, player: int) -> int:
        """Every card `player` has discarded or laid in a set (public)."""
        return self._shed[_check_player(player)]

    def stolen_mask(self, player: int) -> int:
        """Every card `player` has stolen (known to both players, T1)."""
        return self._stolen[_check_player(player)]

    @property
    def reshuffles(self) -> int:
        """How many times the discards were reshuffled into a new draw pile (D1)."""
        return self._reshuffles
    def known_opponent_mask(self, player: int) -> int:
        """The cards `player` knows are in the opponent's hand now, as a mask (bit `card.index`).

        An explicit record, updated by each event the player sees: the opponent's
        steal from them adds the card; the opponent's discard or set, or the player's
        own steal of that card, removes it. A card that comes back through a
        reshuffle (D1) is not known again: the new pile order is hidden.
        """
        return self._seen_held[_check_player(player)]

    # ---- legal actions ---------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """The actions the player to move may take, in a stable order, without duplicates.

        needle: ChooseNeedle for each card outside the picker's hand; draw: DrawPile
        then Steal; sets: each LaySet (by starting rank; Q-K-A, K-A-2 last) then EndSets; discard: each
        card of the hand; over: none. Exactly the actions for which `why_not` is None,
        enumerated from the hand's bitmask rather than by trying every action.
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return list(legal)

    def only_action(self) -> Action | None:
        """The one legal action when there is exactly one (a draw with no steal allowed, sets with none to
        lay, a last card to discard), else None: from the same list as `legal_actions()`, kept until the
        next action. The trusted rollout path plays it without asking a bot (`playout.play_out`).
        """
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal()
        return legal[0] if len(legal) == 1 else None

    def forced_action(self) -> Action | None:
        """`only_action()`, without listing the legal actions where the hand tells at once: a last card to discard,
        no set to lay. What the trusted rollout path asks at every step (`playout.play_out`).
        """
        legal = self._legal
        if legal is not None:
            return legal[0] if len(legal) == 1 else None
        phase = self.phase
        if phase == "discard":
            hand = self._hands[self.to_move]
            if hand:
                return None if hand & (hand - 1) else A.DISCARD[hand.bit_length() - 1]
        if phase == "sets":
            return None if has_set(self._hands[self.to_move], self._extra_starts) else A.END_SETS
        return self.only_action()

    def _compute_legal(self) -> tuple[Action, ...]:
        phase = self.phase
        if phase == "draw":  # the one predicate decides the draws (a subclass's why_not too)
            if type(self) is Game:  # its answers for a draw, without the words of a refusal
                may_draw = self._may_draw()
                may_steal = self._steal_block(self.to_move, words=False) is None
            else:
                may_draw, may_steal = self.why_not(A.DRAW_PILE) is None, self.why_not(A.STEAL) is None
            return legal_for(phase, self._hands[self.to_move], self._extra_starts, may_draw, may_steal)
        return legal_for(phase, self._hands[self.to_move], self._extra_starts, False, False)

    # ---- applying actions ------------------------------------------------------

    def is_legal(self, action: Action) -> bool:
        """Whether `action` may be played now (`why_not(action) is None`)."""
        return self.why_not(action) is None

    def why_not(self, action: Action) -> str | None:
        """None if the player to move may play `action` now; else the reason, in words.

        The one source of legality: `apply()` refuses what it refuses, `legal_actions()`
        lists what it allows, and the widget shows its reasons on disabled controls.
        Something that is not an action raises InvalidAction.

        >>> g = Game(seed=7)
        >>> g.apply(A.ChooseNeedle("7h")); g.apply(A.ChooseNeedle("QS"))
        >>> g.why_not(A.Steal()) is None, g.is_legal(A.EndSets())
        (True, False)
        >>> g.why_not(A.Discard("7h"))
        "it is Player 1's draw on turn 1 (legal: Draw from pile, Steal from opponent)"
        """
        # `type(action) is X` wherever the action's fields are read: mypy narrows `action` on that test, not on a
        # saved `kind`. Still one type() call per legal action, as before, but for a LaySet (two).
        phase = self.phase
        p = self.to_move
        if phase == "discard":
            if type(action) is _DISCARD:
                if self._hands[p] >> action.card.index & 1:
                    return None
                return f"{player_name(p)} does not hold {action.card}"
        elif phase == "draw":
            kind = type(action)
            if kind is _DRAW_PILE:
                return self._draw_block()
            if kind is _STEAL:
                return self._steal_block(p)
        elif phase == "sets":
            if type(action) is _END_SETS:
                return None
            if type(action) is _LAY_SET:
                return self._set_block(p, action.cards)
        elif phase == "needle" and type(action) is _CHOOSE:
            if self._hands[p] >> action.card.index & 1:
                return f"{action.card} is in {player_name(p)}'s own hand; a needle must be a card you do not hold"
            return None
        kind = type(action)
        if kind not in _KINDS:
            raise InvalidAction(f"Not an action: {action!r}"[:200] + " (expected one of needle_widget.engine.actions)")
        if phase == "over":
            assert self.result is not None  # a round over has its result
            return f"the round is over ({self.result.describe()})"
        if self.turn == 1 and (kind is _DRAW_PILE or kind is _STEAL) and self.rules.first_draw == "none":
            return "the first player may not draw on turn 1 (V2)"
        where = "picking needles" if phase == "needle" else f"on turn {self.turn}"
        legal = self.legal_actions()
        more = ", ..." if len(legal) > 6 else ""
        return f"it is {player_name(p)}'s {phase} {where} (legal: {', '.join(map(str, legal[:6]))}{more})"

    def _set_block(self, p: int, cards: tuple[Card, Card, Card]) -> str | None:
        """T3: why `p` may not lay `cards` as a set now (in their sets phase), or None."""
        a, b, c = cards
        mask = 1 << a.index | 1 << b.index | 1 << c.index
        if mask.bit_count() != 3:
            return "a set needs three different cards"
        if self._hands[p] & mask != mask:
            missing = [x for x in cards if not self._hands[p] >> x.index & 1]
            return f"{player_name(p)} does not hold {' '.join(map(str, missing))}"
        if not self.rules.is_set(cards):
            return f"ranks are not consecutive under ace rule {self.rules.ace!r}"
        return None

    def apply(self, action: Action) -> None:
        """Apply the action of the player to move (see `legal_actions`).

        An action that is not legal now raises IllegalAction, naming the action
        and the reason (`why_not`), changes nothing and tells no observer; a legal one
        tells every observer once it is applied (`observe`).
        """
        reason = self.why_not(action)
        if reason is not None:
            name = "Steal" if type(action) is _STEAL else str(action)
            raise IllegalAction(f"{name} not allowed: {reason}")
        self.apply_trusted(action)

    def apply_trusted(self, action: Action) -> None:
        """Apply an action known to be legal now, without asking `why_not` again: one taken from
        `legal_actions()`, or chosen by a trusted bot on the rollout path (`playout.play_out`). The
        game then goes exactly as after `apply`, and observers are told. An action that is not legal
        corrupts the game: anything that comes from a person, a file or an unknown bot goes through
        `apply`.
        """
        turn, p = self.turn, self.to_move
        self._legal = None
        cards, shuffles = _APPLY[type(action)](self, p, action)
        log = self._log
        if len(log) != self._moves:  # shared with a copy that has moved on: copy on write
            log = self._log = log[: self._moves]
        log.append((turn, p, action, cards, shuffles))
        self._moves += 1
        if self._observers is not None:
            self._observers.notify(self)

    def _draw_pile(self, p: int, action: A.DrawPile) -> Outcome:
        shuffled = self._reshuffle() if not self._pile else ()
        card = self._pile.pop()
        self._hands[p] |= 1 << card
        if card == self._needles[p]:
            self._finish(Reason.FOUND, p)
        else:
            self.phase = "sets"
        return (DECK[card],), shuffled

    def _discard(self, p: int, action: A.Discard) -> Outcome:
        index = action.card.index
        self._hands[p] ^= 1 << index
        self._shed[p] |= 1 << index
        self._seen_held[1 - p] &= ~(1 << index)
        self._discards.append(index)
        self._table |= 1 << index
        self._public = None
        if index == self._needles[1 - p]:
            self._finish(Reason.DISCARDED, 1 - p)
        else:
            self._end_turn()
        return _NOTHING

    def _lay_set(self, p: int, action: A.LaySet) -> Outcome:
        cards = action.cards
        mask = (1 << cards[0].index) | (1 << cards[1].index) | (1 << cards[2].index)
        self._hands[p] ^= mask
        self._shed[p] |= mask
        self._seen_held[1 - p] &= ~mask
        self._table |= mask
        self._sets[p].append(cards)
        self._public = None
        self._scores[p] += set_points(cards)
        self._laid += 1
        if self._needles[1 - p] in (cards[0].index, cards[1].index, cards[2].index):
            self._finish(Reason.MELDED, 1 - p)
        return _NOTHING

    def _end_sets(self, p: int, action: A.EndSets) -> Outcome:
        if not self._laid:  # T4: nothing laid, nothing to replenish
            if self._hands[p]:
                self.phase = "discard"
            else:
                self._end_turn()
            return _NOTHING
        drawn: list[int] = []
        shuffles: list[tuple[Card, ...]] = []
        found = False
        for _ in range(3 * self._laid):
            if not self._pile:
                if len(self._discards) < 2:
                    break
                shuffles.append(self._reshuffle()[0])
            card = self._pile.pop()
            self._hands[p] |= 1 << card
            drawn.append(card)
            if card == self._needles[p]:
                found = True
                break
        if found:
            self._finish(Reason.FOUND, p)
        elif self._hands[p]:
            self.phase = "discard"
        else:
            self._end_turn()
        return tuple([DECK[i] for i in drawn]), tuple(shuffles)

    def _steal(self, p: int, action: A.Steal) -> Outcome:
        opponent_cards = cards_of(self._hands[1 - p])
        card = opponent_cards[below(self._generator(), len(opponent_cards))].index
        if self._forced is not None:
            card = self._forced[0]
        self._hands[1 - p] ^= 1 << card
        self._hands[p] |= 1 << card
        self._stolen[p] |= 1 << card
        self._seen_held[1 - p] |= 1 << card
        self._seen_held[p] &= ~(1 << card)
        self._last_steal[p] = self.turn
        self._next_steals[p] = self._compute_next_steal(p)
        if card == self._needles[p]:
            self._finish(Reason.FOUND, p)
        else:
            self.phase = "sets"
        return (DECK[card],), ()

    def _choose_needle(self, p: int, action: A.ChooseNeedle) -> Outcome:
        self._needles[p] = action.card.index
        if p == 0:
            self.to_move = 1
        else:
            self.to_move = self.first_player
            self.turn = 1
            self.phase = "sets" if self.rules.first_draw == "none" else "draw"  # V2: no draw on turn 1
            self._check_exhausted()
        return _NOTHING

    def _reshuffle(self) -> tuple[tuple[Card, ...]]:
        """D1: keep the top discard, shuffle the rest into a new draw pile (top = last)."""
        rest = self._discards[:-1]
        del self._discards[:-1]
        table = self._table
        for i in rest:
            table &= ~(1 << i)
        self._table = table
        self._public = None
        shuffle(self._generator(), rest)
        if self._forced is not None:
            rest = list(reversed(self._forced[1]))
        self._pile = rest
        self._reshuffles += 1
        return (tuple([DECK[i] for i in reversed(rest)]),)

    def _end_turn(self) -> None:
        self._laid = 0
        if self.turn >= self.rules.max_turns:
            self._finish(Reason.TURN_LIMIT, None)
            return
        self.turn += 1
        self.to_move ^= 1
        self.phase = "draw"
        self._check_exhausted()

    def _check_exhausted(self) -> None:
        """E4: a draw with no legal action ends the round (the draws are computed once, and kept)."""
        self._legal = self._compute_legal()
        if not self._legal:
            self._finish(Reason.EXHAUSTED, None)

    def _finish(self, reason: Reason, owner: int | None) -> None:
        if reason is Reason.FOUND:
            assert owner is not None  # E1: the player who found their needle
            self._scores[owner] += self.rules.needle_bonus
        a, b = self._scores
        winner = None if a == b else (0 if a > b else 1)
        needle = DECK[self._needles[owner]] if owner is not None else None
        self.result = Result(winner, reason, (a, b), owner, needle, self.turn)
        self.phase = "over"
        self._legal = ()

    def apply_recorded(
        self, action: Action, stolen: Card | None = None, reshuffle: Sequence[Card] | None = None
    ) -> None:
        """Apply `action` with its recorded chance outcome instead of the generator's.

        The generator still advances as it would, so a game rebuilt from a faithful
        record goes on exactly like the original.

        `stolen`: the card a Steal takes; `reshuffle`: the new draw pile (top first)
        if the action reshuffles (D1; at most once per action). Used to load replays
        without trusting the generator; a recorded outcome that cannot have happened
        raises IllegalAction and changes nothing.
        """
        who = player_name(self.to_move)
        forced_steal = -1
        if type(action) is _STEAL:
            if stolen is None:
                raise IllegalAction(f"{who} steals but the stolen card is not recorded")
            opponent = 1 - self.to_move
            if self.phase == "draw" and not self._hands[opponent] >> stolen.index & 1:
                raise IllegalAction(f"{who} steals {stolen} but {player_name(opponent)} does not hold it")
            forced_steal = stolen.index
        elif stolen is not None:
            raise IllegalAction(f"{action} records a stolen card {stolen}, but only a steal steals")
        order: tuple[int, ...] = ()
        will = self._will_reshuffle(action)
        if reshuffle is not None:
            order = tuple(c.index for c in reshuffle)
            if not will or sorted(order) != sorted(self._discards[:-1]):
                raise IllegalAction(
                    f"{action} records a reshuffle of {' '.join(map(str, reshuffle)) or 'no cards'}, but "
                    + (f"the discards under the top are {' '.join(str(DECK[i]) for i in self._discards[:-1])}"
                       if will else "no reshuffle happens here")
                )
        elif will:
            raise IllegalAction(f"{action} reshuffles the discards, but no reshuffle order is recorded")
        self._forced = (forced_steal, order)
        try:
            self.apply(action)
        finally:
            self._forced = None

    def _will_reshuffle(self, action: Action) -> bool:
        """Whether applying `action` now would reshuffle the discards (D1)."""
        if len(self._discards) < 2 or not self.is_legal(action):
            return False
        kind = type(action)
        if kind is _DRAW_PILE:
            return not self._pile
        if kind is _END_SETS:
            need = 3 * self._laid
            top = self._pile[::-1][:need]
            return need > len(self._pile) and self._needles[self.to_move] not in top
        return False

    # ---- copies, views, replays --------------------------------------------------

    def dealt_again(self) -> Game:
        """A new game of the same deal, before any action: the same rules, seed, deck and first
        player, and the generator as it was after the deal (dealt by the seed where the seed deals
        this deck), so the same moves draw the same cards.

        >>> g = Game(seed=7)
        >>> g.apply(g.legal_actions()[0])
        >>> again = g.dealt_again()
        >>> len(again), again.deck == g.deck, again.seed
        (0, True, 7)
        """
        return Game.dealt(self.rules, self.seed, self.deck, self.first_player)

    @staticmethod
    def dealt(rules: Rules, seed: int, deck: Sequence[CardLike], first_player: int) -> Game:
        """The game `seed` deals if it deals this deck and first player (its generator then draws
        as in the original game), else the game of this deck and first player with a generator
        seeded by `seed`.
        """
        game = Game(rules=rules, seed=seed)
        if game.deck != tuple(Card.parse(c) for c in deck) or game.first_player != first_player:
            game = Game(rules=rules, seed=seed, deck=deck, first_player=first_player)
        return game

    def copy(self) -> Game:
        """An independent copy, generator state included.

        Cheap: O(state), not O(history), and no generator is copied. The log is shared, copy-on-write: an action
        applied to either game never shows in the other. The generator's state is kept once for both (a game
        whose generator has drawn gives it up, `Start`), and each makes its generator again from it when it
        first draws: a copy that never steals or reshuffles never pays for one.
        """
        rng = self._rng
        if rng is not None:
            self._start = Start(self.seed, rng.getstate())
            self._rng = None
        return self._clone()

    def play_on(self, choose: tuple[Chooser, Chooser], first: Action | None = None) -> Result:
        """The result of playing on from here: `first` if given (checked as `apply` checks it), then each player's
        action by `choose[p]` (a trusted bot's `choose_masks`) where they have a choice, to the end of the round,
        on this game's numbers (`engine.rollout`). The game itself is unchanged: a rollout needs no copy.
        The result is the one `playout.play_out` gives with the same bots on a copy, move for move.

        >>> from needle_widget.players.bots import GreedyBot
        >>> from needle_widget.engine.playout import play_out
        >>> g = Game(seed=3)
        >>> greedy = GreedyBot().choose_masks
        >>> g.play_on((greedy, greedy)) == play_out(g.copy(), (GreedyBot(), GreedyBot())), len(g)
        (True, 0)
        """
        if first is not None:
            reason = self.why_not(first)
            if reason is not None:
                raise IllegalAction(f"{'Steal' if type(first) is _STEAL else first} not allowed: {reason}")
        if self.result is not None:
            return self.result
        rng = self._rng
        if rng is not None:  # its state kept once, for this game and each rollout from it (as `copy` does)
            self._start = Start(self.seed, rng.getstate())
            self._rng = None
        return rollout.play_on(
            self.rules, choose, first, Stream(self._start), self.first_player, self.phase, self.to_move, self.turn,
            self._hands[:], self._pile[:], self._discards[:], self._table, self._needles[:], self._scores[:],
            self._seen_held[:], self._next_steals[:], self._laid, self._extra_starts, self._steal_gap,
            self._free_steal,
        )

    def play_through(self, choose: tuple[Chooser, Chooser]) -> Result:
        """Play this game on to its end in place, each player's action by `choose[p]` (a trusted bot's
        `choose_masks`) where they have a choice; its Result. The game ends exactly as after `apply_trusted`
        action by action (its history, its generator), in one loop over its numbers (`engine.rollout`): what
        `playout.play_out` does for two trusted bots that choose from masks.

        An observed game (`observe`) is played an action at a time, its observers told after each. Where a
        chooser raises, the error passes on and the game stands where it did then, as on the checked path.
        """
        if self._observers is not None or self._forced is not None or type(self) is not Game:
            while self.phase != "over":
                action = self.forced_action()
                if action is None:
                    p, phase = self.to_move, self.phase
                    action = choose[p](self.rules, phase, self._hands[p], self._table, self._seen_held[p],
                                       phase == "draw" and self._steal_block(p, words=False) is None)
                self.apply_trusted(action)
            assert self.result is not None  # a round over has its result
            return self.result
        if self.result is not None:
            return self.result
        draws = Stream(self._start, self._generator())  # its own generator, which it keeps
        hands, discards, needles, scores = self._hands[:], self._discards[:], self._needles[:], self._scores[:]
        known, next_steals = self._seen_held[:], self._next_steals[:]
        log = self._log if len(self._log) == self._moves else self._log[: self._moves]  # copy on write
        pile = self._pile[:]
        record = Record(log, self._shed[:], self._stolen[:], self._last_steal[:], [self._sets[0][:], self._sets[1][:]],
                        self._reshuffles, pile, self._table, self.turn, self.to_move, self._laid, self.phase)
        result: Result | None = None
        try:
            result = rollout.play_on(
                self.rules, choose, None, draws, self.first_player, self.phase, self.to_move, self.turn, hands,
                pile, discards, self._table, needles, scores, known, next_steals, self._laid,
                self._extra_starts, self._steal_gap, self._free_steal, record,
            )
        finally:  # played to the end, or where a chooser raised: the game stands there, as on the checked path
            self._hands, self._discards, self._needles, self._scores = hands, discards, needles, scores
            self._seen_held, self._next_steals = known, next_steals
            self._log, self._moves = record.log, len(record.log)
            self._shed, self._stolen, self._last_steal = record.shed, record.stolen, record.last_steal
            self._sets = record.sets
            self._reshuffles, self._pile, self._table = record.reshuffles, record.pile, record.table
            self.turn, self.to_move, self._laid, self.phase = record.turn, record.to_move, record.laid, record.phase
            self._public = None
            self.result = result
            if result is None:
                self._legal = None  # to list again where the chooser raised
            else:
                self._legal = ()
        assert result is not None  # played to its end
        return result

    def _generator(self) -> random.Random:
        """The generator, made from `_start` on first use."""
        rng = self._rng
        if rng is None:
            rng = self._rng = self._start.make()
        return rng

    def _settle(self) -> None:
        """Work out what a world left for later (`with_hidden(later=...)`): its deal and its log's hidden entries."""
        later = self._later
        if later is None:
            return
        deck, entries = later.resolve()
        log = self._log[: self._moves]
        for k, entry in entries.items():
            log[k] = entry
        self._log, self._deck, self._later = log, deck, None

    @property
    def deck(self) -> tuple[Card, ...]:
        """The deck as dealt (S2): Player 1's hand, Player 2's, then the draw pile top first."""
        if self._later is not None:
            self._settle()
        return self._deck

    def _clone(self) -> Game:
        """A copy of the state, its generator to be made from the same start (the log shared, copy-on-write)."""
        new = Game.__new__(Game)  # every field set here, in _STATE's order: no deal and no checks again
        new.rules = self.rules
        new.seed = self.seed
        new._rng = None
        new._start = self._start
        new._deck = self._deck
        new._later = self._later
        new.first_player = self.first_player
        new._observers = None
        new._players = self._players
        new._forced = self._forced
        new._hands = self._hands[:]
        new._pile = self._pile[:]
        new._discards = self._discards[:]
        new._table = self._table
        new._needles = self._needles[:]
        new._sets = [self._sets[0][:], self._sets[1][:]]
        new._public = self._public
        new._scores = self._scores[:]
        new._shed = self._shed[:]
        new._stolen = self._stolen[:]
        new._seen_held = self._seen_held[:]
        new._reshuffles = self._reshuffles
        new._last_steal = self._last_steal[:]
        new._laid = self._laid
        new._log = self._log
        new._moves = self._moves
        new._legal = self._legal
        new._extra_starts = self._extra_starts
        new._steal_gap = self._steal_gap
        new._first_steal = self._first_steal
        new._free_steal = self._free_steal
        new._next_steals = self._next_steals[:]
        new.phase = self.phase
        new.to_move = self.to_move
        new.turn = self.turn
        new.result = self.result
        return new

    def with_hidden(
        self, *, deck: Sequence[Card] | None = None, seed: int, hands: tuple[int | None, int | None],
        pile: Sequence[int], needles: tuple[int, int], events: Mapping[int, Hidden] | None = None,
        later: Callable[[], tuple[Sequence[Card], Mapping[int, Hidden]]] | None = None,
    ) -> Game:
        """A copy of this game with what some player cannot see replaced: the deal (`deck`), both
        hands (masks; None for the cards left over), the draw pile (card indices, top first), the
        needles (card indices, -1 before a pick) and log entries k -> (action, cards drawn,
        reshuffles), with a new generator from `seed`.

        `later` instead of `deck` and `events`: a function that gives both, called only when the world's
        deal or history is first read (`deck`, `history`, `event`, `view`, a replay, a pickle), once for
        the world and its copies; a world that is only played on (a review's) never calls it, and costs
        O(state), not O(history).

        The public record stays: the discards, sets, scores, turns and every entry not
        replaced. The caller (`worlds`) vouches that the result is a game the rules allow;
        this checks only its shape and raises ArgumentError otherwise: the 52 cards each in
        one place, hands and pile of the same sizes, each replaced entry of the same kind
        with as many cards (for `later`, when it is called).
        """
        if (deck is None or events is None) if later is None else (deck is not None or events is not None):
            raise ArgumentError("with_hidden: give deck and events, or later, not both")
        self._settle()
        new = self._clone()
        new._start = Start(seed, None)
        new.seed = seed
        public = self._table  # the sets and the discard pile
        pile_mask = 0
        for i in pile:
            pile_mask |= 1 << i
        a, b = hands
        if a is None:
            if b is None:
                raise ArgumentError("with_hidden: hands (None, None): at most one hand is the cards left over")
            a = _FULL & ~(public | pile_mask | b)
        elif b is None:
            b = _FULL & ~(public | pile_mask | a)
        if (a | b | pile_mask | public != _FULL or a.bit_count() + b.bit_count() + len(pile)
                + public.bit_count() != 52 or (a.bit_count(), b.bit_count(), len(pile))
                != (self.hand_size(0), self.hand_size(1), self.pile_size)):
            raise ArgumentError("with_hidden: the hands and pile do not fill the places the public record leaves")
        if any(not -1 <= n < 52 or (n < 0) != (old < 0) for n, old in zip(needles, self._needles, strict=True)):
            raise ArgumentError(f"with_hidden: needles {needles!r} do not fit the picks made"[:200])
        new._hands = [a, b]
        new._pile = list(reversed(pile))
        new._needles = list(needles)
        new._legal = None
        if later is not None:
            new._later = _Later(later, self._log, self._moves)
            return new
        assert deck is not None and events is not None  # checked above
        new._later = _Later(lambda: (deck, events), self._log, self._moves)
        new._settle()
        return new

    def snapshot(self) -> tuple[object, ...]:
        """The whole state as a comparable tuple (generator state included): for tests."""
        return (
            self.rules, self.seed, self.deck, self.first_player, tuple(self._hands), tuple(self._pile),
            tuple(self._discards), tuple(self._needles), tuple(map(tuple, self._sets)), tuple(self._scores),
            tuple(self._shed), tuple(self._stolen), tuple(self._seen_held), self._reshuffles,
            tuple(self._last_steal), self._laid, tuple(self.history), self.phase, self.to_move, self.turn,
            self.result, self._generator().getstate(), self.players,
        )

    def player_view(self, player: int, *, record: bool = False) -> PlayerView:
        """What `player` knows now, as a light immutable object: what bots and `knowledge` read.

        Built here, from the state, in one tuple (about 2 µs), since bots ask at every decision.
        With `record=True` it also carries `self.view(player)` (the JSON view with the public
        history, O(history)) for bots that read the history (`reads_history = True`).
        """
        p = _check_player(player)
        q = 1 - p
        phase = self.phase
        hands = self._hands
        needles = self._needles
        first = self.first_player
        public = self._public
        if public is None:
            public = self._public = (tuple(self._discards), (tuple(self._sets[0]), tuple(self._sets[1])))
        return _new_tuple(PlayerView, (
            p, phase, self.turn, self.to_move, first, self.rules, hands[p],
            DECK[needles[p]] if needles[p] >= 0 else None,
            DECK[needles[q]] if phase == "over" and needles[q] >= 0 else None,
            (hands[0].bit_count(), hands[1].bit_count()), len(self._pile), public[0], public[1],
            (self._scores[0], self._scores[1]),
            phase == "draw" and self.to_move == p and self._steal_block(p, words=False) is None,
            (self._next_steals[0], self._next_steals[1]),
            self._shed[0] | self._shed[1], self._stolen[0] | self._stolen[1] | self._shed[q], self._seen_held[p],
            self._reshuffles, self.result, self._table, self.view(p) if record else None,
        ))

    def replay(self) -> Replay:
        """The record of this game so far: save it, load it, step through it (`Replay.from_game`).

        A convenience: the engine does not depend on `replay`, which is imported on call.
        """
        from ..records.replay import Replay

        return Replay.from_game(self)

    def view(self, perspective: Perspective) -> dict[str, Any]:
        """What `perspective` (0, 1, "spectator" or "teacher") may see, as a JSON-ready dict
        (`views.view`; imported on call, so the engine does not depend on views).
        """
        from .views import view

        return view(self, perspective)

    def __repr__(self) -> str:
        where = f"turn {self.turn}" if self.turn else "picking needles"
        if self.result:
            state = f"over: {self.result.describe()}"
        else:
            state = f"{self.phase}, {player_name(self.to_move)} to move"
        return f"<Game seed={self.seed} {where}, {state}>"


@mypyc_attr(serializable=True)  # a game's field (a pickle settles it first: None there)
class _Later:
    """A world's deal and the hidden entries of its log (`Game.with_hidden(later=...)`), worked out once, on
    first reading, for the world and its copies, and checked against the log they replace.
    """

    def __init__(self, make: Callable[[], tuple[Sequence[Card], Mapping[int, Hidden]]], log: list[_Entry],
                 moves: int) -> None:
        self.make: Callable[[], tuple[Sequence[Card], Mapping[int, Hidden]]] | None = make
        self.log = log
        self.moves = moves
        self.done: tuple[tuple[Card, ...], dict[int, _Entry]] | None = None

    def resolve(self) -> tuple[tuple[Card, ...], dict[int, _Entry]]:
        """The deck and the replaced log entries, by index."""
        done = self.done
        if done is None:
            make = self.make
            assert make is not None  # dropped only once done
            deck, events = make()
            cards = tuple(deck) if all(type(c) is Card for c in deck) and mask_of(deck) == _FULL else tuple(
                _check_deck(deck))
            entries: dict[int, _Entry] = {}
            for k, (action, drawn, shuffles) in events.items():
                if not 0 <= k < self.moves:
                    raise ArgumentError(f"with_hidden: entry {k} is not one of the game's {self.moves} actions")
                turn, p, old, old_cards, old_shuffles = self.log[k]
                if (type(action) is not type(old) or len(drawn) != len(old_cards)
                        or [len(x) for x in shuffles] != [len(x) for x in old_shuffles]):
                    raise ArgumentError(f"with_hidden: entry {k} ({action}) does not fit the recorded {old}")
                entries[k] = (turn, p, action, tuple(drawn), tuple(map(tuple, shuffles)))
            done = self.done = (cards, entries)
            self.make = None
        return done


_APPLY: dict[type[Action], Callable[[Game, int, Any], Outcome]] = {  # Any: each takes the kind it is keyed by
    _DRAW_PILE: Game._draw_pile, _DISCARD: Game._discard, _END_SETS: Game._end_sets, _LAY_SET: Game._lay_set,
    _STEAL: Game._steal, _CHOOSE: Game._choose_needle,
}



def _check_player(player: object) -> int:
    if type(player) is not int or player not in (0, 1):
        raise PerspectiveError(f"player must be 0 or 1, not {player!r}"[:200])
    return player


def _check_deck(deck: Iterable[CardLike]) -> list[Card]:
    if isinstance(deck, str):
        deck = deck.replace(",", " ").split()
    cards = [Card.parse(c) for c in deck]
    if len(cards) != 52 or len(set(cards)) != 52:
        doubles = sorted({str(c) for c, n in Counter(cards).items() if n > 1})
        missing = [str(c) for c in DECK if c not in set(cards)]
        raise CardError(
            f"deck must hold each of the 52 cards once; got {len(cards)} cards"
            + (f", repeated: {' '.join(doubles)}" if doubles else "")
            + (f", missing: {' '.join(missing)}" if missing else "")
        )
    return cards
