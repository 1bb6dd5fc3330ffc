"""It keeps working (issue 23, section 7): a late student catches up, a restarted student's kernel rejoins
with its ticket, a restarted teacher's kernel reopens the room, Redis going down gives a clear message
and never a hang, and a bad address says why.
"""

from __future__ import annotations

import threading
import time

import pytest
from conftest import settle
from redis_server import RedisServer, require_redis

from needle_widget import classroom, examples
from needle_widget.classroom import ClassError


@pytest.fixture
def url(class_url):
    return class_url


def candidates(student):
    return student.state()["quiz_state"]["question"]["form"]["candidates"]


def test_a_student_who_joins_late_catches_up(url):
    room = classroom.open(url, start=False)
    ann_ticket, bob_ticket = room.invite("Ann"), room.invite("Bob")
    ann = classroom.join(room.url, ann_ticket.code, start=False)
    lesson = room.lead(examples.load("detective"), perspective=0)
    for k in range(0, 31, 3):
        lesson.go(k)
        settle(room, ann)
    lesson.ask("needle", 30)
    settle(room, ann)
    bob = classroom.join(room.url, bob_ticket.code, start=False)
    settle(room, ann, bob)
    assert bob.step == 30 and bob.state()["follow"]["status"] == "live"
    for k in range(31):  # every frame so far, the steps between the teacher's included
        bob.go(k)
        assert bob.state()["step"] == k
    bob.back_to_live()
    assert bob.state()["quiz_state"]["question"]["step"] == 30 and not bob.state()["quiz_state"]["question"]["answered"]
    bob.answer(candidates(bob)[:1])
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [1]
    room.close(), ann.close(), bob.close()


def test_a_restarted_student_gets_the_screen_again_and_still_answers_once(url):
    room = classroom.open(url, start=False)
    ticket = room.invite("Ann")
    ann = classroom.join(room.url, ticket.code, start=False)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.ask("needle", 8)
    settle(room, ann)
    ann.answer(candidates(ann)[:1])
    settle(room, ann)
    ann.close()
    again = classroom.join(room.url, ticket.code, start=False)
    settle(room, again)
    state = again.state()
    assert again.name == "Ann" and again.step == 8 and state["quiz_state"]["question"]["answered"]
    with pytest.raises(ClassError, match="answered"):
        again.answer(candidates(again)[-1:])
    lesson.go(12)
    settle(room, again)
    assert again.step == 12
    assert list(lesson.asked[-1].answers) == [0]
    room.close(), again.close()


def test_a_restarted_teacher_reopens_the_room_and_the_students_continue(url):
    room = classroom.open(url, start=False)
    tickets = [room.invite(n) for n in ("Ann", "Bob")]
    ann, bob = (classroom.join(room.url, t.code, start=False) for t in tickets)
    lesson = room.lead(examples.load("detective"), perspective=0, title="Detective")
    lesson.ask("needle", 6)
    settle(room, ann, bob)
    ann.answer(candidates(ann)[:1])
    settle(room, ann, bob)
    lesson.reveal()
    lesson.ask("winner", 10)
    settle(room, ann, bob)
    answers = [a.to_dict() for a in room.answers]
    room.close()

    room = classroom.open(url, start=False)
    assert [m.name for m in room.members()] == ["Ann", "Bob"] and all(m.joined for m in room.members())
    lesson = room.lesson
    assert lesson.title == "Detective" and lesson.step == 10 and len(lesson.asked) == 2
    assert [a.to_dict() for a in room.answers] == answers and len(answers) == 1
    bob.answer(0.4)
    settle(room, ann, bob)
    assert list(lesson.asked[-1].answers) == [1]
    lesson.go(14)
    settle(room, ann, bob)
    assert ann.step == bob.step == 14
    room.close(), ann.close(), bob.close()


def test_a_restarted_teacher_reopens_the_challenge_games(url):
    room = classroom.open(url, start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    room.challenge(seed=5)
    settle(room, ann)
    for _ in range(4):
        legal = ann.state()["table"]["legal_actions"]
        ann.act({k: v for k, v in legal[0].items() if k in ("type", "card", "cards")})
        settle(room, ann)
    steps = len(room.challenge_game.games[0].game.replay())
    room.close()
    room = classroom.open(url, start=False)
    assert room.showing == "challenge" and len(room.challenge_game.games[0].game.replay()) == steps
    legal = ann.state()["table"]["legal_actions"]
    ann.act({k: v for k, v in legal[0].items() if k in ("type", "card", "cards")})
    settle(room, ann)
    assert len(room.challenge_game.games[0].game.replay()) > steps
    room.close(), ann.close()


def test_a_bad_address_or_no_room_says_why(tmp_path):
    with pytest.raises(ClassError, match="No class room at"):
        classroom.join(f"folder:{tmp_path}/nothing", "nothing/0-AAAA-AAAA-AAAA-AAAA", start=False)
    for bad in ("http://example.com", "", "redis://", "redis://127.0.0.1:6379/x", "folder:"):
        with pytest.raises(ClassError, match=r"\w+ \w+"):
            classroom.open(bad, start=False)


# ---- Redis going down -------------------------------------------------------------------------------


def until(condition, seconds=15.0):
    """Wait for `condition()` (polling; bounded)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def test_redis_going_down_gives_a_clear_message_and_never_blocks_the_caller():
    require_redis()
    server = RedisServer().start()
    try:
        room = classroom.open(server.url(room="down"))
        ann = classroom.join(room.url, room.invite("Ann").code)
        lesson = room.lead(examples.load("detective"), perspective=0)
        assert until(lambda: ann.step == 0)
        callers = []
        for name in ("post", "read", "save", "tail", "drop", "grant", "discard"):
            original = getattr(room.channel, name)

            def wrapped(*args, _original=original, _name=name, **kwargs):
                callers.append((_name, threading.current_thread()))
                return _original(*args, **kwargs)

            setattr(room.channel, name, wrapped)
        server.stop()
        assert until(lambda: not ann.state()["follow"]["connected"])
        follow = ann.state()["follow"]
        assert follow["status"] == "offline" and "does not answer" in follow["text"] and "retrying" in follow["text"]
        lesson.go(4)  # returns at once: the workers post it when Redis is back
        lesson.go(6)
        assert all(thread is not threading.current_thread() for _, thread in callers)
        assert until(lambda: not room.board_state()["connected"])
        server.start()
        assert until(lambda: ann.step == 6 and ann.state()["follow"]["status"] == "live", 30)
        lesson.go(7)
        assert until(lambda: ann.step == 7)
        assert {"post", "read", "save"} <= {name for name, _ in callers}
        assert all(thread is not threading.current_thread() for _, thread in callers)
        ann.close()
        room.close()
    finally:
        server.stop()
