"""Practice mode on a widget: a review's marked decisions practised one at a time, from the seat. No Jupyter.

`PracticeMode` drives a practice-mode `Session` with a `teaching.practicerun.PracticeRun`:

- the session shows the current exercise's position (`Exercise.position`: a live game at the decision
  drawn from the seat's view alone, never the real hidden cards), from the exercise's seat only, with
  no bots: the event list is the game up to the decision, in the seat's words;
- the student attempts a move with the normal buttons (the seat's "act" request): the session hands it
  to this feature (`Session.set_referee`), which never plays it. It is checked at once (a move not legal
  at the position is refused in words, and nothing changes), then judged by `Exercise.check` on the
  desk's worker (a `desk.Job`, as the review's decisions are: 0.1-0.6 s each, measured) while the
  kernel goes on answering; "Judging..." meanwhile. From Python (`attempt`) it is judged at once;
- "Try again", "Show the better move" and "Next" are requests that name the exercise they are for, so
  a second click of Next never skips an exercise; each is refused in words while a move is judged;
- "Next" moves to the next exercise's position and seat (the deck is answered: `PracticeRun.next`);
  after the last, the summary.

Everything in `state()` (the `practice_state` trait) comes from the exercise and the attempts: the
seat's view, its history, the review's figures for its candidates. Every figure of one exercise (an attempt's,
the better move's, the table's) is on the same worlds, as many as its values are over (`Exercise.values_worlds`):
a move never reads one value in the feedback and another in the table. Two games the seat cannot tell
apart give the same exercise, so the same state at every stage.

>>> from needle_widget import examples
>>> from needle_widget.review.exercises import exercise_at
>>> from needle_widget.screen.desk import Desk
>>> from needle_widget.teaching.practicerun import PracticeRun
>>> run = PracticeRun([exercise_at(examples.load("found_early"), 6, worlds=8)], student="ann")
>>> desk = Desk(Session(run.position(), 0, mode="practice"))
>>> practice = PracticeMode(desk, run)
>>> practice.state()["exercise"]["prompt"], desk.session.act_reason()
('Step 7: you played Discard 10♥. Find a better move.', None)
>>> practice.attempt(run.current.played)  # the move played: judged on the worker (here: at once)
>>> while (job := desk.next_job()) is not None:
...     job.run()
>>> practice.state()["phase"], practice.state()["feedback"]["text"]
('wrong', 'That is the move you played (Discard 10♥). Try another.')
"""

from __future__ import annotations

from typing import Any

from ..engine import actions as A
from ..engine.errors import ArgumentError
from ..engine.figures import percent
from ..engine.seats import Perspective, player_name
from ..review.exercises import Attempt, AttemptResult, Exercise
from ..teaching.practicerun import PracticeRun
from .desk import Desk, Job
from .plugin import Feature, Trait, request
from .reviewpanel import CANDIDATES_SHOWN, MARKS
from .session import Session, quote

__all__ = ["PracticeMode"]

JUDGING = "Judging your move"
"""What the panel (and the act buttons' reason) say while a move is judged."""
OUTCOMES = {AttemptResult.SOLVED: "solved", AttemptResult.TRY_AGAIN: "try_again", AttemptResult.SAME: "same"}


def _points(share: float) -> str:
    n = round(100 * share)
    return f"{n} point{'s' * (n != 1)}"


