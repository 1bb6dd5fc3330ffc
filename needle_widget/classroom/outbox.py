"""What a room sends its students: each joined student's screen, built from the activity on show
(`Activity.screens`, their own seat's frames and quiz state) with their own review of a finished game, into
their in-box ("in.N").

Messages are numbered and queued under the room's lock; the sender packs their frames and seals them with the
student's key outside it (`_Outgoing`), so a teacher's change never waits on a student's screen being sealed.
Each frame goes as a patch of the frame sent to that student before (`screen.patches`), as boardgame.io sends
each player a patch of their own view: a move sends what it changed, not the whole screen again. A
student who says hello again gets one full resend, taken when the sender reaches it (at most one per
RESEND_GAP), with whatever changed meanwhile.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from ..engine.errors import quote
from ..screen.frames import pack
from ..screen.patches import VERSION, diff
from . import gradebook
from .errors import ClassError
from .record import RecordEntry, review_exercises, review_state
from .recorder import Recorder
from .roster import KEEP_IN_BOX, Member, Roster
from .seal import next_seq, seal

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Outbox", "PATCHES", "RESEND_GAP"]

log = logging.getLogger("needle_widget.classroom")
PATCHES = VERSION
"""The version of patches (`screen.patches.VERSION`) a student's kernel says it takes, in its hello."""
RESEND_GAP = 0.5
"""Seconds between two full resends to one student (a rejoin in a loop gets one per gap, not one per hello)."""


