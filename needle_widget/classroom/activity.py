"""What a class does together, as the room runs it: an `Activity` plugs into the room with the screens it
sends each student and the requests it answers.

The room keeps the roster, the keys, the channel, the saved state and the record; it asks the activity on
show for each student's screen messages (`screens`) and hands it the students' requests, found in the
activity's `@request` table (`screen.plugin`, as a widget's are). A new activity is a subclass with a
`kind`, listed once in `classroom.activities.ACTIVITIES`: the room, its saved state and the board follow.

>>> class Poll(Activity):
...     kind, absent = "poll", "No poll is open"
...     def __init__(self, ident=1):
...         self.id, self.title, self.votes = ident, "poll", {}
...     @request("vote", "choice")
...     def request_vote(self, member, choice):
...         self.votes[member.index] = choice
...         return Handled()
>>> sorted(Poll.requests())
['vote']
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ..engine.errors import NeedleError, quote
from ..screen.features import REQUESTS
from ..screen.plugin import Request, request, requests_of
from .errors import ClassError

if TYPE_CHECKING:
    from .record import FinishedGame, Record
    from .room import Member

__all__ = ["Activity", "FRAMES_PER_MESSAGE", "Handled", "request", "requests_of"]

FRAMES_PER_MESSAGE = 12
"""Frames in one message (a late student's catch-up comes in several)."""


@dataclass(frozen=True)
class Handled:
    """What a student's request did: a line for the student's follow bar (`note`), whether it finished the
    student's game (`finished`: the room records it, `Activity.outcomes`), and whose
    other screens changed (`also`).
    """

    note: str | None = None
    finished: bool = False
    also: tuple[int, ...] = ()
    """Other students whose screens the request changed (a match's opponent): the room sends them theirs."""


class Activity:
    """One thing the class does on every student's screen (a lesson, a challenge): see the module docstring.

    A subclass sets `kind` (its name in messages, in its requests' field naming it, and in the saved state),
    `absent` (what a student is told who sends its requests while another activity is shown) and `leads`,
    and has an `id` and a `title`. It answers
    `screens(member, reset)`, `to_dict` / `from_dict`, and marks its request handlers with `@request`; a
    handler takes the member and the request's fields and returns `Handled` (a `NeedleError` refuses it, its
    words sent to the student).
    """

    kind: ClassVar[str] = ""
    absent: ClassVar[str] = "That is not something this class does now"
    leads: ClassVar[bool] = True
    """The teacher leads it (a student's follow bar reads "Following the teacher at step N"); False: each
    student plays their own game (the bar reads the activity's title)."""
    id: int
    title: str | None

    @classmethod
    def requests(cls) -> dict[str, Request]:
        """The students' requests this activity answers, by kind."""
        return requests_of(cls)

    def screens(self, member: Member, reset: bool) -> list[dict[str, Any]]:
        """The messages that bring `member`'s screen up to date (frames not yet packed), each with "kind",
        "id", "title", "reset", "live", "first", "frames" and "quiz"; the member's record of what it was
        sent (`member.sent`) moves on. `reset`: send the whole screen again.
        """
        raise NotImplementedError

    def seat_session(self, member: Member) -> Any:
        """The session of `member`'s own seat (`screen.session.Session`), where their screen's requests on the game
        are answered (`answer_screen`); None where they play none (a lesson: the teacher leads).
        """
        return None

    def answer_screen(self, member: Member, kind: str, message: dict[str, Any]) -> None:
        """Answer `member`'s screen request `kind` as the local widget does: the same handler of the same table
        (`screen.features.REQUESTS`), on their seat's session (`seat_session`). A refusal raises ClassError with
        the session's words; a request that is not the session's, or a member with no seat, is refused.
        """
        session = self.seat_session(member)
        handler = REQUESTS.get(kind)
        if session is None or handler is None or not isinstance(session, handler.owner):
            raise ClassError(f"{quote(kind)} is not answered here: {self.absent}")
        try:
            handler.call(session, message)
        except NeedleError as refused:
            raise ClassError(str(refused)) from None

    def board(self, view: str, members: list[Any], record: Record) -> dict[str, Any]:
        """The activity's part of the teacher's board for `view` ("teacher", or "projector": no names), with the
        class's `record` (each recorded game's figures):
        top-level keys, plus "roster" (counts) and "students" (a row of columns for each of `members`, the
        teacher's view only) merged into the board's own.
        """
        return {}

    @classmethod
    def board_empty(cls, view: str, members: list[Any]) -> dict[str, Any]:
        """The board's part when no activity of this kind has run (the same keys as `board`, empty)."""
        return {}

    def tick(self, now: float) -> tuple[int, ...]:
        """The room's clock (`Room.tick`, every TICK seconds while its workers run): work that waits on time
        (a match stands a bot in for a student who left); the students whose screens changed.
        """
        return ()

    def headline(self, board: dict[str, Any]) -> dict[str, str]:
        """The board's top line while this activity is on the students' screens ({"kind", "text"}), from the
        board's state (`board`, with this activity's parts in it).
        """
        return {"kind": self.kind, "text": self.title or self.kind.capitalize()}

    def arrive(self, member: Member) -> tuple[int, ...]:
        """`member` joined (their kernel said hello) while this activity is shown: a match seats a latecomer where
        a bot plays; the students whose screens changed.
        """
        return ()

    def outcomes(self, known: Container[str] = ()) -> list[FinishedGame]:
        """The finished games of this activity that count in the class's record (`classroom.record`), but for
        those whose source is in `known` (recorded already): the room records each once, reviews it in the
        background and keeps it across lessons and restarts.
        """
        return []

    def shown_game(self, index: int) -> tuple[str, int] | None:
        """The recorded game student `index`'s screen shows now, as (its source, the student's seat),
        once it is over: the room adds the student's own review of it to the screen. None: no such game.
        """
        return None

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the room's saved state (sealed: it may hold a deal's seed)."""
        raise NotImplementedError

    @classmethod
    def load(cls, room: Any, data: dict[str, Any]) -> Activity:
        """The activity `to_dict` saved, taken up again by `room` (reopened after a restart)."""
        raise NotImplementedError
