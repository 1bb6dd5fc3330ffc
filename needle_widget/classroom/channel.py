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
import secrets
import stat
import threading
import time
from typing import Protocol

from ..engine.errors import quote
from .address import Address
from .errors import ChannelDown, ClassError
from .seal import MAX_MESSAGE, peek_seq

__all__ = ["Channel", "FolderChannel", "ReadOnly", "Message", "connect", "POLL", "PER_BOX", "PER_BOX_BYTES", "FORMAT",
           "SIDE_MODE", "BOX_MODE", "MESSAGE_MODE"]

log = logging.getLogger("needle_widget.classroom")
POLL = 0.02
"""Seconds between two looks at a shared folder's boxes."""
PER_BOX = 128
"""Messages the room takes from one student's box in one read at most: a student who floods the room waits
for the rest of theirs while the others' are taken and answered."""
PER_BOX_BYTES = 4 << 20
"""Bytes of one student's messages the room takes in one read at most (and one message more: a box's first
message is always taken)."""
FORMAT = "needle-class-1"
Message = tuple[str, int, bytes]
"""(box, seq, data)."""
_BOX = re.compile(r"(in|out)\.(\d{1,3})")
_FILE = re.compile(r"(\d{20})\.msg")
_OPEN = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0)
"""A box's entry is opened without following a link, waiting on a pipe or taking a terminal."""
_DIR = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
"""A box's folder is opened without following a link: a student's account owns its boxes and could make one a
link to another folder the teacher's account may write (its home, another room's boxes)."""
_DIR_WRITE = (_DIR & ~os.O_RDONLY) | getattr(os, "O_PATH", os.O_RDONLY)
"""The same, to put a file in it (Linux: O_PATH, which needs no permission to list the folder)."""
_NEW = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
SIDE_MODE = 0o1733
"""in/ and out/: any account may make a box there, nobody but the teacher's account may list them, and nobody
else may remove or rename another's box (the sticky bit)."""
BOX_MODE = 0o2770
"""A student's box in/N or out/N: made by the student's own kernel, their account's, with their account's own
group, of which the teacher's account is a member (the admin sets that up); set-group-ID, so that the
teacher's messages in it take the student's group. Nobody else may list, read or write it."""
MESSAGE_MODE = 0o640
"""A message file: its writer's, readable by the box's group (the student and the teacher)."""
_BOX_TROUBLE = (errno.ENOENT, errno.EACCES, errno.EPERM, errno.ELOOP, errno.ENOTDIR)
"""What a student's account can do to its own box (remove it, take the teacher's rights away, make it a link
or a file): for the room, that box's trouble, not the channel's."""


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

    def revoke(self, index: int, user: str) -> None:
        """Student `index` is off the roster: on Redis its user is deleted (its kernel can no longer read or post);
        on a shared folder nothing (the room ignores its out-box).
        """

    def close(self) -> None:
        """Let go of the channel's connections."""


class ReadOnly:
    """`channel` for a room opened only to read (`classroom.open(read_only=True)`: an export, a look from another
    kernel): it reads and loads; every write (a post, a save, a drop, a user made or deleted) does nothing, so the
    room on the other kernel and the students see nothing of it.
    """

    def __init__(self, channel: Channel) -> None:
        self._channel = channel
        self.address = channel.address

    def read(self, cursors: dict[str, int], timeout: float = 0.0, stop: threading.Event | None = None) -> list[Message]:
        """Nothing: the students' messages are the room's on the kernel that runs it."""
        return []

    def tail(self, box: str) -> int:
        """The channel's."""
        return self._channel.tail(box)

    def load(self, name: str) -> bytes | None:
        """The channel's."""
        return self._channel.load(name)

    def post(self, box: str, seq: int, data: bytes) -> None:
        """Nothing."""

    def drop(self, box: str, upto: int) -> None:
        """Nothing."""

    def discard(self, box: str, seq: int) -> None:
        """Nothing."""

    def save(self, name: str, data: bytes) -> None:
        """Nothing."""

    def grant(self, index: int, user: str, password: str) -> None:
        """Nothing."""

    def revoke(self, index: int, user: str) -> None:
        """Nothing."""

    def close(self) -> None:
        """The channel's."""
        self._channel.close()


def box_parts(box: str) -> tuple[str, int]:
    match = _BOX.fullmatch(box)
    if not match:
        raise ClassError(f"Not a class box: {quote(box)}")
    return match.group(1), int(match.group(2))


