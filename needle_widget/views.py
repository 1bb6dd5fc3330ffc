"""Views: the only road from a Game to the outside, following RULES.md "Who knows what".

`view(game, perspective)` gives a JSON-ready dict (cards as codes) holding exactly
what that perspective may know; it is what bots read and what the widget syncs.

| information                         | owner | opponent | spectator | teacher |
| own hand, own needle                 | yes   | no       | no        | yes     |
| card drawn from the pile             | yes   | no       | no        | yes     |
| card stolen (T1)                     | yes   | yes      | no        | yes     |
| draw pile order                      | no    | no       | no        | yes     |
| discards, sets, scores, hand sizes,  | yes   | yes      | yes       | yes     |
|   pile size, steal limits            |       |          |           |         |
| needles at round end                 | yes   | yes      | yes       | yes     |
"""

from __future__ import annotations

from typing import Any, NamedTuple, Union

from .bitmasks import cards_of
from .cards import DECK
from .errors import PerspectiveError
from .rules import set_points

Perspective = Union[int, str]
PERSPECTIVES: tuple[Perspective, ...] = (0, 1, "spectator", "teacher")


def check_perspective(perspective: object) -> Perspective:
    """Return the perspective if it is 0, 1, "spectator" or "teacher"; else raise PerspectiveError."""
    if type(perspective) in (int, str) and perspective in PERSPECTIVES:
        return perspective  # type: ignore[return-value]
    raise PerspectiveError(f"Unknown perspective {perspective!r}"[:200] + "; use 0, 1, 'spectator' or 'teacher'")


def _codes(indices) -> list[str]:
    return [DECK[i].code for i in indices]


def _event(entry: tuple, index: int, perspective: Perspective) -> dict[str, Any]:
    turn, player, action, cards, shuffles = entry
    data = action.to_dict()
    event: dict[str, Any] = {"index": index, "turn": turn, "player": player, **data}
    owner_sees = perspective == player or perspective == "teacher"
    if data["type"] == "choose_needle" and not owner_sees:
        del event["card"]
    if cards:
        stolen_seen = data["type"] == "steal" and perspective in (0, 1)
        event["cards"] = _codes(cards) if owner_sees or stolen_seen else None
        event["count"] = len(cards)
    if shuffles:
        event["reshuffles"] = [_codes(order) if perspective == "teacher" else len(order) for order in shuffles]
    return event


def view(game, perspective: Perspective) -> dict[str, Any]:
    """What `perspective` may see of `game`, as a JSON-ready dict.

    Keys: perspective, phase, turn, to_move, first_player, max_turns, rules,
    pile_size, discard_pile (bottom first), scores, players (per player:
    hand_size, hand or None, needle or None, sets with points, score,
    may_steal, next_steal_turn, last_steal_turn), history (events, hidden
    cards as None with a count), legal_actions (only for the player to move,
    or the teacher), result; a player also gets `known_opponent_cards`, the
    cards they know are in the opponent's hand (`Game.known_opponent_mask`); the
    teacher also gets `draw_pile` (top first).

    >>> from needle_widget import Game
    >>> v = Game(seed=1).view("spectator")
    >>> v["phase"], v["players"][0]["hand"], v["players"][0]["hand_size"], v["pile_size"]
    ('needle', None, 7, 38)
    """
    perspective = check_perspective(perspective)
    g = game
    over = g.phase == "over"
    players = []
    for p in (0, 1):
        sees_private = perspective == p or perspective == "teacher"
        needle = g._needles[p]
        players.append(
            {
                "hand_size": g._hands[p].bit_count(),
                "hand": [c.code for c in cards_of(g._hands[p])] if sees_private else None,
                "needle": DECK[needle].code if needle >= 0 and (sees_private or over) else None,
                "needle_chosen": needle >= 0,
                "sets": [{"cards": [c.code for c in s], "points": set_points(s)} for s in g._sets[p]],
                "score": g._scores[p],
                "may_steal": g.phase not in ("needle", "over") and g.may_steal(p),
                "next_steal_turn": g.next_steal_turn(p),
                "last_steal_turn": g._last_steal[p],
            }
        )
    shows_legal = perspective == "teacher" or perspective == g.to_move
    out: dict[str, Any] = {
        "perspective": perspective,
        "phase": g.phase,
        "turn": g.turn,
        "to_move": None if over else g.to_move,
        "first_player": g.first_player,
        "max_turns": g.rules.max_turns,
        "rules": g.rules.to_dict(),
        "pile_size": len(g._pile),
        "discard_pile": _codes(g._discards),
        "scores": list(g._scores),
        "players": players,
        "history": [_event(entry, k, perspective) for k, entry in enumerate(g._log[: len(g)])],
        "legal_actions": [a.to_dict() for a in g.legal_actions()] if shows_legal else [],
        "result": g.result.to_dict() if g.result else None,
    }
    if perspective in (0, 1):
        out["known_opponent_cards"] = _known_opponent_cards(g, perspective)
        out["reshuffles"] = g._reshuffles
    if perspective == "teacher":
        out["draw_pile"] = _codes(reversed(g._pile))
    return out


