"""The class channel: numbered boxes of sealed messages between the room and each student.

Box "in.N" carries the room's messages to student N, box "out.N" student N's to the room. A message
is bytes (`seal`) with a sequence number that only grows in its box; a reader keeps the number of the
last message it took from each box (its cursor) and asks for the ones after it. The room also keeps
its own state here (`save` / `load`), where no student may read it.

Two channels give the same API: `FolderChannel` (a shared folder: files written whole and moved into
place, no server) and `redischannel.RedisChannel` (Redis streams). `connect(address)` picks one.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import pathlib
import re
import stat
import tempfile
import threading
import time
from typing import Protocol

from ..engine.errors import quote
from .address import Address
from .errors import ChannelDown, ClassError
from .seal import MAX_MESSAGE, peek_seq

__all__ = ["Channel", "FolderChannel", "Message", "connect", "POLL", "FORMAT"]

log = logging.getLogger("needle_widget.classroom")
POLL = 0.02
"""Seconds between two looks at a shared folder's boxes."""
FORMAT = "needle-class-1"
Message = tuple[str, int, bytes]
"""(box, seq, data)."""
_BOX = re.compile(r"(in|out)\.(\d{1,3})")
_FILE = re.compile(r"(\d{20})\.msg")
_OPEN = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
"""A box's entry is opened without following a link, waiting on a pipe or taking a terminal."""


class Channel(Protocol):
    """What a class needs of its channel (see the module docstring)."""

    address: Address

    def post(self, box: str, seq: int, data: bytes) -> None:
        """Append a sealed message numbered `seq` to `box`."""

    def read(self, cursors: dict[str, int], timeout: float = 0.0, stop: threading.Event | None = None) -> list[Message]:
        """The messages after each box's cursor, waiting up to `timeout` seconds for one (or until `stop`)."""

    def tail(self, box: str) -> int:
        """The highest sequence number in `box` (0 if it is empty)."""

    def drop(self, box: str, upto: int) -> None:
        """The room forgets the messages of `box` numbered `upto` or lower."""

    def discard(self, box: str, seq: int) -> None:
        """The room deletes message `seq` of `box` (one that did not open)."""

    def save(self, name: str, data: bytes) -> None:
        """The room's own record `name` (no student may read it)."""

    def load(self, name: str) -> bytes | None:
        """The room's record `name`, or None."""

    def grant(self, index: int, user: str, password: str) -> None:
        """Open boxes in.N and out.N for student `index` (on Redis, its own user with this password)."""

    def close(self) -> None:
        """Let go of the channel's connections."""


def box_parts(box: str) -> tuple[str, int]:
    match = _BOX.fullmatch(box)
    if not match:
        raise ClassError(f"Not a class box: {quote(box)}")
    return match.group(1), int(match.group(2))


