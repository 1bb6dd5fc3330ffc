"""Narration: one plain-English sentence per action, from a perspective, keeping its secrets.

>>> from needle_widget import Game, actions
>>> g = Game(seed=7)
>>> for a in ("needle 7h", "needle qs", "draw"):
...     g.apply(actions.parse(a))
>>> narrate(g, 0)[-1], narrate(g, 1)[-1]
('You drew 9♦ from the pile.', 'Player 1 drew a card from the pile.')
"""

from __future__ import annotations

from collections.abc import Iterable

from . import actions as A
from .cards import Card
from .game import Event, Game
from .rules import set_points
from .seats import Perspective, player_name
from .views import check_perspective


def _who(player: int, perspective: Perspective) -> str:
    return "You" if perspective == player else player_name(player)


def _whom(player: int, perspective: Perspective) -> str:
    return "you" if perspective == player else player_name(player)


def _cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def narrate_event(event: Event, perspective: Perspective, laid_before: int = 0) -> str:
    """The sentence for one history event as `perspective` may hear it.

    `laid_before`: how many sets the player laid earlier this turn (for EndSets).
    """
    p, action = event.player, event.action
    who = _who(p, perspective)
    sees_own = perspective == p or perspective == "teacher"
    if type(action) is A.ChooseNeedle:
        if sees_own:
            return f"{who} picked {action.card} as {'your' if perspective == p else 'their'} needle."
        return f"{who} picked a needle."
    if type(action) is A.DrawPile:
        card = _cards(event.cards) if sees_own else "a card"
        text = f"{who} drew {card} from the pile"
    elif type(action) is A.Steal:
        seen = sees_own or perspective == 1 - p
        text = f"{who} stole {_cards(event.cards) if seen else 'a card'} from {_whom(1 - p, perspective)}"
    elif type(action) is A.LaySet:
        points = set_points(action.cards)
        return f"{who} laid {_cards(action.cards)} for {points} point{'s' if points > 1 else ''}."
    elif type(action) is A.EndSets:
        if not laid_before:
            return f"{who} laid no set."
        if not event.cards:
            return f"{who} could not replenish: no card was left to draw."
        n = len(event.cards)
        drawn = _cards(event.cards) if sees_own else f"{n} card{'s' if n > 1 else ''}"
        text = f"{who} drew {drawn} to replenish"
    else:
        return f"{who} discarded {action.card}."
    if event.reshuffles:
        size = len(event.reshuffles[0])
        text += f" after the discards were reshuffled into a new pile of {size}"
    return text + "."


def narrate(game: Game, perspective: Perspective, upto: int | None = None) -> list[str]:
    """A sentence per action of `game` (the first `upto` of them), the round's end added to the last."""
    check_perspective(perspective)
    history = game.history if upto is None else game.history[:upto]
    lines: list[str] = []
    laid, turn = 0, -1
    for event in history:
        if event.turn != turn:
            laid, turn = 0, event.turn
        lines.append(narrate_event(event, perspective, laid))
        laid += type(event.action) is A.LaySet
    if game.result is not None and lines and (upto is None or upto >= len(game)):
        lines[-1] += f" Round over: {game.result.describe()}"
    return lines
