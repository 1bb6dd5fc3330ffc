"""A student's own sealed messages, at their worst (issue 43, item 1). A student's kernel holds its key, so it
can seal anything: a text nested 100,000 deep, huge numbers, wrong types in every field of every request. The
room reads each within bounds (`records.jsontext`), turns any failure into one log line, moves that student's
cursor past it (it is never read twice), and keeps taking the other students' moves and answers, on both
channels.
"""

from __future__ import annotations

import json
import logging
import struct
import time

import pytest
from conftest import settle
from cryptography.hazmat.primitives.ciphers.aead import AESSIV
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from needle_widget import classroom, examples
from needle_widget.classroom.seal import MAGIC, next_seq

LOGGER = "needle_widget.classroom"


@pytest.fixture
def url(class_url):
    return class_url


def post_text(room, student, text: bytes) -> int:
    """`text` (any bytes) sealed with the student's own key for their out-box, as their kernel could, and posted."""
    seq = next_seq(student._out)
    student._out = seq
    box = f"out.{student.index}"
    data = MAGIC + struct.pack(">Q", seq) + AESSIV(student._key).encrypt(text, [f"{student.room}|{box}|{seq}".encode()])
    room.channel.post(box, seq, data)
    return seq


def deep(n: int) -> bytes:
    return b"[" * n + b"]" * n


def candidates(student):
    return student.state()["quiz_state"]["question"]["form"]["candidates"]


