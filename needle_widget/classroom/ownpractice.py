"""A student's practice of their own class game's mistakes, in their own kernel, on their class screen.

When the student's game is over the room reviews it from their seat (`record.seat_review`) and sends them, with
the review, its marked decisions as exercises (`review.exercises`: each holds what the seat knew then, nothing
after). `OwnPractice` makes of them the very screen `NeedleWidget.practice(exercises)` makes: a practice-mode
session on a desk of its own, with its features, answered through the same request table
(`screen.source.DeskSource`). The judging of an attempt runs on a thread of its own; `changed` is called when
it is done. No teacher's code runs for it, and the room is not asked anything.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from ..engine.errors import NeedleError, quote
from ..review.exercises import Exercise
from ..screen.session import Session
from ..screen.source import DeskSource
from ..teaching.practicerun import PracticeRun
from .errors import ClassError

__all__ = ["MAX_EXERCISES", "OwnPractice", "read_exercises"]

log = logging.getLogger("needle_widget.classroom")
MAX_EXERCISES = 64
"""The most exercises a student's kernel takes from one game's review."""


def read_exercises(data: Any) -> tuple[Exercise, ...]:
    """The exercises the room sent (`Exercise.to_dict` each, checked by `Exercise.from_dict`); a malformed list
    gives none, with a log line.
    """
    if not isinstance(data, list):
        return ()
    try:
        return tuple(Exercise.from_dict(item) for item in data[:MAX_EXERCISES])
    except NeedleError as bad:
        log.warning("class: ignored the exercises of a review: %s", bad)
        return ()


class OwnPractice:
    """The practice of `exercises` by `student`, as a screen source (see the module docstring); `changed()` is
    called (from the judging thread) after each judging.
    """

    def __init__(self, exercises: tuple[Exercise, ...], student: str, changed: Callable[[], None],
                 lock: threading.RLock) -> None:
        if not exercises:
            raise ClassError("Nothing to practise: your review marked no mistake")
        run = PracticeRun(list(exercises), student=student or "student")
        seat = exercises[0].seat
        self.run = run
        self.source = DeskSource.of(Session(run.position(), seat, mode="practice", screen=seat), practice=run)
        self._changed, self._lock = changed, lock
        self._working = False
        self._closed = False

    def state(self) -> dict[str, Any]:
        """The practice screen's synced state."""
        return self.source.state()

    def request(self, message: dict[str, Any]) -> None:
        """A request of the practice screen, answered through the screen's table; judging starts on its thread."""
        self.source.request(message)
        self._work()

    def _work(self) -> None:
        """Start the judging thread if there is work and none runs (the lock is held by the caller)."""
        if self._working or self._closed or not self.source.desk.has_work():
            return
        self._working = True
        try:
            threading.Thread(target=self._judge, name="needle-own-practice", daemon=True).start()
        except RuntimeError:  # no threads here (Pyodide): judged at once, on this thread
            self._judge()

    def _judge(self) -> None:
        try:
            while True:
                with self._lock:
                    job = None if self._closed else self.source.desk.next_job()
                    if job is None:
                        self._working = False
                        break
                result = job.result()
                with self._lock:
                    if self._closed:
                        self._working = False
                        break
                    job.store(result)
                self._changed()
        except Exception:  # pragma: no cover - a bug must not kill the student's kernel thread silently
            log.exception("class: judging an attempt failed")
            with self._lock:
                self._working = False

    def close(self) -> None:
        """Stop judging (a result computed meanwhile is dropped)."""
        self._closed = True

    def __repr__(self) -> str:
        return f"OwnPractice(exercises={len(self.run.exercises)}, student={quote(self.run.student)})"
