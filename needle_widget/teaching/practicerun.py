"""One student's practice of a review's marked decisions: "You played X. Find a better move." No screen.

A `PracticeRun` takes exercises (`review.exercises`) one at a time, as lichess's "Learn from your
mistakes" does. For the exercise shown (`current`), the student may:

- make an attempt: judged by `Exercise.check` (the review's rule, on the same worlds): accepted, or
  "Try again" (the move played in the game is never accepted);
- after a wrong attempt, try again (`retry`): the position is as before;
- ask for the better move (`show`): `Exercise.solution()` and every candidate's value; no attempt after;
- move on (`next`), whatever the state: with a deck (`teaching.practice.Deck`) the practice of the
  exercise is answered (`Deck.answer`: Good at the first try, Hard after a retry, Again when shown or
  skipped) and the deck saved if it has a file. After the last exercise the run is done: `summary()`.

`phase` says where the run is: "asking" (an attempt is awaited), "wrong" (the last attempt was not
accepted), "solved", "shown" (the better move), "done". Each transition is checked first: a refusal
raises and changes nothing. An attempt is judged in three parts so that a screen may judge on another
thread: `check_attempt` (legal, now), `judge` (the figures: reads nothing that changes) and `record`.

Given a Deck instead of a list, the run practises the deck's exercises due now (the longest overdue
first) and answers that deck. `now` fixes the clock (a notebook's output stays the same); by default
the time is read at each answer.

>>> from needle_widget import examples
>>> from needle_widget.review.exercises import exercise_at
>>> run = PracticeRun([exercise_at(examples.load("found_early"), 0, worlds=8)], student="ann")
>>> run.phase, run.current.prompt()
('asking', 'Step 1: you played Choose needle A♣. Find a better move.')
>>> run.attempt(run.current.played).outcome.name, run.phase
('SAME', 'wrong')
>>> run.retry(); run.attempt(run.current.best).solved, run.phase
(True, 'solved')
>>> run.next(); run.phase, run.summary()["text"]
('done', 'You solved 1 of 1: 0 at the first try and 1 after trying again.')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from typing import Any

from ..engine.actions import Action
from ..engine.errors import ArgumentError, IllegalAction, InvalidAction, quote
from ..engine.game import Game
from ..review.exercises import Attempt, Exercise
from .practice import Deck, check_exercises, check_now

__all__ = ["PHASES", "PracticeResult", "PracticeRun"]

PHASES = ("asking", "wrong", "solved", "shown", "done")
"""Where a run is (see the module docstring)."""
MAX_STUDENT_LENGTH = 100
OPPONENT = "opponent"
"""The name of the seat across the table in a position (the exercise does not keep who played it)."""


@dataclass(frozen=True)
class PracticeResult:
    """How the practice of one exercise went: the attempts, whether the better move was shown, whether an
    attempt was accepted, whether the student moved on (`finished`), and with a deck when it comes back
    (`due`, set at `answered`).
    """

    exercise: Exercise
    student: str
    attempts: tuple[Attempt, ...] = ()
    shown: bool = False
    finished: bool = False
    answered: datetime | None = None
    due: datetime | None = None

    @property
    def solved(self) -> bool:
        """An attempt was accepted."""
        return any(a.solved for a in self.attempts)

    @property
    def first_try(self) -> bool:
        """Solved at the first attempt."""
        return bool(self.attempts) and self.attempts[0].solved

    @property
    def outcome(self) -> str:
        """In words: "solved at the first try", "solved after trying again", "better move shown", "skipped",
        or "not finished".
        """
        if self.first_try:
            return "solved at the first try"
        if self.solved:
            return "solved after trying again"
        if self.shown:
            return "better move shown"
        return "skipped" if self.finished else "not finished"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the exercise's key and step, the student, each attempt (its move, outcome and figures),
        shown, solved, finished, and the times (ISO 8601) or None.
        """
        return {"exercise": self.exercise.key, "step": self.exercise.step, "seat": self.exercise.seat,
                "student": self.student, "played": self.exercise.played.to_dict(),
                "attempts": [{"action": a.action.to_dict(), "outcome": a.outcome.value, "label": a.label,
                              "loss": a.loss, "se": a.se, "value": a.value, "worlds": a.worlds}
                             for a in self.attempts],
                "shown": self.shown, "solved": self.solved, "finished": self.finished,
                "answered": None if self.answered is None else self.answered.isoformat(),
                "due": None if self.due is None else self.due.isoformat()}


