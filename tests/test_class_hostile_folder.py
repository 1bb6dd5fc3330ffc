"""A student's out-box on a shared folder is their account's own (mode 2770, made by their kernel as they
join): that account may put anything there under a message's name (issue 29, items 1 and 2). A named pipe,
a directory, a symlink (to the teacher's secret, or to nothing) or a 2 GB sparse file must each leave the
room answering within a second, with one log line each, without reading the thing, and without the reader
spinning on it.

The room runs its own workers here (as in a lesson); the test's thread never reads the box itself, so a
reader stuck on a named pipe fails the test (and the pipe is opened for writing at the end, to free it).
"""

from __future__ import annotations

import contextlib
import dataclasses
import logging
import os
import pathlib
import threading
import time
import tracemalloc

import pytest
from conftest import settle

from needle_widget import classroom, examples
from needle_widget.classroom import channel as channel_module

LOGGER = "needle_widget.classroom"
TAKEN_WITHIN = 1.0
"""Seconds the acceptance gives the room to take a student's answer with a hostile entry in the box."""
WATCH = 1.0
"""Seconds the room reads with the entry in the box while the test counts."""
SPARSE = 2**31
HIGH = 10**19
"""A message number above every number a student sends (the clock's microseconds), below 2**64."""


@dataclasses.dataclass
class Watched:
    taken_after: float | None = None
    reads: int = 0
    returned: int = 0
    saves: int = 0
    opened: list[str] = dataclasses.field(default_factory=list)
    lines: list[str] = dataclasses.field(default_factory=list)
    peak: int = 0


def candidates(student):
    return student.state()["quiz_state"]["question"]["form"]["candidates"]


def place(kind: str, path: pathlib.Path, secret: pathlib.Path) -> None:
    """Put a hostile `kind` of entry at `path` (a message's name in a student's out-box)."""
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "dir":
        path.mkdir()
    elif kind == "full dir":  # nobody can rmdir it: it must be ignored, not re-read
        path.mkdir()
        (path / "x.msg").write_bytes(b"x")
    elif kind == "symlink":
        path.symlink_to(secret)
    elif kind == "dangling":
        path.symlink_to(path.parent / "nowhere")
    elif kind == "sparse":
        with open(path, "wb") as f:
            f.truncate(SPARSE)
    else:
        raise AssertionError(kind)


def free(path: pathlib.Path) -> None:
    """A reader blocked in open() on a named pipe is let go (a writer comes and leaves)."""
    with contextlib.suppress(OSError):
        os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))


