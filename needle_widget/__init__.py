"""needle_widget: the card game Needle in a Card Stack, as an engine, a Jupyter widget and lessons.

>>> from needle_widget import Card, Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle(Card.parse("7h")))
>>> g.to_move, g.phase
(1, 'needle')
"""

from ._version import __version__ as __version__
from .engine import actions
from .engine.actions import Action
from .engine.cards import Card
from .engine.errors import (
    BotError,
    CardError,
    IllegalAction,
    InvalidAction,
    NeedleError,
    PerspectiveError,
    ReplayError,
    RulesError,
)
from .engine.game import Event, Game
from .engine.observation import PlayerView
from .engine.result import Reason, Result
from .engine.rules import Rules, set_points
from .engine.views import view
from .inference import knowledge, worlds
from .players import bots
from .players.sim import play_game
from .records.replay import Replay
from .review.matches import tournament


def __getattr__(name: str) -> object:
    """`NeedleWidget` and `whatif`, imported on first use: the engine alone needs no Jupyter and no screen."""
    if name == "NeedleWidget":
        from .jupyter.widget import NeedleWidget

        return NeedleWidget
    if name == "whatif":
        from .screen import whatif

        return whatif
    raise AttributeError(f"module 'needle_widget' has no attribute {name!r}")


__all__ = [
    "Action", "BotError", "Card", "CardError", "Event", "Game", "IllegalAction", "InvalidAction", "NeedleError",
    "PerspectiveError",
    "PlayerView", "Reason", "Replay", "ReplayError", "Result", "Rules", "RulesError", "actions", "bots",
    "examples", "knowledge", "play_game", "set_points", "tournament", "view", "whatif", "worlds", "NeedleWidget",
]
