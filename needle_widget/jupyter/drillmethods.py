"""QuizMethods and PracticeMethods: `NeedleWidget`'s quiz (`NeedleWidget.quiz`) and practice
(`NeedleWidget.practice`) from Python, as the browser answers and attempts.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..engine.errors import ArgumentError
from ..screen.plugin import Feature
from ..screen.practicemode import PracticeMode
from ..screen.quizmode import QuizMode
from ..teaching.answers import Answer, save_answers
from ..teaching.practicerun import PracticeResult
from ..teaching.quiz import QuizQuestion

__all__ = ["PracticeMethods", "QuizMethods"]


class _Drill:
    """What the drills' mixins need of the widget: its `mode`, its features (`_features`) and
    `_python(change, ...)`, which makes a change from Python (errors raised, every open view following).
    """

    if TYPE_CHECKING:
        _features: tuple[Feature, ...]
        mode: str

        def _python(self, change: Callable[..., None], *args: Any, **kwargs: Any) -> None: ...


class QuizMethods(_Drill):
    """A mixin of `NeedleWidget`: the quiz mode's questions and answers (see `_Drill` for what it needs)."""

    @property
    def _quiz(self) -> QuizMode | None:
        return next((f for f in self._features if isinstance(f, QuizMode)), None)

    def _require_quiz(self) -> QuizMode:
        if self._quiz is None:
            raise ArgumentError(f"This widget is in {self.mode} mode, not a quiz: use NeedleWidget.quiz(replay, seat)")
        return self._quiz

    @property
    def questions(self) -> tuple[QuizQuestion, ...]:
        """Quiz mode: the quiz's questions, in order (Python's list: the browser gets those reached)."""
        return self._require_quiz().run.questions

    @property
    def answers(self) -> tuple[Answer, ...]:
        """Quiz mode: the answer records so far, in question order (`answers.Answer`)."""
        return self._require_quiz().run.answers

    def save_answers(self, path: str | os.PathLike) -> None:
        """Quiz mode: write `answers` to `path` (.jsonl or .csv; `answers.save_answers`)."""
        save_answers(self.answers, path)

    def answer_question(self, answer: Any, index: int | None = None) -> None:
        """Quiz mode: answer question `index` (default the one shown), as the browser does: checked,
        revealed and locked (a second answer raises AnswerLocked).
        """
        self._python(self._require_quiz().answer, answer, index)

    def go_to_question(self, index: int) -> None:
        """Quiz mode: show question `index` (an answered one, or the first unanswered)."""
        self._python(self._require_quiz().go, index)


class PracticeMethods(_Drill):
    """A mixin of `NeedleWidget`: the practice mode's attempts and results (see `_Drill` for what it needs)."""

    def _require_practice(self) -> PracticeMode:
        found = next((f for f in self._features if isinstance(f, PracticeMode)), None)
        if found is None:
            raise ArgumentError(f"This widget is in {self.mode} mode, not practice: use "
                                "NeedleWidget.practice(exercises)")
        return found

    @property
    def practice_results(self) -> tuple[PracticeResult, ...]:
        """Practice mode: how each exercise went so far, in order (`PracticeResult`: attempts, shown, solved,
        finished, and with a deck when it comes back).
        """
        return self._require_practice().run.results

    def attempt(self, action: Any) -> None:
        """Practice mode: attempt `action` (an Action or its dict) at the exercise shown, as the seat's buttons
        do: judged at once, never played (after a wrong attempt, "Try again" is implied).
        """
        self._python(self._require_practice().make_attempt, action)

    def try_again(self) -> None:
        """Practice mode: after a wrong attempt, try again (the position is as before)."""
        self._python(self._require_practice().retry)

    def show_solution(self) -> None:
        """Practice mode: show the better move and every candidate's value ("Show the better move")."""
        self._python(self._require_practice().show)

    def next_exercise(self) -> None:
        """Practice mode: on to the next exercise ("Next"; the deck, if any, is answered and saved); after the
        last, the summary.
        """
        self._python(self._require_practice().next)
