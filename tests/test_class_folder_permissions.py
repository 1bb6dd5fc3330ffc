"""A class on a shared folder (issue 30, part 4): the modes that keep each student's boxes to that student
and the teacher. The teacher's kernel makes the room (teacher/ 0700, in/ and out/ 1733: anyone may make a
box, nobody else lists them or removes another's box); each student's own kernel makes its boxes in/N and
out/N as it joins, mode 2770 with its account's own group (the teacher's account is a member of every
student's group); messages are 0640. A box the room may not use (a student made it a link, or took the
teacher's rights away) is that box's trouble, logged once, and never the channel's: the other students go on.

These are the parts one account can test. tests/browser/test_class_on_jupyterhub.py proves the rest with
an account per user on a real JupyterHub: no student reads another's boxes or the teacher's files.
"""

from __future__ import annotations

import errno
import logging
import os
import stat

import pytest
from conftest import settle

from needle_widget import classroom, examples
from needle_widget.classroom.channel import BOX_MODE, MESSAGE_MODE, SIDE_MODE

LOGGER = "needle_widget.classroom"


def mode(path) -> int:
    return stat.S_IMODE(os.lstat(path).st_mode)


def test_the_teacher_makes_the_room_and_each_student_s_kernel_makes_its_own_boxes(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    root = tmp_path / "room"
    assert (mode(root), mode(root / "teacher"), mode(root / "teacher" / "secret")) == (0o755, 0o700, 0o600)
    assert mode(root / "room.json") == 0o644
    assert mode(root / "in") == mode(root / "out") == SIDE_MODE == 0o1733
    ticket = room.invite("Ann")
    assert not (root / "in" / "0").exists() and not (root / "out" / "0").exists()  # the teacher makes no box
    ann = classroom.join(room.url, ticket.code, start=False)
    settle(room, ann)
    assert ann.name == "Ann"
    for side in ("in", "out"):
        box = root / side / "0"
        status = os.lstat(box)
        assert stat.S_ISDIR(status.st_mode) and mode(box) == BOX_MODE == 0o2770
        assert (status.st_uid, status.st_gid) == (os.getuid(), os.getgid())
    room.lead(examples.load("detective"), perspective=0).go(2)
    settle(room, ann)
    assert ann.step == 2
    messages = list((root / "in" / "0").glob("*.msg"))
    assert messages and all(mode(p) == MESSAGE_MODE == 0o640 for p in messages)
    assert not list((root / "in" / "0").glob(".*.part"))
    assert mode(root / "teacher" / "state") == 0o600
    room.close(), ann.close()


def test_a_box_made_under_a_set_group_id_folder_takes_the_student_s_own_group(tmp_path):
    """A shared folder that is set-group-ID (an admin's `chmod g+s`) would give every box its group, shared by
    the class: the student's kernel sets its own group back.
    """
    others = [g for g in os.getgroups() if g != os.getgid()] or ([65534] if os.getuid() == 0 else [])
    if not others:
        pytest.skip("this account belongs to one group only: it cannot make a folder of another group")
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    root = tmp_path / "room"
    for side in ("in", "out"):
        os.chown(root / side, -1, others[0])
        os.chmod(root / side, SIDE_MODE | stat.S_ISGID)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    settle(room, ann)
    for side in ("in", "out"):
        status = os.lstat(root / side / "0")
        assert status.st_gid == os.getgid() and mode(root / side / "0") == BOX_MODE
    assert ann.name == "Ann"
    room.close(), ann.close()


def test_a_rejoining_student_s_kernel_sets_its_boxes_modes_again(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ticket = room.invite("Ann")
    ann = classroom.join(room.url, ticket.code, start=False)
    settle(room, ann)
    ann.close()
    for side in ("in", "out"):
        os.chmod(tmp_path / "room" / side / "0", 0o777)
    again = classroom.join(room.url, ticket.code, start=False)
    settle(room, again)
    assert all(mode(tmp_path / "room" / side / "0") == BOX_MODE for side in ("in", "out"))
    room.lead(examples.load("detective"), perspective=0).go(3)
    settle(room, again)
    assert again.step == 3
    room.close(), again.close()


@pytest.mark.parametrize("side", ["in", "out"])
def test_a_box_a_student_made_a_link_is_not_followed_and_the_class_goes_on(tmp_path, caplog, side):
    """A student's account owns its boxes, so it can swap one for a link to a folder the teacher's account may
    write (here the room's own teacher/ folder). The room never reads, writes or deletes through it; it logs
    the box once and goes on with the other students.
    """
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    bob = classroom.join(room.url, room.invite("Bob").code, start=False)
    settle(room, ann, bob)
    root = tmp_path / "room"
    teacher = root / "teacher"
    for junk in (f"{1:020d}.msg", f"{10**19:020d}.msg"):  # message-like files a discard or a drop could delete
        (teacher / junk).write_bytes(b"not a message")
    before = sorted(p.name for p in teacher.iterdir())
    box = root / side / "0"
    for entry in box.iterdir():
        entry.unlink()
    box.rmdir()
    box.symlink_to(teacher)
    lesson = room.lead(examples.load("detective"), perspective=0)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        for k in (1, 2, 3):
            lesson.go(k)
            settle(room, ann, bob)
    assert bob.step == 3 and room.link.connected  # the others go on; the channel is not down
    assert sorted(p.name for p in teacher.iterdir() if not p.name.startswith("state")) == \
        sorted(n for n in before if not n.startswith("state"))
    assert all(p.read_bytes() == b"not a message" for p in teacher.glob("*.msg"))
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER and "not a folder" in r.getMessage()]
    assert lines and all(f"{side}/0" in line for line in lines)
    if side == "out":
        assert len(lines) == 1, lines  # the reader logs it once, however often it looks
    room.close(), ann.close(), bob.close()


def test_a_box_the_room_may_not_open_is_logged_once_and_the_others_go_on(tmp_path, caplog, monkeypatch):
    """A student took the teacher's rights away from their out-box (or the teacher's account is not in their
    group): the room cannot read it. That is logged once, with what to check, and Bob is still heard.
    """
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    bob = classroom.join(room.url, room.invite("Bob").code, start=False)
    settle(room, ann, bob)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.ask("needle", 2)
    settle(room, ann, bob)
    closed = os.fspath(tmp_path / "room" / "out" / "0")
    real_open = os.open

    def refusing(path, flags, *args, **kwargs):  # what a chmod 700 by Ann's account does to the teacher's
        if os.fspath(path) == closed:
            raise PermissionError(errno.EACCES, "Permission denied", closed)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        candidates = bob.state()["quiz_state"]["question"]["form"]["candidates"]
        bob.answer(candidates[:1])
        for _ in range(3):
            settle(room, ann, bob)
    monkeypatch.undo()
    assert list(lesson.asked[-1].answers) == [1] and room.link.connected
    lines = [r.getMessage() for r in caplog.records if r.name == LOGGER and "out.0" in r.getMessage()]
    assert len(lines) == 1 and "member of the student's group" in lines[0], lines
    room.close(), ann.close(), bob.close()


@pytest.mark.skipif(not hasattr(os, "getuid") or os.getuid() != 0, reason="needs root: a box of another account")
def test_a_box_another_account_made_first_is_refused_and_the_student_is_told(tmp_path):
    """in/ and out/ let anyone make a box: a student could make a classmate's before they join. The
    classmate's kernel refuses it (its follow bar says whose it is and what to do); nothing is sent there.
    """
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ticket = room.invite("Ann")
    squat = tmp_path / "room" / "out" / "0"
    squat.mkdir(mode=0o777)
    os.chown(squat, 65534, 65534)  # nobody's
    ann = classroom.join(room.url, ticket.code, start=False)
    settle(room, ann)
    follow = ann.state()["follow"]
    assert follow["status"] == "offline" and "made by another account" in follow["text"], follow
    assert not any(squat.iterdir()) and not room.members()[0].joined
    room.close(), ann.close()
