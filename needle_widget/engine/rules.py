"""Rules: the variants of docs/RULES.md as one frozen dataclass, plus set scoring (T3, P1, P2)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, fields
from typing import Any, Literal

from .cards import Card
from .errors import ArgumentError, RulesError

MAX_TURNS = 20_000
"""The largest `Rules.max_turns`: a round that long has about 70,000 actions, whose
replay loads in about 110 MB (memory is linear in the length)."""

AceRule = Literal["low", "low_or_high", "wrap"]
ACE_RULES: tuple[str, ...] = ("low", "low_or_high", "wrap")
FIRST_DRAWS: tuple[str, ...] = ("any", "pile", "none")
"""The values of `Rules.first_draw` (V2): what the first player may draw on turn 1."""
OPTIONAL_VARIANTS: dict[str, str] = {"second_extra": "V1", "first_draw": "V2", "second_free_steal": "V3"}
"""The optional balance variants of docs/RULES.md (field -> rule ID). `to_dict` leaves each out while it
has its default, so the record of a game under the card's rules is the same as before they existed."""


@dataclass(frozen=True)
class Rules:
    """Every variant of docs/RULES.md; the defaults are the card's literal reading.

    >>> Rules().hand_size, Rules().steal_every, Rules().ace
    (7, 3, 'low')
    >>> Rules(ace="high").validate()
    Traceback (most recent call last):
    ...
    needle_widget.engine.errors.RulesError: Rules.ace is 'high'; allowed: 'low', 'low_or_high' or 'wrap'
    """

    hand_size: int = 7
    """S2: cards dealt to each player, 1..26."""
    first_player: int | str = 0
    """S4: who takes turn 1: 0, 1 or "random" (drawn from the game's seeded generator)."""
    steal_every: int = 3
    """T2: after stealing on their own k-th turn a player may next steal on their (k + steal_every)-th."""
    ace: str = "low"
    """T3: "low" (A-2-3 only), "low_or_high" (also Q-K-A) or "wrap" (also K-A-2)."""
    needle_bonus: int = 0
    """P3: points added to the finder's score when the round ends by E1."""
    max_turns: int = 300
    """E5: the round stops once this many turns (both players' counted) are complete; 1..MAX_TURNS."""
    second_extra: int = 0
    """V1 (optional): extra cards dealt to the second player (who takes turn 2), 0..52 - 2 * hand_size."""
    first_draw: str = "any"
    """V2 (optional): what the first player may draw on turn 1: "any" (the card: pile or steal),
    "pile" (no steal on turn 1) or "none" (turn 1 has no draw: it starts at T3)."""
    second_free_steal: bool = False
    """V3 (optional): a steal on the second player's first turn (turn 2) does not count for T2."""

    def validate(self) -> Rules:
        """Raise RulesError naming the first bad field and what it allows; return self. An instance found
        valid is marked so (a game checks its rules when it is dealt, thousands of times a second); equal
        rules of other types (7.0 for 7) are still checked, being other instances.
        """
        if self.__dict__.get("_valid"):
            return self
        _check_int("hand_size", self.hand_size, 1, 26)
        if not (self.first_player == "random" or (type(self.first_player) is int and self.first_player in (0, 1))):
            raise RulesError(f"Rules.first_player is {self.first_player!r}; allowed: 0, 1 or 'random'")
        _check_int("steal_every", self.steal_every, 1, None)
        if self.ace not in ACE_RULES:
            raise RulesError(f"Rules.ace is {self.ace!r}; allowed: 'low', 'low_or_high' or 'wrap'")
        _check_int("needle_bonus", self.needle_bonus, 0, None)
        _check_int("max_turns", self.max_turns, 1, None, cap=MAX_TURNS)
        _check_int("second_extra", self.second_extra, 0, 52 - 2 * self.hand_size)
        if self.first_draw not in FIRST_DRAWS:
            raise RulesError(f"Rules.first_draw is {self.first_draw!r}; allowed: 'any', 'pile' or 'none'")
        if type(self.second_free_steal) is not bool:
            raise RulesError(f"Rules.second_free_steal is {self.second_free_steal!r}; allowed: True or False")
        object.__setattr__(self, "_valid", True)  # not a field: equality, hashing and to_dict ignore it
        return self

    def to_dict(self) -> dict[str, Any]:
        """Every field, as a JSON-ready dict; an optional variant (V1-V3) only when it is not its default.

        >>> Rules(first_draw="none").to_dict()["first_draw"], "first_draw" in Rules().to_dict()
        ('none', False)
        """
        out = asdict(self)
        for name in OPTIONAL_VARIANTS:
            if out[name] == _DEFAULTS[name]:
                del out[name]
        return out

    @property
    def variants(self) -> list[str]:
        """The optional variants in play, each as "ID field=value", in ID order (empty for the card's rules).

        >>> Rules(second_extra=1, second_free_steal=True).variants
        ['V1 second_extra=1', 'V3 second_free_steal=True']
        """
        return [f"{rid} {name}={getattr(self, name)!r}" for name, rid in OPTIONAL_VARIANTS.items()
                if getattr(self, name) != _DEFAULTS[name]]

    def dealt(self, player: int, first_player: int) -> int:
        """S2, V1: how many cards `player` is dealt when `first_player` takes turn 1.

        >>> Rules(second_extra=2).dealt(1, 0), Rules(second_extra=2).dealt(0, 0)
        (9, 7)
        """
        return self.hand_size + (self.second_extra if player != first_player else 0)

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from a dict such as `to_dict()` gives; unknown keys raise RulesError."""
        if not isinstance(data, dict):
            raise RulesError(f"Rules must be an object of fields, not {data!r}")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(map(str, data)) - known)
        if unknown:
            raise RulesError(
                f"Unknown rules field(s) {', '.join(map(repr, unknown))}; known: {', '.join(sorted(known))}"
            )
        return cls(**data).validate()

    def set_starts(self) -> tuple[int, ...]:
        """Ranks r that start a set r, r+1, r+2 (13 + 1 wraps to the ace) under `ace`."""
        extra = {"low": (), "low_or_high": (12,), "wrap": (12, 13)}[self.ace]
        return tuple(range(1, 12)) + extra

    def is_set(self, cards: Iterable[Card]) -> bool:
        """T3: three cards of consecutive ranks, suits free.

        >>> Rules().is_set(Card.parse(c) for c in ("AS", "2D", "3C"))
        True
        >>> Rules().is_set(Card.parse(c) for c in ("QS", "KS", "AS"))
        False
        >>> Rules(ace="low_or_high").is_set(Card.parse(c) for c in ("QS", "KS", "AS"))
        True
        """
        trio = cards if type(cards) is tuple else tuple(cards)
        if len(trio) != 3:
            return False
        a, b, c = trio
        if a.index == b.index or b.index == c.index or a.index == c.index:
            return False
        return (1 << a.rank | 1 << b.rank | 1 << c.rank) in _SET_RANKS[self.ace]


_DEFAULTS: dict[str, Any] = {f.name: f.default for f in fields(Rules)}


def _check_int(name: str, value: object, low: int, high: int | None, cap: int | None = None) -> None:
    """A range (`high`) reads "from low to high"; a `cap` is a sanity limit: ">= low, at most cap"."""
    top = high if high is not None else cap
    if type(value) is not int or value < low or (top is not None and value > top):
        allowed = f"an integer from {low} to {high}" if high is not None else f"an integer >= {low}"
        if cap is not None:
            allowed += f", at most {cap}"
        raise RulesError(f"Rules.{name} is {value!r}; allowed: {allowed}")


def _set_ranks(starts: Iterable[int]) -> frozenset[int]:
    """Each set's three ranks as a mask (bit `rank`): three different cards of these ranks are a set."""
    return frozenset(sum(1 << ((r + k - 1) % 13 + 1) for k in range(3)) for r in starts)


_SET_RANKS = {ace: _set_ranks(Rules(ace=ace).set_starts()) for ace in ACE_RULES}


def set_points(cards: Iterable[Card]) -> int:
    """P1/P2: 2 points if the three share a suit or are all face cards, else 1.

    >>> set_points(Card.parse(c) for c in ("JC", "QH", "KS"))
    2
    >>> set_points(Card.parse(c) for c in ("10C", "JH", "QS"))
    1
    """
    trio = cards if type(cards) is tuple else tuple(cards)
    if len(trio) != 3:
        raise ArgumentError(f"set_points needs the three cards of a set, not {len(trio)}: {trio!r}"[:200])
    a, b, c = trio
    if a.suit == b.suit == c.suit or (a.rank >= 11 and b.rank >= 11 and c.rank >= 11):
        return 2
    return 1
