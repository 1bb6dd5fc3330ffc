"""Cards: 52 small immutable values with `Card.parse` and a readable `str`.

Each card also has an `index` 0..51, rank-major (A♣ A♦ A♥ A♠ 2♣ ... K♠), so a
hand fits in a 52-bit mask with one 4-bit nibble per rank (see `bitmasks`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .errors import CardError, quote

SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES = ("ace", "2", "3", "4", "5", "6", "7", "8", "9", "10", "jack", "queen", "king")

_RANK_ALIASES = {code: r for r, code in enumerate(RANK_CODES, start=1)}
_RANK_ALIASES.update({"T": 10, "1": 1})
_SUIT_ALIASES = {s: s for s in SUITS}
_SUIT_ALIASES.update({sym: s for s, sym in SUIT_SYMBOLS.items()})
_SUIT_ALIASES.update({"♧": "C", "♢": "D", "♡": "H", "♤": "S"})


class Card:
    """A playing card. There are exactly 52 instances; compare them with `==`.

    >>> Card.parse("10h") == Card.parse("TH") == Card.parse("10♥")
    True
    >>> card = Card.parse("q♦")
    >>> str(card), card.code, card.rank, card.suit
    ('Q♦', 'QD', 12, 'D')
    >>> Card.parse("11x")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.CardError: Not a card: '11x' (expected a rank A 2-10 J Q K, or T for 10, ...)
    """

    __slots__ = ("rank", "suit", "index", "code", "_str")

    rank: int
    suit: str
    index: int
    code: str
    _str: str

    def __new__(cls, rank: int, suit: str) -> Card:
        """The card of `rank` (1..13) and `suit` ("C", "D", "H" or "S"); one object per card."""
        if type(rank) is not int or not 1 <= rank <= 13 or suit not in _SUIT_INDEX:
            raise CardError(f"Not a card: rank {rank!r}, suit {suit!r} (rank 1..13, suit one of C D H S)")
        return DECK[(rank - 1) * 4 + _SUIT_INDEX[suit]]

    @classmethod
    def _make(cls, index: int) -> Card:
        self = object.__new__(cls)
        rank, suit = index // 4 + 1, SUITS[index % 4]
        for name, value in (
            ("rank", rank),
            ("suit", suit),
            ("index", index),
            ("code", RANK_CODES[rank - 1] + suit),
            ("_str", RANK_CODES[rank - 1] + SUIT_SYMBOLS[suit]),
        ):
            object.__setattr__(self, name, value)
        return self

    @staticmethod
    def parse(text: str | Card) -> Card:
        """Read a card from text such as "10h", "TH", "10♥", "q♦" (case-insensitive)."""
        if isinstance(text, Card):
            return text
        if not isinstance(text, str):
            raise CardError(f"Not a card: {quote(text)} (expected text such as '10H' or 'Q♦')")
        card = _PARSED.get(text.strip().upper())
        if card is None:
            raise CardError(
                f"Not a card: {quote(text)} (expected a rank A 2-10 J Q K, or T for 10, "
                "then a suit C D H S or ♣ ♦ ♥ ♠, as in '10H' or 'Q♦')"
            )
        return card

    @staticmethod
    def from_index(index: int) -> Card:
        """The card with `index` 0..51 (rank-major: A♣ A♦ A♥ A♠ 2♣ ...)."""
        return DECK[index]

    @property
    def name(self) -> str:
        """Spoken name, as a screen reader says it: "7 of hearts"."""
        return f"{RANK_NAMES[self.rank - 1]} of {SUIT_NAMES[self.suit]}"

    @property
    def is_face(self) -> bool:
        """Jack, queen or king."""
        return self.rank >= 11

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __str__(self) -> str:
        return self._str

    def __repr__(self) -> str:
        return f"Card.parse({self.code!r})"

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Card) and other.index == self.index)

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __reduce__(self) -> tuple[Callable[[int], Card], tuple[int]]:
        return (Card.from_index, (self.index,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self


_SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
DECK: tuple[Card, ...] = tuple(Card._make(i) for i in range(52))
"""The 52 cards in index order."""

_PARSED: dict[str, Card] = {}
for _card in DECK:
    for _rank_text, _r in _RANK_ALIASES.items():
        if _r != _card.rank:
            continue
        for _suit_text, _s in _SUIT_ALIASES.items():
            if _s == _card.suit:
                _PARSED[_rank_text + _suit_text] = _card


CardLike = Card | str


def parse_cards(items: Iterable[CardLike]) -> list[Card]:
    """Cards from cards or card texts; "7h 8h" as one string is split on spaces."""
    if isinstance(items, str):
        items = items.replace(",", " ").split()
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards as text, such as "7♥ 8♥ 9♥"."""
    return " ".join(str(c) for c in cards)
