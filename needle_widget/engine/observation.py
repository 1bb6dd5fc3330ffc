"""PlayerView: what one player knows at one moment, as plain immutable values.

The observation of RULES "Who knows what" that bots and `knowledge` read, made by
`Game.player_view(p)`. A leaf of the engine: it imports no Game, so the game can
build it without an import knot; `views.view()` gives the JSON form of the same facts.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from . import actions as A
from .actions import Action
from .bitmasks import cards_of, discards_of, needles_outside, sets_in
from .cards import DECK, Card
from .result import Result
from .rules import Rules
from .seats import player_name

if TYPE_CHECKING:
    from .game import Game

SetCards = tuple[Card, Card, Card]


class PlayerView(NamedTuple):
    """What one player knows at one moment, as plain immutable values (no Game inside).

    Cheap to make (one tuple), so bots get one at every decision; `view()` gives
    the JSON form. Masks are 52-bit ints, bit `card.index` (see `bitmasks`).

    >>> from needle_widget import Game
    >>> v = Game(seed=1).player_view(0)
    >>> v.player, v.phase, len(v.hand), v.hand_sizes, v.pile_size, v.needle
    (0, 'needle', 7, (7, 7), 38, None)
    """

    player: int
    phase: str
    turn: int
    to_move: int
    first_player: int
    rules: Rules
    hand_mask: int
    """Own hand."""
    needle: Card | None
    """Own needle (a Card), or None before picking."""
    opponent_needle: Card | None
    """The opponent's needle once the round is over, else None."""
    hand_sizes: tuple[int, int]
    pile_size: int
    discards: tuple[int, ...]
    """Discard pile as card indices, bottom first."""
    sets: tuple[tuple[SetCards, ...], tuple[SetCards, ...]]
    scores: tuple[int, int]
    may_steal: bool
    """Whether Steal is a legal action for this player now (their draw, T2 allowing): as in `view()`."""
    next_steal_turns: tuple[int, int]
    public_mask: int
    """Every card ever discarded or laid in a set (by either player)."""
    opponent_held_mask: int
    """Cards this player knows the opponent has held at some time (steals both ways, their discards and sets)."""
    known_opponent_mask: int
    """Cards this player knows are in the opponent's hand now (`Game.known_opponent_mask`)."""
    reshuffles: int
    result: Result | None
    table_mask: int
    """The cards on the table now: in the sets, and on the discard pile (the cards no draw can give, with the
    ones known in the opponent's hand); kept by the game as it goes."""
    record: dict[str, Any] | None = None
    """The whole view as `game.view(player)` gives it (the public history included), only when
    asked for (`game.player_view(p, record=True)`; bots with `reads_history = True` get it), else None."""

    @classmethod
    def of(cls, game: Game, player: int) -> PlayerView:
        """The view of `player` in `game` (the same as `game.player_view(player)`)."""
        return game.player_view(player)

    @property
    def opponent(self) -> int:
        """The other player."""
        return 1 - self.player

    @property
    def hand(self) -> list[Card]:
        """Own hand as Cards, sorted."""
        return cards_of(self.hand_mask)

    @property
    def discard_pile(self) -> list[Card]:
        """Discard pile as Cards, bottom first (top last)."""
        return [DECK[i] for i in self.discards]

    @property
    def is_my_turn(self) -> bool:
        """Whether this player is to move in a live turn (not picking needles, not over)."""
        return self.phase != "over" and self.phase != "needle" and self.to_move == self.player

    def legal_actions(self) -> list[Action]:
        """The actions open to this player now, as `Game.legal_actions()` lists them when the player
        is to move (the same function makes both lists), else [].

        A player's legal actions depend only on what they see, so a view is enough:
        `worlds` uses this to ask an opponent model what it would have done.
        """
        if self.to_move != self.player:
            return []
        may_draw = self.pile_size > 0 or len(self.discards) >= 2
        return list(legal_for(self.phase, self.hand_mask, self.rules.set_starts()[11:], may_draw, self.may_steal))

    def __repr__(self) -> str:
        return (
            f"<PlayerView of {player_name(self.player)}: {self.phase}, turn {self.turn}, "
            f"hand {' '.join(map(str, self.hand))}>"
        )


def reads_history(bot: object) -> bool:
    """Whether `bot` asks for the whole view with each decision (`reads_history = True`, e.g. SearchBot):
    then callers pass `game.player_view(p, record=True)`. Other bots get the light view.
    """
    return getattr(bot, "reads_history", False) is True


_ONLY_END_SETS = (A.END_SETS,)
_DRAWS = (A.DRAW_PILE, A.STEAL)
_ONLY_DRAW_PILE, _ONLY_STEAL = (A.DRAW_PILE,), (A.STEAL,)


def legal_for(
    phase: str, hand: int, extra_starts: tuple[int, ...], may_draw: bool, may_steal: bool
) -> tuple[Action, ...]:
    """The legal actions of the player to move, from their hand and what the draw allows (D1, T1, T2):
    the one list `Game.legal_actions` and `PlayerView.legal_actions` both give.

    needle: ChooseNeedle for each card outside the hand; draw: DrawPile then Steal;
    sets: each LaySet (by starting rank; `extra_starts` beyond J) then EndSets;
    discard: each card of the hand; over: none.
    """
    if phase == "sets":
        sets = sets_in(hand, extra_starts)
        return (*sets, A.END_SETS) if sets else _ONLY_END_SETS
    if phase == "discard":
        return tuple(discards_of(hand))
    if phase == "draw":
        if may_draw:
            return _DRAWS if may_steal else _ONLY_DRAW_PILE
        return _ONLY_STEAL if may_steal else ()
    if phase == "needle":
        return tuple(needles_outside(hand))
    return ()
