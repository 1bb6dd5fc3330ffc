"""ScreenWidget: what every widget showing one screen of the game shares, whatever its source.

The widgets of a screen (`widget.NeedleWidget` of a desk in this kernel, `follow.FollowWidget` of a student's
seat in a class) take their synced traits from `screentraits` (typed class attributes generated from the screen
contract, `screen.contract.SCREEN`); `screen_traits()` makes the same traits as a dict, for a class built
otherwise. `ScreenWidget` holds the front end's bundle; binding the source and the plumbing of a request are
`SourceWidget`'s.
"""

from __future__ import annotations

from typing import Any

import traitlets

from ..screen.contract import SCREEN
from ..screen.session import check_number
from .bundles import MISSING, bundle
from .sourcewidget import SourceWidget
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


class ScreenWidget(SourceWidget):
    """The base of a widget that shows one screen of the game with the game's front end (widget.js): the bundle
    and the scale. A subclass inherits its traits (`screentraits.ScreenTraits`) and binds its source
    (`SourceWidget`).
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
