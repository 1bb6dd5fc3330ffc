"""BoardWidget (the teacher's board of a class room), with a fake of the classroom's Room as
issue 23's contract between the class core and the adapter has it, and against a real Room on a
folder channel (issue 29: the fake accepted "open", which the real room refused).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from typing import Any

import pytest
from conftest import settle

from needle_widget import classroom
from needle_widget.classroom import ClassError
from needle_widget.engine.errors import ArgumentError, NeedleError
from needle_widget.jupyter.board import BoardWidget
from needle_widget.jupyter.widget import NeedleWidget


class FakeClassError(NeedleError):
    """The classroom's refusal (ClassError), as the fake room raises it."""


class FakeReplayWidget:
    def __init__(self, name: str) -> None:
        self.name, self.closed = name, False

    def close(self) -> None:
        self.closed = True


class FakeRoom:
    """Three students invited, a question open, a challenge with two rows."""

    def __init__(self) -> None:
        self.answered = {"Ann": True, "Bo": None, "Cy": None}
        self.revealed = False
        self.callbacks: list[Callable[[], None]] = []
        self.requests: list[dict[str, Any]] = []
        self.opened: list[str] = []

    def board_state(self, view: str) -> dict[str, Any]:
        teacher = view == "teacher"
        count = sum(1 for a in self.answered.values() if a)
        students = [{"name": n, "joined": True, "online": True, "answered": a, "score": None}
                    for n, a in self.answered.items()]
        return {
            "room": "monday", "view": view,
            "roster": {"invited": 3, "joined": 3, "answered": count},
            "students": students if teacher else None,
            "lesson": {"title": "detective", "step": 12, "steps": 64, "shown": "Player 1"},
            "question": {"index": 0, "step": 12, "kind": "winner", "label": "Who wins", "prompt": "Who wins?",
                         "revealed": self.revealed, "truth": "Player 1 won" if self.revealed else None},
            "distribution": {"title": "Forecasts", "total": count,
                             "bars": [{"label": "0–20%", "count": 0, "truth": False},
                                      {"label": "80–100%", "count": count, "truth": False}]},
            "calibration": [],
            "can_reveal": count > 0 and not self.revealed,
            "reveal_reason": None if count and not self.revealed else "Nobody has answered yet",
            "challenge": {"opponent": "GreedyBot", "note": "", "rows": [
                {"rank": 1, "name": "Ann" if teacher else None, "status": "finished", "result": "Won 45–30",
                 "score": 15, "luck": "-3.2", "adjusted": "18.2", "can_open": teacher}]},
        }

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        self.callbacks.append(callback)
        return lambda: self.callbacks.remove(callback)

    def board_request(self, message: dict[str, Any]) -> None:
        self.requests.append(message)
        if message == {"kind": "reveal"} and not self.revealed:
            self.revealed = True
        elif message.get("kind") == "open" and message.get("name") == "Ann":
            pass
        else:
            raise FakeClassError(f"The room refuses {message!r}")

    def open_replay(self, name: str) -> FakeReplayWidget:
        self.opened.append(name)
        return FakeReplayWidget(name)

    def answer(self, name: str) -> None:
        """A student answers: the pump thread's callback."""
        self.answered[name] = True
        for callback in list(self.callbacks):
            callback()


def send(widget: BoardWidget, **request: Any) -> None:
    widget._on_message(widget, request, [])


def test_the_board_follows_the_room() -> None:
    room = FakeRoom()
    board = BoardWidget(room)
    assert board.view == "teacher" and board.board["roster"]["answered"] == 1
    assert [s["name"] for s in board.board["students"]] == ["Ann", "Bo", "Cy"]
    room.answer("Bo")
    assert board.board["roster"]["answered"] == 2 and board.board["distribution"]["total"] == 2
    assert repr(board) == "BoardWidget(room='monday', view='teacher')"


def test_the_projector_s_view_is_the_widget_s_own() -> None:
    room = FakeRoom()
    board = BoardWidget(room, view="projector")
    assert board.board["students"] is None and board.board["challenge"]["rows"][0]["name"] is None
    send(board, kind="view", view="teacher", id=2)
    assert board.view == "teacher" and board.board["students"] and board.answer["ok"] and room.requests == []
    send(board, kind="view", view="wall", id=3)
    assert board.error["text"] == "view must be 'teacher' or 'projector', not 'wall'" and not board.answer["ok"]
    board.view = "projector"
    assert board.board["view"] == "projector"
    with pytest.raises(ArgumentError, match="not 'wall'"):
        BoardWidget(room, view="wall")


