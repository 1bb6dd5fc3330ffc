"""needle_widget: the card game Needle in a Card Stack, as an engine, a Jupyter widget and lessons.

>>> from needle_widget import Card, Game, actions
>>> g = Game(seed=7)
>>> g.apply(actions.ChooseNeedle(Card.parse("7h")))
>>> g.to_move, g.phase
(1, 'needle')
"""

import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Callable

from ._version import __version__ as __version__
from .engine import actions
from .engine import hosts as _hosts
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
from .inference import knowledge
from .players import bots
from .players.sim import play_game
from .records.replay import Replay
from .review.matches import tournament

_MOVED = {
    "engine": ("actions", "bitmasks", "cards", "errors", "figures", "game", "narration", "observation", "observers",
               "paths", "result", "rules", "seats", "views"),
    "records": ("notes", "replay"),
    "inference": ("knowledge", "outcomes", "slots", "worlds"),
    "players": ("bots", "search", "sim"),
    "teaching": ("answers", "examples", "quiz"),
    "screen": ("desk", "display", "guard", "notepad", "quizmode", "session", "synced", "whatif"),
    "jupyter": ("shared", "widget"),
    "apps": ("bench", "cli", "export", "terminal"),
}
"""Where each module of the flat layout went: `needle_widget.worlds` still imports (as
`needle_widget.inference.worlds`, the same module), and `python -m needle_widget.display` still runs."""
_OLD_NAMES = {name: f"{__name__}.{layer}.{name}" for layer, names in _MOVED.items() for name in names}


class _OldNames(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds `needle_widget.<old name>` as the module in its layer package (one module, two names)."""

    def find_spec(self, fullname: str, path: object = None,
                  target: object = None) -> importlib.machinery.ModuleSpec | None:
        package, _, name = fullname.rpartition(".")
        if package != __name__ or name not in _OLD_NAMES:
            return None
        return importlib.util.spec_from_loader(fullname, self)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        return importlib.import_module(_OLD_NAMES[spec.name.rpartition(".")[2]])

    def exec_module(self, module: types.ModuleType) -> None:
        """Nothing to run: the module in its layer package is already loaded."""

    def get_code(self, fullname: str) -> types.CodeType:
        """`python -m needle_widget.<old name>` runs the module in its layer package as the main module."""
        real = _OLD_NAMES[fullname.rpartition(".")[2]]
        return compile(f"import runpy\nrunpy.run_module({real!r}, run_name='__main__', alter_sys=True)\n",
                       fullname, "exec")


if not any(isinstance(finder, _OldNames) for finder in sys.meta_path):
    sys.meta_path.append(_OldNames())


def _jupyter_screen(name: str) -> Callable[..., object]:
    """A maker of the Jupyter adapter's screen `name` that imports the adapter when first called."""

    def make(*args: object, **kwargs: object) -> object:
        from .jupyter.classscreens import SCREENS

        return SCREENS[name](*args, **kwargs)

    return make


for _name in ("class.board", "class.replay", "class.lead", "class.table"):  # the classroom's screens (engine.hosts)
    _hosts.provide(_name, _jupyter_screen(_name))


def __getattr__(name: str) -> object:
    if name == "NeedleWidget":  # imported on first use: the engine alone needs no Jupyter
        from .jupyter.widget import NeedleWidget

        return NeedleWidget
    if name in _OLD_NAMES:  # `needle_widget.worlds` without importing it first, as in the flat layout
        return importlib.import_module(_OLD_NAMES[name])
    raise AttributeError(f"module 'needle_widget' has no attribute {name!r}")

__all__ = [
    "Action", "BotError", "Card", "CardError", "Event", "Game", "IllegalAction", "InvalidAction", "NeedleError",
    "PerspectiveError",
    "PlayerView", "Reason", "Replay", "ReplayError", "Result", "Rules", "RulesError", "actions", "bots",
    "knowledge", "play_game", "set_points", "tournament", "view", "NeedleWidget",
]
