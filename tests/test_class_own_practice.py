"""A class screen has the widget's practice by construction (issue 44): a student practises the mistakes their own
review marked in a class game, from their class screen, with no teacher's code. The room sends the review's marked
decisions as exercises with the finished game; the student's kernel makes of them the very screen
`NeedleWidget.practice` makes (`screen.source.DeskSource`, the same request table), and the room is asked
nothing meanwhile. Twin deals give the student byte-identical exercises (tests/test_class_record.py compares
their every message; here, the practice screens too).
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest
from conftest import settle as pump
from test_class_twins import SECRET, as_action

from needle_widget import Game, classroom
from needle_widget.classroom import challenge as challenge_module
from needle_widget.classroom.student import STUDENT_REQUESTS
from needle_widget.screen.features import REQUESTS

SEED = 4


def finished(tmp_path: Any, name: str = "room", deck: list | None = None,
             monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[Any, Any]:
    """A room whose one student has played a challenge game against the bot, reviewed (8 worlds): the first move
    listed each time, which the review marks twice in this deal.
    """
    room = classroom.open(f"folder:{tmp_path}/{name}", secret=SECRET, start=False,
                          clock=itertools.count(10_000).__next__, worlds=8)
    student = classroom.join(room.url, room.invite("Ann").code, start=False, clock=itertools.count(90_000).__next__)
    if deck is not None and monkeypatch is not None:
        with monkeypatch.context() as m:
            m.setattr(challenge_module, "Game", lambda seed, rules, deck=deck: Game(seed=seed, rules=rules, deck=deck))
            room.challenge(seed=SEED)
            pump(room, student)
    else:
        room.challenge(seed=SEED)
    pump(room, student)
    for _ in range(400):  # the student plays the first move listed, whenever their screen lets them
        state = student.state()
        if state["can_act"]:
            student.act(as_action(state["table"]["legal_actions"][0]))
        elif state["table"]["phase"] == "over":
            break
        pump(room, student)
    assert room.wait_for_reviews(120)
    pump(room, student)
    return room, student


def judged(student: Any, timeout: float = 60) -> dict[str, Any]:
    """The student's state once their attempt is judged (on the student's own thread): "wrong" or "solved"."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = student.state()
        if state["practice_state"]["phase"] in ("wrong", "solved"):
            return state
        time.sleep(0.05)
    raise AssertionError(f"the attempt was never judged: {student.state()['practice_state']}")


def test_a_class_screen_s_requests_are_the_widget_s() -> None:
    shared = set(STUDENT_REQUESTS) & set(REQUESTS)
    assert shared == {"step", "line", "quiz_answer", "act", "new_game", "review"}
    assert all(STUDENT_REQUESTS[kind].fields == REQUESTS[kind].fields for kind in shared)
    assert set(STUDENT_REQUESTS) - shared == {"live", "practice", "homework"}  # the class's own


def test_a_student_practises_their_own_game_s_mistakes_with_no_teacher_code(tmp_path: Any) -> None:
    room, ann = finished(tmp_path)
    try:
        with pytest.raises(classroom.ClassError, match="open must be true or false"):
            ann.request({"kind": "practice", "open": "yes"})
        ann.request({"kind": "review", "open": True})
        state = ann.state()
        offer = state["offers"]["practice"]
        assert offer["count"] >= 1 and offer["reason"] is None, offer
        assert "class_exercises" not in state
        posted = ann.link.pending() if hasattr(ann.link, "pending") else None
        sent_before = ann._out
        ann.request({"kind": "practice", "open": True})
        state = ann.state()
        assert state["mode"] == "practice" and state["perspectives"] == [0]
        assert state["follow"]["status"] == "practice" and state["follow"]["can_live"]
        practice = state["practice_state"]
        assert practice["phase"] == "asking" and practice["total"] == offer["count"]
        step = practice["exercise"]["step"]
        assert state["step"] == step and state["can_act"]
        played = next(e for e in state["events"] if e["step"] == step + 1) if any(
            e["step"] == step + 1 for e in state["events"]) else None
        assert played is None  # nothing after the exercise's position is on the screen
        # the widget's own requests, answered by the practice's screen: an attempt, judged on the student's thread
        ann.request({"kind": "act", "action": as_action(state["table"]["legal_actions"][0])})
        state = judged(ann)
        assert state["practice_state"]["attempts"], state["practice_state"]
        if state["practice_state"]["phase"] == "wrong":
            ann.request({"kind": "practice_show", "index": 0})
            assert ann.state()["practice_state"]["phase"] == "shown"
        with pytest.raises(Exception, match="quiz"):
            ann.request({"kind": "quiz_go", "index": 0})  # a quiz's request: not on this screen
        assert ann._out == sent_before and posted is None  # the room was asked nothing
        ann.request({"kind": "live"})
        state = ann.state()
        assert state["mode"] != "practice" and state["follow"]["status"] != "practice"
        assert state["offers"]["practice"]["count"] == offer["count"]
    finally:
        ann.close(), room.close()


def test_twin_deals_give_the_student_the_same_practice(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    deck_a = list(Game(seed=SEED).deck)
    deck_b = deck_a[:50] + [deck_a[51], deck_a[50]]  # the pile's two bottom cards, never drawn
    screens = []
    for twin, deck in enumerate((deck_a, deck_b)):
        room, ann = finished(tmp_path / f"twin{twin}", "room", deck, monkeypatch)  # one room name: the twins
        try:
            ann.request({"kind": "review", "open": True})
            ann.request({"kind": "practice", "open": True})
            first = ann.state()
            ann.request({"kind": "act", "action": as_action(first["table"]["legal_actions"][-1])})
            screens.append((first, judged(ann)))
        finally:
            ann.close(), room.close()
    assert screens[0] == screens[1]


def test_the_student_is_sent_a_practice_seed_of_their_own_never_the_review_s(tmp_path: Any) -> None:
    """The record's review worlds are drawn on a seed from the room's secret that no student's kernel is sent
    (issue 43); the exercises carry a seed of their own for the practice's judging, from the same secret.
    """
    from needle_widget.classroom.seal import seed_of, unseal

    room, ann = finished(tmp_path)
    try:
        source = "challenge 1/student 0"
        review_seed, practice_seed = seed_of(SECRET, "review", source), seed_of(SECRET, "practice", source)
        assert ann._got.exercises and {x.seed for x in ann._got.exercises} == {practice_seed}
        box = tmp_path / "room" / "in" / "0"
        texts = [str(unseal(ann._key, ann.room, "in.0", p.read_bytes())[1]) for p in box.iterdir()
                 if p.name.endswith(".msg")]
        ann.request({"kind": "review", "open": True})
        ann.request({"kind": "practice", "open": True})
        texts.append(str(ann.state()))
        assert texts and not any(str(review_seed) in text for text in texts)
    finally:
        ann.close(), room.close()


def test_practice_ends_when_the_class_needs_the_student(tmp_path: Any) -> None:
    from needle_widget import examples

    room, ann = finished(tmp_path)
    try:
        ann.request({"kind": "review", "open": True})
        ann.request({"kind": "practice", "open": True})
        assert ann.state()["mode"] == "practice"
        lesson = room.lead(examples.load("detective"), perspective=0)  # the teacher starts a lesson
        pump(room, ann)
        state = ann.state()
        assert state["mode"] != "practice" and state["follow"]["status"] == "live"
        assert "Your practice ended: the teacher started something new" in state["follow"]["text"]
        lesson.go(2)
        pump(room, ann)
        assert "Your practice ended" not in ann.state()["follow"]["text"]  # said once, not for the rest of the class
    finally:
        ann.close(), room.close()
