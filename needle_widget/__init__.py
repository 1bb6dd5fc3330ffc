"""needle_widget: the card game Needle in a Card Stack, as an engine, a Jupyter widget and lessons.

>>> from needle_widget import Card, Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle(Card.parse("7h")))
>>> g.to_move, g.phase
(1, 'needle')
"""

from . import actions, bots, knowledge
from .actions import Action
from .cards import Card
from .errors import (
    BotError,
    CardError,
    IllegalAction,
    InvalidAction,
    NeedleError,
    PerspectiveError,
    ReplayError,
    RulesError,
)
from .game import Event, Game
from .observation import PlayerView
from .replay import Replay
from .result import Reason, Result
from .rules import Rules, set_points
from .sim import play_game, tournament
from .views import view

__version__ = "0.1.0"


def __getattr__(name: str):
    if name == "NeedleWidget":  # imported on first use: the engine alone needs no Jupyter
        from .widget import NeedleWidget

        return NeedleWidget
    raise AttributeError(f"module 'needle_widget' has no attribute {name!r}")

__all__ = [
    "Action", "BotError", "Card", "CardError", "Event", "Game", "IllegalAction", "InvalidAction", "NeedleError",
    "PerspectiveError",
    "PlayerView", "Reason", "Replay", "ReplayError", "Result", "Rules", "RulesError", "actions", "bots",
    "knowledge", "play_game", "set_points", "tournament", "view", "NeedleWidget",
]
