"""What a room's students post in their out-boxes ("out.N"): each message opened with its student's key,
checked and handed to the activity on show (its `@request` handlers); each student answered once a read, with
their screen and the last request's note.

A message that does not open with its student's key, or comes again with an old number, is ignored with a
log line (`Room.warn`); one that opens and does not read, or whose request fails, is consumed.
"""

from __future__ import annotations

import threading
import time
from typing import TYPE_CHECKING, Any

from ..engine.errors import NeedleError, quote
from .activities import owner_of
from .activity import Handled
from .channel import Message, box_parts
from .errors import ClassError, UnreadableMessage
from .outbox import PATCHES, RESEND_GAP, Outbox
from .presence import gone, seen
from .roster import Member, Roster
from .seal import MAX_REQUEST, unseal

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Inbox", "MAX_NOTE", "QUIET"]

MAX_NOTE = 400
"""The longest refusal a student is sent (characters)."""
QUIET = frozenset({"here", "bye"})
"""Messages that only say the student's kernel is there or leaving (`presence`): nothing to save or answer."""


class Inbox:
    """`room`'s messages from the students of `roster`, answered through `outbox`. `take` is called with the
    room's `lock` held.
    """

    def __init__(self, room: Room, roster: Roster, lock: threading.RLock, outbox: Outbox) -> None:
        self._room, self._roster, self._lock, self._outbox = room, roster, lock, outbox
        self._discarding: set[tuple[str, int]] = set()
        """Messages that did not open, their discarding queued: a read before it is done skips them."""

    def cursors(self) -> dict[str, int]:
        """Each out-box, with the number of the last message taken from it (the link reads what comes after)."""
        with self._lock:
            return {f"out.{m.index}": m.last_in for m in self._roster}

    def take(self, messages: list[Message]) -> tuple[dict[str, int], bool, bool]:
        """Take one read's messages: each opened, checked and answered in order, and each student answered
        at most once for the whole read (their screen, with the last request's note), however many they sent.
        A message that opens and does not read, or whose request fails, is consumed: the cursor moves past it.
        Every message that opens says its student is there (`presence`). Returns each out-box with the number of
        the last message taken from it (none taken: {}), whether a request finished a game, and whether any message
        was more than presence (the room then saves).
        """
        done: dict[str, int] = {}
        replies: dict[int, str | None] = {}
        finished = changed = False
        room = self._room
        now = time.monotonic()
        for box, seq, data in sorted(messages, key=lambda m: m[1]):
            side, index = box_parts(box)
            member = self._roster.get(index)
            if side != "out" or member is None:
                continue
            if (box, seq) in self._discarding:
                continue
            if seq <= member.last_in:
                room.warn(f"ignored message {seq} from {box}: an old number (sent again?)")
                continue
            try:
                sealed, message = unseal(member.key, room.name, box, data, limit=MAX_REQUEST)
                if sealed != seq:  # an old message posted again under a new number
                    raise ClassError(f"A message in {box} is numbered {seq} and sealed as {sealed}")
            except UnreadableMessage as bad:  # sealed by the student: consumed, never read again
                message = None
                room.warn(f"ignored a message in {box}: {bad}")
            except ClassError as bad:  # the cursor stays: a file with a high number dropped in a
                room.warn(f"ignored a message in {box}: {bad}")  # shared out-box must not hide
                self._discarding.add((box, seq))  # the student's next messages

                def discard(box: str = box, seq: int = seq) -> None:
                    self._discard(box, seq)

                room.link.do(f"discarding message {seq} of {box}", discard)
                continue
            done[box] = max(done.get(box, 0), seq)
            member.last_in = seq
            if message is None:
                continue
            if not isinstance(message, dict) or not isinstance(message.get("t"), str):
                room.warn(f"ignored a message in {box}: not a request")
                continue
            if member.removed:
                self._outbox.removed(member)
                continue
            if seq > member.backlog:  # posted while the room was closed: nothing of who is here now
                seen(member, now)
            if message["t"] == "bye":
                gone(member)
            if message["t"] in QUIET:
                continue
            changed = True
            finished = self._answer(member, message, replies) or finished
        for index, note in replies.items():
            self._outbox.reply(self._roster[index], note)
        return done, finished, changed

    def _discard(self, box: str, seq: int) -> None:
        self._room.channel.discard(box, seq)
        self._discarding.discard((box, seq))

    def _answer(self, member: Member, message: dict[str, Any], replies: dict[int, str | None]) -> bool:
        """Answer one request of `member`'s: whose screens it changed go into `replies` (index: the note for
        their follow bar), sent once the whole read is answered; True if it finished a game.
        """
        kind = message["t"]
        if kind == "hello":
            member.joined = True
            member.patches = message.get("patches") == PATCHES
            self._outbox.resend(member, at=member.resent + RESEND_GAP)
            activity = self._room.activity
            for index in activity.arrive(member) if activity is not None else ():
                if index != member.index:
                    replies.setdefault(index, None)
            return False
        if kind == "homework":  # the room's own, whatever the activity shown
            try:
                self._room.homework_report(member, message)
            except NeedleError as refused:
                replies[member.index] = _short(str(refused))
            return False
        activity = self._room.activity
        handler = activity.requests().get(kind) if activity is not None else None
        if handler is None:
            owner = owner_of(kind, message)
            if owner is None:
                self._room.warn(f"ignored a message from {member.name}: unknown request {quote(kind)}")
            else:
                replies[member.index] = owner.absent
            return False
        try:
            handled = handler.call(activity, message, member)
        except NeedleError as refused:
            replies[member.index] = _short(str(refused))
            return False
        except Exception as failure:  # a handler's bug must not stop the room: the request is refused, logged once
            self._room.warn(f"a request {quote(kind)} from {member.name} failed: {type(failure).__name__}: "
                            f"{quote(str(failure))}")
            replies[member.index] = f"The room could not take that request ({quote(kind)})"
            return False
        if not isinstance(handled, Handled):
            raise TypeError(f"{type(activity).__name__}.{handler.method} returned {handled!r}, not Handled")
        replies[member.index] = handled.note
        for index in handled.also:
            other = self._roster.get(index)
            if other is not None and other.joined:
                replies.setdefault(index, None)
        return handled.finished


def _short(note: str) -> str:
    """A refusal's words for the student's follow bar, at most MAX_NOTE characters (a refusal may quote the request)."""
    return note if len(note) <= MAX_NOTE else note[:MAX_NOTE - 1] + "…"
