"""A student's end of a class: what their kernel receives, and the requests it sends.

The student's kernel holds only what the room sent it, sealed with the student's key: the frames of
its own seat at the steps the teacher showed (or of its own challenge game), the question asked of it
and, after the reveal, its own score. No replay, no seed, no other seat's state: not even the
student's own Python can read a hidden card. `state()` is what the widget shows (`FollowWidget`):
the frame of the step looked at (the teacher's, "live", unless the student stepped back), with the
`follow` bar and the `quiz_state`. While the teacher's question is open, the notes show their words
and not their own questions (`screen.quizmode.quiz_overlay`, the one place a quiz changes a screen).

A lesson also sends the variations the student's seat may open (`Lesson.screens`): each as the frames of its
steps. The screen lists them under their steps as the widget does (the `variations` trait, made here from
what was received), opens one and steps along it by the same requests ({"kind": "line", "variation", "to"},
{"kind": "step", "to"}), and follows the teacher into one the teacher shows.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from ..engine import actions as A
from ..engine.errors import NeedleError, quote
from ..screen.contract import empty_state
from ..screen.patches import VERSION as PATCHES
from ..screen.plugin import request as answers
from ..screen.plugin import requests_of
from ..screen.quizmode import answer_sent, quiz_overlay
from ..screen.stepping import held_refusal
from ..teaching.quiz import QuizQuestion, check_answer
from .address import Address
from .channel import Channel, Message
from .errors import ClassError, TicketError
from .history import History
from .link import Link
from .listeners import Listeners
from .ownpractice import OwnPractice, read_exercises
from .presence import HEARTBEAT
from .received import OutOfStep, Received
from .seal import MAX_REQUEST, next_seq, seal, unseal
from .ticker import Ticker
from .tickets import student_key

__all__ = ["Student", "IDLE", "OutOfStep", "STUDENT_REQUESTS"]

log = logging.getLogger("needle_widget.classroom")
RESYNC_AFTER = 5.0
"""Seconds after which a screen still waiting for the whole screen asks for it again (a resend lost too)."""
IDLE: dict[str, Any] = {
    **empty_state(), "mode": "replay", "perspective": 0, "perspectives": [0], "spoilers": False,
    "seats": ["Player 1", "Player 2"], "act_reason": "Waiting for the teacher",
    "hidden_reason": "In a class you see your own seat only",
}
"""The screen before the room has sent anything."""



class Student:
    """Student `index` of room `address.room`, joined with their ticket (made by `classroom.join`)."""

    def __init__(self, address: Address, channel: Channel, index: int, secret: bytes, *,
                 clock: Callable[[], int] | None = None) -> None:
        self.address, self.channel, self.index = address, channel, index
        self.room = address.room
        self._key = student_key(self.room, index, secret)
        self._clock = clock
        self._lock = threading.RLock()
        self._listeners = Listeners("a widget")
        self.name: str | None = None
        """The student's name, as the room knows it (once the room has answered)."""
        self._got = Received()
        """What the room sent of the activity shown (frames, variations, exercises)."""
        self._live_line: int | None = None
        self._looking_line: int | None = None
        self._away: str | None = None
        self._sends_lines = False
        """The activity shown sends its variations (a lesson): the screen's `variations` are made here."""
        self._kind, self._id = "idle", 0
        self._title: str | None = None
        self._review_open = False
        self._practice: OwnPractice | None = None
        self._ended: str | None = None
        """Why one's own practice ended without the student asking: said in the follow bar with that message."""
        self._leads = True
        self._live: int | None = None
        self._looking: int | None = None
        self._quiz: dict[str, Any] | None = None
        self._sent_answer: tuple[int, int, Any] | None = None
        self._pending_act = False
        self._note: str | None = None
        self._heard = False
        self._closed_room = False
        """The room said it closes (`Room.close`): the follow bar says so until it sends again."""
        self._homework: dict[str, Any] | None = None
        """The latest homework the room gave ({"id", "title", "exercises", "done"}), or None."""
        self._practising: list[int] | None = None
        """While the practice is the homework's: the homework's number of each exercise practised."""
        self._history: dict[str, Any] = {}
        """The student's own term as the room sent it last (`history`)."""
        self._removed = False
        """The room said this ticket no longer works (`Room.remove`): the kernel stops saying it is here."""
        self._beats: Ticker | None = None
        self._resyncing, self._hello_at = True, time.monotonic()
        """The whole screen is asked for (the hello below, or after a lost message) and not come yet, since when."""
        self._in = channel.tail(f"in.{index}")
        try:
            self._out = channel.tail(f"out.{index}")
        except ClassError:
            self._out = 0
        self.link = Link(channel, lambda: {f"in.{self.index}": self._in}, self._handle, self._status,
                         f"student {index}")
        self._hello()

    def __repr__(self) -> str:
        return (f"Student({self.name or self.index!r} in {self.room!r}, showing={self._kind!r}, "
                f"step={self.step}, live={self._live})")

    # ---- sending ------------------------------------------------------------------------------

    def post(self, message: dict[str, Any]) -> None:
        """Send the room's activity a request, as its `@request` handlers name it: {"t": kind, <activity's
        kind>: its id, fields...} (the widget's "act" and "quiz_answer" are sent this way). The room answers
        with the screen, a refusal's words in the follow bar.
        """
        given: object = message  # checked: a caller may pass anything
        if not isinstance(given, dict) or not isinstance(message.get("t"), str) or message["t"] == "hello":
            raise ClassError(f"A request to the room is a dict with its kind in 't', not {quote(message)}")
        with self._lock:
            self._post(message)

    def _post(self, message: dict[str, Any]) -> None:
        self._out = next_seq(self._out) if self._clock is None else max(self._out + 1, self._clock())
        box = f"out.{self.index}"
        self.link.send(box, self._out, seal(self._key, self.room, box, self._out, message, limit=MAX_REQUEST))

    # ---- receiving ----------------------------------------------------------------------------

    def _handle(self, messages: list[Message]) -> None:
        changed = False
        with self._lock:
            for box, seq, data in sorted(messages, key=lambda m: m[1]):
                if seq <= self._in:
                    continue
                self._in = seq
                try:
                    _, message = unseal(self._key, self.room, box, data)
                except ClassError as bad:
                    log.warning("class (student %d): ignored a message: %s", self.index, bad)
                    continue
                if isinstance(message, dict) and message.get("t") == "closed":
                    self._closed_room, changed = True, True
                elif isinstance(message, dict) and message.get("t") == "removed":
                    self._removed, changed = True, True
                elif isinstance(message, dict) and message.get("t") == "homework":
                    changed = self._take_homework(message) or changed
                elif isinstance(message, dict) and message.get("t") == "history":
                    self._history = message
                elif isinstance(message, dict) and message.get("t") == "screen":
                    try:
                        self._take(message, seq)
                        changed = True
                    except OutOfStep as lost:
                        self._resync(str(lost))
                    except (KeyError, TypeError, ValueError) as bad:
                        log.warning("class (student %d): ignored a malformed screen: %s", self.index, bad)
        if changed:
            self._notify()

    def _hello(self) -> None:
        """Ask the room for the whole screen ("hello", saying this kernel takes patches: `classroom.outbox`)."""
        self._resyncing, self._hello_at = True, time.monotonic()
        self._post({"t": "hello", "patches": PATCHES})

    def _resync(self, why: str) -> None:
        """A message was lost on the way: ask the room for the whole screen again (once, until it comes)."""
        if self._resyncing and time.monotonic() - self._hello_at < RESYNC_AFTER:
            log.debug("class (student %d): %s, while the whole screen is on its way", self.index, why)
            return
        log.warning("class (student %d): %s; asking for the whole screen again", self.index, why)
        self._hello()

    def _take(self, m: dict[str, Any], seq: int = 0) -> None:
        frames = self._got.decode(m, seq)
        self._closed_room = False  # the room (reopened) sends again
        if frames is not None:
            self._resyncing = False
        kind, ident = m["kind"], m["id"]
        asked = (self._quiz or {}).get("index")
        if self._practice is not None and (kind, ident) != (self._kind, self._id):
            self._end_practice("the teacher started something new")
        if m["reset"] or (kind, ident) != (self._kind, self._id):
            self._got.clear()
            self._looking, self._review_open, self._looking_line = None, False, None
            if (kind, ident) != (self._kind, self._id):
                self._sent_answer = None
        self._kind, self._id, self._title = kind, ident, m.get("title")
        self._leads = m.get("leads", True)
        self._heard = True
        self.name = m.get("name") or self.name
        self._got.take(m, frames)
        self._sends_lines = "live_line" in m
        self._live = m.get("live")
        self._live_line = m.get("live_line")
        self._away = m.get("away")
        self._quiz = m.get("quiz")
        self._note = m.get("note")
        self._pending_act = False
        if self._looking is not None and self._got.frame_at(self._looking_line, self._looking) is None:
            self._looking = self._looking_line = None
        if self._practice is not None:
            latest = self._got.frame_at(self._live_line, self._live) or {}
            quiz = self._quiz or {}
            if quiz.get("index") is not None and quiz.get("index") != asked and quiz.get("reveal") is None:
                self._end_practice("the teacher asks a question")
            elif latest.get("can_act"):
                self._end_practice("it is your move")
        if self._ended is not None:  # said once, with the message that ended the practice
            self._note = f"{self._note}. {self._ended}" if self._note else self._ended
            self._ended = None

    def _take_homework(self, m: dict[str, Any]) -> bool:
        """The room's homework for this student (`classroom.homework`): kept, with the exercises done so far."""
        exercises = read_exercises(m.get("exercises"))
        done = m.get("done")
        if type(m.get("id")) is not int or not isinstance(done, list):
            log.warning("class (student %d): ignored a malformed homework", self.index)
            return False
        mine = self._homework
        kept = set(mine["done"]) if mine is not None and mine["id"] == m["id"] else set()
        self._homework = {"id": m["id"], "title": str(m.get("title") or "Homework"), "exercises": exercises,
                          "done": kept | {i for i in done if type(i) is int and 0 <= i < len(exercises)}}
        return True

    def _report_homework(self) -> None:
        """Tell the room which homework exercises this practice has done (solved, or shown and moved on)."""
        practice, homework, numbers = self._practice, self._homework, self._practising
        if practice is None or homework is None or numbers is None:
            return
        done = {numbers[i] for i, r in enumerate(practice.run.results) if r.solved or r.finished}
        new = sorted(done - homework["done"])
        if new:
            homework["done"] |= set(new)
            self._post({"t": "homework", "id": homework["id"], "done": new})

    def _practised(self) -> None:
        """An attempt was judged (on the practice's thread): the homework's progress told, the screen told."""
        with self._lock:
            self._report_homework()
        self._notify()

    def _status(self, connected: bool, why: str | None) -> None:
        self._notify()

    # ---- what the widget shows ------------------------------------------------------------------

    @property
    def step(self) -> int | None:
        """The step shown (the teacher's, unless the student stepped back): of the variation shown, if any."""
        return self._looking if self._looking is not None else self._live

    @property
    def line(self) -> int | None:
        """The index of the variation shown (the teacher's, unless the student looks elsewhere), or None: the game."""
        return self._looking_line if self._looking is not None else self._live_line

    @property
    def lines(self) -> list[dict[str, Any]]:
        """The variations received: [{index, label, step, end, source, real}]."""
        with self._lock:
            return [dict(item) for item in self._got.catalogue.values()]

    @property
    def live(self) -> bool:
        """The student is at the teacher's step."""
        return self._looking is None

    def state(self) -> dict[str, Any]:
        """Every synced trait of the student's widget (see the module docstring)."""
        with self._lock:
            if self._practice is not None:
                return {**self._practice.state(), "follow": self._follow()}
            line, shown = self.line, self.step
            frame = self._got.frame_at(line, shown)
            if frame is None and line is not None:  # the variation's frames are not here (yet): where it starts
                shown = self._got.catalogue.get(line, {}).get("step", shown)
                line = None
                frame = self._got.frame_at(None, shown)
            state = dict(frame) if frame is not None else dict(IDLE)
            review = state.pop("class_review", None)
            state.pop("class_exercises", None)
            state["review"] = review if self._review_open and review is not None else None
            if review is not None:
                state["offers"] = {**state.get("offers", {}), "practice": self._practice_offer()}
            if frame is not None:
                state["step"] = shown
                state["steps"] = max(self._got.frames) if line is None else max(self._got.lines[line])
                if self._sends_lines:
                    state["variations"] = self._got.variations(line, shown)  # type: ignore[arg-type]
            state = quiz_overlay(state, self._quiz_state())
            if state["can_act"] and self._looking is not None:
                state["can_act"], state["act_reason"] = False, f"Back to live (step {self._live}) to play"
            elif state["can_act"] and self._pending_act:
                state["can_act"], state["act_reason"] = False, "Sent: waiting for the room"
            state["follow"] = self._follow()
            return state

    def _quiz_state(self) -> dict[str, Any] | None:
        quiz = self._quiz
        if quiz is None:
            return None
        sent = self._sent_answer
        if sent and sent[:2] == (self._id, quiz["index"]) and not quiz["question"]["answered"] and not quiz["reveal"]:
            return answer_sent(quiz, sent[2])
        return quiz

    def _practice_offer(self) -> dict[str, Any]:
        """The `offers["practice"]` of a finished game's screen: how many of its mistakes may be practised."""
        count = len(self._got.exercises)
        return {"count": count, "reason": None if count else "Your review marked no mistake to practise"}

    def _follow(self) -> dict[str, Any]:
        connected = self.link.connected
        if self._practice is not None:
            what = "your homework" if self._practising is not None else "the mistakes of your game"
            text = (f"Practising {what} ({len(self._practice.run.exercises)}): nobody else sees this. Back to the "
                    "class when you are done")
            return {"status": "practice", "text": text, "live_step": self._live, "can_live": True,
                    "name": self.name or "", "room": self.room, "connected": connected, "kind": self._kind,
                    "title": self._title, "question": None, "homework": self._homework_state()}
        if self._removed:
            status, text = "closed", "The teacher took you off this class's roster: this ticket no longer works"
        elif self._closed_room:
            status, text = "closed", "The teacher has closed the class: your screen keeps what it showed"
        elif not connected:
            status, text = "offline", f"The class's channel does not answer: retrying. ({self.link.why})"
        elif not self._heard or self._kind == "idle":
            status, text = "waiting", (self._title if self._heard and self._title else
                                       "Waiting for the teacher to start")
        elif not self._leads:
            status = "live" if self._looking is None else "looking"
            text = self._title or "Your game"
            if self._looking is not None:
                text = f"You are looking at step {self._looking}; your game is at step {self._live}"
        elif self._looking is None:
            status, text = "live", f"Following the teacher at step {self._live}{self._got.label(self._live_line)}"
        else:
            status, text = "looking", (f"You are looking at step {self._looking}{self._got.label(self._looking_line)}; "
                                       f"the class is at step {self._live}{self._got.label(self._live_line)}")
        if self._away and self._leads:
            text = f"{text}. {self._away}"
        if self._note:
            text = f"{text}. {self._note}"
        return {"status": status, "text": text, "live_step": self._live, "can_live": self._looking is not None,
                "name": self.name or "", "room": self.room, "connected": connected, "kind": self._kind,
                "title": self._title, "question": self._open_question(), "homework": self._homework_state()}

    def _homework_state(self) -> dict[str, Any] | None:
        """The follow bar's homework: {"id", "title", "assigned", "done", "open"} or None."""
        homework = self._homework
        if homework is None or self._removed:
            return None
        return {"id": homework["id"], "title": homework["title"], "assigned": len(homework["exercises"]),
                "done": len(homework["done"]), "open": self._practising is not None}

    def _open_question(self) -> dict[str, Any] | None:
        """The teacher's question open now, for the follow bar ({"index", "label", "answered"}), or None."""
        quiz = self._quiz_state()
        question = (quiz or {}).get("question")
        if not quiz or not isinstance(question, dict) or quiz.get("reveal") is not None or self._removed:
            return None
        return {"index": question.get("index"), "label": question.get("label"),
                "answered": bool(question.get("answered"))}

    # ---- requests -----------------------------------------------------------------------------

    def request(self, message: Any) -> None:
        """A request from the student's widget, answered by its handler in `STUDENT_REQUESTS` (the same names and
        fields as the local widget's, `screen.features.REQUESTS`, with "live" the class's own): {"kind": "step",
        "to"} (along the game or the variation shown), {"kind": "line", "variation": an index or None (the game),
        "to"?}, {"kind": "live"}, {"kind": "quiz_answer", "index", "answer"}, {"kind": "act", "action"},
        {"kind": "new_game", "deal"}, {"kind": "review", "open"}, {"kind": "practice", "open"}. While the student
        practises their own mistakes, every other request goes to the practice's screen (`ownpractice`).
        ClassError (or the screen's NeedleError) if refused: nothing changes.
        """
        kind = message.get("kind") if isinstance(message, dict) else None
        with self._lock:
            handler = STUDENT_REQUESTS.get(kind) if isinstance(kind, str) else None
            if self._practice is not None and kind not in ("live", "practice", "homework"):
                self._practice.request(message)
                self._report_homework()
            elif handler is None:
                raise ClassError(f"{quote(kind)} is not something a class screen does "
                                 f"(it follows the teacher: {', '.join(STUDENT_REQUESTS)})")
            else:
                handler.call(self, message)
        self._notify()

    @answers("step", "to")
    def request_step(self, to: Any) -> None:
        """{kind: "step", to}: look at a step received, of the game or of the variation shown."""
        self._request_step(to)

    @answers("line", "variation", "to")
    def request_line(self, variation: Any, to: Any) -> None:
        """{kind: "line", variation, to}: look at a variation received, or at the game (None)."""
        self._request_line(variation, to)

    @answers("live")
    def request_live(self) -> None:
        """{kind: "live"}: back to where the class is (from a step looked at, or from one's own practice)."""
        self._end_practice()
        self._looking = self._looking_line = None

    @answers("quiz_answer", "index", "answer")
    def request_quiz_answer(self, index: Any, answer: Any) -> None:
        """{kind: "quiz_answer", index, answer}: answer the teacher's question (sent to the room)."""
        self._request_answer(index, answer)

    @answers("act", "action")
    def request_act(self, action: Any) -> None:
        """{kind: "act", action}: a move in one's own game (sent to the room, where the seat's session answers)."""
        self._request_act(action)

    @answers("new_game", "deal")
    def request_new_game(self, deal: Any) -> None:
        """{kind: "new_game", deal}: the next deal of one's own game (sent to the room)."""
        self._request_next(deal)

    @answers("review", "open")
    def request_review(self, open_: Any) -> None:
        """{kind: "review", open}: open or close one's own review of a finished game."""
        self._request_review(open_)

    @answers("practice", "open")
    def request_practice(self, open_: Any) -> None:
        """{kind: "practice", open}: practise the mistakes one's review marked, in this kernel (`ownpractice`);
        open false (or "live") returns to the class.
        """
        if not isinstance(open_, bool):
            raise ClassError(f"open must be true or false, not {quote(open_)}")
        if not open_:
            self._end_practice()
            return
        if self._practice is not None:
            return
        self._ended = None
        offer = ((self._got.frame_at(None, self.step) or {}).get("offers") or {}).get("review") or {}
        if not offer.get("seats"):
            why = offer.get("reason") or "the review opens once your game is over"
            raise ClassError(f"Nothing to practise yet: {why}")
        if not self._got.exercises:
            raise ClassError("Nothing to practise: your review marked no mistake")
        self._practice = OwnPractice(self._got.exercises, self.name or "student", self._notify, self._lock)

    @answers("homework", "open")
    def request_homework(self, open_: Any) -> None:
        """{kind: "homework", open}: practise the homework the room gave (the exercises not done yet first), in this
        kernel (`ownpractice`); each exercise done is told to the room. Open false returns to the class.
        """
        if not isinstance(open_, bool):
            raise ClassError(f"open must be true or false, not {quote(open_)}")
        if not open_:
            self._end_practice()
            return
        homework = self._homework
        if homework is None or not homework["exercises"]:
            raise ClassError("No homework to practise" if homework is None else
                             "Your homework has no exercise: your games had no marked mistake")
        if self._practice is not None:
            self._end_practice()
        count = len(homework["exercises"])
        numbers = [i for i in range(count) if i not in homework["done"]] or list(range(count))
        self._ended = None
        self._practice = OwnPractice(tuple(homework["exercises"][i] for i in numbers), self.name or "student",
                                     self._practised, self._lock)
        self._practising = numbers

    def _end_practice(self, why: str | None = None) -> None:
        """Back to the class from one's own practice (`why`: the class needs the student, said in the follow bar)."""
        self._report_homework()
        self._practising = None
        practice, self._practice = self._practice, None
        if practice is not None:
            practice.close()
        self._ended = None if why is None else f"Your practice ended: {why}"

    def _request_review(self, open_: Any) -> None:
        """Open or close the student's own review of their finished game (the room sent it with the game)."""
        if not isinstance(open_, bool):
            raise ClassError(f"open must be true or false, not {quote(open_)}")
        frame = self._got.frames.get(self.step) if self.step is not None else None
        offer = ((frame or {}).get("offers") or {}).get("review") or {}
        if open_ and not offer.get("seats"):
            why = offer.get("reason") or "the review opens once your game is over"
            raise ClassError(f"Cannot open the review: {why}")
        self._review_open = open_

    def _request_step(self, to: Any) -> None:
        """Look at step `to` of the variation shown (a step before where it starts: the game's), or of the game;
        the steps held are the ones received (`stepping.held_refusal`).
        """
        line = self.line
        if line is not None and self._got.frame_at(line, self.step) is not None:
            if type(to) is int and to < self._got.catalogue[line]["step"] and to in self._got.frames:
                self._look(None, to)  # before the variation starts: the game's step
                return
            self._refuse(held_refusal(to, self._got.lines[line], self._got.catalogue[line]["label"]))
            self._look(line, to)
            return
        self._refuse(held_refusal(to, self._got.frames))
        self._look(None, to)

    def _request_line(self, variation: Any, to: Any) -> None:
        """Show variation `variation` (one received) at step `to` (default: its first move), or the game (None)
        at step `to` (default: the class's step of the game).
        """
        if variation is None:
            if to is None:
                to = self._live if self._live_line is None else self._got.catalogue.get(self._live_line, {}).get(
                    "step", self._live)
            self._refuse(held_refusal(to, self._got.frames, "the game"))
            self._look(None, to)
            return
        item = self._got.catalogue.get(variation) if type(variation) is int else None
        frames = self._got.lines.get(variation) if item is not None else None
        if item is None or not frames:
            shown = ", ".join(str(i) for i in self._got.catalogue if self._got.lines.get(i))
            raise ClassError(f"There is no variation {quote(variation)} on your screen"
                             + (f": the variations you have are {shown}" if shown else ""))
        if to is None:
            to = min(item["step"] + 1, max(frames))
        self._refuse(held_refusal(to, frames, item["label"]))
        self._look(variation, to)

    @staticmethod
    def _refuse(refusal: str | None) -> None:
        if refusal is not None:
            raise ClassError(refusal)

    def _look(self, line: int | None, step: int) -> None:
        """Look at `step` of the game or of variation `line` (live again if that is where the teacher is)."""
        if (line, step) == (self._live_line, self._live):
            self._looking = self._looking_line = None
        else:
            self._looking, self._looking_line = step, line

    def _request_answer(self, index: Any, answer: Any) -> None:
        quiz = self._quiz_state()
        if quiz is None or quiz["reveal"] is not None:
            raise ClassError("No question is open")
        if index != quiz["index"]:
            raise ClassError(f"Cannot answer question {quote(index)}: the question asked is {quiz['index']}")
        if quiz["question"]["answered"]:
            raise ClassError("You have answered this question: answers are final")
        q = quiz["question"]
        value = check_answer(QuizQuestion(q["step"], q["kind"], quiz["seat"]), answer,
                             q["form"].get("candidates"))
        value = list(value) if isinstance(value, tuple) else value
        self._post({"t": "answer", self._kind: self._id, "index": index, "answer": value})
        self._sent_answer = (self._id, index, value)

    def _request_act(self, raw: Any) -> None:
        state = self.state()
        if not state["can_act"]:
            raise ClassError(f"Not your move now: {state['act_reason']}")
        try:
            action = A.from_dict(raw)
        except NeedleError as bad:
            raise ClassError(str(bad)) from None
        self._post({"t": "act", self._kind: self._id, "action": action.to_dict()})
        self._pending_act = True

    def _request_next(self, deal: Any) -> None:
        offer = (self.state().get("offers") or {}).get("new_game")
        if not offer or offer.get("reason"):
            raise ClassError(offer["reason"] if offer and offer.get("reason") else "There is no next deal here")
        self._post({"t": "new_game", self._kind: self._id, "deal": deal})
        self._pending_act = True

    # ---- Python's side ------------------------------------------------------------------------

    def go(self, step: int) -> None:
        """Look at `step` (one the class has shown)."""
        self.request({"kind": "step", "to": step})

    def open_line(self, variation: int | None, to: int | None = None) -> None:
        """Look at variation `variation` (an index of `lines`) at step `to` (default: its first move), or at the
        game (None) at step `to` (default: the class's step of the game).
        """
        self.request({"kind": "line", "variation": variation, "to": to})

    def back_to_live(self) -> None:
        """Back to the teacher's step."""
        self.request({"kind": "live"})

    def answer(self, value: Any) -> None:
        """Answer the question asked."""
        quiz = self._quiz_state()
        self.request({"kind": "quiz_answer", "index": None if quiz is None else quiz["index"], "answer": value})

    def act(self, action: Any) -> None:
        """Play `action` (an Action, its dict, or a legal action as the table lists it) in the challenge."""
        raw = action.to_dict() if isinstance(action, A.Action) else action
        if isinstance(raw, dict):
            raw = {k: v for k, v in raw.items() if k not in ("label", "points")}
        self.request({"kind": "act", "action": raw})

    def subscribe(self, callback: Callable[[], None]) -> Callable[[], None]:
        """Call `callback()` after every change of `state()`; returns the unsubscriber."""
        return self._listeners.add(callback)

    def _notify(self) -> None:
        self._listeners.notify()

    def pump(self, timeout: float = 0.0) -> None:
        """One round by hand (without `start`): post what is queued, read and take what came."""
        self.link.pump(timeout)

    def history(self) -> History:
        """The student's term, as the room sent it (`classroom.history`): their games with the record's figures,
        their answers, their homework's progress. Shown as tables in a notebook.
        """
        with self._lock:
            return History.from_message(self.name or "", self._history)

    def beat(self) -> None:
        """Tell the room this kernel is here (`presence`: the workers do it every HEARTBEAT seconds)."""
        with self._lock:
            if not self._removed and not self._closed_room:  # a closed room hears nothing until it sends again
                self._post({"t": "here"})

    def start(self) -> None:
        """Start the workers (post and read in the background, and say "here" every HEARTBEAT seconds)."""
        self.link.start()
        if self._beats is None:
            self._beats = Ticker(self.beat, HEARTBEAT, f"needle-student-{self.index}-beat",
                                 f"student {self.index}: the heartbeat")
            self._beats.start()

    def close(self) -> None:
        """Say goodbye to the room (offline on its board at once), stop the workers after posting what is queued
        (and one's own practice).
        """
        if self._beats is not None:
            self._beats.stop()
            self._beats = None
        with self._lock:
            self._end_practice()
            if not self._removed:
                self._post({"t": "bye"})
        self.link.close()


def check_room(address: Address, room: str | None) -> None:
    if room is not None and room != address.room:
        raise TicketError(f"This ticket is for room {quote(room)}, and {quote(address.public)} is room "
                          f"{quote(address.room)}: check the address the teacher gave")


STUDENT_REQUESTS = requests_of(Student)
"""A class screen's requests, by kind: the student's methods marked with `@request` (each with the name and the
fields of the local widget's request of that kind, `screen.features.REQUESTS`)."""