@dataclass
class _Record:
    attempts: list[Attempt] = field(default_factory=list)
    shown: bool = False
    finished: bool = False
    answered: datetime | None = None
    due: datetime | None = None
    wrong: bool = False
    """The last attempt was not accepted, and no "Try again" since."""


def check_student(student: Any) -> str:
    """`student` if it is a name for the records: text of 1 to 100 characters, not all spaces."""
    if not isinstance(student, str) or not student.strip() or len(student) > MAX_STUDENT_LENGTH:
        raise ArgumentError(f"student must be a name of 1 to {MAX_STUDENT_LENGTH} characters, not {quote(student)}")
    return student


def when_text(due: datetime, since: datetime) -> str:
    """"back in 10 minutes (2026-01-01 09:10 UTC)": when an exercise comes back, from the time it was answered.

    >>> when_text(datetime(2026, 1, 3, 9, 0, tzinfo=timezone.utc), datetime(2026, 1, 1, 9, 0, tzinfo=timezone.utc))
    'back in 2 days (2026-01-03 09:00 UTC)'
    """
    due = (due + timedelta(seconds=30)).replace(second=0, microsecond=0)  # to the minute shown
    seconds = max(0.0, (due - since).total_seconds())
    for unit, size in (("day", 86_400), ("hour", 3_600), ("minute", 60)):
        if seconds >= size or unit == "minute":
            n = max(1, round(seconds / size))
            break
    at = due.astimezone(timezone.utc).strftime("%Y-%m-%d %H:%M")
    return f"back in {n} {unit}{'s' * (n != 1)} ({at} UTC)"


