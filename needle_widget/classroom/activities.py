"""The activities a class room runs, listed once: the room sends their screens, answers their requests and
saves them by `kind` (`activity.Activity`). Adding an activity: its module here, one line in ACTIVITIES.
"""

from __future__ import annotations

from .activity import Activity
from .challenge import Challenge
from .lesson import Lesson
from .match import Match

__all__ = ["ACTIVITIES", "owner_of"]

ACTIVITIES: tuple[type[Activity], ...] = (Lesson, Challenge, Match)
"""Every activity, in the order the room saves them."""


def owner_of(kind: str, message: dict | None = None) -> type[Activity] | None:
    """The activity that answers a student's request `kind` (the one `message` names by its kind as a field,
    if it names one), or None.
    """
    owners = [cls for cls in ACTIVITIES if kind in cls.requests()]
    named = [cls for cls in owners if message is not None and cls.kind in message]
    found = named or owners
    return found[0] if found else None
