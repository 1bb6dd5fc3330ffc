"""A class session across kernels: the teacher leads, every student's screen follows, answers come back.

The teacher opens a room and invites the students; each student joins from their own notebook with the
room's address and their ticket:

>>> import tempfile
>>> from needle_widget import classroom, examples
>>> folder = tempfile.mkdtemp()
>>> room = classroom.open(f"folder:{folder}/monday", start=False)
>>> ticket = room.invite("Ann")
>>> ann = classroom.join(room.url, ticket.code, start=False)
>>> lesson = room.lead(examples.load("detective"), perspective=0)
>>> room.pump(); ann.pump(); room.pump(); ann.pump()
>>> lesson.go(5); room.pump(); ann.pump()
>>> ann.name, ann.step, ann.state()["follow"]["text"]
('Ann', 5, 'Following the teacher at step 5')
>>> ann.close(); room.close()

Addresses: `folder:PATH`, a shared folder (one machine, or a JupyterHub's shared volume: no server),
and `redis://HOST:PORT/DB?room=NAME`, Redis for a class across machines. Every message is sealed with
a key only its two ends hold (`seal`); a student's kernel receives only its own seat's frames
(`screen.frames`), never the replay or a seed. docs/CLASS.md says what each channel
protects.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..engine.errors import quote
from .address import Address, parse
from .challenge import Challenge
from .channel import ReadOnly, connect
from .errors import ChannelDown, ClassError, TicketError
from .lesson import Lesson
from .room import Room, decode_secret, encode_secret, new_secret
from .seal import require_cipher
from .student import Student, check_room
from .tickets import Ticket, read, redis_user, split_invitation

__all__ = ["open", "join", "teacher_notebook", "Room", "Lesson", "Challenge", "Student", "Ticket", "Address",
           "ClassError", "ChannelDown", "TicketError"]


def open(url: str | os.PathLike, *, secret: bytes | None = None, start: bool = True,  # noqa: A001
         clock: Callable[[], int] | None = None, reviews: Executor | None = None,
         worlds: int | None = None, read_only: bool = False) -> Room:
    """The room at `url` (`folder:PATH` or `redis://HOST:PORT/DB?room=NAME`): made if new, reopened with
    its students, lesson, answers and challenge if it exists (a teacher's kernel restarted).

    `secret` (32 bytes) makes a new room with that secret (tests and twin rooms); `start=False` leaves
    the workers off (call `room.pump()`); `clock` numbers the messages (microseconds; tests). The reviews
    behind the class's record run on `reviews` (any `concurrent.futures.Executor`, a dask `Client` for a
    school; by default one thread of the teacher's kernel) at `worlds` worlds a decision (by default
    `record.RECORD_WORLDS`, the Review panel's budget).

    `read_only=True` opens an existing room to read it (an export, `needle-widget class-export`): it is never
    started, and nothing it does is written (`channel.ReadOnly`), so the teacher's kernel that runs the room and
    the students see nothing of it. A kernel that opens a room another kernel holds gets a warning
    (`Room.holder`): two kernels would answer the same students.
    """
    address = parse(url)
    require_cipher()
    if read_only not in (True, False):
        raise ClassError(f"read_only must be True or False, not {quote(read_only)}")
    try:
        channel: Any = connect(address, create=not read_only)
    except ClassError:
        if not read_only:
            raise
        raise ClassError(f"There is no room at {quote(address.public)} to read: check the address") from None
    stored = channel.load("secret")
    if read_only:
        if stored is None:
            channel.close()
            raise ClassError(f"There is no room at {quote(address.public)} to read")
        channel, start = ReadOnly(channel), False
    if stored is None:
        given: object = secret  # checked: a caller may pass anything
        if secret is not None and (not isinstance(given, bytes) or len(secret) != 32):
            raise ClassError(f"A room's secret is 32 bytes, not {quote(secret)}")
        secret = secret or new_secret()
        channel.save("secret", encode_secret(secret))
    else:
        existing = decode_secret(stored)
        if secret is not None and secret != existing:
            raise ClassError(f"The room at {quote(address.public)} exists with another secret: open it without "
                             "secret=, or make a new room")
        secret = existing
    room = Room(address, channel, secret, clock=clock, reviews=reviews, worlds=worlds, read_only=read_only)
    if getattr(channel, "nopass_default", lambda: False)():
        room.warn("Redis lets anyone in as its default user, without a password: the students' own users "
                  "protect nothing until the default user has one (ACL SETUSER default >PASSWORD, or requirepass)")
    state = room.load_state()
    if state is not None:
        room.restore(state)
    if not read_only:
        room.hold()
    if start:
        room.start()
    return room


def teacher_notebook(path: str | os.PathLike, url: str) -> Any:
    """Write a teacher's notebook for the room at `url` to `path` (no simulation: open the room, invite with each
    student's notebook, the board, a lesson, a challenge, a match and the record); its path. Mode 600.
    """
    from .notebooks import write_teacher

    parse(url)  # a bad address fails here, not in the notebook
    return write_teacher(path, str(url))


def join(url: str | os.PathLike, ticket: Any = None, *, start: bool = True,
         clock: Callable[[], int] | None = None) -> Student:
    """Join the room at `url` with `ticket` (its code, as the teacher gave it): the student's end of the
    class (`Student`); `NeedleWidget.join(url, ticket)` shows it. A restarted kernel joins again with
    the same ticket and catches up. One string does too: the invitation `Room.invitation(name)` gives,
    "ADDRESS#TICKET", as `url` alone.
    """
    if ticket is None and isinstance(url, str) and "#" in url:
        url, ticket = split_invitation(url)
    address = parse(url)
    require_cipher()
    room, index, secret = read(ticket)
    check_room(address, room)
    user, password = redis_user(address.room, index, secret)
    channel = connect(address, create=False, user=user, password=password)
    student = Student(address, channel, index, secret, clock=clock)
    if start:
        student.start()
    return student
