"""A lesson: a replay the teacher leads, step by step, with questions asked of the class.

The lesson holds the replay (in the teacher's kernel only) and, for each seat a student may be shown,
the spoiler-free frames of that seat (`screen.frames.Frames`): a student receives the frames of
the steps the teacher has shown, never the replay. `go`, `ask` and `reveal` change the lesson; the
room sends each student what changed (`Room`), and the teacher's widget can drive it (`widget`). The
questions themselves (asking, answers, reveals and scores) are the lesson's `quiz` (`lessonquiz`).

The replay's variations (`Replay.variations`) reach the students whose seat may open them: a world drawn
from seat s's view goes to the students shown seat s, one drawn from the spectator's view to every student,
a line with the real cards to none (`Frames.lines`: a spoiler-free screen opens sampled worlds only), each
once the class has reached the step it starts from, as the frames of its steps (`Frames.line_at`). The
teacher may lead the class into a variation (`go(step, line=index)`, or opening it in `widget()`): the
students who have it follow, the others wait at the step it starts from (`AWAY`). A variation added, grown,
renamed or removed meanwhile (in Python, or by the teacher's "Play from here") reaches them too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..engine.errors import NeedleError, quote
from ..engine.game import Game
from ..engine.seats import seat_named
from ..records.replay import Replay
from ..records.variations import Variation
from ..screen.frames import Frames
from ..teaching.answers import Answer
from .activity import FRAMES_PER_MESSAGE, Activity, Handled, request
from .errors import ClassError
from .lessonboard import lesson_board
from .lessonquiz import CLASS_WORLDS, Asked, LessonQuiz

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Lesson", "Asked", "AUDIENCES", "AWAY", "CLASS_WORLDS"]

AUDIENCES = (0, 1, "assigned")
"""What every student sees: Player 1's seat, Player 2's, or each student the seat the room assigned."""
LEADS = "In a class the teacher leads: follow, or step back to look"
"""Why a lesson's screen has no controls (its frames' `act_reason`)."""
ONLY = "In a class you see your own seat only"
"""Why a lesson's screen shows no other perspective (its frames' `hidden_reason`)."""
AWAY = "The teacher is showing a variation your seat does not see"
"""What a student is told while the teacher shows a variation their seat may not open: the same words
whatever the variation holds (the real cards, or a world drawn from the other seat's view)."""
LINE_CACHE = 4096
"""Frames of variations' steps a lesson keeps computed (all of them are computed again after that many)."""


def _grows(old: Variation, new: Variation) -> bool:
    """Whether `new` is `old` with moves added at its end (or only renamed): the frames of `old`'s steps stand."""
    return (old.step, old.world, old.notes) == (new.step, new.world, new.notes) \
        and new.steps[:len(old.steps)] == old.steps


def _same_line(old: Variation, new: Variation) -> bool:
    """Whether `new` is the line `old` was, grown, renamed or with other notes."""
    return (old.step, old.world) == (new.step, new.world) and new.steps[:len(old.steps)] == old.steps


class Lesson(Activity):
    """The lesson `room.lead(replay, perspective=...)` started (see the module docstring).

    `perspective`: 0 or 1 (every student sees that seat) or "assigned" (each student the seat the
    room gave them at `invite`). `step` is where the class is; `reached` the furthest step shown.
    """

    kind = "lesson"
    absent = "No question is open"

    def __init__(self, room: Room, replay: Replay | Game, perspective: Any = "assigned", *, title: str | None = None,
                 ident: int = 1, worlds: int = CLASS_WORLDS) -> None:
        if isinstance(replay, Game):
            replay = replay.replay()
        if not isinstance(replay, Replay):
            raise ClassError(f"A lesson leads a Replay or a Game, not {type(replay).__name__}")
        seat = seat_named(perspective)
        perspective = perspective if seat is None else seat
        if perspective not in AUDIENCES or isinstance(perspective, bool):
            raise ClassError(f"perspective must be 0, 1 or 'assigned' (each student their own seat), "
                             f"not {quote(perspective)}")
        given: object = title  # checked: a caller may pass anything
        if title is not None and (not isinstance(given, str) or not 0 < len(title) <= 100):
            raise ClassError(f"A lesson's title is text of 1 to 100 characters, not {quote(title)}")
        self.room, self.replay, self.perspective = room, replay, perspective
        self.title: str = title or "lesson"
        self.id = ident
        self.worlds = worlds
        self.step = 0
        self.reached = 0
        self.line: int | None = None
        """The index (in the replay's `variations`) of the variation the teacher shows, or None: the game."""
        self.line_step: int | None = None
        """The step of that variation shown (from its step to its end), or None."""
        self._shown: Variation | None = None
        self.quiz = LessonQuiz(self)
        """The lesson's questions: those asked, their answers and reveals (`lessonquiz`)."""
        self._frames: dict[int, Frames] = {}
        self._cache: dict[tuple[int, int], dict[str, Any]] = {}
        self._line_cache: dict[tuple[int, Variation, int], dict[str, Any]] = {}
        self._lines: dict[int, tuple[Any, list[tuple[int, Variation]]]] = {}
        self._stop = replay.observe_notes(self._replay_changed)

    def __repr__(self) -> str:
        line = "" if self.line is None else f", line={self.line} at step {self.line_step}"
        return f"Lesson({self.title!r}, step={self.step}/{len(self.replay)}{line}, questions={len(self.asked)})"

    # ---- what the teacher does ----------------------------------------------------------------

    def go(self, step: int, line: int | None = None) -> None:
        """Move the class to `step` (0 to the replay's end): every student's screen follows. With `line` (an
        index of the replay's `variations`), to step `step` of that variation (from its step to its end): the
        students whose seat may open it follow into it, the others wait at the step it starts from, told
        that the teacher shows a variation their seat does not see (`AWAY`).
        """
        if line is None:
            if type(step) is not int or not 0 <= step <= len(self.replay):
                raise ClassError(f"Cannot go to step {quote(step)}: the lesson's replay has steps 0 to "
                                 f"{len(self.replay)}")
            self.room.change_lesson(self, lambda: self._go(step))
            return
        variations = self.replay.variations
        if type(line) is not int or not 0 <= line < len(variations):
            raise ClassError(f"There is no variation {quote(line)}: the lesson's replay has "
                             + (f"variations 0 to {len(variations) - 1}" if variations else "none"))
        variation = variations[line]
        if type(step) is not int or not variation.step <= step <= variation.end:
            raise ClassError(f"Cannot go to step {quote(step)} of variation {line}: it has steps {variation.step} "
                             f"to {variation.end}")
        self.room.change_lesson(self, lambda: self._go_line(line, variation, step))

    def _go(self, step: int) -> None:
        self.step = step
        self.reached = max(self.reached, step)
        self.line = self.line_step = self._shown = None

    def _go_line(self, index: int, variation: Variation, step: int) -> None:
        self._go(variation.step)
        self.line, self.line_step, self._shown = index, step, variation

    @property
    def position(self) -> tuple[int | None, int]:
        """Where the class is: (None, the game's step) or (the variation's index, its step shown)."""
        return (None, self.step) if self.line is None else (self.line, self.line_step)  # type: ignore[return-value]

    def next(self) -> None:
        """One step on (along the variation shown, if any)."""
        if self.line is not None and self._shown is not None and self.line_step is not None:
            self.go(min(self.line_step + 1, self._shown.end), self.line)
        else:
            self.go(min(self.step + 1, len(self.replay)))

    def back(self) -> None:
        """One step back (along the variation shown, if any: not before its first step)."""
        if self.line is not None and self._shown is not None and self.line_step is not None:
            self.go(max(self.line_step - 1, self._shown.step), self.line)
        else:
            self.go(max(self.step - 1, 0))

    def _replay_changed(self, _replay: Replay) -> None:
        """The replay's variations or notes changed (in Python, or in the teacher's widget): the room sends
        the students what changed for them, if this lesson is on their screens.
        """
        self.room.lesson_changed(self)

    def follow_variations(self) -> None:
        """Find the variation shown again after the replay's variations changed: at its index, or where it
        went (moved, renamed, grown); gone, the class waits at the step it started from.
        """
        if self.line is None or self._shown is None:
            return
        variations = self.replay.variations
        old = self._shown
        if self.line < len(variations) and _same_line(old, variations[self.line]):
            index = self.line
        elif old in variations:
            index = variations.index(old)
        else:
            self._go(old.step)
            return
        self.line, self._shown = index, variations[index]
        self.line_step = min(self.line_step if self.line_step is not None else old.step, self._shown.end)

    def ask(self, kind: str, step: int | None = None) -> Asked:
        """Ask every student a question of `kind` ("needle", "next_draw", "winner", "pile_or_steal", "your_move")
        at `step` (default the class's step; the class goes there): each student from the seat they are shown.
        A question still open is closed first (revealed). The question asked last, asked again at the same step
        (a cell run twice), is not asked twice: it is returned as it is.
        """
        step = self.step if step is None else step
        latest = self.asked[-1] if self.asked else None
        if latest is not None and (latest.kind, latest.step) == (kind, step):
            return latest  # the same question again (a cell run twice): asked once
        asked = self.quiz.question(kind, step)

        def change() -> None:
            self.quiz.put(asked)
            self._go(step)

        self.room.change_lesson(self, change)
        return asked

    def reveal(self) -> None:
        """Reveal the open question to every screen at once: each student sees the truth, the models'
        figures and their own score; the board shows the truth and the class's calibration.
        """
        question = self.open_question
        if question is None:
            raise ClassError("No question is open: ask one first (lesson.ask)")
        self.room.change_lesson(self, lambda: self.quiz.reveal(question))

    def widget(self, **kwargs: Any) -> Any:
        """The teacher's widget of the replay (teacher's perspective); stepping in it moves the class."""
        from ..jupyter.classscreens import lead  # the adapter, imported only when a widget is asked for

        return lead(self, **kwargs)

    # ---- what the room asks -------------------------------------------------------------------

    @property
    def asked(self) -> list[Asked]:
        """The questions asked, in order (`quiz.asked`)."""
        return self.quiz.asked

    @property
    def open_question(self) -> Asked | None:
        """The question asked and not yet revealed, or None."""
        return self.quiz.open_question

    def seats(self) -> tuple[int, ...]:
        """The seats students are shown."""
        return (0, 1) if self.perspective == "assigned" else (self.perspective,)

    def seat_of(self, assigned: int) -> int:
        """The seat shown to a student whose assigned seat is `assigned`."""
        return assigned if self.perspective == "assigned" else self.perspective

    def _seat_frames(self, seat: int) -> Frames:
        if seat not in self._frames:
            self._frames[seat] = Frames(self.replay, seat, spoilers=False)
        return self._frames[seat]

    def frame(self, seat: int, k: int) -> dict[str, Any]:
        """Seat `seat`'s frame of step `k` (computed once). Its `variations` are left out: the student's screen
        lists the variations it received (`lines`), which grow as the class goes on.
        """
        if (seat, k) not in self._cache:
            frame = self._seat_frames(seat).at(k, ONLY)
            self._cache[seat, k] = {**frame, "can_act": False, "act_reason": LEADS, "variations": None}
        return self._cache[seat, k]

    def lines(self, seat: int) -> list[tuple[int, Variation]]:
        """The variations the students shown `seat` receive, with their index in the replay's `variations`: those
        the seat may open in spoiler-free frames (sampled worlds drawn from its view or the spectator's) from the
        steps the class has reached.
        """
        key = (self.replay.variations, self.reached)
        cached = self._lines.get(seat)
        if cached is None or cached[0] != key:
            cached = self._lines[seat] = (key, [(index, v) for index, v in self._seat_frames(seat).lines()
                                                if v.step <= self.reached])
        return list(cached[1])

    def line_frames(self, seat: int, index: int, variation: Variation, steps: range) -> list[dict[str, Any]]:
        """Seat `seat`'s frames of `steps` of the variation `index` (`Frames.line_at`, each computed once), each as
        spoiler-free as the game's: its step count and events up to its own step, and no `variations` (the
        student's screen makes them from the lines it received).
        """
        frames = self._seat_frames(seat)
        out = []
        try:
            for k in steps:
                key = (seat, variation, k)
                if key not in self._line_cache:
                    frame = frames.line_at(index, k, ONLY)
                    if len(self._line_cache) >= LINE_CACHE:
                        self._line_cache.clear()
                    self._line_cache[key] = {
                        **frame, "can_act": False, "act_reason": LEADS, "steps": k, "variations": None,
                        "events": [e for e in frame["events"] if e["step"] <= k]}
                out.append(self._line_cache[key])
        finally:
            frames.close_line()
        return out

    def _live(self, seat: int, lines: list[tuple[int, Variation]]) -> tuple[int, int | None, str | None]:
        """Where students shown `seat` follow the teacher: (step, the variation's index or None, why they wait)."""
        if self.line is None or self._shown is None:
            return self.step, None, None
        if any(index == self.line for index, _ in lines):
            return self.line_step, self.line, None  # type: ignore[return-value]
        return self._shown.step, None, AWAY

    def screens(self, member: Any, reset: bool) -> list[dict[str, Any]]:
        """The frames of the steps `member` has not been sent (all of them after a reset), in messages of
        FRAMES_PER_MESSAGE, with the lesson's step and the student's quiz state; then the variations their
        seat may open that they lack or that changed (`lines`).

        Every message holds "live" (the step the student follows), "live_line" (the index of the variation
        they follow into, or None: the game) and "away" (`AWAY` while the teacher shows a variation their seat
        does not see, else None). The first holds "lines" when the list of the student's variations changed:
        [{index, label, step, end, source, real}] (a variation not listed is gone). A variation's frames come
        in messages of their own: {"line": index, "from": its step, "first": k, "frames": [...]} (frames of
        steps k, k + 1, ...; "first" == "from": the variation's frames anew, else its new moves).
        """
        seat = self.seat_of(member.seat)
        if reset:
            member.lines, member.catalogue = {}, []
        lines = self.lines(seat)
        live, live_line, away = self._live(seat, lines)
        steps = list(range(member.sent + 1, self.reached + 1))
        common = {"kind": self.kind, "id": self.id, "title": self.title, "live": live, "live_line": live_line,
                  "away": away, "quiz": self.quiz_state(member.index, member.name)}
        chunks = [steps[i:i + FRAMES_PER_MESSAGE] for i in range(0, len(steps), FRAMES_PER_MESSAGE)] or [[]]
        out = [{**common, "reset": reset and n == 0, "first": chunk[0] if chunk else None,
                "frames": [self.frame(seat, k) for k in chunk] if chunk else None} for n, chunk in enumerate(chunks)]
        member.sent = max(member.sent, self.reached)
        catalogue = [{"index": index, "label": v.label(index), "step": v.step, "end": v.end, "source": v.source(),
                      "real": v.real} for index, v in lines]
        if catalogue != member.catalogue:
            out[0]["lines"] = member.catalogue = catalogue
        for index, variation in lines:
            sent = member.lines.get(index)
            if sent == variation:
                continue
            first = sent.end + 1 if sent is not None and _grows(sent, variation) else variation.step
            try:
                frames = self.line_frames(seat, index, variation, range(first, variation.end + 1))
            except NeedleError:  # changed from another thread meanwhile: the change's own send brings it
                member.lines.pop(index, None)
                continue
            for i in range(0, len(frames), FRAMES_PER_MESSAGE):
                out.append({**common, "reset": False, "line": index, "from": variation.step, "first": first + i,
                            "frames": frames[i:i + FRAMES_PER_MESSAGE]})
            member.lines[index] = variation
        for index in set(member.lines) - {index for index, _ in lines}:
            del member.lines[index]
        return out

    @request("answer", "lesson", "index", "answer")
    def request_answer(self, member: Any, lesson: Any, index: Any, answer: Any) -> Handled:
        """A student's answer to question `index` of lesson `lesson` (this one's id)."""
        if lesson != self.id:
            raise ClassError("That answer was for an earlier lesson")
        try:
            self.answer(member.index, self.seat_of(member.seat), index, answer)
        except NeedleError as refused:
            raise ClassError(f"Your answer was not taken: {refused}") from None
        return Handled()

    # ---- its questions (`lessonquiz`) -----------------------------------------------------------

    def answer(self, index: int, seat: int, question: int, answer: Any) -> Any:
        """Student `index`'s answer to question `question` (checked; ClassError if it cannot be taken)."""
        return self.quiz.answer(index, seat, question, answer)

    def revealed(self, asked: Asked, index: int) -> dict[str, Any]:
        """Student `index`'s reveal of `asked` (their answer scored)."""
        return self.quiz.revealed(asked, index)

    def quiz_state(self, index: int, name: str) -> dict[str, Any] | None:
        """The `quiz_state` student `index` sees (`LessonQuiz.quiz_state`)."""
        return self.quiz.quiz_state(index, name)

    def public_result(self, seat: int | None) -> str:
        """How the replay ended, as `seat` (None: the whole class) may read it (`LessonQuiz.public_result`)."""
        return self.quiz.public_result(seat)

    def quiz_prompt(self, asked: Asked) -> str:
        """The words of `asked` (for the first seat asked)."""
        return self.quiz.quiz_prompt(asked)

    def truth_line(self, asked: Asked) -> str:
        """The truth of `asked` in words, as the whole class may read it (`LessonQuiz.truth_line`)."""
        return self.quiz.truth_line(asked)

    def truth_value(self, asked: Asked) -> Any:
        """The answer a distribution marks as the truth, or None (`LessonQuiz.truth_value`)."""
        return self.quiz.truth_value(asked)

    def moves_public(self, asked: Asked) -> bool:
        """Whether the whole class may read a question's moves (`LessonQuiz.moves_public`)."""
        return self.quiz.moves_public(asked)

    def move_values(self, asked: Asked, moves: list[str]) -> dict[str, float]:
        """Each move's value at a your_move question asked of one seat (`LessonQuiz.move_values`)."""
        return self.quiz.move_values(asked, moves)

    def records(self) -> list[Answer]:
        """The answers to the revealed questions, as answer records (`teaching.answers.Answer`)."""
        return self.quiz.records()

    # ---- keeping it -----------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the room's saved state."""
        data = {"id": self.id, "title": self.title, "perspective": self.perspective, "step": self.step,
                "reached": self.reached, "worlds": self.worlds, "replay": self.replay.to_dict(),
                "asked": [a.to_dict() for a in self.asked]}
        if self.line is not None:
            data["line"] = {"index": self.line, "step": self.line_step}
        return data

    @classmethod
    def from_dict(cls, room: Room, data: dict[str, Any]) -> Lesson:
        """The inverse of `to_dict`."""
        lesson = cls(room, Replay.from_dict(data["replay"]), data["perspective"], title=data["title"],
                     ident=data["id"], worlds=data.get("worlds", CLASS_WORLDS))
        lesson.step, lesson.reached = data["step"], data["reached"]
        line = data.get("line")
        variations = lesson.replay.variations
        if isinstance(line, dict) and type(line.get("index")) is int and 0 <= line["index"] < len(variations):
            variation = variations[line["index"]]
            if type(line.get("step")) is int and variation.step <= line["step"] <= variation.end:
                lesson._go_line(line["index"], variation, line["step"])
        lesson.quiz.load(data["asked"])
        return lesson

    def board(self, view: str, members: list[Any], record: Any = None) -> dict[str, Any]:
        """The lesson shown, its latest question, the answers' distribution, each student's answer and score
        once revealed, and Reveal (`lessonboard`).
        """
        return lesson_board(self, view, members)

    def headline(self, board: dict[str, Any]) -> dict[str, str]:
        """The open question and how many answered ("Question 3 (Next draw) at step 12: 4 of 6 joined answered"), or
        the lesson's step.
        """
        question, lesson = board.get("question"), board.get("lesson") or {}
        if question and not question["revealed"]:
            answered, joined = board["roster"].get("answered") or 0, board["roster"].get("joined") or 0
            return {"kind": "question", "text": f"Question {question['index'] + 1} ({question['label']}) at step "
                                                f"{question['step']}: {answered} of {joined} joined answered"}
        title = self.title if self.title != "lesson" else f"lesson {self.id}"
        return {"kind": self.kind, "text": f"Lesson: {title}, step {lesson.get('step')} of {lesson.get('steps')}"}

    @classmethod
    def board_empty(cls, view: str, members: list[Any]) -> dict[str, Any]:
        """No lesson yet: no question, nothing to reveal."""
        return lesson_board(None, view, members)

    @classmethod
    def load(cls, room: Any, data: dict[str, Any]) -> Lesson:
        """`from_dict` for `room`."""
        return cls.from_dict(room, data)