class Outbox:
    """`room`'s messages to the students of `roster`, numbered by `clock` (None: `seal.next_seq`), with the
    reviews `recorder` keeps. Every method but the sender's is called with the room's `lock` held.
    """

    def __init__(self, room: Room, roster: Roster, lock: threading.RLock, recorder: Recorder,
                 clock: Callable[[], int] | None = None) -> None:
        self._room, self._roster, self._lock, self._recorder, self._clock = room, roster, lock, recorder, clock
        self.patches = True
        """Send each frame as a patch of the one sent before (False: whole frames, as before patches; a measure's
        baseline)."""
        self.seq = 0
        """The number of the last message queued (saved with the room's state: a reopened room numbers on)."""

    def send_all(self) -> None:
        """Send every joined student their screen."""
        self.send_to(member.index for member in self._roster)

    def send_to(self, indices: Iterable[int]) -> None:
        """Send each joined student of `indices` their screen, once each."""
        for index in dict.fromkeys(indices):
            member = self._roster.get(index)
            if member is not None and member.joined:
                self.reply(member)

    def reply(self, member: Member, note: str | None = None) -> None:
        """Send `member` their screen, with `note` for their follow bar; a failure to make it is one log line, never
        raised: one student's screen failing must not keep it from the others.
        """
        try:
            self._send(member, note=note)
        except Exception as failure:
            log.debug("the screen of %s", member.name, exc_info=True)
            self._room.warn(f"the screen of {member.name} could not be made: {type(failure).__name__}: "
                            f"{quote(str(failure))}")

    def reviewed(self, entry: RecordEntry) -> None:
        """The student's review of `entry`'s game is ready: sent if their screen shows that game."""
        member = self._roster.get(entry.student)
        activity = self._room.activity
        if member is not None and member.joined and activity is not None \
                and activity.shown_game(member.index) == (entry.source, entry.seat):
            self._send(member)
        if member is not None and member.joined and not member.removed:
            self.history(member)

    def resend(self, member: Member, at: float | None = None) -> None:
        """Queue one full resend of `member`'s screen (none more while one is queued). What the student
        gets is taken when the sender reaches it (not sooner than `at`), with what changed meanwhile.
        """
        if member.resend:
            return
        member.resend = True

        def take() -> list[tuple[int, dict[str, Any]]]:
            with self._lock:
                member.resend, note, member.note = False, member.note, None
                member.resent = time.monotonic()
                more = self._homework(member) + [self._history(member)]  # before the screen: it comes last
                return self._number(member, more + self._screens(member, note, reset=True))

        self._room.link.do(f"the whole screen for in.{member.index}", _Outgoing(self, member, take), at=at)

    def homework(self, member: Member) -> None:
        """Send `member` the room's latest homework (their own exercises), if they have any."""
        messages = self._homework(member)
        if messages:
            self._queue(member, messages)

    def history(self, member: Member) -> None:
        """Send `member` their own history (`classroom.history`): their games, answers and homework."""
        self._queue(member, [self._history(member)])

    def _history(self, member: Member) -> dict[str, Any]:
        try:
            mine = gradebook.history(self._room, member.name)
        except ClassError:  # no longer on the roster
            return {"t": "history", "games": [], "answers": [], "homework": []}
        return {"t": "history", "games": mine["games"], "answers": mine["answers"], "homework": mine["homework"] or []}

    def _homework(self, member: Member) -> list[dict[str, Any]]:
        homework = self._room.homework
        message = homework.message(member.index) if homework is not None else None
        return [message] if message is not None else []

    def removed(self, member: Member, now: bool = False) -> None:
        """Tell `member`, taken off the roster, that their ticket no longer works (`now`: as they are removed; else
        at most once a RESEND_GAP, a removed kernel's messages answered).
        """
        when = time.monotonic()
        if not now and when - member.resent < RESEND_GAP:
            return
        member.resent = when
        self._queue(member, [{"t": "removed", "room": self._room.name}])

    def closing(self) -> None:
        """Tell every joined student that the room closes (their screens keep what they show, and say so)."""
        for member in self._roster:
            if member.joined:
                self._queue(member, [{"t": "closed", "room": self._room.name}])

    def _send(self, member: Member, note: str | None = None) -> None:
        if member.resend:  # the queued full resend takes it
            member.note = note or member.note
            return
        self._queue(member, self._screens(member, note))

    def _queue(self, member: Member, messages: list[dict[str, Any]], at: float | None = None) -> None:
        """Queue `messages` (their "frames" still a list of frames) for `member`'s in-box: numbered now,
        packed and sealed by the sender outside the room's lock.
        """
        numbered = self._number(member, messages)
        self._room.link.do(f"{len(numbered)} message(s) for in.{member.index}",
                           _Outgoing(self, member, lambda: numbered), at=at)

    def _number(self, member: Member, messages: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        out = []
        box = f"in.{member.index}"
        for message in messages:
            self.seq = next_seq(self.seq) if self._clock is None else max(self.seq + 1, self._clock())
            out.append((self.seq, message))
            if len(member.posted) == KEEP_IN_BOX:
                self._room.link.drop(box, member.posted[0])
            member.posted.append(self.seq)
        return out

    def _seal(self, member: Member, seq: int, message: dict[str, Any]) -> bytes:
        """`message` sealed for `member`'s in-box as message `seq`: its frames packed, as patches of the frame sent
        before (`screen.patches`, "patch": where that frame was) when the student holds it; a full resend's first
        message starts again with whole frames. Called by the sender, in the order the messages are numbered.
        """
        frames = message.get("frames")
        if isinstance(frames, list) and frames:
            patched = self.patches and member.patches
            base = None if message.get("reset") or not patched else member.chain
            items = frames if base is None else [diff(before, frame) for before, frame in zip([base[2], *frames],
                                                                                               frames, strict=False)]
            message = {**message, "frames": pack(items), "patch": None if base is None else [base[0], base[1]]}
            member.chain = (seq, len(frames) - 1, frames[-1])
        return seal(member.key, self._room.name, f"in.{member.index}", seq, message)

    def _screens(self, member: Member, note: str | None = None, reset: bool = False) -> list[dict[str, Any]]:
        """What `member` is sent now (frames not yet packed), and the member's record of it updated."""
        base = {"t": "screen", "room": self._room.name, "name": member.name, "note": note}
        activity = self._room.activity
        if activity is None:
            member.shown = ("idle", 0)
            return [{**base, "kind": "idle", "id": 0, "reset": True, "live": None, "first": None, "frames": None,
                     "quiz": None, "title": self._room.ended}]
        shown = (activity.kind, activity.id)
        if reset or member.shown != shown:
            member.sent, reset = -1, True
        out = [{**base, "leads": activity.leads, **message} for message in activity.screens(member, reset)]
        member.shown = shown
        game = activity.shown_game(member.index)
        if game is not None and out and out[-1].get("frames"):
            out[-1]["frames"][-1] = self._with_review(out[-1]["frames"][-1], game)
        return out

    def _with_review(self, frame: dict[str, Any], game: tuple[str, int]) -> dict[str, Any]:
        """A finished game's frame with its student's own review (once computed), its offer, and the review's marked
        decisions as exercises (`record.seat_review`), which the student may practise in their own kernel.
        """
        reviewed = self._recorder.review_of(game)
        worlds = self._recorder.record.worlds
        offer = {"seats": [game[1]] if reviewed is not None else [], "worlds": worlds,
                 "reason": None if reviewed is not None else "Your review is being computed: it opens in a moment"}
        return {**frame, "offers": {**frame.get("offers", {}), "review": offer},
                "class_review": review_state(reviewed, worlds) if reviewed is not None else None,
                "class_exercises": review_exercises(reviewed) if reviewed is not None else []}


class _Outgoing:
    """Messages on their way to a student's in-box: sealed (frames packed) by the sender, outside the
    room's lock; `take()` gives them numbered. Kept for a retry: a channel down resumes where it stopped.
    """

    def __init__(self, outbox: Outbox, member: Member, take: Callable[[], list[tuple[int, dict[str, Any]]]]) -> None:
        self._outbox, self._member, self._take = outbox, member, take
        self._sealed: list[tuple[int, bytes]] | None = None
        self._done = 0

    def __call__(self) -> None:
        if self._sealed is None:
            self._sealed = [(seq, self._outbox._seal(self._member, seq, m)) for seq, m in self._take()]
        box = f"in.{self._member.index}"
        while self._done < len(self._sealed):
            seq, data = self._sealed[self._done]
            self._outbox._room.channel.post(box, seq, data)
            self._done += 1
