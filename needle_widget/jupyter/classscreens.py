"""A class's screens in Jupyter, as the classroom asks for them (`engine.hosts`): the teacher's board
(`room.board()`), a student's challenge game from the teacher's seat (`room.open_replay(name)`) and the
teacher's widget that leads a lesson (`lesson.widget()`). The package's root provides them; the classroom
imports nothing of Jupyter.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..records.replay import Replay
from .board import BoardWidget
from .widget import NeedleWidget

__all__ = ["SCREENS", "board", "lead", "replay"]


class Lesson(Protocol):
    """What `lead` needs of a classroom lesson: its replay, its step, and `go`."""

    replay: Any
    step: int

    def go(self, step: int) -> None:
        """Move the class to `step`."""


def board(room: Any, view: str = "teacher") -> BoardWidget:
    """The room's live board: who joined and answered, the distribution, calibration, Reveal, the ranking."""
    return BoardWidget(room, view=view)


def replay(record: Replay, **kwargs: Any) -> NeedleWidget:
    """A replay from the teacher's seat (every card shown): a student's challenge game."""
    kwargs.setdefault("perspective", "teacher")
    return NeedleWidget.from_replay(record, **kwargs)


def lead(lesson: Lesson, **kwargs: Any) -> NeedleWidget:
    """The teacher's widget of `lesson`: its replay from the teacher's perspective at the lesson's step; each
    step it shows (from its browser or from Python) moves the class with `lesson.go(step)`.
    """
    kwargs.setdefault("perspective", "teacher")
    widget = NeedleWidget.from_replay(lesson.replay, step=lesson.step, **kwargs)

    def moved(change: dict[str, Any]) -> None:
        if change["new"] != lesson.step:
            lesson.go(change["new"])

    widget.observe(moved, names=["step"])
    return widget


SCREENS = {"class.board": board, "class.replay": replay, "class.lead": lead}
"""The screens this module provides, by the name the classroom asks for."""
