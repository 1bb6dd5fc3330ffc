"""The teacher's room: the roster and tickets, the lesson or challenge on every student's screen, the
answers and games that come back, and the board's state. Kept in the channel, sealed, so a teacher
whose kernel restarts reopens it (`classroom.open` with the same address).

Everything a student is sent is built here from their own seat's frames (`Lesson.frame`,
`Challenge.frame`) and their own quiz state; it goes out through the channel sealed with their key.
Messages that do not open with a student's key, or come again with an old number, are ignored with
a log line ("needle_widget.classroom" logger, and `Room.log`).
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import json
import logging
import math
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import partial
from typing import Any

from ..engine import hosts
from ..engine.errors import NeedleError, quote
from ..engine.game import Game
from ..engine.seats import seat_named
from ..records.replay import Replay
from ..review.values import Valuation
from ..screen.frames import pack
from ..teaching.answers import MAX_STUDENT_LENGTH, Answer, save_answers
from .activities import ACTIVITIES, owner_of
from .activity import FRAMES_PER_MESSAGE, Activity, Handled, request, requests_of
from .address import Address
from .board import board_state
from .challenge import Challenge
from .channel import Channel, Message, box_parts
from .errors import ClassError, UnreadableMessage
from .jobs import Jobs
from .lesson import Lesson
from .link import Link
from .listeners import Listeners
from .match import Match
from .notebooks import write_student
from .record import Entry, Record, review_state, seat_ledger, seat_review
from .seal import MAX_REQUEST, derive, next_seq, seal, seed_of, unseal
from .tickets import MAX_STUDENTS, Ticket, redis_user, sign, student_key

__all__ = ["BOARD_REQUESTS", "Room", "Member", "FRAMES_PER_MESSAGE", "KEEP_IN_BOX", "RESEND_GAP"]

log = logging.getLogger("needle_widget.classroom")
KEEP_IN_BOX = 64
"""Messages the room leaves in a student's box (a student reads only what comes after it joins)."""
TICK = 1.0
"""Seconds between two ticks of the activity's clock while the room's workers run (`Room.tick`)."""
RESEND_GAP = 0.5
"""Seconds between two full resends to one student (a rejoin in a loop gets one per gap, not one per hello)."""
MAX_LOG = 200
MAX_NOTE = 400
"""The longest refusal a student is sent (characters)."""
MAX_PANELS = 256
"""Students' reviews of their finished games kept in memory (computed again after a restart, as needed)."""
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

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready (no key: it is derived again from the room's secret)."""
        return {"index": self.index, "name": self.name, "seat": self.seat, "joined": self.joined,
                "last_in": self.last_in}


class Room:
    """A class room (made or reopened by `classroom.open`): see the module docstring.

    `invite(name)` gives a ticket; `lead(replay)` starts a lesson, `challenge()` a challenge; `board()`
    is the teacher's live board; `answers` the records of the revealed questions. The room's workers
    (`start`, on by default) post and read in the background; `pump()` does one round by hand.
    """

    def __init__(self, address: Address, channel: Channel, secret: bytes, *,
                 clock: Callable[[], int] | None = None, reviews: Executor | None = None,
                 worlds: int | None = None) -> None:
        if worlds is not None and (type(worlds) is not int or not 2 <= worlds <= 4096):
            raise ClassError(f"The record's reviews use 2 to 4096 worlds a decision, not {quote(worlds)}")
        self.address, self.channel = address, channel
        self.name = address.room
        self._secret = secret
        self._key = derive(secret, "teacher", self.name)
        self._clock = clock
        self._lock = threading.RLock()
        self._members: dict[int, Member] = {}
        self._seq = 0
        self.activity: Activity | None = None
        """The activity on the students' screens, or None (they wait for the teacher)."""
        self._latest: dict[str, Activity] = {}
        self._earlier: list[Answer] = []
        self._listeners = Listeners("a board")
        self.log: collections.deque[str] = collections.deque(maxlen=MAX_LOG)
        """The room's recent log lines (ignored messages, a channel down), newest last."""
        self._jobs = Jobs(reviews, ended=self._notify)
        """The reviews behind the record, on `reviews` (any Executor; by default a thread of this kernel)."""
        self.record = Record() if worlds is None else Record(worlds=worlds)
        """The class's record over the term (`classroom.record`): every finished game of a challenge or a match."""
        self._panels: collections.OrderedDict[tuple[str, int], dict[str, Any]] = collections.OrderedDict()
        self._asked: set[tuple[str, int]] = set()
        self._dirty = False
        self._discarding: set[tuple[str, int]] = set()
        """Messages that did not open, their discarding queued: a read before it is done skips them."""
        self.link = Link(channel, self._cursors, self._handle, self._status, f"room {self.name}")
        self._ticking = threading.Event()
        self._ticker: threading.Thread | None = None

    def __repr__(self) -> str:
        joined = sum(m.joined for m in self._members.values())
        return (f"Room({self.address.public!r}, students={len(self._members)}, joined={joined}, "
                f"showing={self.showing!r})")

    @property
    def showing(self) -> str:
        """What the students' screens show: "idle", or the activity's kind ("lesson", "challenge")."""
        return self.activity.kind if self.activity is not None else "idle"

    @property
    def lesson(self) -> Lesson | None:
        """The lesson led now (or last), or None."""
        latest = self._latest.get(Lesson.kind)
        return latest if isinstance(latest, Lesson) else None

    @property
    def challenge_game(self) -> Challenge | None:
        """The challenge played now (or last), or None."""
        latest = self._latest.get(Challenge.kind)
        return latest if isinstance(latest, Challenge) else None

    def latest(self, kind: str) -> Activity | None:
        """The activity of `kind` shown now or last ("lesson", "challenge", ...), or None."""
        return self._latest.get(kind)

    def _show(self, activity: Activity) -> None:
        """Put `activity` on every student's screen (the latest of its kind)."""
        self._latest[activity.kind] = self.activity = activity

    @property
    def url(self) -> str:
        """The address to give the students (no teacher's credentials in it)."""
        return self.address.public

    # ---- roster -------------------------------------------------------------------------------

    def invite(self, name: str, seat: int | str | None = None, *, notebook: Any = None) -> Ticket:
        """Student `name`'s ticket (the same ticket if `name` was invited before). `seat` (0 or 1, or as a
        person names it: "p1", "Player 2") is the seat they are shown when a lesson shows each student
        their own; by default seats alternate. `notebook` (a folder, or a path ending in .ipynb) also writes
        the student's ready notebook there, their ticket filled in, readable by its owner only
        (`classroom.notebooks`): hand it to the student.
        """
        given: object = name  # checked: a caller may pass anything
        if not isinstance(given, str) or not _NAME.fullmatch(name) or name != name.strip():
            raise ClassError(f"A student's name is 1 to {MAX_STUDENT_LENGTH} characters without control characters "
                             f"or spaces around it, not {quote(name)}")
        if seat is not None:
            named = seat_named(seat)
            if named is None:
                raise ClassError(f"seat must be 0 or 'p1' (Player 1), 1 or 'p2' (Player 2), or None, not {quote(seat)}")
            seat = named
        with self._lock:
            for member in self._members.values():
                if member.name == name:
                    return self._ticket(member)
            if len(self._members) >= MAX_STUDENTS:
                raise ClassError(f"A room takes at most {MAX_STUDENTS} students")
            index = len(self._members)
            member = self._member(index, name, index % 2 if seat is None else seat)
            user, password = redis_user(self.name, index, sign(self._secret, self.name, index))
            self.channel.grant(index, user, password)
            self._members[index] = member
            self._dirty = True
        self._save()
        self._notify()
        ticket = self._ticket(member)
        if notebook is not None:
            write_student(notebook, self.url, ticket)
        return ticket

    def _member(self, index: int, name: str, seat: int) -> Member:
        return Member(index, name, seat, student_key(self.name, index, sign(self._secret, self.name, index)))

    def _ticket(self, member: Member) -> Ticket:
        return Ticket(self.name, member.index, member.name, sign(self._secret, self.name, member.index))

    @property
    def tickets(self) -> list[Ticket]:
        """Every student's ticket, in the order invited."""
        with self._lock:
            return [self._ticket(m) for m in self._members.values()]

    def members(self) -> list[Member]:
        """The invited students (copies of the room's records)."""
        with self._lock:
            return [Member(**{**m.__dict__}) for m in self._members.values()]

    def assigned_seat(self, index: int) -> int:
        """The seat student `index` was given at `invite`."""
        return self._members[index].seat

    def student_name(self, index: int) -> str:
        """Student `index`'s name."""
        return self._members[index].name

    # ---- what the class does ------------------------------------------------------------------

    def lead(self, replay: Replay | Game, perspective: Any = "assigned", *, title: str | None = None) -> Lesson:
        """Start a lesson on `replay` (a Game is taken as its replay so far): every student follows the
        teacher's step, from `perspective` ("p1" or 0, "p2" or 1, or "assigned": each student their invited seat).
        The answers of an earlier lesson stay in `answers`.
        """
        with self._lock:
            ident = (self.lesson.id + 1) if self.lesson else 1
            lesson = Lesson(self, replay, perspective, title=title, ident=ident)
            if self.lesson is not None:
                self._earlier.extend(self.lesson.records())
            self._show(lesson)
            self._send_all()
        self._save()
        self._notify()
        return lesson

    def challenge(self, seed: int | None = None, opponent: str = "greedy") -> Challenge:
        """Every student plays the same deal (seat 1 is the bot `opponent`) in their own widget; the room
        holds the deal and the bot. The board ranks the finished games by luck-adjusted score.
        """
        with self._lock:
            ident = (self.challenge_game.id + 1) if self.challenge_game else 1
            challenge = Challenge(seed, opponent, ident=ident)
            self._show(challenge)
            self._send_all()
        self._save()
        self._notify()
        return challenge

    def show(self, activity: Activity) -> Activity:
        """Put `activity` (any `Activity`: a lesson, a challenge, one of your own) on every student's screen;
        `lead` and `challenge` make theirs and show them here. Its students' requests go to its `@request`
        handlers; the room saves it with the room's state (taken up again on reopening if its kind is one of
        `classroom.activities.ACTIVITIES`).
        """
        given: object = activity  # checked: a caller may pass anything
        if not isinstance(given, Activity) or not activity.kind:
            raise ClassError(f"A room shows an Activity with a kind, not {quote(activity)}")
        with self._lock:
            self._show(activity)
            self._send_all()
        self._save()
        self._notify()
        return activity

    def match(self, deals: int = 2, seed: int | None = None, opponent: str = "greedy", *,
              replace_after: float | None = 120.0) -> Match:
        """The students play each other (`classroom.match`): seated two a table in the order invited (a bot
        `opponent` takes an odd seat), every table playing the same `deals`, each twice with the seats
        swapped. The room holds the deals and the games; each student's screen shows their own seat. A
        student whose move has waited `replace_after` seconds (None: never) has a bot stand in for the rest
        of that deal, marked in the table's results; they play again from the next deal.
        """
        with self._lock:
            latest = self._latest.get(Match.kind)
            match = Match([m.index for m in self._members.values()], deals, seed, opponent,
                          ident=latest.id + 1 if latest is not None else 1, replace_after=replace_after)
            if isinstance(latest, Match):
                self._end(latest)
        return self.show(match)  # type: ignore[return-value]

    def end_match(self) -> None:
        """End the latest match (`Match.end`): its open deals are played to their end by its bot and recorded, the
        student whose move each waited on counting as having left it. A new match ends the one before it too, so
        no deal a student held open by waiting (or with `replace_after=None`) stays out of the record.
        """
        with self._lock:
            latest = self._latest.get(Match.kind)
            if not isinstance(latest, Match):
                raise ClassError("No match has been played in this room")
            self._end(latest)
        self._save()
        self._notify()

    def _end(self, match: Match) -> None:
        """`match.end()`, its students' screens sent if it is shown, its games recorded (the lock is held)."""
        changed = match.end()
        if self.activity is match:
            self._send_to(changed)
        if changed:
            self._collect()

    def change_lesson(self, lesson: Lesson, change: Callable[[], None]) -> None:
        """Make `change` to `lesson` (the room's current one) under the room's lock, then send every joined
        student what changed, save the room and tell the board (`Lesson.go`, `ask` and `reveal` call this).
        """
        with self._lock:
            if lesson is not self.lesson:
                raise ClassError("This lesson is over: the room leads a newer one")
            change()
            self._show(lesson)
            self._send_all()
        self._save()
        self._notify()

    def lesson_changed(self, lesson: Lesson) -> None:
        """`lesson`'s replay changed (its variations: added, grown, renamed, removed; or its notes): if it is on
        the students' screens, send each what changed for them (`Lesson.screens`), save the room and tell the
        board. An earlier lesson, or one not shown now, changes nothing.
        """
        with self._lock:
            if lesson is not self.lesson or self.activity is not lesson:
                return
            lesson.follow_variations()
            self._send_all()
        self._save()
        self._notify()

    @property
    def answers(self) -> list[Answer]:
        """The records of every revealed question, earlier lessons' first (`teaching.answers.Answer`)."""
        with self._lock:
            return self._earlier + (self.lesson.records() if self.lesson else [])

    def save_answers(self, path: Any) -> None:
        """The answers as an answer file (.jsonl or .csv: `teaching.answers.save_answers`; `class_table` reads it)."""
        save_answers(self.answers, path)

    def replay_of(self, name: str) -> Replay:
        """Student `name`'s challenge game so far, as a replay (the teacher's: it holds every card)."""
        with self._lock:
            member = next((m for m in self._members.values() if m.name == name), None)
            game = self.challenge_game.games.get(member.index) if member and self.challenge_game else None
            if game is None:
                raise ClassError(f"{quote(name)} has no challenge game in this room")
            return game.game.replay()

    def table_replay(self, table: int, round: int | None = None) -> Replay:
        """Table `table`'s game of the match (numbered from 1), as the teacher's replay: the round played now,
        or a finished `round` (numbered from 1).
        """
        with self._lock:
            match = self._latest.get(Match.kind)
            if not isinstance(match, Match):
                raise ClassError("No match has been played in this room")
            return match.replay_of(table, round)

    def open_table(self, table: int, round: int | None = None, **kwargs: Any) -> Any:
        """A teacher's widget of table `table`'s game (every card shown): live (the round now, following each move
        and the table's next deals), or a finished `round`'s replay.
        """
        if round is None:
            self.table_replay(table)  # a bad table number fails here
            return hosts.make("class.table", self, table, **kwargs)
        return hosts.make("class.replay", self.table_replay(table, round), **kwargs)

    def open_replay(self, name: str, **kwargs: Any) -> Any:
        """A teacher's widget of student `name`'s challenge game."""
        return hosts.make("class.replay", self.replay_of(name), **kwargs)

    # ---- the board ----------------------------------------------------------------------------

    def board(self, view: str = "teacher") -> Any:
        """The teacher's live board (a widget): who joined and answered, the answers' distribution, the
        class's calibration, Reveal, the challenge's ranking. `view="projector"`: counts, no names.
        """
        return hosts.make("class.board", self, view=view)

    def board_state(self, view: str = "teacher") -> dict[str, Any]:
        """The board's state (`board.board_state`)."""
        if view not in ("teacher", "projector"):
            raise ClassError(f"A board's view is 'teacher' or 'projector', not {quote(view)}")
        with self._lock:
            return board_state(self, view)

    def board_request(self, message: Any) -> None:
        """A board's request, answered by the room's `@request` handlers (`BOARD_REQUESTS`): {"kind": "reveal"},
        or {"kind": "open", "name": NAME} (checked here: NAME has a challenge game; the board then shows
        `open_replay(NAME)`). A refusal raises ClassError.
        """
        kind = message.get("kind") if isinstance(message, dict) else None
        handler = BOARD_REQUESTS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ClassError(f"Unknown board request {quote(kind)}")
        handler.call(self, message)

    @request("reveal")
    def request_reveal(self) -> None:
        """The board's Reveal: the lesson's open question revealed on every screen."""
        if self.lesson is None:
            raise ClassError("No lesson is led: there is nothing to reveal")
        self.lesson.reveal()

    @request("open", "name")
    def request_open(self, name: Any) -> None:
        """The board's Open replay: checks that `name` has a challenge game (the board opens it)."""
        self.replay_of(name)

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` after every change (from the room's reader thread too); returns the unsubscriber."""
        return self._listeners.add(callback)

    def _notify(self) -> None:
        self._listeners.notify()

    # ---- sending ------------------------------------------------------------------------------

    def _queue(self, member: Member, messages: list[dict[str, Any]], at: float | None = None) -> None:
        """Queue `messages` (their "frames" still a list of frames) for `member`'s in-box: numbered now,
        packed and sealed by the sender outside the room's lock.
        """
        numbered = self._number(member, messages)
        self.link.do(f"{len(numbered)} message(s) for in.{member.index}", _Outgoing(self, member, lambda: numbered),
                     at=at)

    def _number(self, member: Member, messages: list[dict[str, Any]]) -> list[tuple[int, dict[str, Any]]]:
        out = []
        box = f"in.{member.index}"
        for message in messages:
            self._seq = next_seq(self._seq) if self._clock is None else max(self._seq + 1, self._clock())
            out.append((self._seq, message))
            if len(member.posted) == KEEP_IN_BOX:
                self.link.drop(box, member.posted[0])
            member.posted.append(self._seq)
        return out

    def _resend(self, member: Member, at: float | None = None) -> None:
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
                return self._number(member, self._screens(member, note, reset=True))

        self.link.do(f"the whole screen for in.{member.index}", _Outgoing(self, member, take), at=at)

    def _seal(self, member: Member, seq: int, message: dict[str, Any]) -> bytes:
        if isinstance(message.get("frames"), list):
            message = {**message, "frames": pack(message["frames"])}
        return seal(member.key, self.name, f"in.{member.index}", seq, message)

    def _send_all(self) -> None:
        self._send_to(self._members)

    def _send_to(self, indices: Iterable[int]) -> None:
        """Send each joined student of `indices` their screen, once each (the lock is held)."""
        for index in dict.fromkeys(indices):
            member = self._members.get(index)
            if member is not None and member.joined:
                self._reply(member)

    def _reply(self, member: Member, note: str | None = None) -> None:
        """Send `member` their screen, with `note` for their follow bar; a failure to make it is one log line, never
        raised: one student's screen failing must not keep it from the others.
        """
        try:
            self._send(member, note=note)
        except Exception as failure:
            log.debug("the screen of %s", member.name, exc_info=True)
            self._note(f"the screen of {member.name} could not be made: {type(failure).__name__}: "
                       f"{quote(str(failure))}")

    def _send(self, member: Member, note: str | None = None) -> None:
        if member.resend:  # the queued full resend takes it
            member.note = note or member.note
            return
        self._queue(member, self._screens(member, note))

    def _screens(self, member: Member, note: str | None = None, reset: bool = False) -> list[dict[str, Any]]:
        """What `member` is sent now (frames not yet packed), and the member's record of it updated."""
        base = {"t": "screen", "room": self.name, "name": member.name, "note": note}
        activity = self.activity
        if activity is None:
            member.shown = ("idle", 0)
            return [{**base, "kind": "idle", "id": 0, "reset": True, "live": None, "first": None, "frames": None,
                     "quiz": None, "title": None}]
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
        """A finished game's frame with its student's own review (once computed) and its offer."""
        reviewed = self._panels.get(game)
        seat = game[1]
        entry = self.record.entry(*game)
        if reviewed is None and entry is not None and entry.adjusted is not None and game not in self._asked:
            self._asked.add(game)  # reviewed before a restart: the student's review is made again
            self._jobs.submit(partial(seat_review, seed=self._review_seed(entry.source)),
                              (self.record_replay(entry.game).to_dict(), seat, self.record.worlds),
                              lambda result: self._reviewed(entry, result))
        offer = {"seats": [seat] if reviewed is not None else [], "worlds": self.record.worlds,
                 "reason": None if reviewed is not None else "Your review is being computed: it opens in a moment"}
        return {**frame, "offers": {**frame.get("offers", {}), "review": offer},
                "class_review": review_state(reviewed, self.record.worlds) if reviewed is not None else None}

    # ---- receiving ----------------------------------------------------------------------------

    def _cursors(self) -> dict[str, int]:
        with self._lock:
            return {f"out.{m.index}": m.last_in for m in self._members.values()}

    def warn(self, text: str) -> None:
        """A line in the room's log, and a warning in the "needle_widget.classroom" logger."""
        self._note(text)

    def _note(self, text: str) -> None:
        stamp = datetime.datetime.now().strftime("%H:%M:%S")
        self.log.append(f"{stamp} {text}")
        log.warning("class %s: %s", self.name, text)

    def _handle(self, messages: list[Message]) -> None:
        """Take one read's messages: each opened, checked and answered in order, and each student answered
        at most once for the whole read (their screen, with the last request's note), however many they sent.
        A message that opens and does not read, or whose request fails, is consumed: the cursor moves past it.
        """
        done: dict[str, int] = {}
        replies: dict[int, str | None] = {}
        finished = False
        with self._lock:
            for box, seq, data in sorted(messages, key=lambda m: m[1]):
                side, index = box_parts(box)
                member = self._members.get(index)
                if side != "out" or member is None:
                    continue
                if (box, seq) in self._discarding:
                    continue
                if seq <= member.last_in:
                    self._note(f"ignored message {seq} from {box}: an old number (sent again?)")
                    continue
                try:
                    sealed, message = unseal(member.key, self.name, box, data, limit=MAX_REQUEST)
                    if sealed != seq:  # an old message posted again under a new number
                        raise ClassError(f"A message in {box} is numbered {seq} and sealed as {sealed}")
                except UnreadableMessage as bad:  # sealed by the student: consumed, never read again
                    message = None
                    self._note(f"ignored a message in {box}: {bad}")
                except ClassError as bad:  # the cursor stays: a file with a high number dropped in a
                    self._note(f"ignored a message in {box}: {bad}")  # shared out-box must not hide
                    self._discarding.add((box, seq))  # the student's next messages

                    def discard(box: str = box, seq: int = seq) -> None:
                        self._discard(box, seq)

                    self.link.do(f"discarding message {seq} of {box}", discard)
                    continue
                done[box] = max(done.get(box, 0), seq)
                member.last_in = seq
                self._dirty = True
                if message is None:
                    continue
                if not isinstance(message, dict) or not isinstance(message.get("t"), str):
                    self._note(f"ignored a message in {box}: not a request")
                    continue
                finished = self._answer(member, message, replies) or finished
            for index, note in replies.items():
                self._reply(self._members[index], note)
            if finished:
                self._collect()
            changed = self._dirty
        if not changed:  # nothing taken (every message ignored): nothing to save or show
            return
        self._save()
        for box, upto in done.items():
            self.link.drop(box, upto)
        self._notify()

    def _discard(self, box: str, seq: int) -> None:
        self.channel.discard(box, seq)
        self._discarding.discard((box, seq))

    def _answer(self, member: Member, message: dict[str, Any], replies: dict[int, str | None]) -> bool:
        """Answer one request of `member`'s: whose screens it changed go into `replies` (index: the note for
        their follow bar), sent once the whole read is answered; True if it finished a game.
        """
        kind = message["t"]
        if kind == "hello":
            member.joined = True
            self._resend(member, at=member.resent + RESEND_GAP)
            return False
        activity = self.activity
        handler = activity.requests().get(kind) if activity is not None else None
        if handler is None:
            owner = owner_of(kind, message)
            if owner is None:
                self._note(f"ignored a message from {member.name}: unknown request {quote(kind)}")
            else:
                replies[member.index] = owner.absent
            return False
        try:
            handled = handler.call(activity, message, member)
        except NeedleError as refused:
            replies[member.index] = _short(str(refused))
            return False
        except Exception as failure:  # a handler's bug must not stop the room: the request is refused, logged once
            self._note(f"a request {quote(kind)} from {member.name} failed: {type(failure).__name__}: "
                       f"{quote(str(failure))}")
            replies[member.index] = f"The room could not take that request ({quote(kind)})"
            return False
        if not isinstance(handled, Handled):
            raise TypeError(f"{type(activity).__name__}.{handler.method} returned {handled!r}, not Handled")
        replies[member.index] = handled.note
        for index in handled.also:
            other = self._members.get(index)
            if other is not None and other.joined:
                replies.setdefault(index, None)
        return handled.finished

    # ---- the record ---------------------------------------------------------------------------

    def _collect(self) -> None:
        """Record the activities' finished games not yet recorded, and queue their reviews (the lock is held)."""
        added: list[Entry] = []
        for activity in self._latest.values():
            for outcome in activity.outcomes(self.record.games):
                added += self.record.add(outcome)
                number = self.record.games[outcome.source]
                data = seal(self._key, self.name, f"game-{number}", 1, outcome.replay.to_dict())

                def save(n: int = number, d: bytes = data) -> None:
                    self.channel.save(f"game-{n}", d)

                self.link.do(f"saving game {number}", save, key=f"game-{number}")
        if added:
            self._save_record()
        for entry in added:
            self._review_entry(entry, self.record_replay(entry.game).to_dict())

    def record_replay(self, game: int) -> Replay:
        """The replay of the record's game number `game` (from its activity, or as saved)."""
        source = next((s for s, n in self.record.games.items() if n == game), None)
        if source is None:
            raise ClassError(f"The record has no game {quote(game)}: it has games 1 to {len(self.record)}")
        for activity in self._latest.values():
            for outcome in activity.outcomes(set(self.record.games) - {source}):
                if outcome.source == source:
                    return outcome.replay
        data = self.channel.load(f"game-{game}")
        if data is None:
            raise ClassError(f"Game {game} of the record is not in the channel")
        return Replay.from_dict(unseal(self._key, self.name, f"game-{game}", data)[1])

    def _save_record(self) -> None:
        data = seal(self._key, self.name, "record", 1, self.record.to_dict())
        self.link.do("saving the record", lambda: self.channel.save("record", data), key="record")

    def _review_entry(self, entry: Entry, replay: dict[str, Any]) -> None:
        """Queue the figures of `entry` and then its student's review of the game."""
        worlds, seed = self.record.worlds, self._review_seed(entry.source)

        def figured(result: tuple[tuple[float, float, float], dict[int, Valuation]] | None) -> None:
            known = None
            with self._lock:
                if result is None:
                    entry.failed = True
                else:
                    (entry.adjusted, entry.skill, entry.luck), known = result
                self._save_record()
            self._jobs.submit(partial(seat_review, known=known, seed=seed), (replay, entry.seat, worlds),
                              lambda result: self._reviewed(entry, result))

        self._jobs.submit(partial(seat_ledger, seed=seed), (replay, entry.seat, worlds), figured)

    def _review_seed(self, source: str) -> int:
        """The seed of the worlds that value game `source`'s decisions in the record: from the room's secret, so
        no student's kernel can draw them and learn before moving which move the record will value highest.
        """
        return seed_of(self._secret, "review", source)

    def _reviewed(self, entry: Entry, result: dict[str, Any] | None) -> None:
        """A student's review of their game is ready: kept, and sent if their screen shows that game."""
        if result is None:
            return
        with self._lock:
            self._panels[(entry.source, entry.seat)] = result
            while len(self._panels) > MAX_PANELS:
                self._panels.popitem(last=False)
            member = self._members.get(entry.student)
            if member is not None and member.joined and self.activity is not None \
                    and self.activity.shown_game(member.index) == (entry.source, entry.seat):
                self._send(member)

    def wait_for_reviews(self, timeout: float = 60.0) -> bool:
        """Wait (at most `timeout` seconds) until the finished games' reviews queued so far are done; True if
        they are.
        """
        return self._jobs.wait(timeout)

    def _status(self, connected: bool, why: str | None) -> None:
        if not connected:
            self._note(why or "the channel does not answer")
        else:
            self._note("the channel answers again: the students' users and screens are sent again")
            with self._lock:
                for member in self._members.values():
                    user, password = redis_user(self.name, member.index, sign(self._secret, self.name, member.index))

                    def grant(i: int = member.index, u: str = user, p: str = password) -> None:
                        self.channel.grant(i, u, p)

                    self.link.do(f"the user of student {member.index}", grant)
                for member in self._members.values():
                    if member.joined:
                        self._resend(member)
            self._save()
        self._notify()

    # ---- keeping the room ---------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The room's record, as saved (JSON-ready; it holds the deal's seed: it is saved sealed)."""
        with self._lock:
            state = {"format": "needle-room-1", "room": self.name, "seq": self._seq, "showing": self.showing,
                     "members": [m.to_dict() for m in self._members.values()],
                     "earlier": [a.to_dict() for a in self._earlier]}
            for cls in ACTIVITIES:
                state[cls.kind] = None
            for kind, latest in self._latest.items():
                state[kind] = latest.to_dict()
            return state

    def _save(self) -> None:
        with self._lock:
            data = seal(self._key, self.name, "state", 1, self.state())
            self._dirty = False
        self.link.do("saving the room's state", lambda: self.channel.save("state", data), key="state")

    def restore(self, data: dict[str, Any]) -> None:
        """Take up a saved record (`state`): reopening a room after the teacher's kernel restarted."""
        with self._lock:
            self._seq = data["seq"]
            for m in data["members"]:
                member = self._member(m["index"], m["name"], m["seat"])
                member.joined, member.last_in = m["joined"], m["last_in"]
                self._members[member.index] = member
            self._earlier = [Answer.from_dict(a) for a in data["earlier"]]
            for cls in ACTIVITIES:
                if data.get(cls.kind):
                    self._latest[cls.kind] = cls.load(self, data[cls.kind])
            self.activity = self._latest.get(data["showing"])
            record = self.channel.load("record")
            if record is not None:
                self.record = Record.from_dict(unseal(self._key, self.name, "record", record)[1])
            for entry in self.record.pending():
                self._review_entry(entry, self.record_replay(entry.game).to_dict())
            self._collect()
            self._send_all()

    def load_state(self) -> dict[str, Any] | None:
        """The saved record, or None for a new room."""
        data = self.channel.load("state")
        if data is None:
            return None
        _, state = unseal(self._key, self.name, "state", data)
        return state

    def pump(self, timeout: float = 0.0) -> None:
        """One round by hand (without `start`): post what is queued, read and handle what came."""
        self.link.pump(timeout)

    def tick(self, now: float | None = None) -> None:
        """The activity's clock, once (`Activity.tick` at `now`, by default `time.monotonic()`; the room's workers
        tick every TICK seconds): the screens it changed are sent, the room saved.
        """
        with self._lock:
            activity = self.activity
            now = time.monotonic() if now is None else now
            changed = activity.tick(now) if activity is not None else ()
            self._send_to(changed)
            if changed:
                self._collect()
        if changed:
            self._save()
            self._notify()

    def start(self) -> None:
        """Start the room's workers (post and read in the background, and the activity's clock)."""
        self.link.start()
        if self._ticker is None:
            self._ticking.clear()
            self._ticker = threading.Thread(target=self._ticks, name=f"needle-class-{self.name}-tick", daemon=True)
            self._ticker.start()

    def _ticks(self) -> None:
        while not self._ticking.wait(TICK):
            try:
                self.tick()
            except Exception:  # a bug in an activity's clock must not end the class: logged, the clock goes on
                log.exception("class %s: the activity's clock failed", self.name)

    def close(self) -> None:
        """Stop the workers after posting what is queued; the room stays in the channel to reopen."""
        self._ticking.set()
        if self._ticker is not None and self._ticker is not threading.current_thread():
            self._ticker.join(timeout=5)
        self._ticker = None
        self.link.close()
        self._jobs.close()

    def __enter__(self) -> Room:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BOARD_REQUESTS = requests_of(Room)
"""The board's requests, by kind: the room's methods marked with `@request`."""


class _Outgoing:
    """Messages on their way to a student's in-box: sealed (frames packed) by the sender, outside the
    room's lock; `take()` gives them numbered. Kept for a retry: a channel down resumes where it stopped.
    """

    def __init__(self, room: Room, member: Member, take: Callable[[], list[tuple[int, dict[str, Any]]]]) -> None:
        self._room, self._member, self._take = room, member, take
        self._sealed: list[tuple[int, bytes]] | None = None
        self._done = 0

    def __call__(self) -> None:
        if self._sealed is None:
            self._sealed = [(seq, self._room._seal(self._member, seq, m)) for seq, m in self._take()]
        box = f"in.{self._member.index}"
        while self._done < len(self._sealed):
            seq, data = self._sealed[self._done]
            self._room.channel.post(box, seq, data)
            self._done += 1


def _short(note: str) -> str:
    """A refusal's words for the student's follow bar, at most MAX_NOTE characters (a refusal may quote the request)."""
    return note if len(note) <= MAX_NOTE else note[:MAX_NOTE - 1] + "…"


def new_secret() -> bytes:
    """32 random bytes: a new room's secret."""
    return secrets.token_bytes(32)


def encode_secret(secret: bytes) -> bytes:
    return json.dumps({"format": "needle-room-secret-1", "secret": secret.hex()}).encode()


def decode_secret(data: bytes) -> bytes:
    try:
        return bytes.fromhex(json.loads(data)["secret"])
    except (ValueError, KeyError, TypeError):
        raise ClassError("The room's secret is damaged: make a new room (another folder or room name)") from None
