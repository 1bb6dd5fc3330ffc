"""Class activities plug into the room (classroom/activity.py): an activity of the test's own is shown,
answers its students' requests through its @request table and is saved; a student's screen is the frame it
received with its follow bar, in one of the screen's MODES.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from conftest import pumped_class
from conftest import settle as pump

from needle_widget import examples
from needle_widget.classroom import ClassError, activities
from needle_widget.classroom.activity import Activity, Handled, request
from needle_widget.engine.errors import NeedleError
from needle_widget.screen.frames import Frames
from needle_widget.screen.session import MODES

CLASSROOM = Path(__file__).resolve().parents[1] / "needle_widget" / "classroom"


class Poll(Activity):
    """A show of hands: each student votes "a" or "b" once, looking at step 3 of a bundled replay."""

    kind, absent = "poll", "No poll is open"

    def __init__(self, ident: int = 1) -> None:
        self.id, self.title, self.votes = ident, "Which card is the needle?", {}
        self._frame = Frames(examples.load("found_early"), perspective=0, spoilers=False).at(3)

    def screens(self, member: Any, reset: bool) -> list[dict[str, Any]]:
        return [{"kind": self.kind, "id": self.id, "reset": reset, "live": 3, "title": self.title, "first": 3,
                 "frames": [self._frame], "quiz": None}]

    @request("vote", "poll", "choice")
    def request_vote(self, member: Any, poll: Any, choice: Any) -> Handled:
        if poll != self.id or choice not in ("a", "b"):
            raise NeedleError(f"Not a vote: {choice!r}")
        if member.index in self.votes:
            return Handled(note="You have voted")
        self.votes[member.index] = choice
        return Handled(note=f"Voted {choice}")

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "votes": {str(k): v for k, v in self.votes.items()}}


@pytest.fixture
def url(class_url):
    return class_url


@pytest.fixture
def with_poll(monkeypatch):
    monkeypatch.setattr(activities, "ACTIVITIES", (*activities.ACTIVITIES, Poll))


def test_an_activity_of_one_s_own_plugs_in(url, with_poll):
    with pumped_class(url, ("Ann", "Bob")) as (room, (ann, bob)):
        poll = room.show(Poll())
        pump(room, ann, bob)
        state = ann.state()
        assert room.showing == "poll" and state["step"] == 3 and state["mode"] in MODES
        assert state["follow"]["text"] == "Following the teacher at step 3"
        ann.post({"t": "vote", "poll": 1, "choice": "a"})
        bob.post({"t": "vote", "poll": 1, "choice": "maybe"})
        pump(room, ann, bob)
        assert poll.votes == {0: "a"}
        assert ann.state()["follow"]["text"].endswith("Voted a")
        assert bob.state()["follow"]["text"].endswith("Not a vote: 'maybe'")
        assert room.state()["poll"] == {"id": 1, "votes": {"0": "a"}}
        room.lead(examples.load("detective"), perspective=0)
        pump(room, ann, bob)
        bob.post({"t": "vote", "poll": 1, "choice": "b"})
        pump(room, ann, bob)
        assert poll.votes == {0: "a"} and bob.state()["follow"]["text"].endswith("No poll is open")


def test_requests_of_another_activity_get_its_words(url):
    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        room.lead(examples.load("detective"), perspective=0)
        pump(room, ann)
        ann.post({"t": "act", "challenge": 1, "action": {"type": "draw"}})
        pump(room, ann)
        assert ann.state()["follow"]["text"].endswith("No challenge is being played")
        ann.post({"t": "act", "match": 1, "action": {"type": "draw_pile"}})  # the request names its activity
        pump(room, ann)
        assert ann.state()["follow"]["text"].endswith("No match is being played")
        room.challenge(seed=5)
        pump(room, ann)
        ann.post({"t": "answer", "lesson": 1, "index": 0, "answer": "steal"})
        pump(room, ann)
        assert ann.state()["follow"]["text"].endswith("No question is open")


def test_a_student_s_screen_is_its_frame_in_one_of_the_modes(url):
    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        assert ann.state()["mode"] in MODES
        room.lead(examples.load("detective"), perspective=0)
        pump(room, ann)
        lesson = ann.state()
        assert lesson["mode"] == "replay" and not lesson["can_act"]
        assert lesson["act_reason"] == "In a class the teacher leads: follow, or step back to look"
        room.challenge(seed=5)
        pump(room, ann)
        challenge = ann.state()
        assert challenge["mode"] == "play" and challenge["can_act"]
        assert challenge["follow"]["text"] == "One deal for the class, against greedy"


def test_a_student_posts_only_requests(url):
    with pumped_class(url, ("Ann",)) as (room, (ann,)):
        for bad in ("vote", {"poll": 1}, {"t": 3}, {"t": "hello"}):
            with pytest.raises(ClassError, match="A request to the room"):
                ann.post(bad)
        with pytest.raises(ClassError, match="A room shows an Activity"):
            room.show("poll")


def test_the_room_and_the_student_dispatch_on_no_activity_s_kind():
    """Adding an activity touches its module and one line of ACTIVITIES: room.py, student.py, link.py and board.py
    name no activity's kind.
    """
    for name in ("room.py", "student.py", "link.py", "board.py"):
        text = (CLASSROOM / name).read_text(encoding="utf-8")
        code = "\n".join(line for line in text.splitlines() if not line.strip().startswith(('"""', "#")))
        for words in [f'"{cls.kind}"' for cls in activities.ACTIVITIES] + ["showing =="]:
            assert words not in code, (name, words)
