"""A class in Jupyter: `FollowWidget`, a student's screen following the teacher through a classroom
`Student` client (the teacher's screens are in `classscreens`).

The student's kernel holds no game: the client hands over its perspective's synced state (as the
HTML export carries it) and takes the browser's requests; this widget copies the one into its
traits and passes the other on. In a lesson that holds variations its seat may open, the move list lists
them as the widget's does; opening one and stepping along it ({"kind": "line"}, {"kind": "step"}) are the
client's requests too.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from ..engine.errors import ArgumentError
from ..screen.contract import FOLLOW
from ..screen.session import quote
from .answering import no_jsnull
from .onloop import OnLoop, stop_following
from .screenwidget import ScreenWidget, check_scale, screen_traits
from .traits import traits_of

__all__ = ["FollowWidget", "Student"]

log = logging.getLogger("needle_widget")
_OWN = frozenset({"error", "answer", "scale"})  # the widget's own traits, never the client's


class Student(Protocol):
    """What `FollowWidget` needs of a classroom client (`needle_widget.classroom.join`)."""

    def state(self) -> dict[str, Any]:
        """Every synced trait of the student's screen, and `follow`."""

    def subscribe(self, callback: Any) -> Any:
        """Call `callback()` (from any thread) after each change of `state()`; returns the unsubscribe."""

    def request(self, message: dict[str, Any]) -> None:
        """A browser request {kind, ...}; a refusal raises a NeedleError with a sentence."""

    def close(self) -> None:
        """Leave the class."""


class FollowWidget(ScreenWidget):
    """A student's screen in a class: what the teacher leads, at the teacher's step, from the
    student's own perspective only (`NeedleWidget.join(url, ticket)` makes one).

    The traits are a copy of `student.state()`, renewed after each of the client's changes (on the
    kernel's event loop when one runs); the browser's requests go to `student.request`, its refusals
    to `error` and `answer`. `follow` says whom it follows and how: {status, text, live_step,
    can_live, name, room, connected}. Closing the widget closes the client.
    """

    locals().update(screen_traits())
    locals().update(traits_of(FOLLOW))  # `follow`: the screen contract's FOLLOW

    def __init__(self, student: Student, *, scale: float = 1.0, **kwargs: Any) -> None:
        needs = ("state", "subscribe", "request", "close")
        missing = [name for name in needs if not callable(getattr(student, name, None))]
        if missing:
            raise ArgumentError(f"FollowWidget needs a classroom Student client (from classroom.join), not "
                                f"{quote(student)}: it has no {', '.join(missing)}")
        self._student, self._closed = student, False
        self._names = frozenset(self.trait_names(sync=True)) - _OWN
        super().__init__(scale=check_scale(scale), **self._client_state(), **kwargs)
        self._hop = OnLoop(self._pull)
        self._unsubscribe = student.subscribe(self._hop)
        self._pull()  # a change between the first state and the subscription
        self.on_msg(self._on_message)

    @property
    def student(self) -> Student:
        """The classroom client this widget follows."""
        return self._student

    def go(self, step: int) -> None:
        """Look at a step already received (the teacher goes on; `live()` returns)."""
        self._python({"kind": "step", "to": step})

    def open_line(self, variation: int | None, to: int | None = None) -> None:
        """Look at a variation received (an index of its `variations` list) at step `to` (default: its first
        move), or at the game (None), as the browser's move list does; `live()` returns to the teacher.
        """
        self._python({"kind": "line", "variation": variation, "to": to})

    def live(self) -> None:
        """Back to the teacher's step."""
        self._python({"kind": "live"})

    def answer_question(self, answer: Any, index: int | None = None) -> None:
        """Answer the question the teacher asks (default: the one shown), as the browser does."""
        quiz = self.quiz_state or {}
        if index is None:
            index = (quiz.get("question") or {}).get("index")
        if index is None:
            raise ArgumentError(f"No question is asked now, so the answer {quote(answer)} has nothing to answer")
        self._python({"kind": "quiz_answer", "index": index, "answer": answer})

    def _python(self, message: dict[str, Any]) -> None:
        """A request from Python: refusals are raised; the traits follow at once."""
        try:
            self._student.request(message)
        finally:
            self._pull()

    def _client_state(self) -> dict[str, Any]:
        """The client's state, the traits this widget has (anything else is left out, with a log line)."""
        state = self._student.state()
        if not isinstance(state, dict):
            raise ArgumentError(f"The Student client's state must be a dict, not {quote(state)}")
        unknown = sorted(str(name) for name in state if name not in self._names)
        if unknown:
            log.debug("needle_widget: FollowWidget leaves out the state's %s", ", ".join(unknown))
        return {name: value for name, value in state.items() if name in self._names}

    def _pull(self) -> None:
        """Copy the client's state into the traits (only what changed reaches the browser, in one message)."""
        if self._closed:
            return
        with self.hold_sync(), self._errors_shown("following the class"):
            for name, value in self._client_state().items():
                setattr(self, name, value)

    def _on_message(self, _widget: Any, content: Any, _buffers: Any = None) -> None:
        """One browser request, passed to the client without its id and answered at once."""
        content = no_jsnull(content)
        if isinstance(content, dict) and content.get("kind") == "picture":
            return  # an answer to save_png, which this widget never asks
        with self.hold_sync():
            self._answer(content, self._request, after=lambda _kind: self._pull())

    def _request(self, _kind: str, content: dict[str, Any]) -> None:
        self._student.request({key: value for key, value in content.items() if key != "id"})

    def close(self) -> None:
        """Stop following (unsubscribe), close the client, and close the widget."""
        student = self.__dict__.get("_student")
        try:
            stop_following(self)
            if student is not None:
                student.close()
        finally:
            super().close()

    def __repr__(self) -> str:
        follow = self.follow or {}
        return (f"FollowWidget(room={follow.get('room')!r}, name={follow.get('name')!r}, "
                f"status={follow.get('status')!r}, step={self.step}/{self.steps})")