class FolderChannel:
    """A class in a shared folder:

    ``room.json`` (the room's name, readable by all), ``teacher/`` (mode 700: the room's secret and
    state, for the teacher's account only), ``in/`` and ``out/`` (mode 1733: anyone may make a box
    there, nobody but the teacher may list them or remove another's box), and each student's boxes
    ``in/N/`` (the room's messages to student N) and ``out/N/`` (N's to the room), both made by
    student N's own kernel before its first message: mode 2770, N's account and N's own group, of
    which the teacher's account is a member, so only N and the teacher may use them (on one account
    for all, the same modes, and nothing between the students but the seal). Every message is sealed
    with N's key and is a file ``<seq>.msg`` (mode 640) written next to its place and moved in, so a
    reader never sees half of one. The room opens a box without following a link and takes a box it
    may not use for that box's trouble (logged), not the channel's: a student can spoil only their
    own boxes.
    """

    def __init__(self, address: Address, create: bool) -> None:
        assert address.path is not None
        self.address, self.root = address, address.path
        marker = self.root / "room.json"
        if create:
            try:
                for folder, mode in ((self.root, 0o755), (self.root / "teacher", 0o700),
                                     (self.root / "in", SIDE_MODE), (self.root / "out", SIDE_MODE)):
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
        self._room = create
        """The teacher's end (it opened the room), else a student's."""
        self._claimed: set[int] = set()
        """The students whose boxes this (student's) end has made or checked."""
        self._troubled: dict[str, str] = {}
        """The room's boxes it may not use, with the trouble logged (once, until the box is usable again)."""
        self._lock = threading.Lock()
        self._ignored: dict[str, dict[str, tuple[int, int] | None]] = {}
        """Per box, the entries (name: `_identity`) not to read again: not message files, or not messages, already
        reported and not removed (None: the entry there now or a moment ago, which `discard` deleted or could not)."""

    def _dir(self, box: str) -> pathlib.Path:
        side, index = box_parts(box)
        return self.root / side / str(index)

    def claim(self, index: int) -> None:
        """Make student `index`'s boxes in/N and out/N, this account's, mode 2770 with this account's own
        group: a student's kernel does it before its first message (its hello, as it joins). A box this
        account made before is set to those modes again. One the teacher's account made (a room from before
        this layout) is taken as it is if this account may use it; one another account made is refused.
        Refused or failed: ChannelDown, whose words the student's follow bar shows while it tries again.
        """
        me, group = os.getuid(), os.getgid()
        try:
            teacher = os.stat(self.root / "teacher").st_uid
        except OSError as failure:
            raise ChannelDown(f"Cannot reach the class folder {quote(str(self.root))}: "
                              f"{failure.strerror or failure}") from None
        for side, need in (("in", os.R_OK | os.X_OK), ("out", os.W_OK | os.X_OK)):
            path = self.root / side / str(index)
            try:
                try:
                    os.mkdir(path, 0o700)
                except FileExistsError:
                    pass
                status = os.lstat(path)
                if not stat.S_ISDIR(status.st_mode):
                    raise ChannelDown(f"Your box {side}/{index} in {quote(str(self.root))} is not a folder: "
                                      "ask the teacher to remove it, then join again")
                if status.st_uid == me:
                    if status.st_gid != group:  # a set-group-ID folder above would have given it its own group
                        os.chown(path, -1, group, follow_symlinks=False)
                    if stat.S_IMODE(status.st_mode) != BOX_MODE:
                        os.chmod(path, BOX_MODE)
                elif status.st_uid != teacher:
                    raise ChannelDown(f"Your box {side}/{index} in {quote(str(self.root))} was made by another "
                                      f"account ({_account(status.st_uid)}): ask the teacher to remove it, then "
                                      "join again")
                elif not os.access(path, need):
                    raise ChannelDown(f"Your box {side}/{index} in {quote(str(self.root))} is the teacher's and "
                                      "this account may not use it: ask the teacher")
            except OSError as failure:
                raise ChannelDown(f"Cannot make your box {side}/{index} in {quote(str(self.root))}: "
                                  f"{failure.strerror or failure}") from None
        if teacher != me and _account(group) != _account(me, group=False) and index not in self._claimed:
            log.warning("class %s: your boxes have the group %s, not a group of your own: every member of it "
                        "may list them (the messages stay sealed)", self.address.room, _account(group))
        self._claimed.add(index)

    def _open_box(self, box: str, write: bool = False) -> int | None:
        """The box's folder (a file descriptor), opened without following a link. None if it is not there
        (a student who has not joined), or, on the room's end, if it is no folder the room may use: that
        box's trouble, logged once, and the room goes on with the others. A student's end makes its boxes
        first (`claim`); its own box's trouble is the channel's (ChannelDown: tried again).
        """
        side, index = box_parts(box)
        if write and not self._room and index not in self._claimed:
            self.claim(index)
        path = self.root / side / str(index)
        try:
            fd = os.open(path, _DIR_WRITE if write else _DIR)
        except OSError as failure:
            if failure.errno == errno.ENOENT and not write:
                return None
            self._claimed.discard(index)
            trouble = self._trouble(box, failure)
            if write:
                raise ClassError(f"Cannot write to {box}: {trouble}") from None
            with self._lock:
                logged = self._troubled.get(box) == trouble
                self._troubled[box] = trouble
            if not logged:
                log.warning("class %s: cannot read %s: %s", self.address.room, box, trouble)
            return None
        if self._troubled:
            with self._lock:
                self._troubled.pop(box, None)
        return fd

    def _trouble(self, box: str, failure: OSError) -> str:
        """A box's trouble, in words, if it is that box's alone (the room's end; the box's side folder is
        there): else ChannelDown.
        """
        side, index = box_parts(box)
        why = failure.strerror or str(failure)
        if self._room and failure.errno in _BOX_TROUBLE and os.path.isdir(self.root / side):
            if failure.errno in (errno.ELOOP, errno.ENOTDIR):
                return f"{side}/{index} is not a folder (a link or a file), not used"
            if failure.errno == errno.ENOENT:
                return f"{side}/{index} is not there ({why})"
            return (f"{side}/{index}: {why} (is the teacher's account a member of the student's group? docs/CLASS.md, "
                    "'What is protected')")
        raise ChannelDown(f"Cannot use the class folder {quote(str(self.root / side / str(index)))}: {why}")

    def post(self, box: str, seq: int, data: bytes) -> None:
        """Write the message as `<seq>.msg` in the box's folder, whole (mode 640)."""
        fd = self._open_box(box, write=True)
        assert fd is not None
        try:
            _write_at(fd, f"{seq:020d}.msg", data, MESSAGE_MODE)
        except OSError as failure:
            if failure.errno == errno.ENOENT:
                self._claimed.discard(box_parts(box)[1])
            trouble = self._trouble(box, failure)
            raise ClassError(f"Cannot write to {box}: {trouble}") from None
        finally:
            os.close(fd)

    def _scan(self, box: str, after: int, limit: int = 200, budget: int = 1 << 62) -> list[Message]:
        fd = self._open_box(box)
        if fd is None:
            return []
        try:
            return self._scan_at(box, fd, after, limit, budget)
        finally:
            os.close(fd)

    def _scan_at(self, box: str, fd: int, after: int, limit: int, budget: int) -> list[Message]:
        """Up to `limit` messages of the box after `after`, in order, stopping once `budget` bytes are taken."""
        try:
            with os.scandir(fd) as listing:
                entries = [(int(m.group(1)), e) for e in listing if (m := _FILE.fullmatch(e.name))]
        except OSError as failure:
            raise ChannelDown(f"Cannot read the class folder {quote(str(self._dir(box)))}: "
                              f"{failure.strerror or failure}") from None
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
        taken = 0
        for seq, entry in fresh:
            if taken >= budget:
                break
            data = self._take(box, fd, entry)
            if data is None:
                continue
            taken += len(data)
            with self._lock:
                ignored = self._ignored[box]
                if entry.name in ignored and ignored[entry.name] in (None, present[entry.name]):
                    continue  # discarded while it was read
                if peek_seq(data) != seq:  # the reader logs it and discards it; it is not handed over again
                    data = b""
                    ignored[entry.name] = present[entry.name]
            out.append((box, seq, data))
        return out

    def _take(self, box: str, folder: int, entry: os.DirEntry[str]) -> bytes | None:
        """A message file's bytes (b"" if it is larger than a message: it is not read); None for what is no
        regular file (refused: logged once, then removed or else ignored) or is gone. Nothing here waits.
        """
        try:
            if not entry.is_file(follow_symlinks=False):
                self._refuse(box, folder, entry, _kind(entry.stat(follow_symlinks=False).st_mode))
                return None
            fd = os.open(entry.name, _OPEN, dir_fd=folder)
        except FileNotFoundError:
            return None
        except OSError as failure:
            if failure.errno == errno.ELOOP:
                self._refuse(box, folder, entry, "a symbolic link")
                return None
            self._refuse(box, folder, entry, f"a file that does not open ({failure.strerror or failure})")
            return None
        try:
            status = os.fstat(fd)
            if not stat.S_ISREG(status.st_mode):
                self._refuse(box, folder, entry, _kind(status.st_mode))
                return None
            if status.st_size > MAX_MESSAGE:
                return b""
            chunks, size = [], 0
            while size <= MAX_MESSAGE and (chunk := os.read(fd, MAX_MESSAGE + 1 - size)):
                chunks.append(chunk)
                size += len(chunk)
            return b"".join(chunks)
        except OSError as failure:
            self._refuse(box, folder, entry, f"a file that does not read ({failure.strerror or failure})")
            return None
        finally:
            os.close(fd)

    def _refuse(self, box: str, folder: int, entry: os.DirEntry[str], what: str) -> None:
        """Log once a box's entry that is no message file; remove it, or else never look at it again."""
        try:
            if entry.is_dir(follow_symlinks=False):
                os.rmdir(entry.name, dir_fd=folder)
            else:
                os.unlink(entry.name, dir_fd=folder)
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
            limit, budget = (PER_BOX, PER_BOX_BYTES) if self._room else (200, 1 << 62)
            found = [m for box, after in cursors.items() for m in self._scan(box, after, limit, budget)]
            if found or time.monotonic() >= end or (stop is not None and stop.is_set()):
                return found
            if stop is not None:
                stop.wait(POLL)
            else:
                time.sleep(POLL)

    def tail(self, box: str) -> int:
        """The highest `<seq>.msg` in the box's folder."""
        try:
            fd = self._open_box(box)
        except ChannelDown:
            return 0
        if fd is None:
            return 0
        try:
            names = [int(m.group(1)) for n in os.listdir(fd) if (m := _FILE.fullmatch(n))]
        except OSError:
            return 0
        finally:
            os.close(fd)
        return max(names, default=0)

    def drop(self, box: str, upto: int) -> None:
        """Delete the box's files numbered `upto` or lower."""
        try:
            fd = self._open_box(box)
        except ChannelDown:
            return
        if fd is None:
            return
        try:
            for name in os.listdir(fd):
                if (m := _FILE.fullmatch(name)) and int(m.group(1)) <= upto:
                    try:
                        os.unlink(name, dir_fd=fd)
                    except FileNotFoundError:
                        pass
        except OSError:
            pass
        finally:
            os.close(fd)

    def discard(self, box: str, seq: int) -> None:
        """Delete the box's message `seq` (one that did not open: the cursor does not move past it). It is
        not handed over again: neither by a read that opened it before, nor if it cannot be deleted.
        """
        name = f"{seq:020d}.msg"
        with self._lock:
            self._ignored.setdefault(box, {}).setdefault(name, None)
        try:
            fd = self._open_box(box)
        except ChannelDown:
            return
        if fd is None:
            return
        try:
            os.unlink(name, dir_fd=fd)
        except OSError:
            pass
        finally:
            os.close(fd)

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
        """Nothing: on a shared folder student N's own kernel makes its boxes (`claim`), so that they are its
        account's and its group's, which the teacher's account cannot give them.
        """

    def revoke(self, index: int, user: str) -> None:
        """Nothing: the student's own boxes are their account's; the room ignores what they post."""

    def close(self) -> None:
        """Nothing is held open."""


