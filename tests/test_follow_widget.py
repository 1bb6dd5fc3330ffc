"""FollowWidget (a student's screen in a class) and the teacher's lead widget, with fakes of the classroom's
Student client and Lesson, as issue 23's contract between the class core and the adapter has them.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from test_widget import screen_traits_of

from needle_widget import NeedleWidget, examples
from needle_widget.engine.errors import ArgumentError, NeedleError
from needle_widget.jupyter.classscreens import lead
from needle_widget.jupyter.follow import FollowWidget
from needle_widget.screen.session import Session
from needle_widget.screen.synced import Synced

REPLAY = examples.load("found_early")


class FakeClassError(NeedleError):
    """The classroom's refusal (ClassError), as the fake client raises it."""


def follow(step: int, live: int, connected: bool = True) -> dict[str, Any]:
    status = "live" if step == live else "looking"
    text = f"Following the teacher at step {live}" if status == "live" else f"Looking at step {step}"
    return {"status": status, "text": text, "live_step": live, "can_live": status != "live", "name": "Ann",
            "room": "monday", "connected": connected}


class FakeStudent:
    """The contract's Student: per-step states of Player 1's perspective, a teacher at step `live`."""

    def __init__(self, live: int = 4) -> None:
        self._session = Session(replay=REPLAY, perspective=0)
        self._lock = threading.Lock()
        self.live, self.step = live, live
        self.callbacks: list[Callable[[], None]] = []
        self.requests: list[dict[str, Any]] = []
        self.closed = False
        self.states = 0

    def state(self) -> dict[str, Any]:
        with self._lock:
            self.states += 1
            self._session.go(self.step)
            state = Synced(self._session).state()
        return {**state, "mode": "replay", "follow": follow(self.step, self.live), "extra_key": 1}

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)

    def request(self, message: dict[str, Any]) -> None:
        self.requests.append(message)
        if message.get("kind") == "step" and type(message.get("to")) is int and 0 <= message["to"] <= self.live:
            self.step = message["to"]
        elif message.get("kind") == "live":
            self.step = self.live
        else:
            raise FakeClassError(f"Not a request a student may send: {message!r}")

    def teacher_goes(self, step: int) -> None:
        """The teacher moves on: the reader thread's callback."""
        with self._lock:
            self.step = step if self.step == self.live else self.step
            self.live = step
        for callback in list(self.callbacks):
            callback()

    def close(self) -> None:
        self.closed = True


def send(widget: FollowWidget, **request: Any) -> None:
    widget._on_message(widget, request, [])


def test_the_traits_are_the_client_s_state_and_follow_it() -> None:
    student = FakeStudent(live=4)
    widget = FollowWidget(student)
    assert len(student.callbacks) == 1
    assert (widget.mode, widget.step, widget.perspective) == ("replay", 4, 0)
    assert widget.follow["status"] == "live" and widget.follow["can_live"] is False
    assert widget.table == student.state()["table"]
    student.teacher_goes(9)
    assert widget.step == 9 and widget.follow["text"] == "Following the teacher at step 9"
    at_nine = Session(replay=REPLAY, perspective=0)
    at_nine.go(9)
    assert widget.table == Synced(at_nine).state()["table"]
    assert repr(widget) == "FollowWidget(room='monday', name='Ann', status='live', step=9/16)"


def test_it_has_the_screen_s_traits_and_follow() -> None:
    names = set(screen_traits_of(FollowWidget))
    assert names == set(screen_traits_of(NeedleWidget)) | {"follow"}
    assert FollowWidget._esm == NeedleWidget._esm and FollowWidget._css == NeedleWidget._css
    assert not hasattr(NeedleWidget, "follow")


def test_requests_go_to_the_client_without_their_id_and_are_answered() -> None:
    student = FakeStudent(live=6)
    widget = FollowWidget(student)
    send(widget, kind="step", to=2, id=7)
    assert student.requests == [{"kind": "step", "to": 2}]
    assert widget.step == 2 and widget.follow["status"] == "looking" and widget.follow["can_live"]
    assert widget.answer == {"id": 7, "ok": True, "error": None} and widget.error is None
    send(widget, kind="live", id=8)
    assert widget.step == 6 and widget.answer == {"id": 8, "ok": True, "error": None}


