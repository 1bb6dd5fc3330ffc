"""needle_widget: the card game Needle in a Card Stack, as an engine, a Jupyter widget and lessons.

>>> from needle_widget import Card, Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle(Card.parse("7h")))
>>> g.to_move, g.phase
(1, 'needle')
"""

from . import actions
from .actions import Action
from .cards import Card
from .errors import CardError, IllegalAction, NeedleError, PerspectiveError, RulesError
from .game import Event, Game
from .result import Reason, Result
from .rules import Rules, set_points
from .views import view

__version__ = "0.1.0"

__all__ = [
    "Action", "Card", "CardError", "Event", "Game", "IllegalAction", "NeedleError", "PerspectiveError",
    "Reason", "Result", "Rules", "RulesError", "actions", "set_points", "view",
]