def watch(tmp_path, monkeypatch, caplog, kinds: list[str], *, stuck: bool = False, memory: bool = False) -> Watched:
    """A room and Ann with a question asked; `kinds` of hostile entries put in Ann's out-box; then the room's
    workers run while Ann answers: what the room read, returned, saved, opened and logged in WATCH seconds.
    `stuck`: nothing can be removed from the box (an unlink or rmdir there fails).
    """
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann", seat=0).code, start=False)
    settle(room, ann)
    lesson = room.lead(examples.load("detective"), perspective=0)
    lesson.ask("needle", 6)
    settle(room, ann)
    box = tmp_path / "room" / "out" / "0"
    secret = tmp_path / "room" / "teacher" / "secret"
    names = [f"{HIGH + n:020d}.msg" for n in range(len(kinds))]  # above the cursor, whatever Ann sends
    seen = Watched()
    read, save, os_open = room.channel.read, room.channel.save, os.open

    def reading(cursors, timeout=0.0, stop=None):
        seen.reads += 1
        found = read(cursors, timeout, stop)
        seen.returned += bool(found)
        return found

    def saving(name, data):
        seen.saves += 1
        save(name, data)

    def opening(path, flags, *args, **kwargs):
        fd = os_open(path, flags, *args, **kwargs)
        if os.path.basename(os.fspath(path)) in names:
            seen.opened.append(os.path.basename(os.fspath(path)))
        return fd

    def py_opening(path, *args, **kwargs):  # the module's `open` (a builtin open of a message file)
        f = open(path, *args, **kwargs)
        if isinstance(path, (str, os.PathLike)) and os.path.basename(os.fspath(path)) in names:
            seen.opened.append(os.path.basename(os.fspath(path)))
        return f

    def refusing(real):
        def remove(path, *args, **kwargs):
            if os.path.basename(os.fspath(path)) in names:
                raise PermissionError(1, "Operation not permitted", os.fspath(path))
            return real(path, *args, **kwargs)
        return remove

    room.channel.read, room.channel.save = reading, saving
    monkeypatch.setattr(os, "open", opening)
    monkeypatch.setattr(channel_module, "open", py_opening, raising=False)
    if stuck:
        monkeypatch.setattr(os, "unlink", refusing(os.unlink))
        monkeypatch.setattr(os, "rmdir", refusing(os.rmdir))
    for kind, name in zip(kinds, names, strict=True):
        place(kind, box / name, secret)
    caplog.clear()
    try:
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            if memory:
                tracemalloc.start()
            room.start()
            start = time.monotonic()
            ann.answer(candidates(ann)[:1])
            ann.pump()
            while time.monotonic() - start < max(WATCH, 2 * TAKEN_WITHIN):
                if seen.taken_after is None and list(lesson.asked[-1].answers) == [0]:
                    seen.taken_after = time.monotonic() - start
                if seen.taken_after is not None and time.monotonic() - start >= WATCH:
                    break
                time.sleep(0.005)
            if memory:
                seen.peak = tracemalloc.get_traced_memory()[1]
                tracemalloc.stop()
            counted = seen.reads, seen.returned, seen.saves
            seen.lines = [r.getMessage() for r in caplog.records if r.name == LOGGER]
    finally:
        monkeypatch.undo()
        for kind, name in zip(kinds, names, strict=True):
            if kind == "fifo":
                free(box / name)
        room.link.stop()
        room.close(), ann.close()
    seen.reads, seen.returned, seen.saves = counted
    assert secret.exists() and not any(secret.read_bytes().hex() in line or "secret" in line for line in seen.lines)
    return seen


def mentions(lines: list[str], name: str) -> list[str]:
    return [line for line in lines if name in line]


def assert_quiet(seen: Watched) -> None:
    """No spin: in WATCH seconds the room's reader waits for messages (a read waits up to a second) instead of
    coming back at once, again and again, with the same entry (before the fix: thousands of reads, hundreds of
    state saves).
    """
    assert seen.reads <= 20, seen
    assert seen.returned <= 5, seen
    assert seen.saves <= 10, seen


@pytest.mark.parametrize("kind", ["fifo", "dir", "full dir", "symlink", "dangling", "sparse"])
def test_a_hostile_entry_in_a_box_leaves_the_room_answering(tmp_path, monkeypatch, caplog, kind):
    seen = watch(tmp_path, monkeypatch, caplog, [kind], memory=kind == "sparse")
    assert seen.taken_after is not None and seen.taken_after <= TAKEN_WITHIN, seen
    assert len(seen.lines) == 1, seen.lines
    assert_quiet(seen)
    name = seen.lines[0]
    box = tmp_path / "room" / "out" / "0"
    left = [p.name for p in box.iterdir() if p.name.startswith(str(HIGH)[:4])]  # not Ann's goodbye at her close
    if kind == "full dir":  # it cannot go: it stays, ignored
        assert len(left) == 1
    else:  # the room removed it (the box's group, of which the teacher's account is a member, may write it)
        assert left == [], left
    if kind in ("symlink", "dangling", "fifo", "dir", "full dir"):
        assert seen.opened == [], seen  # never opened through the link, never blocked on the pipe
        assert "out.0" in name and ".msg" in name
    if kind == "sparse":
        assert seen.peak < 64 * 2**20, seen.peak  # not read (2 GB): at most what a message may be
        assert len(seen.opened) <= 1, seen


