"""How a round ended: a `Reason` enum plus a `Result` dataclass (docs/RULES.md E1-E5, P3)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any

from .cards import Card
from .seats import player_name


class Reason(str, Enum):
    """Why the round ended; compares equal to its string value ("found" == Reason.FOUND)."""

    FOUND = "found"
    """E1: a player's needle entered that player's hand."""
    DISCARDED = "discarded"
    """E2: a player's needle was put on the discard pile."""
    MELDED = "melded"
    """E3: a player's needle was laid in the opponent's set."""
    EXHAUSTED = "exhausted"
    """E4: the player to move could draw no card."""
    TURN_LIMIT = "turn_limit"
    """E5: `Rules.max_turns` turns were completed."""

    def __str__(self) -> str:
        return self.value

    @property
    def words(self) -> str:
        """A few words for the ends of many rounds ("found", "discarded", "laid in a set", "no card left",
        "turn limit"): what every text shows, never the value "melded".
        """
        return _WORDS[self]


_WORDS = {Reason.FOUND: "found", Reason.DISCARDED: "discarded", Reason.MELDED: "laid in a set",
          Reason.EXHAUSTED: "no card left", Reason.TURN_LIMIT: "turn limit"}

_DESCRIPTIONS = {
    Reason.FOUND: "{owner} found their needle {needle}",
    Reason.DISCARDED: "{owner}'s needle {needle} was discarded",
    Reason.MELDED: "{owner}'s needle {needle} was laid in a set",
    Reason.EXHAUSTED: "no card was left to draw",
    Reason.TURN_LIMIT: "the turn limit was reached",
}


@dataclass(frozen=True)
class Result:
    """The end of a round: `winner` (0, 1 or None for a draw), `reason`, final `scores`.

    `needle_owner` is the player whose needle ended the round (E1-E3) and `needle`
    that card, else None; `turn` is the turn during which it ended.
    """

    winner: int | None
    reason: Reason
    scores: tuple[int, int]
    needle_owner: int | None = None
    needle: Card | None = None
    turn: int = 0

    def describe(self) -> str:
        """Why the round ended and who won, as "Player 2's needle 7♥ was discarded. Player 1 wins, 3-2."."""
        owner = player_name(self.needle_owner) if self.needle_owner is not None else ""
        why = _DESCRIPTIONS[self.reason].format(owner=owner, needle=self.needle)
        a, b = self.scores
        head = "A draw" if self.winner is None else f"{player_name(self.winner)} wins"
        return f"{why[0].upper()}{why[1:]}. {head}, {a}-{b}."

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        """The inverse of `to_dict` (as found in views and replays)."""
        needle = data.get("needle")
        return cls(data["winner"], Reason(data["reason"]), tuple(data["scores"]), data.get("needle_owner"),
                   Card.parse(needle) if needle else None, data.get("turn", 0))

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (see `from_dict`)."""
        return {
            "winner": self.winner,
            "reason": self.reason.value,
            "scores": list(self.scores),
            "needle_owner": self.needle_owner,
            "needle": self.needle.code if self.needle is not None else None,
            "turn": self.turn,
        }
