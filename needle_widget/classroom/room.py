"""The teacher's room: the roster and tickets, the lesson or challenge on every student's screen, the
answers and games that come back, and the board's state. Kept in the channel, sealed, so a teacher
whose kernel restarts reopens it (`classroom.open` with the same address).

The room holds its parts and the lock they share: the roster and the tickets (`roster`), what goes out to
each student, built from their own seat's frames and quiz state and sealed with their key (`outbox`), what
comes back from them (`inbox`), the class's record and its reviews (`recorder`), and its documents kept in the
channel (`keeper`). Messages that do not open with a student's key, or come again with an old number, are
ignored with a log line ("needle_widget.classroom" logger, and `Room.log`).
"""

from __future__ import annotations

import collections
import datetime
import logging
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..engine.errors import quote
from ..engine.game import Game
from ..records.replay import Replay
from ..teaching.answers import Answer, save_answers
from .activities import ACTIVITIES
from .activity import FRAMES_PER_MESSAGE, Activity, request, requests_of
from .address import Address
from .board import board_state
from .challenge import Challenge
from .channel import Channel, Message
from .errors import ClassError
from .inbox import Inbox
from .keeper import Keeper, decode_secret, encode_secret, new_secret
from .lesson import Lesson
from .link import Link
from .listeners import Listeners
from .match import Match
from .notebooks import write_student
from .outbox import RESEND_GAP, Outbox
from .record import Record
from .recorder import Recorder
from .roster import KEEP_IN_BOX, Member, Roster, checked_seat
from .seal import derive
from .ticker import Ticker
from .tickets import Ticket

__all__ = ["BOARD_REQUESTS", "Room", "Member", "FRAMES_PER_MESSAGE", "KEEP_IN_BOX", "RESEND_GAP", "decode_secret",
           "encode_secret", "new_secret"]