class PracticeRun:
    """One student's practice of `exercises` (a list of Exercise, or a Deck: its exercises due now); see the
    module docstring. `deck`: a Deck to answer as the student moves on (the exercises not in it are added, due
    now); `seed` draws each position (`Exercise.position`); `now`: a fixed time for the deck (default: the
    clock, read at each answer).
    """

    def __init__(self, exercises: Iterable[Exercise] | Deck, *, student: str = "student", deck: Deck | None = None,
                 seed: int = 0, now: datetime | None = None) -> None:
        self.student = check_student(student)
        self._now = check_now(now)
        if deck is not None and not isinstance(deck, Deck):
            raise ArgumentError(f"deck must be a Deck (teaching.practice.Deck.open(path)), not {quote(deck)}")
        if type(seed) is not int or seed < 0:
            raise ArgumentError(f"seed must be a non-negative integer, not {quote(seed)}")
        if isinstance(exercises, Deck):
            if deck is not None and deck is not exercises:
                raise ArgumentError("Give the deck once: practice(deck), or practice(exercises, deck=deck)")
            deck, chosen = exercises, exercises.due(self.now())
            if not chosen:
                later = min((deck.when(x) for x in deck), default=None)
                raise ArgumentError("Nothing in this deck is due now" + ("" if later is None else
                                    f": the next exercise comes {when_text(later, self.now())}"))
        else:
            chosen = check_exercises(exercises, or_=" or a Deck")
            if not chosen:
                raise ArgumentError("There is nothing to practise: the reviews marked no decision "
                                    "(review.exercises(reviews, marks=...) chooses which marks)")
        positions = []
        for k, x in enumerate(chosen):  # every position drawn once, now: a view no game reaches is refused here
            try:
                positions.append(x.position(seed))
            except Exception as error:  # a view read from a file: whatever it breaks, the practice does not start
                raise ArgumentError(f"Exercise {k + 1} (step {x.step + 1}): its view is no position a game reaches "
                                    f"({type(error).__name__}: {str(error)[:160]})") from None
        if deck is not None and not isinstance(exercises, Deck):
            deck.add(chosen, self.now())
        self.exercises: tuple[Exercise, ...] = tuple(chosen)
        self._positions = positions
        self.deck = deck
        self.seed = seed
        self.index = 0
        """The exercise shown (`len(exercises)` once done)."""
        self._records = [_Record() for _ in self.exercises]

    def now(self) -> datetime:
        """The time the deck is read and answered at: the fixed `now`, else the clock (UTC)."""
        return self._now if self._now is not None else datetime.now(timezone.utc)

    # ---- where the run is ------------------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """Every exercise has been moved on from."""
        return self.index >= len(self.exercises)

    @property
    def current(self) -> Exercise | None:
        """The exercise shown (None once done)."""
        return None if self.done else self.exercises[self.index]

    @property
    def phase(self) -> str:
        """One of `PHASES`."""
        if self.done:
            return "done"
        record = self._records[self.index]
        if record.attempts and record.attempts[-1].solved:
            return "solved"
        if record.shown:
            return "shown"
        return "wrong" if record.wrong else "asking"

    def attempts(self, index: int | None = None) -> tuple[Attempt, ...]:
        """The attempts at exercise `index` (default: the one shown), in order."""
        return tuple(self._records[self._index(index)].attempts)

    def shown(self, index: int | None = None) -> bool:
        """Whether the better move of exercise `index` (default: the one shown) was shown."""
        return self._records[self._index(index)].shown

    def _index(self, index: int | None) -> int:
        i = self.index if index is None else index
        if type(i) is not int or not 0 <= i < len(self.exercises):
            raise ArgumentError(f"There is no exercise {quote(index)}: they are 0 to {len(self.exercises) - 1}")
        return i

    def act_reason(self) -> str | None:
        """None if an attempt may be made now; else why not, in words."""
        return {"asking": None, "wrong": "Press Try again to play another move, or Show the better move",
                "solved": "Solved: press Next for the next exercise",
                "shown": "The better move is shown: press Next for the next exercise",
                "done": "The practice is finished"}[self.phase]

    def position(self) -> Game:
        """A game at the current exercise's decision, drawn from its view alone (`Exercise.position(seed)`):
        the seat is "You", the other seat "opponent".
        """
        x = self.current
        if x is None:
            raise ArgumentError("The practice is finished: there is no position to show")
        game = self._positions[self.index].copy()
        names = ["You", OPPONENT]
        game.players = (names[x.seat], names[1 - x.seat])
        return game

    # ---- attempts --------------------------------------------------------------------------------------

    def check_attempt(self, action: Any, retrying: bool = False) -> Action:
        """`action` if the current exercise may be attempted with it now (`retrying`: or after a "Try again"
        that has not been asked for yet): refused in words otherwise (ArgumentError for the phase,
        InvalidAction for what is not an Action, IllegalAction for a move not legal at the position).
        """
        if not isinstance(retrying, bool):
            raise ArgumentError(f"retrying must be True or False, not {quote(retrying)}")
        reason = None if retrying and self.phase == "wrong" else self.act_reason()
        if reason is not None:
            raise ArgumentError(f"Cannot make an attempt now: {reason[0].lower()}{reason[1:]}")
        x = self.current
        assert x is not None
        legal = ", ".join(str(a) for a in x.legal[:8]) + (", ..." if len(x.legal) > 8 else "")
        if not isinstance(action, Action):
            raise InvalidAction(f"{quote(action)} not allowed: it is not an action (legal: {legal})")
        if action.to_dict() not in x.view["legal_actions"]:
            raise IllegalAction(f"{action} not allowed: it is not legal at this position (legal: {legal})")
        return action

    def judge(self, action: Action, index: int | None = None) -> Attempt:
        """`Exercise.check(action)` for exercise `index` (default: the one shown): the figures only, nothing
        recorded (it reads nothing that changes, so it may run on another thread).
        """
        return self.exercises[self._index(index)].check(action)

    def record(self, index: int, attempt: Attempt) -> None:
        """Record `attempt` (judged by `judge`) at exercise `index`, the one shown, in phase "asking"."""
        if index != self.index or self.phase != "asking":
            raise ArgumentError(f"Cannot record an attempt at exercise {quote(index)} now (showing {self.index}, "
                                f"{self.phase})")
        given: object = attempt  # checked: a caller may pass anything
        if not isinstance(given, Attempt):
            raise ArgumentError(f"attempt must be an Attempt (PracticeRun.judge(action)), not {quote(attempt)}")
        self._records[index].attempts.append(attempt)
        self._records[index].wrong = not attempt.solved

    def attempt(self, action: Action) -> Attempt:
        """Judge and record an attempt at the current exercise (`check_attempt`, `judge`, `record`)."""
        index = self.index
        attempt = self.judge(self.check_attempt(action), index)
        self.record(index, attempt)
        return attempt

    def retry(self) -> None:
        """After a wrong attempt: another attempt may be made (the position is as before)."""
        if self.phase != "wrong":
            raise ArgumentError(f"Nothing to try again: {self._words()}")
        self._records[self.index].wrong = False

    def show(self) -> None:
        """Show the better move (`Exercise.solution`); no attempt after it."""
        if self.phase not in ("asking", "wrong"):
            raise ArgumentError(f"Cannot show the better move now: {self._words()}")
        record = self._records[self.index]
        record.shown, record.wrong = True, False

    def next(self) -> datetime | None:
        """Move on to the next exercise (after the last: done). With a deck the practice of this one is
        answered and the deck saved if it has a file; when it comes back (None without a deck). If the deck's
        file cannot be written, ArgumentError, and the run and the deck are as before.
        """
        if self.done:
            raise ArgumentError("The practice is finished: there is no next exercise")
        record, x = self._records[self.index], self.exercises[self.index]
        due = None
        if self.deck is not None:
            at = self.now()
            due = self.deck.answer(x, record.attempts, record.shown, at, save=self.deck.path is not None)
            record.answered, record.due = at, due
        record.finished = True
        self.index += 1
        return due

    def _words(self) -> str:
        return {"asking": "no attempt is waiting", "wrong": "the last attempt was not accepted",
                  "solved": "this exercise is solved", "shown": "the better move is shown already",
                  "done": "the practice is finished"}[self.phase]

    # ---- the records -----------------------------------------------------------------------------------

    @property
    def results(self) -> tuple[PracticeResult, ...]:
        """How each exercise went so far, in order (one per exercise: those not reached have no attempt)."""
        return tuple(PracticeResult(x, self.student, tuple(r.attempts), r.shown, r.finished, r.answered, r.due)
                     for x, r in zip(self.exercises, self._records, strict=True))

    def summary(self) -> dict[str, Any] | None:
        """Once done: {title, text, rows: [{label, count}], items: [{index, step, played, outcome, due}], deck};
        else None. `due` ("back in 2 days (...)") and `deck` only with a deck.
        """
        if not self.done:
            return None
        results = self.results
        n = len(results)
        first = sum(r.first_try for r in results)
        later = sum(r.solved and not r.first_try for r in results)
        shown = sum(r.shown and not r.solved for r in results)
        skipped = n - first - later - shown
        text = f"You solved {first + later} of {n}: {first} at the first try and {later} after trying again"
        if shown:
            text += f"; the better move was shown for {shown}"
        if skipped:
            text += f"; {skipped} skipped"
        rows = [("Solved at the first try", first), ("Solved after trying again", later),
                ("Better move shown", shown), ("Skipped", skipped)]
        items = [{"index": k, "step": r.exercise.step + 1, "played": str(r.exercise.played), "outcome": r.outcome,
                  "due": None if r.due is None or r.answered is None else when_text(r.due, r.answered)}
                 for k, r in enumerate(results)]
        deck = None
        if self.deck is not None:
            kept = ("saved to its file" if self.deck.path is not None
                    else "kept in this session only: Deck.save(path) keeps it across sessions")
            deck = (f"Each exercise comes back when the schedule says (FSRS): sooner when it was hard. The deck "
                    f"holds {len(self.deck)} exercise{'s' * (len(self.deck) != 1)}, {kept}.")
        return {"title": f"Practice finished: {n} exercise{'s' * (n != 1)}", "text": text + ".",
                "rows": [{"label": label, "count": count} for label, count in rows if count or label != "Skipped"],
                "items": items, "deck": deck}
