"""Views: the only road from a Game to the outside, following docs/RULES.md "Who knows what".

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

from collections.abc import Iterable
from typing import Any

from .actions import DRAW_PILE, END_SETS, STEAL, Action
from .bitmasks import cards_of
from .cards import Card
from .errors import PerspectiveError
from .game import Event, Game
from .observation import PlayerView
from .rules import set_points
from .seats import PERSPECTIVES, Perspective, perspective_named

__all__ = ["CONTROLS", "PERSPECTIVES", "Perspective", "PlayerView", "check_perspective", "read_perspective", "refusals",
           "view"]



def check_perspective(perspective: object) -> Perspective:
    """Return the perspective if it is 0, 1, "spectator" or "teacher"; else raise PerspectiveError.
    Code counts seats from 0; where a person types a perspective, use `read_perspective`.
    """
    if type(perspective) in (int, str) and perspective in PERSPECTIVES:
        return perspective
    raise PerspectiveError(f"Unknown perspective {perspective!r}"[:200] + "; use 0, 1, 'spectator' or 'teacher'")


def read_perspective(perspective: object) -> Perspective:
    """The perspective a person named: 0 or 1, "p1"/"Player 1" (seat 0), "p2"/"Player 2" (seat 1),
    "spectator" or "teacher" (any case); anything else raises PerspectiveError.

    >>> read_perspective("p2"), read_perspective("Player 1"), read_perspective("Teacher")
    (1, 0, 'teacher')
    """
    named = perspective_named(perspective)
    if named is not None:
        return named
    raise PerspectiveError(f"Unknown perspective {perspective!r}"[:200]
                           + "; use 'p1' (or 0), 'p2' (or 1), 'spectator' or 'teacher'")


def _codes(cards: Iterable[Card]) -> list[str]:
    return [c.code for c in cards]


def _event(event: Event, index: int, perspective: Perspective) -> dict[str, Any]:
    data = event.action.to_dict()
    out: dict[str, Any] = {"index": index, "turn": event.turn, "player": event.player, **data}
    owner_sees = perspective == event.player or perspective == "teacher"
    if data["type"] == "choose_needle" and not owner_sees:
        del out["card"]
    if event.cards:
        stolen_seen = data["type"] == "steal" and perspective in (0, 1)
        out["cards"] = _codes(event.cards) if owner_sees or stolen_seen else None
        out["count"] = len(event.cards)
    if event.reshuffles:
        out["reshuffles"] = [_codes(order) if perspective == "teacher" else len(order) for order in event.reshuffles]
    return out


def view(game: Game, perspective: Perspective, *, history: bool = True) -> dict[str, Any]:
    """What `perspective` may see of `game`, as a JSON-ready dict (without "history" if `history` is False: a
    screen that lists the events apart needs only the rest, and the history grows with every action).

    Keys: perspective, phase, turn, to_move, first_player, max_turns, rules,
    pile_size, discard_pile (bottom first), scores, players (per player:
    hand_size, hand or None, needle or None, sets with points, score,
    may_steal, next_steal_turn, last_steal_turn), history (events, hidden
    cards as None with a count), legal_actions and refusals (only for the player
    to move, or the teacher: see `refusals`), result; a player also gets `known_opponent_cards`, the
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
        needle = g.needle(p)
        players.append(
            {
                "hand_size": g.hand_size(p),
                "hand": _codes(g.hand(p)) if sees_private else None,
                "needle": needle.code if needle is not None and (sees_private or over) else None,
                "needle_chosen": needle is not None,
                "sets": [{"cards": _codes(s), "points": set_points(s)} for s in g.sets(p)],
                "score": g.scores[p],
                "may_steal": g.to_move == p and g.is_legal(STEAL),
                "next_steal_turn": g.next_steal_turn(p),
                "last_steal_turn": g.last_steal_turn(p),
            }
        )
    acts = perspective == "teacher" or perspective == g.to_move
    out: dict[str, Any] = {
        "perspective": perspective,
        "phase": g.phase,
        "turn": g.turn,
        "to_move": None if over else g.to_move,
        "first_player": g.first_player,
        "max_turns": g.rules.max_turns,
        "rules": g.rules.to_dict(),
        "pile_size": g.pile_size,
        "discard_pile": _codes(g.discard_pile),
        "scores": list(g.scores),
        "players": players,
        "history": [_event(e, k, perspective) for k, e in enumerate(g.history)] if history else None,
        "legal_actions": [a.to_dict() for a in g.legal_actions()] if acts else [],
        "refusals": refusals(g) if acts else {},
        "result": g.result.to_dict() if g.result else None,
    }
    if perspective in (0, 1):
        out["known_opponent_cards"] = _codes(cards_of(g.known_opponent_mask(perspective)))
        out["reshuffles"] = g.reshuffles
    if perspective == "teacher":
        out["draw_pile"] = _codes(g.draw_pile)
    if not history:
        del out["history"]
    return out


CONTROLS: dict[str, tuple[Action, ...]] = {"draw": (DRAW_PILE, STEAL), "sets": (END_SETS,)}
"""The actions that have a button of their own in each phase (the others are picked from cards)."""


def refusals(game: Game) -> dict[str, str | None]:
    """For each button of the current phase (`CONTROLS`), None if its action is legal, else
    `Game.why_not`'s reason in full: {"draw_pile": None, "steal": "Steal not allowed: ..."}.

    Only for the player to move (and the teacher): the reasons may list that player's cards.
    """
    out: dict[str, str | None] = {}
    for action in CONTROLS.get(game.phase, ()):
        reason = game.why_not(action)
        name = "Steal" if action == STEAL else str(action)
        out[action.to_dict()["type"]] = None if reason is None else f"{name} not allowed: {reason}"
    return out
