"""A lesson's questions: each one asked of the class (`Asked`), the students' answers, the reveal with each
student's score, and the truth in the words a seat (or the whole class) may read.

A student is asked from the seat they are shown and sees only their own answer and, once the teacher reveals,
their own score (`LessonQuiz.quiz_state`); the board sees the answers' distribution and the truth
(`lessonboard`). What a reveal would tell of steps the class has not reached is held back until it gets there.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from ..engine.errors import NeedleError, quote
from ..records.notes import QUESTION_KINDS
from ..screen.notepad import KIND_LABELS
from ..screen.quizmode import LATER, WAITING, reveal_text
from ..teaching.answers import Answer
from ..teaching.quiz import QuizQuestion, ask, check_answer, check_question, revealer
from .errors import ClassError

if TYPE_CHECKING:
    from .lesson import Lesson

__all__ = ["Asked", "CLASS_WORLDS", "LessonQuiz"]

CLASS_WORLDS = 100
"""Worlds behind a class question's model figures (the reveal's; a quiz alone uses QUIZ_WORLDS)."""
HELD = re.compile(r"Held back until you have answered every question: [^.]*")


@dataclass
class Asked:
    """A question put to the class: its kind and step, the question each seat is asked, the answers
    by student number, and whether it is revealed.
    """

    index: int
    kind: str
    step: int
    questions: dict[int, QuizQuestion]
    answers: dict[int, Any] = field(default_factory=dict)
    times: dict[int, str] = field(default_factory=dict)
    revealed: bool = False
    lesson: Lesson | None = field(default=None, repr=False, compare=False)
    """The lesson that asked it (for its short words: how many of the students asked have answered)."""

    def __repr__(self) -> str:
        """What the teacher's board shows of it, in one line: "Asked: question 1 'Who will win?' at step 17,
        0 of 2 answered" (the students asked: those joined whose seat is asked). No answer, no name.
        """
        return (f"Asked: question {self.index + 1} {KIND_LABELS[self.kind]!r} at step {self.step}, "
                f"{self._answered()}{', revealed' if self.revealed else ''}")

    def _repr_html_(self) -> str:
        return (f"<b>Question {self.index + 1}</b>: {html.escape(KIND_LABELS[self.kind])} · step {self.step} · "
                f"{self._answered()}{' · revealed' if self.revealed else ''}")

    def _answered(self) -> str:
        answered = len(self.answers)
        if self.lesson is None:
            return f"{answered} answered"
        lesson = self.lesson
        asked = sum(m.joined and lesson.seat_of(m.seat) in self.questions for m in lesson.room.members())
        return f"{answered} of {max(asked, answered)} answered"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, for the room's saved state."""
        return {"index": self.index, "kind": self.kind, "step": self.step,
                "seats": sorted(self.questions), "answers": {str(k): v for k, v in self.answers.items()},
                "times": {str(k): v for k, v in self.times.items()}, "revealed": self.revealed}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Asked:
        """The inverse of `to_dict`."""
        questions = {seat: QuizQuestion(data["step"], data["kind"], seat) for seat in data["seats"]}
        answers = {int(k): tuple(v) if isinstance(v, list) else v for k, v in data["answers"].items()}
        return cls(data["index"], data["kind"], data["step"], questions, answers,
                   {int(k): v for k, v in data.get("times", {}).items()}, data["revealed"])


