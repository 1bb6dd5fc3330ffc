"""The features a screen has, listed once: each answers its requests and adds its synced traits.

`FEATURES` lists the features (`plugin.Feature` subclasses, each in its own module); `REQUESTS`
gathers every request the screen answers, from the session, the desk and the features, where each
handler is marked with `@request`. The widget declares the features' traits, makes the features
(`attach`) and dispatches from `REQUESTS`; `js/src/shared.js` lists the traits and the requests.
Adding a panel: its module here, one line in FEATURES (and its JS module, one line in js/src/features.js).
"""

from __future__ import annotations

from .desk import Desk
from .notepad import Notepad
from .panels import PANELS
from .plugin import Feature, Request, Trait, requests_of
from .practicemode import PracticeMode
from .quizmode import QuizMode
from .reviewpanel import ReviewPanel
from .session import Session

__all__ = ["FEATURES", "REQUESTS", "feature_traits"]

FEATURES: tuple[type[Feature], ...] = (*PANELS, Notepad, QuizMode, PracticeMode, ReviewPanel)
"""The features of a screen, in the order their traits are synced."""

REQUESTS: dict[str, Request] = requests_of(Session, Desk, *FEATURES)
"""Every browser request, by kind: its fields and the method (of the session, the desk or a feature) that answers."""


def feature_traits() -> dict[str, Trait]:
    """Every trait the features add, by name (a name added twice is a bug: the test run says so)."""
    traits: dict[str, Trait] = {}
    for feature in FEATURES:
        traits.update(feature.traits)
    return traits