log = logging.getLogger("needle_widget.classroom")
TICK = 1.0
"""Seconds between two ticks of the activity's clock while the room's workers run (`Room.tick`)."""
MAX_LOG = 200
"""Lines kept in `Room.log`."""


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
        self._lock = threading.RLock()
        self._roster = Roster(self.name, secret)
        self.activity: Activity | None = None
        """The activity on the students' screens, or None (they wait for the teacher)."""
        self._latest: dict[str, Activity] = {}
        self._earlier: list[Answer] = []
        self._listeners = Listeners("a board")
        self.log: collections.deque[str] = collections.deque(maxlen=MAX_LOG)
        """The room's recent log lines (ignored messages, a channel down), newest last."""
        self._keeper = Keeper(self, derive(secret, "teacher", self.name))
        self._recorder = Recorder(self._lock, self._keeper, secret, lambda: self._latest.values(), reviews=reviews,
                                  worlds=worlds, ended=self._notify, ready=lambda entry: self._outbox.reviewed(entry))
        self._outbox = Outbox(self, self._roster, self._lock, self._recorder, clock)
        self._inbox = Inbox(self, self._roster, self._lock, self._outbox)
        self.link = Link(channel, self._inbox.cursors, self._handle, self._status, f"room {self.name}")
        self._ticker: Ticker | None = None

    def __repr__(self) -> str:
        joined = sum(m.joined for m in self._roster)
        return (f"Room({self.address.public!r}, students={len(self._roster)}, joined={joined}, "
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
    def patches(self) -> bool:
        """Frames go to the students as patches of the frame sent before (the default, `outbox`); False: whole
        frames, as before patches (a measure's baseline).
        """
        return self._outbox.patches

    @patches.setter
    def patches(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise ClassError(f"patches must be True or False, not {quote(value)}")
        self._outbox.patches = value

    @property
    def url(self) -> str:
        """The address to give the students (no teacher's credentials in it)."""
        return self.address.public

    @property
    def record(self) -> Record:
        """The class's record over the term (`classroom.record`): every finished game of a challenge or a match,
        reviewed in the background (`recorder`).
        """
        return self._recorder.record

    # ---- roster -------------------------------------------------------------------------------

    def invite(self, name: str, seat: int | str | None = None, *, notebook: Any = None) -> Ticket:
        """Student `name`'s ticket (the same ticket if `name` was invited before). `seat` (0 or 1, or as a
        person names it: "p1", "Player 2") is the seat they are shown when a lesson shows each student
        their own; by default seats alternate. `notebook` (a folder, or a path ending in .ipynb) also writes
        the student's ready notebook there, their ticket filled in, readable by its owner only
        (`classroom.notebooks`): hand it to the student.
        """
        assigned = checked_seat(name, seat)
        with self._lock:
            member = self._roster.named(name)
            if member is not None:
                return self._roster.ticket(member)
            member = self._roster.new(name, assigned)
            self.channel.grant(member.index, *self._roster.user(member.index))
            self._roster.add(member)
        self._save()
        self._notify()
        ticket = self._roster.ticket(member)
        if notebook is not None:
            write_student(notebook, self.url, ticket)
        return ticket

    @property
    def tickets(self) -> list[Ticket]:
        """Every student's ticket, in the order invited."""
        with self._lock:
            return [self._roster.ticket(m) for m in self._roster]

    def members(self) -> list[Member]:
        """The invited students (copies of the room's records)."""
        with self._lock:
            return [Member(**{**m.__dict__}) for m in self._roster]

    def assigned_seat(self, index: int) -> int:
        """The seat student `index` was given at `invite`."""
        return self._roster[index].seat

    def student_name(self, index: int) -> str:
        """Student `index`'s name."""
        return self._roster[index].name

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
            self._outbox.send_all()
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
            self._outbox.send_all()
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
            self._outbox.send_all()
        self._save()
        self._notify()
        return activity

    def match(self, deals: int = 2, seed: int | None = None, opponent: str = "greedy", *,
              replace_after: float | None = 120.0) -> Match:
        """The students play each other (`classroom.match`): seated two a table in the order invited (a bot
        `opponent` takes an odd seat; each seat named for who holds it), every table playing the same `deals`,
        each twice with the seats swapped. The room holds the deals and the games; each student's screen shows
        their own seat. A student whose move has waited `replace_after` seconds (None: never) has a bot stand in
        for the rest of that deal, marked in the table's results; they play again from the next deal.
        """
        with self._lock:
            latest = self._latest.get(Match.kind)
            match = Match([m.index for m in self._roster], deals, seed, opponent,
                          ident=latest.id + 1 if latest is not None else 1, replace_after=replace_after,
                          names={m.index: m.name for m in self._roster})
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
            self._outbox.send_to(changed)
        if changed:
            self._recorder.collect()

    def change_lesson(self, lesson: Lesson, change: Callable[[], None]) -> None:
        """Make `change` to `lesson` (the room's current one) under the room's lock, then send every joined
        student what changed, save the room and tell the board (`Lesson.go`, `ask` and `reveal` call this).
        """
        with self._lock:
            if lesson is not self.lesson:
                raise ClassError("This lesson is over: the room leads a newer one")
            change()
            self._show(lesson)
            self._outbox.send_all()
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
            self._outbox.send_all()
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
            member = self._roster.named(name)
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
        from ..jupyter import classscreens  # the adapter, imported only when a widget is asked for

        if round is None:
            self.table_replay(table)  # a bad table number fails here
            return classscreens.table(self, table, **kwargs)
        return classscreens.replay(self.table_replay(table, round), **kwargs)

    def open_replay(self, name: str, **kwargs: Any) -> Any:
        """A teacher's widget of student `name`'s challenge game."""
        from ..jupyter.classscreens import replay  # the adapter, imported only when a widget is asked for

        return replay(self.replay_of(name), **kwargs)

    # ---- the board ----------------------------------------------------------------------------

    def board(self, view: str = "teacher") -> Any:
        """The teacher's live board (a widget): who joined and answered, the answers' distribution, the
        class's calibration, Reveal, the challenge's ranking. `view="projector"`: counts, no names.
        """
        from ..jupyter.classscreens import board  # the adapter, imported only when a widget is asked for

        return board(self, view=view)

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

    # ---- the record -------------------------------------------------------------------------------

    def record_replay(self, game: int) -> Replay:
        """The replay of the record's game number `game` (from its activity, or as saved)."""
        return self._recorder.replay(game)

    def wait_for_reviews(self, timeout: float = 60.0) -> bool:
        """Wait (at most `timeout` seconds) until the finished games' reviews queued so far are done; True if
        they are.
        """
        return self._recorder.wait(timeout)

    # ---- what comes back, and the channel -------------------------------------------------------

    def warn(self, text: str) -> None:
        """A line in the room's log, and a warning in the "needle_widget.classroom" logger."""
        stamp = datetime.datetime.now().strftime("%H:%M:%S")
        self.log.append(f"{stamp} {text}")
        log.warning("class %s: %s", self.name, text)

    def _handle(self, messages: list[Message]) -> None:
        """Take one read's messages (`Inbox.take`); the room is saved and the boards told if any was taken."""
        with self._lock:
            done, finished = self._inbox.take(messages)
            if finished:
                self._recorder.collect()
        if not done:  # nothing taken (every message ignored): nothing to save or show
            return
        self._save()
        for box, upto in done.items():
            self.link.drop(box, upto)
        self._notify()

    def _status(self, connected: bool, why: str | None) -> None:
        if not connected:
            self.warn(why or "the channel does not answer")
        else:
            self.warn("the channel answers again: the students' users and screens are sent again")
            with self._lock:
                for member in self._roster:
                    user, password = self._roster.user(member.index)

                    def grant(i: int = member.index, u: str = user, p: str = password) -> None:
                        self.channel.grant(i, u, p)

                    self.link.do(f"the user of student {member.index}", grant)
                for member in self._roster:
                    if member.joined:
                        self._outbox.resend(member)
            self._save()
        self._notify()

    # ---- keeping the room ---------------------------------------------------------------------

    def state(self) -> dict[str, Any]:
        """The room's record, as saved (JSON-ready; it holds the deal's seed: it is saved sealed)."""
        with self._lock:
            state = {"format": "needle-room-1", "room": self.name, "seq": self._outbox.seq, "showing": self.showing,
                     "members": [m.to_dict() for m in self._roster],
                     "earlier": [a.to_dict() for a in self._earlier]}
            for cls in ACTIVITIES:
                state[cls.kind] = None
            for kind, latest in self._latest.items():
                state[kind] = latest.to_dict()
            return state

    def _save(self) -> None:
        with self._lock:
            self._keeper.save("state", self.state(), "saving the room's state")

    def restore(self, data: dict[str, Any]) -> None:
        """Take up a saved record (`state`): reopening a room after the teacher's kernel restarted."""
        with self._lock:
            self._outbox.seq = data["seq"]
            for member in data["members"]:
                self._roster.take_up(member)
            self._earlier = [Answer.from_dict(a) for a in data["earlier"]]
            for cls in ACTIVITIES:
                if data.get(cls.kind):
                    self._latest[cls.kind] = cls.load(self, data[cls.kind])
            self.activity = self._latest.get(data["showing"])
            self._recorder.take_up()
            self._recorder.collect()
            self._outbox.send_all()

    def load_state(self) -> dict[str, Any] | None:
        """The saved record, or None for a new room."""
        state: dict[str, Any] | None = self._keeper.load("state")
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
            self._outbox.send_to(changed)
            if changed:
                self._recorder.collect()
        if changed:
            self._save()
            self._notify()

    def start(self) -> None:
        """Start the room's workers (post and read in the background, and the activity's clock)."""
        self.link.start()
        if self._ticker is None:
            self._ticker = Ticker(lambda: self.tick(), TICK, f"needle-class-{self.name}-tick",
                                  f"class {self.name}: the activity's clock")
            self._ticker.start()

    def close(self) -> None:
        """Tell the students' screens that the room closes, stop the workers after posting what is queued; the room
        stays in the channel to reopen.
        """
        with self._lock:
            self._outbox.closing()
        if self._ticker is not None:
            self._ticker.stop()
        self._ticker = None
        self.link.close()
        self._recorder.close()

    def __enter__(self) -> Room:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


BOARD_REQUESTS = requests_of(Room)
"""The board's requests, by kind: the room's methods marked with `@request`."""

