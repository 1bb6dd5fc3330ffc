"""A player of known strength: GreedyBot that plays a random legal move a given share of the time.

Simulated students for checking a class's record (`needle-widget bench record`, tests/test_class_record.py): a
share of 0 plays as GreedyBot, 1 at random; in between, strength falls with the share.

>>> from needle_widget.players import sim
>>> from needle_widget.players.bots import GreedyBot
>>> game = sim.play_game(NoisyBot(0.5, seed=1), GreedyBot(), seed=4)
>>> game.phase, NoisyBot(0.25).name
('over', 'noisy 25%')
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence

from ..engine.actions import Action
from ..engine.errors import ArgumentError, quote
from ..engine.observation import PlayerView
from .bots import GreedyBot

__all__ = ["NoisyBot"]


class NoisyBot(GreedyBot):
    """GreedyBot, except that with probability `share` a move is a uniformly random legal one (seeded: before
    each game it reseeds from its seed, the game's number and its seat, as RandomBot does).
    """

    def __init__(self, share: float, seed: int | None = None) -> None:
        given: object = share  # checked as given: a caller may pass anything
        if isinstance(given, bool) or not isinstance(given, (int, float)) or not 0 <= given <= 1:
            raise ArgumentError(f"A NoisyBot's share of random moves is from 0 to 1, not {quote(share)}")
        super().__init__(secrets.randbits(63) if seed is None else seed)
        self.share = float(share)
        self.name = f"noisy {round(100 * self.share)}%"
        self._rng = random.Random(f"noisy-bot {self.seed}")

    def new_game(self, seed: int, player: int) -> None:
        """Reseed from the game's number and seat, so the same game is played the same way."""
        super().new_game(seed, player)
        self._rng = random.Random(f"noisy-bot {self.seed} {seed} {player}")

    def choose(self, view: PlayerView, legal_actions: Sequence[Action]) -> Action:
        """GreedyBot's choice, or (a `share` of the time) a random legal action."""
        if self._rng.random() < self.share:
            action = legal_actions[self._rng.randrange(len(legal_actions))]
            self._why = ("Picked “{}” at random from {} legal actions.", action, len(legal_actions))
            return action
        return super().choose(view, legal_actions)

    def __repr__(self) -> str:
        return f"NoisyBot({self.share!r}, seed={self.seed!r})"
