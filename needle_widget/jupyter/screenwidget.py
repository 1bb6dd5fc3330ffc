"""ScreenWidget: what every widget showing one screen of the game shares, whoever computes it.

`screen_traits()` makes the synced traits of the screen contract (`screen.contract.SCREEN`, the one
list of them) as traitlets; the classes that compute them (`widget.NeedleWidget` from a desk in this
kernel, `follow.FollowWidget` from a class's channel) each declare them in their own body
(`locals().update(screen_traits())`). `ScreenWidget` holds the front end's bundle and the
plumbing of a request (`answering`).
"""

from __future__ import annotations

from typing import Any

import anywidget
import traitlets

from ..screen.contract import SCREEN
from ..screen.session import check_number
from .answering import Answering
from .bundles import MISSING, bundle
from .traits import traits_of

__all__ = ["ScreenWidget", "check_scale", "screen_traits"]


def screen_traits() -> dict[str, traitlets.TraitType]:
    """New trait objects for every synced trait of a screen, by name: the screen contract's `SCREEN` (the game
    shown, `screen.synced.Synced.state()`; the features' traits; `error`, `answer` and `scale`).
    """
    return traits_of(SCREEN)


def check_scale(value: Any) -> float:
    """`scale` checked: a number from 0.5 to 3."""
    return check_number(value, 0.5, 3, "scale must be between {low} and {high}")


class ScreenWidget(Answering, anywidget.AnyWidget):
    """The base of a widget that shows one screen of the game with the game's front end (widget.js):
    the bundle, the plumbing of requests (`Answering`). A subclass declares the traits
    (`locals().update(screen_traits())` in its body) and computes them.
    """

    _esm = bundle("widget.js", MISSING)
    _css = bundle("widget.css", "")

    def notify_change(self, change: Any) -> None:
        """A trait set from Python and all it changes reach the browser in one message."""
        with self.hold_sync():
            super().notify_change(change)

    @traitlets.validate("scale")
    def _valid_scale(self, proposal: dict) -> float:
        return check_scale(proposal["value"])

    def close(self) -> None:
        """Close the widget (and the layout ipywidgets leaves open)."""
        layout = self.__dict__.get("_trait_values", {}).get("layout")
        super().close()
        if layout is not None:
            layout.close()