class PracticeMode(Feature):
    """A practice run on a practice-mode session (see the module docstring): the session's referee, the
    requests, the judging on the desk's worker and the `practice_state` trait.
    """

    name = "practice"
    absent = "practice mode"
    traits = {"practice_state": Trait(None, "Practice mode: {seat, student, total, index, phase: \"asking\" | "
                                            "\"judging\" | \"wrong\" | \"solved\" | \"shown\" | \"done\", exercise: "
                                            "None | {index, step, played, label, mark, words, prompt}, feedback: None "
                                            "| {outcome, text}, attempts: [{text, outcome, words, loss}], can: "
                                            "{retry, show, next}, solution: None | {text, worlds, caption, rows}, "
                                            "summary} (`practicemode.PracticeMode.state`); else None. The better "
                                            "move and the candidates' values are sent only once solved or shown.",
                                            fixed=True, view="practice")}

    @classmethod
    def attach(cls, desk: Any, **options: Any) -> PracticeMode | None:
        """The practice of a practice-mode widget (`practice=`, a PracticeRun), else None."""
        run = options.get("practice")
        return None if run is None else cls(desk, run)

    def __init__(self, desk: Desk, run: PracticeRun) -> None:
        session = desk.session
        if not session.judged:
            raise ArgumentError(f"PracticeMode needs a practice-mode session, not {session.mode} mode")
        if not isinstance(run, PracticeRun):
            raise ArgumentError(f"practice needs a PracticeRun, not {quote(run)}")
        self._desk, self.run = desk, run
        self._pending: tuple[int, A.Action] | None = None
        self._in_hand = False
        self._failed: str | None = None
        session.set_referee(self)
        desk.add_worker(self)
        self._show_position()

    @property
    def _session(self) -> Session:
        return self._desk.home

    def _show_position(self) -> None:
        """The session shows the current exercise's position, from its seat (unless it does already)."""
        x, s = self.run.current, self._session
        if x is None:
            return
        if s.whole().view(x.seat) != x.view or len(s.whole()) != x.step:
            game = self.run.position()
            names = game.players
            s.new_game(game)  # which keeps the seats' names: these are the new exercise's ("You" at its seat)
            game.players = names
        if s.screen != x.seat:
            s.set_screen(x.seat)
        s.show(x.seat)

    # ---- the session's referee ---------------------------------------------------------------------

    @property
    def judging(self) -> bool:
        """A move is being judged (on the worker)."""
        return self._pending is not None

    def act_reason(self) -> str | None:
        """None if the seat may make an attempt now; else why not (judging, or the run's phase)."""
        return f"{JUDGING}…" if self.judging else self.run.act_reason()

    def attempt(self, action: A.Action) -> None:
        """The seat's attempt (the "act" request hands it here): checked at once (an attempt awaited, the
        move legal at the position), then judged on the desk's worker.
        """
        if self.judging:
            raise ArgumentError(f"Cannot make an attempt now: {JUDGING.lower()}")
        self.run.check_attempt(action)
        self._failed = None
        self._pending = (self.run.index, action)

    def make_attempt(self, action: Any) -> None:
        """Python: attempt `action` (an Action or its dict), as the seat's buttons do; after a wrong attempt
        "Try again" is implied.
        """
        if isinstance(action, dict):
            action = A.from_dict(action)
        if not self.judging and self.run.phase == "wrong":
            self.run.check_attempt(action, retrying=True)
            self.run.retry()
        self.attempt(action)

    # ---- the desk's worker -------------------------------------------------------------------------

    def has_work(self, perspective: Perspective) -> bool:
        """A move waits to be judged, and is not in hand."""
        return self._pending is not None and not self._in_hand

    def next_job(self, perspective: Perspective) -> Job | None:
        """The judging of the waiting move (`PracticeRun.judge`), or None."""
        if not self.has_work(perspective):
            return None
        index, action = self._pending  # type: ignore[misc]
        exercise = self.run.exercises[index]
        self._in_hand = True

        def store(value: dict[str, Any]) -> None:
            self._pending, self._in_hand = None, False
            attempt = value.get("attempt")
            if isinstance(attempt, Attempt):
                self.run.record(index, attempt)
            else:
                self._failed = f"Could not judge {action}: {value.get('error') or 'no result'}"

        return Job(lambda: {"attempt": exercise.check(action)}, store)

    # ---- requests (checked first: a refusal changes nothing) ------------------------------------------

    def _check(self, index: Any, what: str) -> None:
        if self.judging:
            raise ArgumentError(f"Cannot {what} now: {JUDGING.lower()}")
        if type(index) is not int or index != self.run.index:
            shown = "the practice is finished" if self.run.done else f"the exercise shown is {self.run.index}"
            raise ArgumentError(f"Cannot {what} for exercise {quote(index)}: {shown}")

    @request("practice_retry", "index")
    def request_practice_retry(self, index: Any) -> None:
        """{kind: "practice_retry", index}: after a wrong attempt, try again (the position is as before)."""
        self._check(index, "try again")
        self.run.retry()

    @request("practice_show", "index")
    def request_practice_show(self, index: Any) -> None:
        """{kind: "practice_show", index}: show the better move and the candidates' values."""
        self._check(index, "show the better move")
        self.run.show()

    @request("practice_next", "index")
    def request_practice_next(self, index: Any) -> None:
        """{kind: "practice_next", index}: on to the next exercise (after the last: the summary)."""
        self._check(index, "go on")
        self.run.next()
        self._failed = None
        self._show_position()

    def retry(self) -> None:
        """Python: try again after a wrong attempt."""
        self.request_practice_retry(self.run.index)

    def show(self) -> None:
        """Python: show the better move."""
        self.request_practice_show(self.run.index)

    def next(self) -> None:
        """Python: on to the next exercise."""
        self.request_practice_next(self.run.index)

    # ---- the `practice_state` trait ---------------------------------------------------------------------

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """{"practice_state": `state()`}: one seat's practice, whatever the perspective (it shows only its seat)."""
        return {"practice_state": self.state()}

    def state(self) -> dict[str, Any]:
        """{seat, student, total, index, phase, exercise, feedback, attempts, can, solution, summary}: see the
        `practice_state` trait. The solution (the better move, every candidate's value) only once solved or
        shown; the summary once done.
        """
        run, x = self.run, self.run.current
        phase = "judging" if self.judging else run.phase
        out: dict[str, Any] = {
            "seat": self._session.screen, "student": run.student, "total": len(run.exercises),
            "index": run.index, "phase": phase, "exercise": None, "feedback": None, "attempts": [],
            "can": {"retry": phase == "wrong", "show": phase in ("asking", "wrong"), "next": phase not in
                    ("judging", "done")},
            "solution": None, "summary": run.summary(),
        }
        if x is None:
            return out
        symbol, words, _plural = MARKS[x.label]
        attempts = run.attempts()
        out["exercise"] = {"index": run.index, "step": x.step, "number": x.step + 1, "played": str(x.played),
                           "label": x.label, "mark": symbol, "words": words, "prompt": x.prompt(),
                           "seat_name": player_name(x.seat)}
        out["attempts"] = [{"text": str(a.action), "outcome": OUTCOMES[a.outcome], "words": MARKS[a.label][1],
                            "loss": _points(a.loss)} for a in attempts]
        out["feedback"] = self._feedback(phase, attempts, x)
        if phase in ("solved", "shown"):
            out["solution"] = self._solution(x, attempts)
        return out

    def _feedback(self, phase: str, attempts: tuple[Attempt, ...], x: Exercise) -> dict[str, Any] | None:
        if phase == "judging":
            _index, action = self._pending  # type: ignore[misc]
            return {"outcome": "judging", "text": f"{JUDGING} ({action})…"}
        if self._failed is not None:
            return {"outcome": "failed", "text": self._failed}
        if phase in ("wrong", "solved") and attempts:
            last = attempts[-1]
            return {"outcome": OUTCOMES[last.outcome], "text": last.message()}
        if phase == "shown":
            return {"outcome": "shown", "text": x.solution()}
        return None

    @staticmethod
    def _solution(x: Exercise, attempts: tuple[Attempt, ...]) -> dict[str, Any]:
        """The better move in words and the candidates' values: the best first, at most CANDIDATES_SHOWN,
        then the move played and the moves tried if not among them.
        """
        tried = {a.action: a for a in attempts}
        values = {v.action: (v.value, v.se) for v in x.values}
        for action, a in tried.items():
            values.setdefault(action, (a.value, a.se))
        ranked = sorted(values, key=lambda action: -values[action][0])
        shown = ranked[:CANDIDATES_SHOWN]
        shown += [a for a in ranked[CANDIDATES_SHOWN:] if a == x.played or a in tried]
        rows = [{"text": str(a), "value": round(values[a][0], 4), "wins": percent(values[a][0]),
                 "noise": f"±{_points(values[a][1])}", "best": a == x.best, "played": a == x.played,
                 "tried": a in tried} for a in shown]
        return {"text": x.solution(), "worlds": x.values_worlds, "rows": rows,
                "caption": f"Each move's wins in the same worlds you could not tell apart ({x.values_worlds:,} of "
                           "them, which judge every try), played on by GreedyBot for both seats"}
