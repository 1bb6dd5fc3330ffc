"""The class session's flow on both channels: invite, join, lead, go, ask, answer, reveal, the board,
the answer files, the challenge and its ranking (issue 23). Pumped by hand (`start=False`): the
workers' threads are the stress and resilience tests' business.
"""

from __future__ import annotations

import re

import pytest
from conftest import pumped_class
from conftest import settle as pump

from needle_widget import classroom, examples
from needle_widget.classroom import ClassError, TicketError
from needle_widget.classroom.address import parse
from needle_widget.classroom.tickets import read
from needle_widget.review.verdict import points_text
from needle_widget.teaching.answers import class_table, load_answers


@pytest.fixture
def url(class_url):
    return class_url



@pytest.fixture
def klass(url):
    with pumped_class(url, ("Ann", "Bob", "Cy")) as room_and_students:
        yield room_and_students


def test_addresses_and_tickets_are_checked():
    assert parse("folder:/tmp/x").room == "x"
    with pytest.raises(ClassError, match="redis://HOST"):
        parse("ftp://x")
    with pytest.raises(ClassError, match="database"):
        parse("redis://127.0.0.1:1/zero")
    with pytest.raises(TicketError, match="Not a class ticket: 'hello'"):
        read("hello")
    assert read(" monday/3-AAAA-aaaa-AAAA-AAAA ")[:2] == ("monday", 3)


def test_a_student_follows_the_teacher_and_steps_back(klass):
    room, (ann, bob, cy) = klass
    assert ann.state()["follow"]["status"] == "waiting"
    lesson = room.lead(examples.load("detective"), perspective=0, title="detective")
    lesson.go(6)
    pump(room, ann, bob, cy)
    assert (ann.name, ann.step, ann.live) == ("Ann", 6, True)
    state = ann.state()
    assert state["step"] == 6 and state["steps"] == 6 and state["perspectives"] == [0]
    assert state["follow"]["text"] == "Following the teacher at step 6"
    ann.go(2)
    assert ann.state()["follow"]["status"] == "looking" and ann.state()["step"] == 2
    lesson.go(9)
    pump(room, ann)
    assert ann.step == 2 and ann.state()["follow"]["live_step"] == 9
    ann.back_to_live()
    assert ann.step == 9
    with pytest.raises(ClassError, match="has shown steps 0 to 9"):
        ann.go(10)
    with pytest.raises(ClassError, match="not something a class screen does"):
        ann.request({"kind": "perspective", "to": 1})


def test_answers_come_back_are_revealed_and_saved(klass, tmp_path):
    room, (ann, bob, cy) = klass
    lesson = room.lead(examples.load("detective"), perspective="assigned", title="detective")
    lesson.go(12)
    asked = lesson.ask("winner")
    pump(room, ann, bob, cy)
    assert ann.state()["quiz_state"]["question"]["kind"] == "winner"
    assert ann.state()["info"]["kind"] == "quiz"  # the odds wait for the answer
    ann.answer(0.7)
    bob.answer(0.2)
    with pytest.raises(ClassError, match="answers are final"):
        ann.answer(0.1)
    assert ann.state()["quiz_state"]["waiting"].startswith("Sent")
    pump(room, ann, bob, cy)
    board = room.board_state("teacher")
    assert board["roster"] == {"invited": 3, "joined": 3, "answered": 2, "online": 3, "timeout": 30.0}
    assert [s["answered"] for s in board["students"]] == [True, True, False]
    assert sum(b["count"] for b in board["distribution"]["bars"]) == 2
    projector = room.board_state("projector")
    assert projector["students"] is None and "Ann" not in str(projector)
    lesson.reveal()
    pump(room, ann, bob, cy)
    assert asked.revealed
    assert "Brier" in ann.state()["quiz_state"]["reveal"]["verdict"]
    assert cy.state()["quiz_state"]["reveal"]["answer_text"] == "You did not answer this one."
    with pytest.raises(ClassError, match="No question is open"):
        ann.answer(0.5)
    assert room.board_state()["calibration"]
    path = tmp_path / "answers.jsonl"
    room.save_answers(path)
    assert sorted(a.student for a in load_answers(path)) == ["Ann", "Bob"]
    assert {row["student"] for row in class_table(tmp_path)} >= {"Ann", "Bob"}


