"""A student's screen receives patches of its frame (issue 44), as boardgame.io's master sends each player a patch of
their own view: a move sends what it changed. The patches put the same screens together as whole frames did, at
every step; a lost message is noticed and healed by one whole resend; and a move sends a fraction of the bytes.
The twin property over patches: tests/test_class_match.py's twin matches compare the student's messages (patches
now) byte for byte, and the other seat's differ.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from conftest import settle
from test_class_twins import SECRET, as_action

from needle_widget import classroom, examples
from needle_widget.classroom.seal import unseal


def sizes(tmp_path: Any, index: int) -> dict[int, int]:
    """The sealed size of each message in student `index`'s in-box, by number (a folder channel)."""
    folder = tmp_path / "room" / "in" / str(index)
    return {int(p.name[:-4]): p.stat().st_size for p in folder.iterdir() if p.name.endswith(".msg")}


def match_moves(tmp_path: Any, patches: bool) -> tuple[list[dict[str, Any]], list[int]]:
    """A match of two students, one move at a time (a seeded choice each): every student state after each move,
    and the bytes the room posted to the two students for each move.
    """
    room = classroom.open(f"folder:{tmp_path}/room", secret=SECRET, start=False, clock=itertools.count(10_000).__next__)
    ann, bob = (classroom.join(room.url, room.invite(n).code, start=False, clock=itertools.count(90_000 + 1000 * i)
                               .__next__) for i, n in enumerate(("Ann", "Bob")))
    room.patches = patches
    settle(room, ann, bob)
    match = room.match(deals=1, seed=3)
    settle(room, ann, bob)
    rng, states, sent = random.Random(5), [], []
    for _ in range(60):
        if match.tables[0].over:
            break
        before = sum(sizes(tmp_path, 0).values()) + sum(sizes(tmp_path, 1).values())
        mover = next(s for s in (ann, bob) if s.state()["can_act"])
        mover.act(as_action(rng.choice(mover.state()["table"]["legal_actions"])))
        settle(room, ann, bob)
        sent.append(sum(sizes(tmp_path, 0).values()) + sum(sizes(tmp_path, 1).values()) - before)
        states.append({"ann": ann.state(), "bob": bob.state()})
    ann.close(), bob.close(), room.close()
    return states, sent


def test_patches_make_the_same_screens_as_whole_frames_for_a_fraction_of_the_bytes(tmp_path: Any) -> None:
    patched, patched_bytes = match_moves(tmp_path / "patched", True)
    whole, whole_bytes = match_moves(tmp_path / "whole", False)
    assert len(patched) == len(whole) >= 30
    assert patched == whole  # every screen after every move, both seats
    assert sum(patched_bytes) * 3 < sum(whole_bytes), (sum(patched_bytes), sum(whole_bytes))


def lesson_room(tmp_path: Any, steps: int) -> tuple[Any, Any, Any, Any]:
    """A room leading 'detective' to Ann at Player 1's seat, moved on to step `steps` one step at a time: (room,
    Ann, the lesson, Ann's in-box folder).
    """
    room = classroom.open(f"folder:{tmp_path}/room", secret=SECRET, start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    lesson = room.lead(examples.load("detective"), perspective="assigned")
    settle(room, ann)
    for k in range(1, steps + 1):
        lesson.go(k)
        settle(room, ann)
    return room, ann, lesson, tmp_path / "room" / "in" / "0"


def test_a_lesson_step_sends_a_patch_and_a_lost_message_is_healed_by_one_whole_resend(tmp_path: Any) -> None:
    room, ann, lesson, box = lesson_room(tmp_path, 5)
    messages = {int(p.name[:-4]): unseal(ann._key, ann.room, "in.0", p.read_bytes())[1]
                for p in box.iterdir() if p.name.endswith(".msg")}
    steps = [m for _, m in sorted(messages.items()) if m.get("frames") and m["first"] >= 1]
    assert steps and all(m["patch"] is not None for m in steps)  # each step: a patch of the frame before
    room.pump()  # the next step goes out; its message is lost before Ann reads it
    lesson.go(6)
    room.pump()
    newest = max(p for p in box.iterdir() if p.name.endswith(".msg"))
    newest.unlink()
    lesson.go(7)  # this one patches the lost frame: Ann asks for the whole screen again
    settle(room, ann)
    settle(room, ann)
    assert ann.step == 7 and ann.state()["step"] == 7
    ann.go(6)
    assert ann.state()["step"] == 6  # the lost step is there again, from the resend
    fresh = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    settle(room, ann, fresh)
    for k in range(8):
        ann.go(k), fresh.go(k)
        assert ann.state() == fresh.state()
    ann.close(), fresh.close(), room.close()


def test_a_kernel_that_does_not_say_it_takes_patches_gets_whole_frames(tmp_path: Any, monkeypatch: Any) -> None:
    """A student's kernel of an earlier release says nothing of patches in its hello: the room sends it whole
    frames, as before.
    """
    from needle_widget.classroom import student as student_module

    monkeypatch.setattr(student_module, "PATCHES", None)
    room, ann, _lesson, box = lesson_room(tmp_path, 3)
    sent = [unseal(ann._key, ann.room, "in.0", p.read_bytes())[1] for p in box.iterdir() if p.name.endswith(".msg")]
    assert [m for m in sent if m.get("frames")] and all(m.get("patch") is None for m in sent)
    assert ann.step == 3
    ann.close(), room.close()


def test_a_screen_whose_whole_resend_is_lost_too_asks_again(tmp_path: Any, monkeypatch: Any) -> None:
    """A step lost, then the whole screen the student asked for lost too: the next patch finds the screen still
    out of step, and it asks again (after RESYNC_AFTER seconds, 0 here); the third answer brings it up to date.
    """
    from needle_widget.classroom import inbox as inbox_module
    from needle_widget.classroom import student as student_module

    monkeypatch.setattr(student_module, "RESYNC_AFTER", 0.0)
    monkeypatch.setattr(inbox_module, "RESEND_GAP", 0.0)
    hellos = []
    hello = student_module.Student._hello
    monkeypatch.setattr(student_module.Student, "_hello", lambda self: (hellos.append(1), hello(self))[1])
    room = classroom.open(f"folder:{tmp_path}/room", secret=SECRET, start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    lesson = room.lead(examples.load("detective"), perspective="assigned")
    settle(room, ann)
    box = tmp_path / "room" / "in" / "0"

    def newest() -> Any:
        return max(p for p in box.iterdir() if p.name.endswith(".msg"))

    lesson.go(1)
    room.pump()
    newest().unlink()  # step 1 lost
    lesson.go(2)
    room.pump()
    ann.pump()  # step 2 patches step 1's frame: out of step, the first hello
    room.pump()
    room.pump()
    resend = newest()
    assert unseal(ann._key, ann.room, "in.0", resend.read_bytes())[1]["reset"]
    resend.unlink()  # the whole screen lost too
    lesson.go(3)
    room.pump()
    ann.pump()  # step 3 patches the lost resend's frame: out of step again, and it asks again
    for _ in range(3):
        settle(room, ann)
    assert len(hellos) == 3  # joining, and the two losses
    assert ann.step == 3 and ann.state()["step"] == 3
    ann.close(), room.close()
