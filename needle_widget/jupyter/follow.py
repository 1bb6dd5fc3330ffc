"""A class in Jupyter: `FollowWidget`, a student's screen following the teacher through a classroom
`Student` client, its source (the teacher's screens are in `classscreens`).

The student's kernel holds no game: the client hands over its perspective's synced state (as the
HTML export carries it) and takes the browser's requests; this widget copies the one into its
traits and passes the other on (`SourceWidget`). In a lesson that holds variations its seat may
open, the move list lists them as the widget's does; opening one and stepping along it ({"kind": "line"},
{"kind": "step"}) are the client's requests too.
"""

from __future__ import annotations

from typing import Any, cast

from ..engine.errors import ArgumentError
from ..screen.session import quote
from ..screen.source import Source
from .screentraits import FollowTraits
from .screenwidget import ScreenWidget, check_scale
from .sourcewidget import OWN

__all__ = ["FollowWidget", "Student"]

Student = Source
"""What `FollowWidget` binds: a classroom client (`needle_widget.classroom.join`), a screen source."""


class FollowWidget(FollowTraits, ScreenWidget):
    """A student's screen in a class: what the teacher leads, at the teacher's step, from the
    student's own perspective only (`NeedleWidget.join(url, ticket)` makes one).

    The widget binds the student's seat as its source (`SourceWidget`): the traits are a copy of
    `student.state()`, renewed after each of the client's changes (on the kernel's event loop when one runs);
    the browser's requests go to `student.request`, its refusals to `error` and `answer`. `follow` says whom
    it follows and how: {status, text, live_step, can_live, name, room, connected}. Closing the widget closes
    the client.
    """

    def __init__(self, student: Student, *, scale: float = 1.0, **kwargs: Any) -> None:
        self._check_source(student, "a classroom Student client (from classroom.join)")
        self._source = student
        self._names = frozenset(self.trait_names(sync=True)) - OWN
        super().__init__(scale=check_scale(scale), **self._source_state(), **kwargs)
        self._bind(student)

    @property
    def student(self) -> Student:
        """The classroom client this widget follows."""
        return cast(Student, self._source)

    def go(self, step: int) -> None:
        """Look at a step already received (the teacher goes on; `live()` returns)."""
        self._ask({"kind": "step", "to": step})

    def open_line(self, variation: int | None, to: int | None = None) -> None:
        """Look at a variation received (an index of its `variations` list) at step `to` (default: its first
        move), or at the game (None), as the browser's move list does; `live()` returns to the teacher.
        """
        self._ask({"kind": "line", "variation": variation, "to": to})

    def live(self) -> None:
        """Back to the teacher's step (or to the class from one's own practice)."""
        self._ask({"kind": "live"})

    def homework(self) -> None:
        """Practise the homework the teacher gave (the follow bar's Homework button); `live()` returns."""
        self._ask({"kind": "homework", "open": True})

    def history(self) -> Any:
        """Your term so far (`Student.history`): your games with their figures, your answers, your homework."""
        return self.student.history()  # type: ignore[attr-defined]

    def answer_question(self, answer: Any, index: int | None = None) -> None:
        """Answer the question the teacher asks (default: the one shown), as the browser does."""
        quiz = self.quiz_state or {}
        if index is None:
            index = (quiz.get("question") or {}).get("index")
        if index is None:
            raise ArgumentError(f"No question is asked now, so the answer {quote(answer)} has nothing to answer")
        self._ask({"kind": "quiz_answer", "index": index, "answer": answer})

    def __repr__(self) -> str:
        follow = self.follow or {}
        return (f"FollowWidget(room={follow.get('room')!r}, name={follow.get('name')!r}, "
                f"status={follow.get('status')!r}, step={self.step}/{self.steps})")