def test_a_challenge_is_played_against_the_rooms_bot(klass):
    room, (ann, bob, cy) = klass
    room.challenge(seed=5, opponent="greedy")
    pump(room, ann)
    state = ann.state()
    assert state["follow"]["kind"] == "challenge" and state["can_act"]
    while ann.state()["can_act"]:
        legal = ann.state()["table"]["legal_actions"][0]
        ann.act({k: v for k, v in legal.items() if k in ("type", "card", "cards")})
        assert not ann.state()["can_act"]  # sent: waiting for the room
        pump(room, ann)
    assert ann.state()["table"]["result"] is not None
    replay = room.replay_of("Ann")
    assert replay.result is not None and replay.seed == 5
    assert room.wait_for_reviews(60)
    rows = room.board_state()["challenge"]["rows"]
    assert rows[0]["name"] == "Ann" and "rank" not in rows[0] and rows[0]["adjusted"] is not None
    record = room.board_state()["record"]
    assert record["games"] == 1 and [r["name"] for r in record["rows"]] == ["Ann"]
    assert record["rows"][0]["adjusted"] == rows[0]["adjusted"] and record["rows"][0]["provisional"]
    pump(room, ann)
    assert ann.state()["offers"]["review"]["seats"] == [0] and ann.state()["review"] is None
    ann.request({"kind": "review", "open": True})
    review = ann.state()["review"]
    assert review["status"] == "ready" and review["seats"] == [0]
    assert points_text(review["reviews"][0]["luck_adjusted"]) == rows[0]["adjusted"]  # in points of win chance
    with pytest.raises(ClassError, match="no challenge game"):
        room.replay_of("Nobody")


def test_invites_are_checked_and_stable(url):
    room = classroom.open(url, start=False)
    first = room.invite("Ann")
    assert room.invite("Ann") == first
    assert first.code.startswith(f"{room.name}/0-")
    for bad in ("", " Ann", "a\nb", 3):
        with pytest.raises(ClassError, match="A student's name"):
            room.invite(bad)
    with pytest.raises(TicketError, match="for room 'other'"):
        classroom.join(room.url, first.code.replace(room.name, "other"), start=False)
    room.close()


def test_a_reveal_holds_back_what_the_class_has_not_reached(klass):
    room, (ann, bob, cy) = klass
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.go(2)
    lesson.ask("pile_or_steal")
    pump(room, ann)
    ann.answer("steal")
    pump(room, ann)
    lesson.reveal()
    pump(room, ann)
    rows = {r["label"]: r["value"] for r in ann.state()["quiz_state"]["reveal"]["rows"]}
    assert rows["How it ended"] == rows["Played in the game"] == "Held back until the class gets there"
    assert ann.state()["act_reason"] == "In a class the teacher leads: follow, or step back to look"
    lesson.go(len(lesson.replay))
    pump(room, ann)
    rows = {r["label"]: r["value"] for r in ann.state()["quiz_state"]["reveal"]["rows"]}
    assert rows["Played in the game"] == "Steal" and "wins" in rows["How it ended"]


def test_invite_takes_a_seat_as_a_person_names_it(url):
    room = classroom.open(url, start=False)
    for name, seat, expected in (("Ann", "p2", 1), ("Bob", "Player 1", 0), ("Cy", 1, 1), ("Di", None, 1)):
        room.invite(name, seat=seat)
        assert room.assigned_seat(room.invite(name).index) == expected
    for bad in ("p3", "Player 9", 2, True, 0.0):
        with pytest.raises(ClassError, match=f"seat .*not {re.escape(repr(bad))}"):
            room.invite("Ed", seat=bad)
    assert [m.name for m in room.members()] == ["Ann", "Bob", "Cy", "Di"]
    room.close()
