"""A flood costs only the flooder (issue 43, item 5): a student who sends thousands of refused requests gets
one answer per read of the room's, and the room takes at most `channel.PER_BOX` of one student's messages a
read, so the other tables' moves keep their pace. Measured in one test, quiet and then under the flood, on
each channel: a move's latency is the time from the mover's `act` to the opponent's screen showing it.
"""

from __future__ import annotations

import statistics
import threading
import time

import pytest

from needle_widget import classroom
from needle_widget.classroom.channel import PER_BOX

FLOOD = 3000
MOVES = 8


@pytest.fixture
def url(class_url):
    return class_url


class Screens:
    """Each student's latest step, and an event set whenever one changes."""

    def __init__(self, students):
        self.changed = {s.index: threading.Event() for s in students}
        for s in students:
            s.subscribe(lambda s=s: self.changed[s.index].set())

    def wait_step(self, student, step, timeout=30.0):
        end = time.monotonic() + timeout
        while student.state()["step"] is None or student.state()["step"] < step:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"student {student.index} never showed step {step}")
            self.changed[student.index].wait(min(left, 0.01))
            self.changed[student.index].clear()


def one_move(screens, mover, other):
    """Play the mover's first legal move (the table's list, in its order); seconds until `other` shows it."""
    state = mover.state()
    step = state["step"]
    began = time.monotonic()
    mover.act(state["table"]["legal_actions"][0])
    screens.wait_step(other, step + 1)
    return time.monotonic() - began


def moves_at(screens, a, b, count):
    """`count` moves at the table of `a` and `b`, whoever's turn it is: their latencies."""
    out = []
    for _ in range(count):
        deadline = time.monotonic() + 30
        while not (a.state()["can_act"] or b.state()["can_act"]):
            assert time.monotonic() < deadline, "nobody at the table could move"
            time.sleep(0.005)
        mover, other = (a, b) if a.state()["can_act"] else (b, a)
        out.append(one_move(screens, mover, other))
    return out


def test_a_flood_of_refused_requests_costs_the_other_tables_little(url):
    room = classroom.open(url)
    students = [classroom.join(room.url, room.invite(f"S{n}").code) for n in range(4)]
    flooder, _, honest_a, honest_b = students
    screens = Screens(students)
    try:
        deadline = time.monotonic() + 30
        while room.board_state("projector")["roster"]["joined"] < 4:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        match = room.match(deals=1, seed=5, replace_after=None)
        for s in students:
            screens.wait_step(s, 0)
        quiet = moves_at(screens, honest_a, honest_b, MOVES)

        refused = {"t": "act", "match": match.id, "action": {"type": "lay", "cards": ["2♠"]}}
        posted_at = time.monotonic()
        for _ in range(FLOOD):
            flooder.post(refused)
        flooding = moves_at(screens, honest_a, honest_b, MOVES)
        # every flooded request is taken, in batches, and answered at most once per read
        deadline = time.monotonic() + 120
        while room.members()[0].last_in < flooder._out:
            assert time.monotonic() < deadline, "the room never took the whole flood"
            time.sleep(0.05)
        drained = time.monotonic() - posted_at
    finally:
        for s in students:
            s.close()
        room.close()
    baseline = statistics.median(quiet)
    bound = 0.5 + 3 * baseline
    print(f"\n{url.split(':')[0]}: quiet median {1000 * baseline:.0f} ms (max {1000 * max(quiet):.0f}); under a "
          f"{FLOOD}-request flood median {1000 * statistics.median(flooding):.0f} ms, max "
          f"{1000 * max(flooding):.0f} ms (bound {1000 * bound:.0f} ms); the flood taken in {drained:.1f} s, "
          f"at most {PER_BOX} a read")
    assert max(flooding) <= bound, (quiet, flooding)