class LessonQuiz:
    """The questions `lesson` asked (`asked`, in order; the last one open until it is revealed), with the
    scorers and reveals computed for them, each once. The lesson changes them under the room's lock
    (`Lesson.ask`, `Lesson.reveal`).
    """

    def __init__(self, lesson: Lesson) -> None:
        self._lesson = lesson
        self.asked: list[Asked] = []
        self._scorers: dict[tuple[int, int], Callable[[Any], dict[str, Any]]] = {}
        self._reveals: dict[tuple[int, int], dict[str, Any]] = {}

    @property
    def open_question(self) -> Asked | None:
        """The question asked and not yet revealed, or None."""
        return self.asked[-1] if self.asked and not self.asked[-1].revealed else None

    def question(self, kind: str, step: int) -> Asked:
        """A question of `kind` at `step` for each seat the lesson shows (checked: ClassError if no seat may be
        asked it), numbered after the last; `put` asks it.
        """
        if kind not in QUESTION_KINDS:
            raise ClassError(f"A question's kind is one of {', '.join(QUESTION_KINDS)}, not {quote(kind)}")
        replay = self._lesson.replay
        if type(step) is not int or not 0 <= step <= len(replay):
            raise ClassError(f"Cannot ask at step {quote(step)}: the replay has steps 0 to {len(replay)}")
        questions = {}
        why = []
        for seat in self._lesson.seats():
            try:
                questions[seat] = check_question(replay, QuizQuestion(step, kind, seat))
            except NeedleError as refused:
                why.append(str(refused))
        if not questions:
            raise ClassError(f"Cannot ask {quote(kind)} at step {step}: {'; '.join(why)}")
        return Asked(len(self.asked), kind, step, questions, lesson=self._lesson)

    def put(self, asked: Asked) -> None:
        """Ask `asked`: the question still open, if any, is revealed first."""
        if self.asked and not self.asked[-1].revealed:
            self.reveal(self.asked[-1])
        self.asked.append(asked)

    def reveal(self, asked: Asked) -> None:
        """Reveal `asked`: every answer to it scored."""
        for index, answer in asked.answers.items():
            self._revealed(asked, index, answer)
        asked.revealed = True

    def load(self, saved: list[dict[str, Any]]) -> None:
        """Take up the questions `Asked.to_dict` saved."""
        self.asked = [Asked.from_dict(a) for a in saved]
        for asked in self.asked:
            asked.lesson = self._lesson

    def answer(self, index: int, seat: int, question: int, answer: Any) -> Any:
        """Student `index`'s answer to question `question` (checked; ClassError if it cannot be taken)."""
        asked = self.open_question
        if asked is None or asked.index != question:
            raise ClassError(f"Question {quote(question)} is not open (answers are taken until the reveal)")
        if index in asked.answers:
            raise ClassError(f"Question {question} is already answered: answers are final")
        if seat not in asked.questions:
            raise ClassError(f"Question {question} is not asked of {seat}")
        q = asked.questions[seat]
        form = self._asked_form(asked, seat)
        value = check_answer(q, answer, form.get("candidates"))
        asked.answers[index] = value
        asked.times[index] = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
        return value

    def _asked_form(self, asked: Asked, seat: int) -> dict[str, Any]:
        return ask(self._lesson.replay, asked.questions[seat])["form"]

    def _scorer(self, asked: Asked, seat: int) -> Callable[[Any], dict[str, Any]]:
        key = (asked.index, seat)
        if key not in self._scorers:
            self._scorers[key] = revealer(self._lesson.replay, asked.questions[seat], seed=asked.index,
                                          n=self._lesson.worlds)
        return self._scorers[key]

    def revealed(self, asked: Asked, index: int) -> dict[str, Any]:
        """Student `index`'s reveal of `asked` (their answer scored)."""
        return self._revealed(asked, index, asked.answers[index])

    def _revealed(self, asked: Asked, index: int, answer: Any) -> dict[str, Any]:
        key = (asked.index, index)
        if key not in self._reveals:
            self._reveals[key] = self._scorer(asked, self._seat_for(index, asked))(answer)
        return self._reveals[key]

    def _seat_for(self, index: int, asked: Asked) -> int:
        seat = self._lesson.seat_of(self._lesson.room.assigned_seat(index))
        return seat if seat in asked.questions else next(iter(asked.questions))

    def quiz_state(self, index: int, name: str) -> dict[str, Any] | None:
        """The `quiz_state` a student sees: the latest question asked of their seat, their answer's
        state, and (once revealed) the reveal with their score.
        """
        if not self.asked:
            return None
        asked = self.asked[-1]
        seat = self._lesson.seat_of(self._lesson.room.assigned_seat(index))
        if seat not in asked.questions:
            return None
        shown = ask(self._lesson.replay, asked.questions[seat])
        answered = index in asked.answers
        reveal = None
        if asked.revealed:
            if answered:
                scored = self._public(self._revealed(asked, index, asked.answers[index]), seat)
                reveal = self._class_reveal(asked, reveal_text(scored, self._ahead(asked)))
            else:
                reveal = {"answer_text": "You did not answer this one.", "verdict": self._truth_line(asked, seat),
                          "rows": [], "note": ""}
        return {"seat": seat, "student": name, "total": len(self.asked), "index": asked.index, "done": False,
                "items": [], "class": True,
                "question": {"index": asked.index, "step": asked.step, "kind": asked.kind, "prompt": shown["prompt"],
                             "label": KIND_LABELS[asked.kind], "answered": answered, "form": shown["form"]},
                "answer": _jsonable(asked.answers.get(index)),
                "reveal": reveal, "summary": None,
                "waiting": WAITING if answered and not asked.revealed else None}

    def _ahead(self, asked: Asked) -> frozenset[str]:
        """What a pile-or-steal reveal would tell of steps the class has not reached: the draw made (at the
        question's step) and how the game ended. A forecast's or a needle's truth is the answer itself.
        """
        if asked.kind not in ("pile_or_steal", "your_move"):
            return frozenset()
        out = set()
        if self._lesson.reached < len(self._lesson.replay):
            out.add("result")
        if self._lesson.reached <= asked.step:
            out.add("played")
        return frozenset(out)

    def public_result(self, seat: int | None) -> str:
        """How the replay ended, as `seat` (None: the projector, the whole class) may read it at the
        furthest step shown: the ending's needle only once it is public (the class reached the end) or
        the seat's own.
        """
        result = self._lesson.replay.result
        assert result is not None  # asked only of a finished replay (`quiz.check_question`)
        text = result.describe()
        reached = self._lesson.reached >= len(self._lesson.replay)
        if result.needle is None or reached or seat == result.needle_owner:
            return text
        return text.replace(f" {result.needle}", "", 1)

    def _public(self, shown: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """A scored reveal with its "result" in the words `seat` may read (`public_result`)."""
        if "result" not in shown["truth"]:
            return shown
        return {**shown, "truth": {**shown["truth"], "result": self.public_result(seat)}}

    @staticmethod
    def _class_reveal(asked: Asked, reveal: dict[str, Any]) -> dict[str, Any]:
        """A quiz's reveal in a class's words: what is held back waits for the class to get there."""
        def words(text: str) -> str:
            text = HELD.sub("Held back until the class gets there", text)
            return text.replace(LATER, "revealed when the class gets there")
        return {**reveal, "verdict": words(reveal["verdict"]), "note": words(reveal["note"]),
                "rows": [{**row, "value": words(row["value"])} for row in reveal["rows"]]}

    def _truth_line(self, asked: Asked, seat: int, viewer: int | Literal["seat"] | None = "seat") -> str:
        """The truth of `asked` for `seat` in one sentence, in the words `viewer` may read (default
        `seat` itself; None: the whole class).
        """
        figures = self._scorer(asked, seat)
        form = self._asked_form(asked, seat)
        shown = figures(_sample(asked.kind, form))
        truth = shown["truth"]
        if asked.kind == "needle":
            return f"The needle was {truth['needle']}."
        if asked.kind == "pile_or_steal":
            return f"The better draw, by the model-free figures: {shown['score']['best']}."
        if asked.kind == "your_move":
            played = f" Played in the game: {truth['played']}." if self._lesson.reached > asked.step else ""
            return f"The best move found: {shown['score']['best']}.{played}"
        if asked.kind == "winner":
            return f"How it ended: {self.public_result(seat if viewer == 'seat' else viewer)}"
        return "Your next pile draw found your needle." if truth["outcome"] else \
            "Your next pile draw did not find your needle."

    def quiz_prompt(self, asked: Asked) -> str:
        """The words of `asked` (for the first seat asked)."""
        return ask(self._lesson.replay, next(iter(asked.questions.values())))["prompt"]

    def truth_line(self, asked: Asked) -> str:
        """The truth of `asked` in words (each seat's, where both were asked), as the whole class may
        read it (the projector's).
        """
        lines = [self._truth_line(asked, seat, None) for seat in sorted(asked.questions)]
        if len(lines) == 2 and lines[0] != lines[1]:
            return f"Player 1: {lines[0]} Player 2: {lines[1]}"
        return lines[0]

    def truth_value(self, asked: Asked) -> Any:
        """The answer a distribution marks as the truth (the needle's code, the better draw), or None:
        None for forecasts and where the two seats' truths differ.
        """
        if asked.kind not in ("needle", "pile_or_steal", "your_move") or len(asked.questions) != 1:
            return None
        seat = next(iter(asked.questions))
        shown = self._scorer(asked, seat)(_sample(asked.kind, self._asked_form(asked, seat)))
        return shown["truth"]["needle"] if asked.kind == "needle" else shown["score"]["best"]

    def moves_public(self, asked: Asked) -> bool:
        """Whether the whole class (the projector) may read a question's moves: not those of a "your move"
        question where each student sees their own seat (the moves name the asked seat's cards).
        """
        return asked.kind != "your_move" or self._lesson.perspective != "assigned"

    def move_values(self, asked: Asked, moves: list[str]) -> dict[str, float]:
        """Each move's value (the seat's win share over the review's worlds) at a your_move question asked of one
        seat; {} where both seats were asked (each at their own decision).
        """
        if asked.kind != "your_move" or len(asked.questions) != 1:
            return {}
        score = self._scorer(asked, next(iter(asked.questions)))
        return {m: score(m)["model"]["review"]["value"] for m in moves}

    def records(self) -> list[Answer]:
        """The answers to the revealed questions, as answer records (`teaching.answers.Answer`)."""
        out = []
        for asked in self.asked:
            if not asked.revealed:
                continue
            for index in sorted(asked.answers):
                shown = self._revealed(asked, index, asked.answers[index])
                out.append(Answer.from_reveal(shown, student=self._lesson.room.student_name(index),
                                              replay=self._lesson.title, time=asked.times.get(index)))
        return out


def _jsonable(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _sample(kind: str, form: dict[str, Any]) -> Any:
    """An answer to a question of `kind` (its truth is the same for every answer): the first candidate or option."""
    if kind == "needle":
        return (form.get("candidates") or ["pile"])[:1]
    if kind == "your_move":
        return form["options"][0]
    return "pile" if kind == "pile_or_steal" else 0.5