class FolderChannel:
    """A class in a shared folder:

    ``room.json`` (the room's name, readable by all), ``teacher/`` (mode 700: the room's secret and
    state, for the teacher's user only), ``in/N/`` (mode 755: the room's messages to student N,
    sealed with N's key) and ``out/N/`` (mode 1733, like nbgrader's inbound exchange: anyone may
    drop a file in, nobody but the teacher may list it; sealed with N's key). Each message is a file
    ``<seq>.msg`` written next to its place and moved in, so a reader never sees half of one.
    """

    def __init__(self, address: Address, create: bool) -> None:
        assert address.path is not None
        self.address, self.root = address, address.path
        marker = self.root / "room.json"
        if create:
            try:
                for folder, mode in ((self.root, 0o755), (self.root / "teacher", 0o700), (self.root / "in", 0o755),
                                     (self.root / "out", 0o755)):
                    folder.mkdir(parents=folder == self.root, exist_ok=True)
                    os.chmod(folder, mode)
                if not marker.exists():
                    _write(marker, json.dumps({"format": FORMAT, "room": address.room}).encode(), 0o644)
            except OSError as failure:
                raise ClassError(f"Cannot make a class room in {quote(str(self.root))}: "
                                 f"{failure.strerror or failure}") from None
        elif not marker.is_file():
            raise ClassError(f"No class room at {quote(address.public)}: the teacher opens it first "
                             "(classroom.open) and gives you its address and your ticket")
        self._lock = threading.Lock()
        self._ignored: dict[str, dict[str, tuple[int, int] | None]] = {}
        """Per box, the entries (name: `_identity`) not to read again: not message files, or not messages, already
        reported and not removed (None: the entry there now or a moment ago, which `discard` deleted or could not)."""

    def _dir(self, box: str) -> pathlib.Path:
        side, index = box_parts(box)
        return self.root / side / str(index)

    def post(self, box: str, seq: int, data: bytes) -> None:
        """Write the message as `<seq>.msg` in the box's folder, whole."""
        folder = self._dir(box)
        try:
            _write(folder / f"{seq:020d}.msg", data, 0o644)
        except OSError as failure:
            raise ChannelDown(f"Cannot write to the class folder {quote(str(folder))}: "
                              f"{failure.strerror or failure}") from None

    def _scan(self, box: str, after: int, limit: int = 200) -> list[Message]:
        folder = self._dir(box)
        try:
            with os.scandir(folder) as listing:
                entries = [(int(m.group(1)), e) for e in listing if (m := _FILE.fullmatch(e.name))]
        except FileNotFoundError:
            return []
        except OSError as failure:
            raise ChannelDown(f"Cannot read the class folder {quote(str(folder))}: {failure.strerror or failure}") \
                from None
        present = {e.name: _identity(e) for _, e in entries}
        with self._lock:
            ignored = self._ignored.setdefault(box, {})
            for name, known in list(ignored.items()):
                if name not in present or known not in (None, present[name]):
                    del ignored[name]  # gone, or another entry under its name: looked at afresh
                elif known is None:  # left by `discard`: the entry there now
                    ignored[name] = present[name]
            fresh = sorted(((seq, e) for seq, e in entries if seq > after and ignored.get(e.name) != present[e.name]),
                           key=lambda item: item[0])[:limit]
        out: list[Message] = []
        for seq, entry in fresh:
            data = self._take(box, entry)
            if data is None:
                continue
            with self._lock:
                ignored = self._ignored[box]
                if entry.name in ignored and ignored[entry.name] in (None, present[entry.name]):
                    continue  # discarded while it was read
                if peek_seq(data) != seq:  # the reader logs it and discards it; it is not handed over again
                    data = b""
                    ignored[entry.name] = present[entry.name]
            out.append((box, seq, data))
        return out

    def _take(self, box: str, entry: os.DirEntry[str]) -> bytes | None:
        """A message file's bytes (b"" if it is larger than a message: it is not read); None for what is no
        regular file (refused: logged once, then removed or else ignored) or is gone. Nothing here waits.
        """
        try:
            if not entry.is_file(follow_symlinks=False):
                return self._refuse(box, entry, _kind(entry.stat(follow_symlinks=False).st_mode))
            fd = os.open(entry.path, _OPEN)
        except FileNotFoundError:
            return None
        except OSError as failure:
            if failure.errno == errno.ELOOP:
                return self._refuse(box, entry, "a symbolic link")
            return self._refuse(box, entry, f"a file that does not open ({failure.strerror or failure})")
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                return self._refuse(box, entry, _kind(status.st_mode))
            if status.st_size > MAX_MESSAGE:
                return b""
            chunks, size = [], 0
            while size <= MAX_MESSAGE and (chunk := os.read(fd, MAX_MESSAGE + 1 - size)):
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks)
        except OSError as failure:
            return self._refuse(box, entry, f"a file that does not read ({failure.strerror or failure})")
        finally:
            os.close(fd)

    def _refuse(self, box: str, entry: os.DirEntry[str], what: str) -> None:
        """Log once a box's entry that is no message file; remove it, or else never look at it again."""
        try:
            if entry.is_dir(follow_symlinks=False):
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)
            fate = "removed"
        except FileNotFoundError:
            fate = "gone"
        except OSError as failure:
            fate = f"not removed ({failure.strerror or failure}): ignored from now on"
            with self._lock:
                self._ignored.setdefault(box, {})[entry.name] = _identity(entry)
        log.warning("class %s: refused %s in %s: %s, not a message file; %s",
                    self.address.room, quote(entry.name), box, what, fate)
        return None

    def read(self, cursors: dict[str, int], timeout: float = 0.0, stop: threading.Event | None = None) -> list[Message]:
        """Look at each box every POLL seconds until a message comes, `timeout` passes or `stop` is set."""
        end = time.monotonic() + timeout
        while True:
            found = [m for box, after in cursors.items() for m in self._scan(box, after)]
            if found or time.monotonic() >= end or (stop is not None and stop.is_set()):
                return found
            if stop is not None:
                stop.wait(POLL)
            else:
                time.sleep(POLL)

    def tail(self, box: str) -> int:
        """The highest `<seq>.msg` in the box's folder."""
        try:
            names = [int(m.group(1)) for n in os.listdir(self._dir(box)) if (m := _FILE.fullmatch(n))]
        except OSError:
            return 0
        return max(names, default=0)

    def drop(self, box: str, upto: int) -> None:
        """Delete the box's files numbered `upto` or lower."""
        folder = self._dir(box)
        try:
            for name in os.listdir(folder):
                if (m := _FILE.fullmatch(name)) and int(m.group(1)) <= upto:
                    try:
                        os.unlink(folder / name)
                    except FileNotFoundError:
                        pass
        except OSError:
            pass

    def discard(self, box: str, seq: int) -> None:
        """Delete the box's message `seq` (one that did not open: the cursor does not move past it). It is
        not handed over again: neither by a read that opened it before, nor if it cannot be deleted.
        """
        name = f"{seq:020d}.msg"
        with self._lock:
            self._ignored.setdefault(box, {}).setdefault(name, None)
        try:
            os.unlink(self._dir(box) / name)
        except OSError:
            pass

    def save(self, name: str, data: bytes) -> None:
        """teacher/<name>, mode 600."""
        try:
            _write(self.root / "teacher" / name, data, 0o600)
        except OSError as failure:
            raise ChannelDown(f"Cannot save the room's state in {quote(str(self.root))}: "
                              f"{failure.strerror or failure}") from None

    def load(self, name: str) -> bytes | None:
        """teacher/<name>, or None."""
        try:
            return (self.root / "teacher" / name).read_bytes()
        except FileNotFoundError:
            return None
        except OSError as failure:
            raise ClassError(f"Cannot read the room's state in {quote(str(self.root))}: "
                             f"{failure.strerror or failure}") from None

    def grant(self, index: int, user: str, password: str) -> None:
        """in/N (755) and out/N (1733: anyone may add a file, nobody else may list them)."""
        for side, mode in (("in", 0o755), ("out", 0o1733)):
            folder = self.root / side / str(index)
            folder.mkdir(exist_ok=True)
            os.chmod(folder, mode)

    def close(self) -> None:
        """Nothing is held open."""


def _write(path: pathlib.Path, data: bytes, mode: int) -> None:
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".part")
    try:
        with open(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def connect(address: Address, create: bool = False, *, user: str | None = None,
            password: str | None = None) -> Channel:
    """The channel of `address`: a room is made there if `create` (the teacher), else it must exist."""
    if address.kind == "folder":
        return FolderChannel(address, create)
    from .redischannel import RedisChannel

    return RedisChannel(address, create, user=user, password=password)


def _identity(entry: os.DirEntry[str]) -> tuple[int, int]:
    """What tells an entry from another under the same name, from the listing alone: inode and type."""
    kind = 0 if entry.is_symlink() else 1 if entry.is_dir(follow_symlinks=False) else \
        2 if entry.is_file(follow_symlinks=False) else 3
    return entry.inode(), kind


def _kind(mode: int) -> str:
    for test, what in ((stat.S_ISDIR, "a directory"), (stat.S_ISLNK, "a symbolic link"),
                       (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a device"),
                       (stat.S_ISBLK, "a device")):
        if test(mode):
            return what
    return "not a regular file"


def mode_of(path: pathlib.Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)
