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
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any

from ..engine.errors import quote
from ..engine.game import Game
from ..records.replay import Replay
from ..teaching.answers import Answer, save_answers
from . import gradebook
from .activities import ACTIVITIES
from .activity import FRAMES_PER_MESSAGE, Activity, request, requests_of
from .address import Address
from .board import board_state
from .challenge import Challenge
from .channel import Channel, Message
from .errors import ClassError
from .homework import Homework
from .inbox import Inbox
from .keeper import Keeper, decode_secret, encode_secret, new_secret
from .lesson import Lesson
from .link import Link
from .listeners import Listeners
from .match import Match
from .notebooks import write_student
from .outbox import RESEND_GAP, Outbox
from .presence import PRESENCE_TIMEOUT, is_online
from .record import Record, review_exercises
from .recorder import Recorder
from .roster import KEEP_IN_BOX, Member, Roster, checked_name, checked_seat
from .seal import derive
from .ticker import Ticker
from .tickets import Ticket, invitation

__all__ = ["BOARD_REQUESTS", "Room", "Member", "FRAMES_PER_MESSAGE", "KEEP_IN_BOX", "RESEND_GAP", "decode_secret",
           "encode_secret", "new_secret"]

log = logging.getLogger("needle_widget.classroom")
TICK = 1.0
"""Seconds between two ticks of the activity's clock while the room's workers run (`Room.tick`)."""
MAX_LOG = 200
"""Lines kept in `Room.log`."""
HOLD_EVERY = 10.0
"""Seconds between two of a running room's notes in the channel that its kernel holds it (`Room.holder`)."""
HOLD_FRESH = 3 * HOLD_EVERY
"""A note that another kernel holds the room younger than this (seconds) makes a warning (`classroom.open`)."""


