"""One recorded action (`Step`): who, on which turn, what, and its chance outcome; its JSON form, and
the checked re-applying of a list of them (`play`), for a replay's main line and for its variations.

>>> from needle_widget import Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle("7h")); g.apply(actions.ChooseNeedle("QS")); g.apply(actions.DrawPile())
>>> step = Step.of(g.event(-1))
>>> step.to_dict() == g.replay().to_dict()["actions"][2], Step.from_dict(step.to_dict(), 2) == step
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from ..engine import actions as A
from ..engine.cards import Card
from ..engine.errors import NeedleError, ReplayError
from ..engine.game import Event, Game
from ..engine.seats import player_name

__all__ = ["Step", "cards_of", "play"]


@dataclass(frozen=True)
class Step:
    """One recorded action: who, on which turn, what, and its chance outcome."""

    player: int
    turn: int
    action: A.Action
    cards: tuple[Card, ...] = ()
    """Cards that entered the player's hand: the pile draw, the stolen card, the replenished cards."""
    reshuffle: tuple[Card, ...] | None = None
    """The new draw pile (top first) if this action reshuffled the discards (D1)."""

    @classmethod
    def of(cls, event: Event) -> Step:
        """The record of one entry of `Game.history`."""
        reshuffle = event.reshuffles[0] if event.reshuffles else None
        return cls(event.player, event.turn, event.action, event.cards, reshuffle)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form of this step (see `needle_widget.records.replay`)."""
        data: dict[str, Any] = {"player": self.player, "turn": self.turn, **self.action.to_dict()}
        if type(self.action) is A.EndSets:
            data["drawn"] = [c.code for c in self.cards]
        elif self.cards:
            data["cards"] = [c.code for c in self.cards]
        if self.reshuffle is not None:
            data["reshuffle"] = [c.code for c in self.reshuffle]
        return data

    @classmethod
    def from_dict(cls, raw: Any, k: int, where: str = "action") -> Step:
        """The step a `to_dict` gave, as action `k` of a list; anything else raises ReplayError naming it
        ("action 17: ...", or `where` in place of "action").
        """
        place = f"{where} {k}"
        if not isinstance(raw, dict):
            raise ReplayError(f"{place}: expected an object, got {raw!r}"[:200])
        player, turn = raw.get("player"), raw.get("turn")
        if player not in (0, 1) or type(player) is not int:
            raise ReplayError(f"{place}: player {player!r} is not 0 or 1"[:200])
        if type(turn) is not int or turn < 0:
            raise ReplayError(f"{place}: turn {turn!r} is not an integer >= 0"[:200])
        fields = {key: v for key, v in raw.items() if key not in ("player", "turn", "drawn", "reshuffle")}
        kind = raw.get("type")
        cards: tuple[Card, ...] = ()
        if kind in ("draw_pile", "steal"):
            cards = tuple(cards_of(fields.pop("cards", None), f"{place} cards"))
            if len(cards) != 1:
                raise ReplayError(f"{place}: a {kind} moves exactly one card, recorded {len(cards)}")
        elif "drawn" in raw and kind != "end_sets":
            raise ReplayError(f"{place}: only end_sets records drawn cards")
        if kind == "end_sets":
            cards = tuple(cards_of(raw.get("drawn", []), f"{place} drawn"))
        try:
            action = A.from_dict(fields)
        except NeedleError as error:
            raise ReplayError(f"{place}: {error}") from None
        reshuffle = None
        if "reshuffle" in raw:
            reshuffle = tuple(cards_of(raw["reshuffle"], f"{place} reshuffle"))
        return cls(player, turn, action, cards, reshuffle)

    def apply_to(self, game: Game) -> None:
        """Apply this action to `game` with its recorded chance outcome (`Game.apply_recorded`)."""
        stolen = self.cards[0] if type(self.action) is A.Steal and self.cards else None
        game.apply_recorded(self.action, stolen=stolen, reshuffle=self.reshuffle)


def cards_of(value: Any, where: str) -> list[Card]:
    """A JSON list of card codes as Cards; anything else raises ReplayError naming `where`."""
    if not isinstance(value, list):
        raise ReplayError(f"{where}: expected a list of card codes, got {value!r}"[:200])
    try:
        return [Card.parse(c) for c in value]
    except NeedleError as error:
        raise ReplayError(f"{where}: {error}") from None


def play(game: Game, steps: Iterable[Step], *, first: int = 0, label: str = "action",
         each: Callable[[int, Game], Any] | None = None) -> Game:
    """Apply `steps` to `game` in order, checking each against the game: whose move and which turn it
    is, that the rules allow it, and that the recorded cards are the ones the game gives. The first
    problem raises ReplayError naming the step ("action 17 (Discard 9♣): ..."; steps counted from
    `first`). `each(k, game)` is called after step k. Returns `game`.
    """
    for k, step in enumerate(steps, first):
        where = f"{label} {k} ({step.action})"
        if game.phase == "over":
            assert game.result is not None  # a round over has its result
            raise ReplayError(f"{where}: the round was already over ({game.result.describe()})")
        if step.player != game.to_move or step.turn != game.turn:
            raise ReplayError(
                f"{where}: recorded as {player_name(step.player)} on turn {step.turn}, but it is "
                f"{player_name(game.to_move)}'s move on turn {game.turn}"
            )
        try:
            step.apply_to(game)
        except NeedleError as error:
            raise ReplayError(f"{where}: {error}") from None
        happened = game.event(-1).cards
        if happened != step.cards:
            raise ReplayError(
                f"{where}: recorded cards {' '.join(map(str, step.cards)) or 'none'}, but the game gives "
                f"{' '.join(map(str, happened)) or 'none'}"
            )
        if each is not None:
            each(k, game)
    return game
