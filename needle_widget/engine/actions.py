"""The player actions: small frozen dataclasses with a readable `str` and a JSON form.

>>> str(Discard("7h")), Discard("7h").to_dict()
('Discard 7♥', {'type': 'discard', 'card': '7H'})
>>> from_dict({"type": "lay_set", "cards": ["6H", "4C", "5H"]})
LaySet(cards=(Card.parse('4C'), Card.parse('5H'), Card.parse('6H')))
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, final

from .cards import DECK, Card, CardLike, parse_cards
from .errors import CardError, InvalidAction, quote


@final
@dataclass(frozen=True)
class ChooseNeedle:
    """S3: secretly pick the card to look for (not one of your own hand)."""

    card: Card

    def __init__(self, card: CardLike) -> None:
        """The card as a Card or its text ("7h"), read by `Card.parse`."""
        object.__setattr__(self, "card", card if isinstance(card, Card) else Card.parse(card))

    def __str__(self) -> str:
        return f"Choose needle {self.card}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "choose_needle", "card": self.card.code}


@final
@dataclass(frozen=True)
class DrawPile:
    """T1: draw the top card of the draw pile."""

    def __str__(self) -> str:
        return "Draw from pile"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "draw_pile"}


@final
@dataclass(frozen=True)
class Steal:
    """T1: take a uniformly random card of the opponent's hand (T2 limits how often)."""

    def __str__(self) -> str:
        return "Steal from opponent"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "steal"}


@final
@dataclass(frozen=True)
class LaySet:
    """T3: lay three cards of consecutive ranks; the cards are kept sorted."""

    cards: tuple[Card, Card, Card]

    def __init__(self, cards: Iterable[CardLike]) -> None:
        """The three cards as Cards or texts, or as one text ("4c 5h 6h"); other than three raises InvalidAction."""
        if isinstance(cards, str):
            cards = parse_cards(cards)
        elif not isinstance(cards, Iterable):  # from a caller without type checking: one card, refused below
            cards = [cards]
        trio = tuple(sorted(Card.parse(c) for c in cards))
        if len(trio) != 3:
            shown = " ".join(map(str, trio[:6])) + (" ..." if len(trio) > 6 else "")
            raise InvalidAction(f"LaySet needs exactly 3 cards, got {len(trio)}: {shown}")
        object.__setattr__(self, "cards", trio)

    def __str__(self) -> str:
        return "Lay set " + " ".join(map(str, self.cards))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "lay_set", "cards": [c.code for c in self.cards]}


@final
@dataclass(frozen=True)
class EndSets:
    """T4: done laying sets (then replenish as many cards as were laid)."""

    def __str__(self) -> str:
        return "Done laying sets"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "end_sets"}


@final
@dataclass(frozen=True)
class Discard:
    """T5: put one card of your hand face up on the discard pile; the turn ends."""

    card: Card

    def __init__(self, card: CardLike) -> None:
        """The card as a Card or its text ("7h"), read by `Card.parse`."""
        object.__setattr__(self, "card", card if isinstance(card, Card) else Card.parse(card))

    def __str__(self) -> str:
        return f"Discard {self.card}"

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: {"type": ..., plus the card or cards}."""
        return {"type": "discard", "card": self.card.code}


Action = ChooseNeedle | DrawPile | Steal | LaySet | EndSets | Discard
ACTION_TYPES: dict[str, type[Action]] = {
    "choose_needle": ChooseNeedle,
    "draw_pile": DrawPile,
    "steal": Steal,
    "lay_set": LaySet,
    "end_sets": EndSets,
    "discard": Discard,
}
_CARD_TYPES: dict[str, type[ChooseNeedle | Discard]] = {"choose_needle": ChooseNeedle, "discard": Discard}
_BARE_TYPES: dict[str, type[DrawPile | Steal | EndSets]] = {"draw_pile": DrawPile, "steal": Steal, "end_sets": EndSets}
"""`ACTION_TYPES` split by what their constructors take (one card, nothing), for `from_dict`."""

DRAW_PILE = DrawPile()
STEAL = Steal()
END_SETS = EndSets()
CHOOSE_NEEDLE: tuple[ChooseNeedle, ...] = tuple(ChooseNeedle(c) for c in DECK)
DISCARD: tuple[Discard, ...] = tuple(Discard(c) for c in DECK)


def cards_of(action: Action) -> tuple[Card, ...]:
    """The cards an action names: a needle pick's or discard's card, a set's three, else none."""
    if type(action) is LaySet:
        return action.cards
    if type(action) is Discard or type(action) is ChooseNeedle:
        return (action.card,)
    return ()


def from_dict(data: Any) -> Action:
    """An action from its JSON form; anything malformed raises InvalidAction quoting it."""
    if not isinstance(data, dict) or not isinstance(data.get("type"), str) or data["type"] not in ACTION_TYPES:
        raise InvalidAction(f"Not an action: {quote(data)} (type must be one of {', '.join(ACTION_TYPES)})")
    kind = data["type"]
    expected = {"choose_needle": {"card"}, "discard": {"card"}, "lay_set": {"cards"}}.get(kind, set())
    if set(data) - {"type"} != expected:
        raise InvalidAction(f"Not an action: {quote(data)} ({kind} takes {sorted(expected) or 'no other fields'})")
    try:
        if kind == "lay_set":
            if not isinstance(data["cards"], list):
                raise InvalidAction(f"Not an action: {quote(data)} (cards must be a list of 3 card codes)")
            return LaySet(tuple(Card.parse(c) for c in data["cards"]))
        if "card" in expected:
            return _CARD_TYPES[kind](Card.parse(data["card"]))
    except CardError as error:
        raise InvalidAction(f"Not an action: {quote(data)} ({error})") from None
    return _BARE_TYPES[kind]()


def parse(text: str) -> Action:
    """An action from text as `str(action)` writes it.

    "draw", "steal", "discard 7h", "lay 4c 5h 6h", "end", "needle 7h".
    """
    words = text.replace(",", " ").split()
    if not words:
        raise InvalidAction(f"Not an action: {text!r}")
    head, rest = words[0].lower(), words[1:]
    try:
        if head in ("draw", "pile") and len(rest) <= 2:
            return DRAW_PILE
        if head == "steal" and len(rest) <= 2:
            return STEAL
        if head in ("end", "done") and len(rest) <= 3:
            return END_SETS
        if head == "discard" and len(rest) == 1:
            return Discard(rest[0])
        if head in ("needle", "choose") and rest:
            return ChooseNeedle(rest[-1])
        if head == "lay" and rest:
            return LaySet(tuple(r for r in rest if r.lower() != "set"))
    except CardError as error:
        raise InvalidAction(f"Not an action: {text!r} ({error})") from None
    raise InvalidAction(
        f"Not an action: {text!r} (try 'draw', 'steal', 'lay 4c 5h 6h', 'end', 'discard 7h' or 'needle 7h')"
    )


__all__ = [
    "Action", "ChooseNeedle", "DrawPile", "Steal", "LaySet", "EndSets", "Discard", "cards_of", "from_dict", "parse",
]
