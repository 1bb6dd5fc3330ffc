"""`Bot`, the protocol every player meets, kept out of `bots` so it stays a real `typing.Protocol`: mypyc
compiles a Protocol class into a native trait, which `@runtime_checkable` rejects (mypyc/mypyc#909). Do not
compile this module. `bots.Bot` is this class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from ..engine.actions import Action
from ..engine.observation import PlayerView

__all__ = ["Bot"]


@runtime_checkable
class Bot(Protocol):
    """What a player needs: a `name`, `choose` and `explain`.

    `choose` gets the player's `PlayerView` (never the Game) and the legal actions
    (`sim.play_game` asks only when there are at least two) and returns one of
    them. An optional `new_game(seed, player)` is called before each game.
    """

    name: str

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """One of `legal_actions`, chosen from what `view` shows."""
        ...

    def explain(self) -> str:
        """Why the last choice, in a sentence (may name the bot's own hidden cards)."""
        ...