def test_reveal_goes_to_the_room_and_a_refusal_to_error_and_answer() -> None:
    room = FakeRoom()
    board = BoardWidget(room)
    send(board, kind="reveal", id=5)
    assert room.requests == [{"kind": "reveal"}] and board.board["question"]["truth"] == "Player 1 won"
    assert board.answer == {"id": 5, "ok": True, "error": None}
    send(board, kind="reveal", id=6)
    assert board.error["text"].startswith("The room refuses") and board.answer["error"] == board.error["text"]
    with pytest.raises(FakeClassError):
        board.reveal()


def test_open_shows_the_student_s_replay_under_the_board() -> None:
    room = FakeRoom()
    board = BoardWidget(room)
    send(board, kind="open", name="Ann", id=1)
    assert room.opened == ["Ann"] and board.opened.name == "Ann" and board.answer["ok"]
    first = board.opened
    assert board.open_replay("Ann").name == "Ann" and first.closed
    send(board, kind="open", name="Zed", id=2)
    assert board.error["text"].startswith("The room refuses") and board.opened.name == "Ann"
    board.close()
    assert board.opened.closed and room.callbacks == []


def test_a_callback_from_another_thread() -> None:
    room = FakeRoom()
    board = BoardWidget(room)
    thread = threading.Thread(target=lambda: [room.answer(n) for n in ("Bo", "Cy")])
    thread.start()
    thread.join(5)
    assert board.board["roster"]["answered"] == 3 and board.error is None

    async def main() -> None:
        room2 = FakeRoom()
        board2 = BoardWidget(room2)
        thread = threading.Thread(target=lambda: room2.answer("Cy"))
        thread.start()
        thread.join(5)
        assert board2.board["roster"]["answered"] == 1
        for _ in range(20):
            await asyncio.sleep(0.01)
            if board2.board["roster"]["answered"] == 2:
                break
        assert board2.board["roster"]["answered"] == 2
        board2.close()

    asyncio.run(main())


def test_closing_unsubscribes() -> None:
    room = FakeRoom()
    board = BoardWidget(room)
    board.close()
    room.answer("Bo")
    assert room.callbacks == [] and board.board["roster"]["answered"] == 1


def test_a_room_that_is_not_one_is_refused() -> None:
    with pytest.raises(ArgumentError, match="BoardWidget needs a classroom Room, not 'monday': it has no"):
        BoardWidget("monday")


@pytest.fixture
def real_room(tmp_path):
    """A real room on a folder: Ann has made two moves of the challenge, Bob is invited and has not played."""
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    room.invite("Bob")
    room.challenge(seed=5)
    settle(room, ann)
    legal = ann.state()["table"]["legal_actions"][0]
    ann.act({k: v for k, v in legal.items() if k in ("type", "card", "cards")})
    settle(room, ann)
    yield room
    ann.close()
    room.close()


def test_open_replay_against_a_real_room(real_room) -> None:
    board = real_room.board()
    row = board.board["challenge"]["rows"][0]
    assert (row["name"], row["status"], row["can_open"]) == ("Ann", "playing", True)
    send(board, kind="open", name="Ann", id=1)
    assert board.answer == {"id": 1, "ok": True, "error": None} and board.error is None
    opened = board.opened
    assert isinstance(opened, NeedleWidget) and opened.perspective == "teacher"
    assert opened.steps == len(real_room.replay_of("Ann")) > 0
    assert board.open_replay("Ann") is board.opened is not opened
    board.close()


def test_a_real_room_refuses_to_open_a_replay_that_is_not_there(real_room) -> None:
    board = real_room.board()
    send(board, kind="open", name="Ann", id=1)
    opened, state = board.opened, board.board
    for n, name in enumerate(("Zed", "Bob", None), start=2):
        send(board, kind="open", name=name, id=n)
        assert board.error["text"] == f"{name!r} has no challenge game in this room"
        assert board.answer == {"id": n, "ok": False, "error": board.error["text"]}
        assert board.opened is opened and board.board == state
    with pytest.raises(ClassError, match="'Zed' has no challenge game"):
        board.open_replay("Zed")
    with pytest.raises(ClassError, match="'Zed' has no challenge game"):
        real_room.board_request({"kind": "open", "name": "Zed"})
    with pytest.raises(ClassError, match="Unknown board request 'close'"):
        real_room.board_request({"kind": "close"})
    board.close()