def test_a_message_nested_100000_deep_is_one_log_line_and_the_room_goes_on(url, caplog):
    room = classroom.open(url, start=False)
    mallory = classroom.join(room.url, room.invite("Mallory", seat=0).code, start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    settle(room, mallory, ann)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.ask("needle", 6)
    settle(room, mallory, ann)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        post_text(room, mallory, deep(100_000))  # 200 kB: under a message's size limit, over a request's
        seq = post_text(room, mallory, deep(8_000))  # 16 kB, under a request's: its nesting is refused
        ann.answer(candidates(ann)[:1])
        for _ in range(4):
            room.pump()  # never raises
            ann.pump()
    assert room.members()[0].last_in == seq  # consumed: Mallory's cursor moved past it
    assert list(lesson.asked[-1].answers) == [1]  # Ann's answer was taken
    for words in ("200,000 bytes, more than 16,384", "nested 8,000 deep, more than 64"):
        lines = [r.getMessage() for r in caplog.records if words in r.getMessage()]
        assert len(lines) == 1, (words, lines)  # read once, logged once
    mallory.answer(candidates(mallory)[:1])  # and Mallory's next message is taken
    settle(room, mallory, ann)
    assert sorted(lesson.asked[-1].answers) == [0, 1]
    mallory.close(), ann.close(), room.close()


@pytest.mark.parametrize("text", [b'"' + b'\\"' * 500_000, b'{"t": "act", "x": ['
                                  + b",".join([b"[" * 60 + b"]" * 60] * 8000) + b"]}"],
                         ids=["a million bytes of escaped quotes", "a million bytes of nesting under the limit"])
def test_a_student_s_largest_message_costs_the_room_what_a_request_costs(url, text):
    """A text of escaped quotes without an end (its string scan once took quadratic time: hours at 1 MB), and a
    valid text of 1 MB nested just under the bound (half a second for `json.loads`): a student's request is read
    to at most MAX_REQUEST bytes, so each costs the room about as much as a move.
    """
    room = classroom.open(url, start=False)
    mallory = classroom.join(room.url, room.invite("Mallory").code, start=False)
    settle(room, mallory)
    seqs = [post_text(room, mallory, text) for _ in range(8)]
    began = time.monotonic()
    while room.members()[0].last_in < seqs[-1]:
        room.pump()
        assert time.monotonic() - began < 60, "the room never got through eight messages"
    spent = time.monotonic() - began
    assert sum("more than 16,384" in line for line in room.log) == 8
    print(f"\n8 messages of {len(text):,} bytes taken in {spent:.2f} s")
    mallory.close(), room.close()


# ---- the property: random and adversarial messages of every request kind -----------------------------------

FIELDS = ("lesson", "index", "answer", "challenge", "action", "match", "deal")
KINDS = ("hello", "answer", "act", "new_game", "screen", "quiz_answer", "")
junk = st.recursive(
    st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12) | st.sampled_from(["2♠", "A♣", "10♥", "draw_pile", "steal", "lay", "discard", "new"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12)
action = st.fixed_dictionaries({"type": st.sampled_from(["draw_pile", "draw", "steal", "lay", "discard",
                                                         "pick_needle", "end_turn"]) | junk},
                               optional={"card": junk, "cards": junk | st.lists(st.sampled_from(["2♠", "3♠", "4♠"]))})


@st.composite
def request(draw):
    kind = draw(st.sampled_from(KINDS) | st.text(max_size=8) | junk)
    message = {"t": kind}
    for name in draw(st.lists(st.sampled_from(FIELDS), unique=True, max_size=len(FIELDS))):
        message[name] = draw(st.integers(0, 3) | junk | action)
    if draw(st.booleans()):
        message[draw(st.text(max_size=8))] = draw(junk)
    return json.dumps(message, ensure_ascii=draw(st.booleans())).encode()


raw = st.sampled_from([
    deep(65), deep(1000), deep(100_000), b'{"t": "act", "x": ' + deep(50_000) + b"}",
    b"[" + b"0," * 100_000 + b"0]", b'{"t": "act", "match": 1, "action": ' + b"9" * 5000 + b"}",
    b'{"t": "answer", "index": 1e999}', b'{"t": "answer", "index": NaN}', b'{"t": "act", "action": Infinity}',
    b"\xff\xfe\xfd", b"", b"not json", b"[1, 2", b'"hello"', b"null", b"3", b'{"t": null}',
    b'{"t": "hello", "t": "act"}', b'{"t": "act", "challenge": 1, "action": {"type": "lay", "cards": [[[[[]]]]]}}',
    b'"' + b'\\"' * 20_000, b'{"t": "act", "action": {"type": "lay", "cards": ["2s"' + b', "2s"' * 3000 + b"]}}",
    b'{"t": "act", "x": [' + b",".join([b"[" * 60 + b"]" * 60] * 2000) + b"]}",
])
hostile = st.lists(request() | raw, min_size=1, max_size=4)


class Honest:
    """An activity on the screens, and one honest student's next move or answer in it, checked as taken."""

    def __init__(self, kind, room, students):
        self.kind, self.room, self.students = kind, room, students
        self.asked = 0
        self.start()

    def start(self):
        room = self.room
        if self.kind == "lesson":
            self.lesson = room.lead(examples.load("detective"), perspective=0)
        elif self.kind == "challenge":
            room.challenge(seed=3)
        else:
            room.match(deals=1, seed=5, replace_after=None)
        settle(self.room, *self.students)

    def progress(self):
        """How far the honest students have got (grows with every request of theirs that is taken)."""
        if self.kind == "lesson":
            return sum(len(a.answers) for a in self.lesson.asked)
        if self.kind == "challenge":
            played = self.room.challenge_game.games.get(1)
            return 0 if played is None else len(played.game)
        return len(self.room.latest("match").tables[1].game)

    def move(self):
        """One honest request (starting the activity again when it is over); the progress expected after it."""
        a, b = self.students[1], self.students[-1]
        if self.kind == "lesson":
            self.lesson.ask("needle", 6 + self.asked % 20)
            self.asked += 1
            settle(self.room, *self.students)
            before = self.progress()
            a.answer(candidates(a)[:1])
            return before + 1
        movers = [s for s in ((a,) if self.kind == "challenge" else (b,)) if s.state()["can_act"]]
        if not movers:
            self.start()
            return self.move()
        before = self.progress()
        movers[0].act(movers[0].state()["table"]["legal_actions"][0])
        return before + 1


@pytest.mark.parametrize("activity", ["lesson", "challenge", "match"])
def test_hostile_messages_of_every_kind_never_stop_the_room_from_taking_the_others_requests(url, activity):
    room = classroom.open(url, start=False)
    students = [classroom.join(room.url, room.invite(f"S{n}", seat=0).code, start=False) for n in range(3)]
    settle(room, *students)
    mallory = students[0]
    honest = Honest(activity, room, students)
    logged = []

    @settings(max_examples=15, deadline=None, derandomize=True, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(hostile)
    def run(texts):
        last = [post_text(room, mallory, text) for text in texts][-1]
        expected = honest.move()
        settle(room, *students, rounds=2)
        assert honest.progress() >= expected, (activity, texts)
        assert room.members()[0].last_in == last  # every hostile message consumed: none is read again
        logged.append(len(room.log))

    try:
        run()
    finally:
        for s in students:
            s.close()
        room.close()