def _known_opponent_cards(g, p: int) -> list[str]:
    return [c.code for c in cards_of(_known_opponent_mask(g, p))]


def _known_opponent_mask(g, p: int) -> int:
    """Cards p knows are in the opponent's hand now (the game's knowledge record)."""
    return g.known_opponent_mask(p)


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
    rules: Any
    hand_mask: int
    """Own hand."""
    needle: Any
    """Own needle (a Card), or None before picking."""
    opponent_needle: Any
    """The opponent's needle once the round is over, else None."""
    hand_sizes: tuple[int, int]
    pile_size: int
    discards: tuple[int, ...]
    """Discard pile as card indices, bottom first."""
    sets: tuple[tuple, tuple]
    scores: tuple[int, int]
    may_steal: bool
    """Whether this player may steal now (their draw phase, T2 allowing)."""
    next_steal_turns: tuple[int, int]
    public_mask: int
    """Every card ever discarded or laid in a set (by either player)."""
    opponent_held_mask: int
    """Cards this player knows the opponent has held at some time (steals both ways, their discards and sets)."""
    known_opponent_mask: int
    """Cards this player knows are in the opponent's hand now (`Game.known_opponent_mask`: seen stolen, not seen leave)."""
    reshuffles: int
    result: Any

    @classmethod
    def of(cls, g, p: int) -> "PlayerView":
        q = 1 - p
        phase = g.phase
        hands = g._hands
        needles = g._needles
        last, gap, first = g._last_steal, g._steal_gap, g.first_player
        return cls(
            p, phase, g.turn, g.to_move, first, g.rules, hands[p],
            DECK[needles[p]] if needles[p] >= 0 else None,
            DECK[needles[q]] if phase == "over" and needles[q] >= 0 else None,
            (hands[0].bit_count(), hands[1].bit_count()), len(g._pile), tuple(g._discards),
            (tuple(g._sets[0]), tuple(g._sets[1])), (g._scores[0], g._scores[1]),
            phase == "draw" and g.to_move == p and g.may_steal(p),
            (1 + first if last[0] is None else last[0] + gap, 2 - first if last[1] is None else last[1] + gap),
            g._shed[0] | g._shed[1], g._stolen[0] | g._stolen[1] | g._shed[q], _known_opponent_mask(g, p),
            g._reshuffles, g.result,
        )

    @property
    def opponent(self) -> int:
        return 1 - self.player

    @property
    def hand(self) -> list:
        """Own hand as Cards, sorted."""
        return cards_of(self.hand_mask)

    @property
    def discard_pile(self) -> list:
        """Discard pile as Cards, bottom first (top last)."""
        return [DECK[i] for i in self.discards]

    @property
    def is_my_turn(self) -> bool:
        return self.phase != "over" and self.phase != "needle" and self.to_move == self.player

    def __repr__(self) -> str:
        return (
            f"<PlayerView of Player {self.player + 1}: {self.phase}, turn {self.turn}, "
            f"hand {' '.join(map(str, self.hand))}>"
        )