class Room:
    """A class room (made or reopened by `classroom.open`): see the module docstring.

    `invite(name)` gives a ticket; `lead(replay)` starts a lesson, `challenge()` a challenge; `board()`
    is the teacher's live board; `answers` the records of the revealed questions. The room's workers
    (`start`, on by default) post and read in the background; `pump()` does one round by hand.
    """

    def __init__(self, address: Address, channel: Channel, secret: bytes, *,
                 clock: Callable[[], int] | None = None, reviews: Executor | None = None,
                 worlds: int | None = None, read_only: bool = False) -> None:
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
        self.read_only = read_only
        """Opened only to read (`classroom.open(read_only=True)`): nothing it does reaches the channel."""
        self._online: frozenset[int] = frozenset()
        self._lesson_at: dict[str, int] = {}
        """Each activity shown ("match 2"), with the lesson that was the room's latest then (`lesson_of`)."""
        self._ended: str | None = None
        """What the idle screens say after `end` (None: waiting for the teacher)."""
        self.homeworks: list[Homework] = []
        """The homework given (`assign_practice`), oldest first: the students have the latest on their screens."""
        self._token = secrets.token_hex(8)
        self._held_at = -HOLD_EVERY
        self._other: str | None = None

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
        self._ended = None
        if not isinstance(activity, Lesson):
            self._lesson_at.setdefault(f"{activity.kind} {activity.id}", self.lesson.id if self.lesson else 0)

    def lesson_of(self, source: str) -> int | None:
        """The number of the lesson that was the room's latest when the activity of a record's game (its `source`,
        "match 2/table 1/deal 1") was shown: 0 before any lesson, None for an activity the room does not know.
        """
        return self._lesson_at.get(str(source).split("/", 1)[0])

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

    def online(self, now: float | None = None) -> list[str]:
        """The names of the students online (`presence`: their kernel spoke within PRESENCE_TIMEOUT seconds of
        `now`, by default `time.monotonic()`), in the order invited.
        """
        now = time.monotonic() if now is None else now
        with self._lock:
            return [m.name for m in self._roster.active() if is_online(m, now)]

    def _presence_changed(self) -> bool:
        """Whether who is online changed since the last look (the lock is held)."""
        now = time.monotonic()
        online = frozenset(m.index for m in self._roster.active() if is_online(m, now))
        changed, self._online = online != self._online, online
        return changed

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

    def remove(self, name: str) -> None:
        """Take student `name` off the roster: their ticket stops working (the room ignores their kernel, and tells
        it so; on Redis their user is deleted), they leave the board and the standings; their games stay in the
        record. Inviting the name again gives a new ticket. ClassError if nobody is called `name`.
        """
        with self._lock:
            member = self._member_named(name)
            member.removed, member.joined = True, False
            user, _ = self._roster.user(member.index)
            self._outbox.removed(member, now=True)
            self.link.do(f"deleting the user of student {member.index}",
                         lambda: self.channel.revoke(member.index, user))
        self._save()
        self._notify()

    def rename(self, name: str, new: str) -> None:
        """Call student `name` `new` from now on: on the board, at their table, in the record and on their own
        screen (their ticket stays the same). ClassError if nobody is called `name`, or somebody is called `new`.
        """
        checked_name(new)
        with self._lock:
            member = self._member_named(name)
            if new != name and self._roster.named(new) is not None:
                raise ClassError(f"A student is called {quote(new)} already")
            member.name = new
            for activity in self._latest.values():
                names = getattr(activity, "names", None)
                if isinstance(names, dict) and member.index in names:
                    names[member.index] = new
            self._outbox.send_to([member.index])
        self._save()
        self._notify()

    def _member_named(self, name: str) -> Member:
        member = self._roster.named(name)
        if member is None:
            names = ", ".join(m.name for m in self._roster.active()) or "nobody yet"
            raise ClassError(f"No student on the roster is called {quote(name)} (the roster: {names})")
        return member

    def invitation(self, name: str) -> str:
        """The one string student `name` joins with (`classroom.join(invitation)`, `NeedleWidget.join(invitation)`):
        the room's address and their ticket, "ADDRESS#TICKET". ClassError if nobody on the roster is called `name`.
        """
        with self._lock:
            return invitation(self.url, self._roster.ticket(self._member_named(name)))

    @property
    def tickets(self) -> list[Ticket]:
        """Every student's ticket, in the order invited (a removed student's is gone)."""
        with self._lock:
            return [self._roster.ticket(m) for m in self._roster.active()]

    def members(self, *, removed: bool = False) -> list[Member]:
        """The students on the roster, in the order invited (copies of the room's records); `removed=True`: those
        taken off it too (their games stay in the record), each with `removed` set.
        """
        with self._lock:
            return [Member(**{**m.__dict__}) for m in (self._roster if removed else self._roster.active())]

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
              players: list[str] | None = None, replace_after: float | None = 120.0) -> Match:
        """The students play each other (`classroom.match`): `players` (their names, in the order to seat them;
        by default the students online now, `online()`, in the order invited) seated two a table (a bot
        `opponent` takes an odd seat; each seat named for who holds it), every table playing the same `deals`,
        each twice with the seats swapped. The room holds the deals and the games; each student's screen shows
        their own seat. A student who joins late takes the bot's seat if there is one (`Match.arrive`), else
        waits for the next match. A student whose move has waited `replace_after` seconds (None: never) has a bot
        stand in for the rest of that deal, marked in the table's results; they play again from the next deal.
        """
        with self._lock:
            seated = self._seating(players)
            latest = self._latest.get(Match.kind)
            match = Match([m.index for m in seated], deals, seed, opponent,
                          ident=latest.id + 1 if latest is not None else 1, replace_after=replace_after,
                          names={m.index: m.name for m in seated})
            if isinstance(latest, Match):
                self._end(latest)
        return self.show(match)  # type: ignore[return-value]

    def _seating(self, players: Any) -> list[Member]:
        """The members `match(players=...)` seats, in order (the lock is held)."""
        if players is None:
            now = time.monotonic()
            seated = [m for m in self._roster.active() if is_online(m, now)]
            if not seated:
                raise ClassError(f"Nobody is online to play (a student is online while their kernel has spoken "
                                 f"within {PRESENCE_TIMEOUT:g} s): name the players, players=[...]")
            return seated
        if isinstance(players, (str, bytes)) or not isinstance(players, (list, tuple)) or not players:
            raise ClassError(f"players is a list of the students' names, not {quote(players)}")
        seated = []
        for name in players:
            name = getattr(name, "name", name)  # a Ticket names its student
            member = self._member_named(name) if isinstance(name, str) else None
            if member is None:
                raise ClassError(f"players is a list of the students' names, and {quote(name)} is not one")
            if member in seated:
                raise ClassError(f"{quote(name)} is named twice in players")
            seated.append(member)
        return seated

    def end(self, text: str = "The lesson is over") -> None:
        """End what the students' screens show (a lesson, a challenge, a match: `end_match` first): their screens
        say `text` in place of the activity, within a second or two, until the teacher starts something new.
        """
        given: object = text
        if not isinstance(given, str) or not 1 <= len(text) <= 200:
            raise ClassError(f"The words for the end are 1 to 200 characters, not {quote(text)}")
        with self._lock:
            latest = self._latest.get(Match.kind)
            if isinstance(latest, Match) and self.activity is latest:
                self._end(latest)
            self.activity, self._ended = None, text
            self._outbox.send_all()
        self._save()
        self._notify()

    @property
    def ended(self) -> str | None:
        """What the students' idle screens say after `end` (None: they wait for the teacher)."""
        return self._ended

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

    def export_games(self, path: Any) -> int:
        """The record as a CSV file of one row a finished game, each seat's student, result and figures
        (`gradebook.games_csv`): the games written.
        """
        with self._lock:
            return gradebook.games_csv(self, path)

    def export_gradebook(self, path: Any, logins: Any = None) -> int:
        """A gradebook of one row a student, one column an assignment, as Canvas and Moodle import it
        (`gradebook.gradebook_csv`; `logins`: each name's login, for Moodle): the students written.
        """
        with self._lock:
            return gradebook.gradebook_csv(self, path, logins)

    def lessons(self) -> list[dict[str, Any]]:
        """The term lesson by lesson: each lesson's questions and answers, and the games played while it was the
        latest (`gradebook.lessons_view`).
        """
        with self._lock:
            return gradebook.lessons_view(self)

    def history(self, name: str) -> dict[str, Any]:
        """Student `name`'s term: their games (with the record's figures), answers and homework
        (`gradebook.history`).
        """
        with self._lock:
            return gradebook.history(self, name)

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

    # ---- homework ---------------------------------------------------------------------------------

    def assign_practice(self, activities: Any = None, *, title: str | None = None,
                        timeout: float = 120.0) -> Homework:
        """Give each student on the roster the exercises of their own games (`classroom.homework`): the marked
        decisions of their finished games in `activities` (an activity, its name as the record gives it, "match 2",
        or a list of them; by default the activity of the record's latest game), from each game's review from
        their own seat. Each student's screen offers it (and its progress) until the next homework; the board shows
        who has done how many. Waits (at most `timeout` seconds) for the reviews still under way; a game whose
        review is not ready then gives no exercise. ClassError if those activities have no finished game.
        """
        with self._lock:
            sources = self._homework_sources(activities)
            active = {m.index for m in self._roster.active()}
            wanted = [(e.source, e.seat, e.student) for e in self.record.entries
                      if e.source.split("/", 1)[0] in sources and e.student in active]
            if not wanted:
                raise ClassError(f"No finished game of {', '.join(sources)} is in the record yet")
            for source, seat, _ in wanted:
                self._recorder.review_of((source, seat))
        self._recorder.wait(timeout)
        with self._lock:
            games: dict[int, list[list[dict[str, Any]]]] = {}
            for source, seat, student in wanted:
                reviewed = self._recorder.review_of((source, seat))
                games.setdefault(student, []).append(review_exercises(reviewed) if reviewed is not None else [])
            named = title if title is not None else f"Practise the mistakes of your games ({', '.join(sources)})"
            homework = Homework.of(len(self.homeworks) + 1, named, sources, games)
            self.homeworks.append(homework)
            for member in self._roster.active():
                if member.joined:
                    self._outbox.homework(member)
                    self._outbox.history(member)
        self._save()
        self._notify()
        return homework

    def _homework_sources(self, activities: Any) -> tuple[str, ...]:
        """The activity names `assign_practice(activities)` takes (the lock is held)."""
        if activities is None:
            if not self.record.entries:
                raise ClassError("No finished game is in the record yet: nothing to practise")
            return (self.record.entries[-1].source.split("/", 1)[0],)
        named = activities if isinstance(activities, (list, tuple)) else [activities]
        sources = []
        for item in named:
            name = f"{item.kind} {item.id}" if isinstance(item, Activity) else item
            if not isinstance(name, str) or name not in self._lesson_at:
                raise ClassError(f"assign_practice takes the room's activities (as the record names them: "
                                 f"{', '.join(self._lesson_at) or 'none yet'}), not {quote(item)}")
            sources.append(name)
        if not sources:
            raise ClassError("assign_practice needs at least one activity")
        return tuple(dict.fromkeys(sources))

    @property
    def homework(self) -> Homework | None:
        """The latest homework (on the students' screens), or None."""
        return self.homeworks[-1] if self.homeworks else None

    def homework_progress(self, homework: Homework | None = None) -> dict[str, tuple[int, int]]:
        """Each student on the roster given `homework` (by default the latest): (exercises done, exercises given)."""
        with self._lock:
            homework = homework or self.homework
            if homework is None:
                return {}
            return {m.name: (homework.count_done(m.index), homework.assigned(m.index))
                    for m in self._roster.active() if m.index in homework.exercises}

    def homework_report(self, member: Member, message: dict[str, Any]) -> bool:
        """A student's kernel reports exercises of homework `message["id"]` done (the lock is held); True if that is
        news. ClassError if it is not their homework's report.
        """
        homework = next((h for h in self.homeworks if h.id == message.get("id")), None)
        if homework is None or member.index not in homework.exercises:
            raise ClassError(f"There is no homework {quote(message.get('id'))} for you")
        return homework.report(member.index, message.get("done"))

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
            done, finished, changed = self._inbox.take(messages)
            if finished:
                self._recorder.collect()
            arrived = self._presence_changed()
        if changed:
            self._save()
        for box, upto in done.items():
            self.link.drop(box, upto)
        if changed or arrived:
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
                     "earlier": [a.to_dict() for a in self._earlier], "lesson_at": self._lesson_at,
                     "ended": self._ended, "homeworks": [h.to_dict() for h in self.homeworks]}
            for cls in ACTIVITIES:
                state[cls.kind] = None
            for kind, latest in self._latest.items():
                state[kind] = latest.to_dict()
            return state

    def _save(self) -> None:
        if self.read_only:
            return
        with self._lock:
            self._keeper.save("state", self.state(), "saving the room's state")

    def hold(self, now: float | None = None) -> None:
        """Note in the channel that this kernel holds the room (every HOLD_EVERY seconds while its workers run);
        a fresh note of another kernel's makes a warning (`warn`, once): two kernels would answer the same
        students, and each would overwrite the other's saved state.
        """
        if self.read_only:
            return
        wall = time.time() if now is None else now
        other = self.holder()
        if other is not None and other.get("token") != self._token and not other.get("released") \
                and wall - float(other.get("at", 0)) < HOLD_FRESH:
            where = f"{other.get('host', '?')}, process {other.get('pid', '?')}"
            if self._other != where:
                self.warn(f"another kernel holds this room too ({where}): two kernels would answer the same "
                          "students and overwrite each other's record. Close the other one (room.close()) and "
                          "reopen this one")
            self._other = where
        else:
            self._other = None
        self._keeper.save("holder", {"token": self._token, "host": socket.gethostname(), "pid": os.getpid(),
                                     "at": wall}, "noting that this kernel holds the room")

    def holder(self) -> dict[str, Any] | None:
        """The channel's note of the kernel that holds the room ({"host", "pid", "at": its wall-clock time, ...}),
        or None.
        """
        try:
            held = self._keeper.load("holder")
        except ClassError:
            return None
        return held if isinstance(held, dict) else None

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
            for member in self._roster.active():
                try:
                    member.backlog = self.channel.tail(f"out.{member.index}")
                except ClassError:  # a box never made, or out of reach: nothing posted before
                    member.backlog = 0
            self._lesson_at = {str(k): int(v) for k, v in (data.get("lesson_at") or {}).items()}
            self._ended = data.get("ended") if isinstance(data.get("ended"), str) else None
            self.homeworks = [Homework.from_dict(h) for h in data.get("homeworks") or []]
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
            arrived = self._presence_changed()
        if changed:
            self._save()
        if now - self._held_at >= HOLD_EVERY:
            self._held_at = now
            self.hold()
        if changed or arrived:
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
            if not self.read_only:
                self._outbox.closing()
                self._keeper.save("holder", {"token": self._token, "released": True, "at": time.time()},
                                  "noting that this kernel lets the room go")
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

