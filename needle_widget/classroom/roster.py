"""A room's roster: the students invited (`Member`), numbered in the order invited, and their tickets.

A student's ticket, key and channel user come from the room's secret and their number (`tickets`): the roster
keeps none of them in the saved state, and a reopened room makes them again. The room's lock guards it.
"""

from __future__ import annotations

import collections
import dataclasses
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..engine.errors import quote
from ..engine.seats import seat_named
from ..teaching.answers import MAX_STUDENT_LENGTH
from .errors import ClassError
from .tickets import MAX_STUDENTS, Ticket, redis_user, sign, student_key

__all__ = ["KEEP_IN_BOX", "Member", "Roster", "checked_name", "checked_seat"]

KEEP_IN_BOX = 64
"""Messages the room leaves in a student's box (a student reads only what comes after it joins)."""
_NAME = re.compile(rf"[^\x00-\x1f\x7f]{{1,{MAX_STUDENT_LENGTH}}}")


@dataclass
class Member:
    """An invited student: number, name, assigned seat, and what the room knows of them."""

    index: int
    name: str
    seat: int
    key: bytes
    joined: bool = False
    last_in: int = 0
    sent: int = -1
    shown: tuple[str, int] = ("", 0)
    posted: collections.deque[int] = dataclasses.field(default_factory=lambda: collections.deque(maxlen=KEEP_IN_BOX))
    resend: bool = False
    """A full resend is queued (a hello came): what changes meanwhile goes out with it."""
    note: str | None = None
    resent: float = -math.inf
    lines: dict[int, Any] = dataclasses.field(default_factory=dict)
    """The variations a lesson sent them, by index (`Lesson.screens`): each as it was when its frames went out."""
    catalogue: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    """The list of those variations they were sent last."""
    patches: bool = False
    """Their kernel takes patches (its hello said so, `outbox`): a kernel of an earlier release gets whole frames."""
    chain: tuple[int, int, Any] | None = None
    """The last frame sealed for them, as (the message's number, its place in the message, the frame): the next
    frames go as patches of it (`outbox`); None until a frame is sent, and after a full resend's start."""
    seen: float = -math.inf
    """When the room last heard from their kernel, on its monotonic clock (`presence`; not saved)."""
    backlog: int = 0
    """Their messages numbered up to this were posted before the room (re)opened: read, they say nothing of who is
    online now (`presence`; not saved)."""
    removed: bool = False
    """Taken off the roster (`Room.remove`): their ticket no longer works, their games stay in the record."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (no key: it is derived again from the room's secret)."""
        return {"index": self.index, "name": self.name, "seat": self.seat, "joined": self.joined,
                "last_in": self.last_in, "patches": self.patches, "removed": self.removed}


def checked_name(name: str) -> str:
    """`name`, checked as a student's name (ClassError if it is not one)."""
    given: object = name  # checked: a caller may pass anything
    if not isinstance(given, str) or not _NAME.fullmatch(name) or name != name.strip():
        raise ClassError(f"A student's name is 1 to {MAX_STUDENT_LENGTH} characters without control characters "
                         f"or spaces around it, not {quote(name)}")
    return name


def checked_seat(name: str, seat: int | str | None) -> int | None:
    """The seat `seat` names (None: seats alternate) for a student `name`, both checked as `Room.invite` takes
    them: ClassError if either is not.
    """
    checked_name(name)
    if seat is None:
        return None
    named = seat_named(seat)
    if named is None:
        raise ClassError(f"seat must be 0 or 'p1' (Player 1), 1 or 'p2' (Player 2), or None, not {quote(seat)}")
    return named


class Roster:
    """The students invited to room `room`, by number, with their keys and tickets signed with the room's
    `secret`. Iterating gives the members in the order invited.
    """

    def __init__(self, room: str, secret: bytes) -> None:
        self.room = room
        self._secret = secret
        self._members: dict[int, Member] = {}

    def __len__(self) -> int:
        return len(self._members)

    def __iter__(self) -> Iterator[Member]:
        return iter(self._members.values())

    def __getitem__(self, index: int) -> Member:
        return self._members[index]

    def get(self, index: int) -> Member | None:
        """Student `index`, or None if no such student was invited."""
        return self._members.get(index)

    def named(self, name: str) -> Member | None:
        """The student on the roster called `name` (a removed student is not), or None."""
        return next((m for m in self._members.values() if m.name == name and not m.removed), None)

    def active(self) -> list[Member]:
        """The students on the roster (not removed), in the order invited."""
        return [m for m in self._members.values() if not m.removed]

    def new(self, name: str, seat: int | None) -> Member:
        """A new student `name`, numbered after the last, on `seat` (None: seats alternate); `add` puts them on
        the roster. ClassError if the room is full.
        """
        if len(self._members) >= MAX_STUDENTS:
            raise ClassError(f"A room takes at most {MAX_STUDENTS} students")
        index = len(self._members)
        return self._member(index, name, index % 2 if seat is None else seat)

    def add(self, member: Member) -> None:
        """Put `member` (from `new`) on the roster."""
        self._members[member.index] = member

    def take_up(self, saved: dict[str, Any]) -> Member:
        """Put the member `Member.to_dict` saved back on the roster (reopening a room)."""
        member = self._member(saved["index"], saved["name"], saved["seat"])
        member.joined, member.last_in = saved["joined"], saved["last_in"]
        member.patches = saved.get("patches") is True
        member.removed = saved.get("removed") is True
        self._members[member.index] = member
        return member

    def ticket(self, member: Member) -> Ticket:
        """`member`'s ticket."""
        return Ticket(self.room, member.index, member.name, sign(self._secret, self.room, member.index))

    def user(self, index: int) -> tuple[str, str]:
        """Student `index`'s user and password in the channel (`tickets.redis_user`)."""
        return redis_user(self.room, index, sign(self._secret, self.room, index))

    def _member(self, index: int, name: str, seat: int) -> Member:
        return Member(index, name, seat, student_key(self.room, index, sign(self._secret, self.room, index)))