def test_a_refusal_goes_to_error_and_answer() -> None:
    widget = FollowWidget(FakeStudent())
    send(widget, kind="perspective", to="teacher", id=3)
    assert widget.error["text"].startswith("Not a request a student may send")
    assert widget.answer == {"id": 3, "ok": False, "error": widget.error["text"]}
    send(widget, kind="step", to=1, id=4)
    assert widget.error is None and widget.answer["ok"]
    send(widget, kind="step", to=1, id="x")
    assert "request id must be a whole number" in widget.error["text"]
    send(widget, to=1)
    assert widget.error["text"].startswith("Not a request: ")
    with pytest.raises(FakeClassError, match="may send"):
        widget.answer_question("pile", index=0)
    with pytest.raises(ArgumentError, match="No question is asked now, so the answer 'pile'"):
        widget.answer_question("pile")


def test_python_steps_and_returns_to_live() -> None:
    student = FakeStudent(live=5)
    widget = FollowWidget(student)
    widget.go(1)
    assert widget.step == 1 and widget.follow["status"] == "looking"
    widget.live()
    assert widget.step == 5 and student.requests == [{"kind": "step", "to": 1}, {"kind": "live"}]


def test_the_browser_may_not_write_a_trait() -> None:
    widget = FollowWidget(FakeStudent())
    widget.set_state({"step": 3})
    assert widget.step == 4 and "Ignored a direct change of step" in widget.error["text"]


def test_a_callback_from_another_thread_with_no_loop_sets_the_traits_at_once() -> None:
    student = FakeStudent(live=3)
    widget = FollowWidget(student)
    errors: list[BaseException] = []

    def reader() -> None:
        try:
            for step in range(4, 12):
                student.teacher_goes(step)
        except BaseException as error:  # pragma: no cover - the failure shown below
            errors.append(error)

    threads = [threading.Thread(target=reader) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(5)
    assert errors == [] and widget.error is None
    assert widget.step == 11 and widget.follow["live_step"] == 11


def test_a_callback_from_another_thread_hops_to_the_kernel_s_loop() -> None:
    student = FakeStudent(live=2)
    seen: list[int] = []

    async def main() -> FollowWidget:
        widget = FollowWidget(student)
        widget.observe(lambda _change: seen.append(threading.get_ident()), names=["step"])
        loop_thread = threading.get_ident()
        before = student.states
        thread = threading.Thread(target=lambda: [student.teacher_goes(s) for s in range(3, 9)])
        thread.start()
        thread.join(5)
        assert widget.step == 2  # nothing set from the reader's thread
        for _ in range(20):
            await asyncio.sleep(0.01)
            if widget.step == 8:
                break
        assert widget.step == 8 and set(seen) == {loop_thread}
        assert student.states - before < 6  # the callbacks made before the loop ran were one pull
        return widget

    widget = asyncio.run(main())
    widget.close()


def test_closing_unsubscribes_and_closes_the_client() -> None:
    student = FakeStudent()
    widget = FollowWidget(student)
    widget.close()
    assert student.callbacks == [] and student.closed
    student.teacher_goes(10)
    assert widget.step == 4


def test_a_client_that_is_not_one_is_refused() -> None:
    with pytest.raises(ArgumentError, match="FollowWidget needs a classroom Student client .*, not 'ann': it has no"):
        FollowWidget("ann")


def test_join_wraps_the_classroom_s_student(monkeypatch: pytest.MonkeyPatch) -> None:
    from needle_widget.jupyter import widget as widget_module

    joined: list[tuple[str, str]] = []
    student = FakeStudent()

    def join(url: str, ticket: str) -> FakeStudent:
        joined.append((url, ticket))
        return student

    monkeypatch.setattr(widget_module, "join_class", join)
    widget = NeedleWidget.join("folder:/tmp/class", "T-123", scale=1.5)
    assert isinstance(widget, FollowWidget) and widget.student is student and widget.scale == 1.5
    assert joined == [("folder:/tmp/class", "T-123")]
    widget.close()


class FakeLesson:
    def __init__(self, step: int) -> None:
        self.replay, self.step, self.went = REPLAY, step, []

    def go(self, step: int) -> None:
        self.went.append(step)
        self.step = step


def test_the_lead_widget_moves_the_lesson() -> None:
    lesson = FakeLesson(step=3)
    widget = lead(lesson)
    assert (widget.step, widget.perspective, widget.mode) == (3, "teacher", "replay")
    widget.step = 5
    widget._on_message(widget, {"kind": "step", "to": 7, "id": 1}, [])
    assert lesson.went == [5, 7] and widget.answer["ok"]
    widget.close()
