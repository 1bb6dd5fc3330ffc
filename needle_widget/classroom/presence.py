"""Who is in the class now: a student's kernel says "here" every HEARTBEAT seconds while it runs (and "bye" when it
closes); the room counts a student online while their last message, of any kind, is under PRESENCE_TIMEOUT seconds
old, on the room's own monotonic clock. Nothing of it is saved: a room reopened after a restart counts nobody online
until their kernels speak again, and what they posted while it was closed (`Member.backlog`) says nothing of it; a
kernel told that the room closed stops saying "here" until the room sends again.

>>> from needle_widget.classroom.roster import Member
>>> ann = Member(0, "Ann", 0, b"")
>>> is_online(ann, now=100.0), seen(ann, 100.0) or is_online(ann, now=100.0 + PRESENCE_TIMEOUT - 1)
(False, True)
>>> is_online(ann, now=100.0 + PRESENCE_TIMEOUT)
False
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["HEARTBEAT", "PRESENCE_TIMEOUT", "is_online", "seen", "gone"]

HEARTBEAT = 10.0
"""Seconds between two of a running student kernel's "here" messages."""
PRESENCE_TIMEOUT = 3 * HEARTBEAT
"""Seconds after a student's last message that the room still counts them online: three heartbeats, so one or two
lost or late (a busy kernel, a slow shared folder) do not flicker the board."""


def seen(member: Any, now: float) -> None:
    """The room heard from `member` at `now` (its monotonic clock)."""
    member.seen = now


def gone(member: Any) -> None:
    """`member`'s kernel said goodbye: offline at once."""
    member.seen = -math.inf


def is_online(member: Any, now: float) -> bool:
    """`member` spoke less than PRESENCE_TIMEOUT seconds before `now`, and is still on the roster."""
    return not getattr(member, "removed", False) and now - member.seen < PRESENCE_TIMEOUT