def _write(path: pathlib.Path, data: bytes, mode: int) -> None:
    """`path`, written whole (see `_write_at`); its folder is the teacher's (a link to it is followed)."""
    folder = os.open(path.parent, _DIR_WRITE & ~os.O_NOFOLLOW)
    try:
        _write_at(folder, path.name, data, mode)
    finally:
        os.close(folder)


def _write_at(folder: int, name: str, data: bytes, mode: int) -> None:
    """File `name` in the folder `folder` (a descriptor), written next to its place and moved in, with `mode`."""
    temporary = f".{secrets.token_hex(8)}.part"
    fd = os.open(temporary, _NEW, 0o600, dir_fd=folder)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, mode)
        finally:
            os.close(fd)
        os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(temporary, dir_fd=folder)
        except OSError:
            pass
        raise


def connect(address: Address, create: bool = False, *, user: str | None = None,
            password: str | None = None) -> Channel:
    """The channel of `address`: a room is made there if `create` (the teacher), else it must exist."""
    if address.kind == "folder":
        return FolderChannel(address, create)
    try:
        from .redischannel import RedisChannel
    except ImportError:
        raise ClassError(f"A class on Redis ({quote(address.public)}) needs the 'redis' package: pip install redis") \
            from None
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


def _account(number: int, group: bool = True) -> str:
    """A group's (or a user's) name, or its number."""
    try:
        import grp
        import pwd

        return grp.getgrgid(number).gr_name if group else pwd.getpwuid(number).pw_name
    except (ImportError, KeyError):
        return str(number)


def mode_of(path: pathlib.Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)