def test_entries_that_cannot_be_removed_are_logged_once_and_then_ignored(tmp_path, monkeypatch, caplog):
    """A box where nothing can be removed (an unlink or rmdir there fails): each entry is logged once,
    never read again, and the room keeps answering.
    """
    kinds = ["fifo", "dir", "symlink", "dangling", "sparse"]
    seen = watch(tmp_path, monkeypatch, caplog, kinds, stuck=True)
    assert seen.taken_after is not None and seen.taken_after <= TAKEN_WITHIN, seen
    assert len(seen.lines) == len(kinds), seen.lines
    assert_quiet(seen)
    assert len(seen.opened) <= 1, seen  # only the sparse file, once (fstat: too large, not read)
    box = tmp_path / "room" / "out" / "0"
    assert len([p for p in box.iterdir() if p.name.startswith(str(HIGH)[:4])]) == len(kinds)  # not Ann's goodbye


def test_a_new_entry_under_an_ignored_name_is_read(tmp_path):
    """A name is ignored for the entry it held: put a real message there instead and it is read."""
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    channel = room.channel
    room.invite("Ann")
    channel.claim(0)  # Ann's boxes, as her kernel makes them when she joins
    box = tmp_path / "room" / "out" / "0"
    name = box / f"{5:020d}.msg"
    name.mkdir()
    (name / "x").write_bytes(b"x")
    assert channel.read({"out.0": 0}) == []
    assert channel.read({"out.0": 0}) == []
    (name / "x").unlink()
    name.rmdir()
    channel.post("out.0", 5, b"hello")
    assert channel.read({"out.0": 0}) == [("out.0", 5, b"")]  # not sealed: the room judges it (and discards it)
    room.close()


def test_a_box_holding_only_ignored_entries_makes_read_wait(tmp_path):
    """read() with a timeout waits for a message instead of returning at once for an entry it ignores."""
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    channel = room.channel
    room.invite("Ann")
    channel.claim(0)  # Ann's boxes, as her kernel makes them when she joins
    box = tmp_path / "room" / "out" / "0"
    (box / f"{7:020d}.msg").mkdir()
    (box / f"{7:020d}.msg" / "x").write_bytes(b"x")
    done = threading.Event()
    found: list = []
    start = time.monotonic()
    reader = threading.Thread(target=lambda: (found.append(room.channel.read({"out.0": 0}, 0.3)), done.set()),
                              daemon=True)
    reader.start()
    assert done.wait(5)
    assert found == [[]] and time.monotonic() - start >= 0.25
    room.close()


def test_a_message_discarded_while_it_is_read_is_not_handed_over(tmp_path, monkeypatch):
    """The room's sender discards a message (one that did not open) while its reader has it open: that read
    does not hand it over again (a second log line for it).
    """
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    channel = room.channel
    room.invite("Ann")
    channel.claim(0)  # Ann's boxes, as her kernel makes them when she joins
    channel.post("out.0", HIGH, b"NWC1" + HIGH.to_bytes(8, "big") + b"\0" * 40)  # looks sealed, does not open
    assert [m[1] for m in channel.read({"out.0": 0})] == [HIGH]
    read = os.read

    def discarded_meanwhile(fd, size):
        channel.discard("out.0", HIGH)
        return read(fd, size)

    monkeypatch.setattr(os, "read", discarded_meanwhile)
    assert channel.read({"out.0": 0}) == []
    monkeypatch.undo()
    assert channel.read({"out.0": 0}) == [] and not any((tmp_path / "room" / "out" / "0").iterdir())
    room.close()


def test_a_sealed_message_that_does_not_open_is_logged_once_by_a_running_room(tmp_path, caplog):
    """The room's reader reads again before its sender has discarded the message: it must not log it again."""
    from needle_widget.classroom.seal import derive, seal

    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    ann = classroom.join(room.url, room.invite("Ann").code, start=False)
    settle(room, ann)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        room.start()
        room.channel.post("out.0", HIGH, seal(derive(b"x" * 32, "s"), room.name, "out.0", HIGH, {"t": "hello"}))
        time.sleep(WATCH)
        room.close(), ann.close()
    assert len([r for r in caplog.records if r.name == LOGGER]) == 1, [r.getMessage() for r in caplog.records]
