"""Quiz mode on a widget: one student's run through a quiz, asked and revealed in the browser. No Jupyter.

`QuizMode` drives a quiz-mode `Session` (a replay shown from one seat, cut at the step the
quiz has reached) with an `answers.QuizRun`:

- the current question (`index`) is shown at its step; the student may look back at any
  step up to the furthest question reached, never past it (`Session.set_horizon`);
- while a question at or before the step reached is unanswered the seat's odds are hidden
  (`hides_odds`: the info panel would show the model-free answer);
- an answer is a request Python validates (`request_quiz_answer`); once accepted it is
  revealed and locked (`QuizRun`); the reveal is in the state only after that, and what
  would give an open question away (who won, a later draw, the needle for another needle
  question) waits until every question is answered (`withheld`);
- the list of questions shows only those reached: a later one's step would tell how long
  the game goes on;
- `request_quiz_go` goes back to an answered question or on to the first unanswered one;
  once every question is answered the whole replay opens, still from the seat.

`state()` is the `quiz_state` trait, and `reveal_text` turns a reveal into the words and rows the
widget shows (nothing in it before the answer is committed).

>>> from needle_widget import examples
>>> from needle_widget.teaching.answers import QuizRun
>>> from needle_widget.teaching.quiz import questions_from_notes
>>> from needle_widget.screen.session import Session
>>> replay = examples.load("detective")
>>> session = Session(replay=replay, perspective=0, mode="quiz", spoilers=False)
>>> run = QuizRun(replay, questions_from_notes(replay, 0), student="ann", replay_name="detective", n=20)
>>> quiz = QuizMode(session, run)
>>> session.step, session.steps, quiz.state()["question"]["prompt"], quiz.state()["reveal"]
(2, 2, 'Which is the better draw here, pile or steal?', None)
>>> quiz.request_quiz_answer(0, "pile")
>>> quiz.state()["reveal"]["rows"][-1]["value"]  # four questions are still open
'Held back until you have answered every question: who won would answer an open question'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from ..engine.cards import Card
from ..engine.errors import ArgumentError, quote
from ..engine.figures import brier, interval, percent
from ..engine.seats import Perspective, player_name
from ..teaching.answers import QuizRun
from ..teaching.quiz import QuizQuestionError
from .notepad import KIND_LABELS
from .plugin import Feature, Trait, request
from .session import Session

__all__ = ["QuizMode", "HIDDEN_INFO", "ITEM_LABELS", "WAITING", "answer_sent", "hidden_info", "quiet_notes",
           "quiz_overlay", "reveal_text", "summary"]

HIDDEN_INFO = {"kind": "quiz", "text": "The odds appear once you have answered."}
"""The info panel while the current question is unanswered."""
ITEM_LABELS = {"needle": "Needle", "next_draw": "Next draw", "winner": "Winner", "pile_or_steal": "Pile or steal",
               "your_move": "Your move"}
CHOICE_LABELS = {"pile": "Draw from the pile", "steal": "Steal"}
MODELS_NOTE = ("Model-free: every deal the seat's view allows is equally likely. GreedyBot model: the same, "
               "weighed by how likely a GreedyBot opponent was to play as it did.")


WAITING = "Sent: the teacher reveals the answer to everyone at once."
"""What a class screen says of its answer, sent and not yet revealed."""


def hidden_info(info: dict[str, Any], hides_odds: bool) -> dict[str, Any]:
    """The info panel under a quiz: `HIDDEN_INFO` while `hides_odds` (the odds would give the answer away)."""
    return dict(HIDDEN_INFO) if hides_odds else info


def quiet_notes(notes: Any) -> list[dict[str, Any]]:
    """The notes shown while a question is open: their words, not their own questions (a note's question would
    compete with the one asked, beside it).
    """
    return [{**note, "question": None} for note in notes or []]


def quiz_overlay(state: dict[str, Any], quiz: dict[str, Any] | None) -> dict[str, Any]:
    """A screen's state under its quiz, `quiz` (the `quiz_state` trait, or None): the one place a question asked
    changes what a screen shows. While the question shown waits for its reveal, the odds are hidden
    (`hidden_info`) and the notes' own questions are quiet (`quiet_notes`). A quiz-mode widget's own rule of
    which questions hide the odds is `QuizMode.hides_odds` (through `hidden_info` too).

    >>> shown = quiz_overlay({"info": {"kind": "player"}, "shown_notes": []}, {"reveal": None})
    >>> shown["info"] == HIDDEN_INFO, shown["quiz_state"]
    (True, {'reveal': None})
    """
    waiting = quiz is not None and quiz.get("reveal") is None
    out = {**state, "quiz_state": quiz, "info": hidden_info(state.get("info", {}), waiting)}
    if waiting:
        out["shown_notes"] = quiet_notes(state.get("shown_notes"))
    return out


def answer_sent(quiz: dict[str, Any], answer: Any) -> dict[str, Any]:
    """A class screen's quiz once its answer to the question shown is sent, before the room's word comes back:
    answered (answers are final), with the answer and what happens next.
    """
    return {**quiz, "question": {**quiz["question"], "answered": True}, "answer": answer, "waiting": WAITING}


def _cards(codes: Any) -> str:
    return " ".join(str(Card.parse(c)) for c in codes)


def _top(top: list) -> str:
    return ", ".join(f"{Card.parse(code)} {percent(p)}" for code, p in top)


LATER = "revealed when the quiz is done: a question still open would give it away"


def _held(why: str) -> str:
    """A row's value while its truth is withheld: what is held back, until when, and why."""
    return f"Held back until you have answered every question: {why}"


def reveal_text(shown: dict[str, Any], withheld: frozenset[str] = frozenset()) -> dict[str, Any]:
    """{answer_text, verdict, rows: [{label, value}], note}: a `quiz.reveal` in words.

    `withheld` (see `QuizMode.withheld`) names the truths kept back while other questions are
    open: "truth" (the needle, what the next pile draw brought, who won), "played" (the draw
    made in the game), "result" (how the game ended).
    """
    kind, seat = shown["question"]["kind"], shown["question"]["seat"]
    truth, model, score, answer = shown["truth"], shown["model"], shown["score"], shown["answer"]
    free, greedy = model.get("free"), model.get("greedy")
    hidden = "truth" in withheld
    rows: list[tuple[str, str]]
    if kind == "needle":
        needle = str(Card.parse(truth["needle"]))
        held = (f"Your cards held {percent(score['coverage'])} of the odds; the three likeliest held "
                f"{percent(score['best_coverage'])}.")
        verdict = (f"{player_name(1 - seat)}'s needle is {LATER}. {held}" if hidden else
                   f"{'Found it' if score['hit'] else 'Not among your cards'}: {player_name(1 - seat)}'s "
                   f"needle was {needle}. {held}")
        answer_text = f"You chose {_cards(answer)}."
        rows = [("Their needle", _held("another needle question is still open") if hidden else needle),
                ("Your cards' share of the odds", f"{percent(free['coverage'])} model-free, "
                                                  f"{percent(greedy['coverage'])} with the GreedyBot model")]
        if not hidden:
            rows.append(("The needle's odds", f"{percent(free['truth_odds'])} model-free, "
                                              f"{percent(greedy['truth_odds'])} with the GreedyBot model"))
        rows += [("Likeliest, model-free", _top(free["top"])), ("Likeliest, GreedyBot model", _top(greedy["top"]))]
        note = MODELS_NOTE
    elif kind == "pile_or_steal":
        shares, best = free["shares"], free["best"]
        other = "steal" if best == "pile" else "pile"
        head = "The better draw" if answer == best else "Not the better draw"
        verdict = (f"{head}: in the same {free['n']} possible worlds, played on by GreedyBots, "
                   f"{best} wins {percent(shares[best])} for {player_name(seat)} and {other} {percent(shares[other])}.")
        answer_text = f"You chose: {CHOICE_LABELS[answer].lower()}."
        low, high = free["intervals"]["pile"], free["intervals"]["steal"]
        played = CHOICE_LABELS[truth["played"]] if truth["played"] else "–"
        rows = [("After a pile draw, model-free", f"{percent(shares['pile'])} wins ({interval(*low)})"),
                ("After a steal, model-free", f"{percent(shares['steal'])} wins ({interval(*high)})"),
                ("With the GreedyBot model", f"pile {percent(greedy['shares']['pile'])}, "
                                             f"steal {percent(greedy['shares']['steal'])}"),
                ("Played in the game", _held("an open question comes at this step or before it")
                 if "played" in withheld else played),
                ("How it ended", _held("who won would answer an open question")
                 if "result" in withheld else truth["result"])]
        note = "Each draw is made in the same possible worlds drawn from the seat's view; two GreedyBots play on."
        if {"played", "result"} & withheld:
            note += f" What happened in the game is {LATER}."
    elif kind == "your_move":
        judged, mark = model["review"], score["mark"]
        head = ("The best move found" if answer == score["best"] else "About as good as the best"
                if mark in ("best", "good") else f"A{'n' * (mark == 'inaccuracy')} {mark}")
        lost = round(100 * score["loss"])
        verdict = (f"{head}: {answer} wins {percent(judged['value'])} of {judged['worlds']} worlds you could not tell "
                   f"apart; the best found, {score['best']}, wins {percent(judged['best_value'])}"
                   + (f" (you give up {lost} point{'s' * (lost != 1)}, ±{round(100 * score['se'])})." if lost else "."))
        answer_text = f"You chose: {answer}."
        top = sorted(judged["values"], key=lambda v: -v["value"])[:5]
        rows = [("Your move", f"{answer}: {mark}, {percent(judged['value'])} wins"),
                ("Best move found", f"{score['best']}: {percent(judged['best_value'])} wins"),
                ("Moves valued", ", ".join(f"{v['move']} {percent(v['value'])}" for v in top)),
                ("Played in the game", _held("an open question comes at this step or before it")
                 if "played" in withheld else truth["played"]),
                ("How it ended", _held("who won would answer an open question")
                 if "result" in withheld else truth["result"])]
        note = ("Each move is played in the same worlds drawn from your view, then GreedyBots play on, as the review "
                "values a decision; the mark is the review's (docs/REVIEW.md).")
        if {"played", "result"} & withheld:
            note += f" What happened in the game is {LATER}."
    else:
        outcome = truth["outcome"]
        answer_text = f"You said {percent(answer)}."
        rows = [("Your forecast", percent(answer)), ("Model-free forecast", percent(free["forecast"])),
                ("GreedyBot-model forecast", percent(greedy["forecast"]))]
        note = MODELS_NOTE
        if hidden:
            what = "Who won" if kind == "winner" else "What your next pile draw brought"
            verdict = f"{what} is {LATER}; so are the Brier scores."
        else:
            if kind == "winner":
                happened = truth["result"]
            elif truth["draw_step"] is None:
                happened = "The round ended before your next pile draw: the needle was not found by one."
            else:
                drawn = str(Card.parse(truth["drawn"]))
                happened = (f"Your next pile draw (step {truth['draw_step'] + 1}) was {drawn}: "
                            + ("your needle." if outcome else f"not your needle {Card.parse(truth['needle'])}."))
            verdict = (f"{happened} Your Brier score: {brier(score['brier'])} (model-free "
                       f"{brier(score['model_brier'])}, GreedyBot model {brier(score['greedy_brier'])}; "
                       "0 is perfect, lower is better).")
            rows[1:1] = [("What happened", "yes (1)" if outcome else "no (0)")]
            rows.append(("Brier: you / model-free / GreedyBot",
                         f"{brier(score['brier'])} / {brier(score['model_brier'])} / {brier(score['greedy_brier'])}"))
    return {"answer_text": answer_text, "verdict": verdict, "rows": [{"label": a, "value": b} for a, b in rows],
            "note": note}


def _short(shown: dict[str, Any], withheld: frozenset[str]) -> str:
    """The item list's verdict: a few words (nothing withheld)."""
    kind, score = shown["question"]["kind"], shown["score"]
    if kind == "needle":
        return f"{percent(score['coverage'])} of the odds" if "truth" in withheld else \
            f"{'hit' if score['hit'] else 'miss'}, {percent(score['coverage'])}"
    if kind == "pile_or_steal":
        return "better draw" if score["vs_best"] == 0 else "not the better draw"
    if kind == "your_move":
        return score["mark"]
    return "answered" if "truth" in withheld else f"Brier {brier(score['brier'])}"


def _of(k: int, n: int) -> str:
    return f"{k} of {n}"


def summary(reveals: list[dict[str, Any]]) -> dict[str, Any]:
    """The end of a quiz in words and figures, from its reveals: {title, text, rows: [{label, you, free,
    greedy}], calibration: [{band, count, said, happened}], note}. The rows put the student beside the
    models on the same questions: the mean Brier score of the forecasts (next draw, who wins), the
    needles found among the three cards chosen (a model chooses its three likeliest), and the better
    draw chosen (by the model-free figures). `calibration` groups the forecasts by what was said (the
    bands with a forecast in them), beside how often it happened.

    >>> from needle_widget import examples
    >>> from needle_widget.teaching.answers import QuizRun
    >>> from needle_widget.teaching.quiz import QuizQuestion
    >>> run = QuizRun(examples.load("detective"), [QuizQuestion(36, "winner", 0), QuizQuestion(44, "winner", 0)],
    ...               student="ann", replay_name="detective", n=20)
    >>> _ = run.answer(0, 0.3), run.answer(1, 0.8)
    >>> s = summary([run.revealed(0), run.revealed(1)])
    >>> s["title"], s["rows"][0]["label"], [b["band"] for b in s["calibration"]]
    ('Quiz finished: 2 questions', 'Forecasts: mean Brier score (2)', ['20%–40%', '80%–100%'])
    """
    forecasts = [r for r in reveals if r["question"]["kind"] in ("next_draw", "winner")]
    needles = [r for r in reveals if r["question"]["kind"] == "needle"]
    draws = [r for r in reveals if r["question"]["kind"] == "pile_or_steal"]
    moves = [r for r in reveals if r["question"]["kind"] == "your_move"]
    rows: list[dict[str, str]] = []
    parts: list[str] = []
    if forecasts:
        you, free, greedy = (sum(r["score"][k] for r in forecasts) / len(forecasts)
                             for k in ("brier", "model_brier", "greedy_brier"))
        rows.append({"label": f"Forecasts: mean Brier score ({len(forecasts)})", "you": brier(you),
                     "free": brier(free), "greedy": brier(greedy)})
        beaten = [name for name, value in (("the model-free model", free), ("the GreedyBot model", greedy))
                  if you < value]
        parts.append(f"Your forecasts scored {brier(you)} (0 is perfect, lower is better): "
                     + (f"better than {' and '.join(beaten)}." if beaten else "the models did better."))
    if needles:
        hits = [sum(r["truth"]["needle"] in [c for c, _ in r["model"][m]["top"]] for r in needles)
                for m in ("free", "greedy")]
        mine = sum(bool(r["score"]["hit"]) for r in needles)
        rows.append({"label": f"Needles among the three cards chosen ({len(needles)})", "you": _of(mine, len(needles)),
                     "free": _of(hits[0], len(needles)), "greedy": _of(hits[1], len(needles))})
        parts.append(f"Your cards held the needle in {_of(mine, len(needles))} questions.")
    if draws:
        mine = sum(r["score"]["vs_best"] == 0 for r in draws)
        greedy = sum(r["model"]["greedy"]["best"] == r["model"]["free"]["best"] for r in draws)
        rows.append({"label": f"The better draw, by the model-free figures ({len(draws)})",
                     "you": _of(mine, len(draws)), "free": _of(len(draws), len(draws)),
                     "greedy": _of(greedy, len(draws))})
        parts.append(f"You chose the better draw in {_of(mine, len(draws))} questions.")
    if moves:
        fine = sum(r["score"]["mark"] in ("best", "good") for r in moves)
        lost = sum(r["score"]["loss"] for r in moves) / len(moves)
        rows.append({"label": f"Your moves the review would not mark ({len(moves)})", "you": _of(fine, len(moves)),
                     "free": "–", "greedy": "–"})
        parts.append(f"{_of(fine, len(moves))} of your moves were as good as the best found, within the review's "
                     f"noise; on average you gave up {round(100 * lost)} points of win chance.")
    bands = []
    if forecasts:
        said = [float(r["answer"]) for r in forecasts]
        happened = [int(r["truth"]["outcome"]) for r in forecasts]
        for k in range(5):
            lo, hi = k / 5, (k + 1) / 5
            inside = [j for j, p in enumerate(said) if lo <= p < hi or (k == 4 and p == 1)]
            if inside:
                yes = sum(happened[j] for j in inside)
                bands.append({"band": interval(lo, hi), "count": len(inside),
                              "said": percent(sum(said[j] for j in inside) / len(inside)),
                              "happened": f"{_of(yes, len(inside))} ({percent(yes / len(inside))})"})
    n = len(reveals)
    return {"title": f"Quiz finished: {n} question{'s' * (n != 1)}", "text": " ".join(parts), "rows": rows,
            "calibration": bands,
            "note": "The models answer the same questions from the same view: model-free (every deal the view "
                    "allows equally likely) and the GreedyBot model (weighed by how a GreedyBot opponent plays). "
                    "Calibration: a good forecaster's 30% happens about 30% of the time, over many questions."}


class QuizMode(Feature):
    """A quiz run on a quiz-mode session: which question is shown, the answer requests, the `quiz_state`
    trait; while a question reached is open, the info panel hides the odds (`info`).
    """

    name = "quiz"
    absent = "quiz mode"
    traits = {"quiz_state": Trait(None, "Quiz mode: {seat, student, total, index, done, items, question: {index, "
                                        "step, kind, prompt, form, answered}, reveal: None | {answer_text, verdict, "
                                        "rows, note}, summary} (`quizmode.QuizMode.state`); else None. The reveal "
                                        "(the truth) is sent only once the question is answered.",
                                        fixed=True, view="quiz")}

    @classmethod
    def attach(cls, desk: Any, **options: Any) -> QuizMode | None:
        """The quiz of a quiz-mode widget (`run=`, a QuizRun; `clock=` stamps the answers), else None."""
        run = options.get("run")
        return None if run is None else cls(desk.session, run, clock=options.get("clock"))

    def synced(self, perspective: Perspective) -> dict[str, Any]:
        """{"quiz_state": `state()`}: one seat's quiz, whatever the perspective (a quiz shows only its seat)."""
        return {"quiz_state": self.state()}

    def info(self, info: dict[str, Any]) -> dict[str, Any]:
        """HIDDEN_INFO while `hides_odds()`, else `info` (`hidden_info`)."""
        return hidden_info(info, self.hides_odds())

    def __init__(self, session: Session, run: QuizRun, clock: Callable[[], str | None] | None = None) -> None:
        if not session.mode_rules.horizon:
            raise ArgumentError(f"QuizMode needs a quiz-mode session, not {session.mode} mode")
        seat = cast(int, session.screen)  # a quiz-mode screen is a seat (SCREENS["quiz"]: 0 or 1)
        if not run.questions:
            raise QuizQuestionError(f"A quiz needs at least one question for {player_name(seat)}: "
                                    "give questions=, or notes with questions the seat may read")
        seats = {q.seat for q in run.questions}
        if seats != {session.screen}:
            raise QuizQuestionError(f"Every question must be for the quiz's seat, {player_name(seat)} "
                                    f"({session.screen}); got seats {sorted(seats)}")
        self.session, self.run, self._clock = session, run, clock
        self.index = 0
        self._reached = 0
        self._asked: dict[int, dict[str, Any]] = {}
        self._move(0)

    @property
    def done(self) -> bool:
        """Every question is answered."""
        return len(self.run.answers) == len(self.run.questions)

    def hides_odds(self) -> bool:
        """The seat's odds are hidden while a question at or before the step reached is unanswered
        (they would give its model's answer away, at any step shown).
        """
        horizon = self.session.horizon or 0
        return any(self.run.revealed(j) is None and q.step <= horizon for j, q in enumerate(self.run.questions))

    def withheld(self, index: int) -> frozenset[str]:
        """The truths of answered question `index` kept back while other questions are open, as
        they would give those away (see `reveal_text`): who won and how the game ended; the
        draw made in the game, and what the next pile draw brought, when an open question's
        step comes before it; the needle, while another needle question is open.
        """
        questions, run = self.run.questions, self.run
        open_ = [j for j in range(len(questions)) if run.revealed(j) is None]
        shown = run.revealed(index)
        if not open_ or shown is None:
            return frozenset()
        first, q = min(questions[j].step for j in open_), questions[index]
        out = set()
        if q.kind == "winner":
            out.add("truth")
        elif q.kind in ("pile_or_steal", "your_move"):
            out.add("result")
            if first < q.step + 1:
                out.add("played")
        elif q.kind == "next_draw":
            drawn = shown["truth"]["draw_step"]
            if drawn is None or first < drawn + 1:
                out.add("truth")
        elif any(questions[j].kind == "needle" for j in open_):
            out.add("truth")
        return frozenset(out)

    def _first_open(self) -> int | None:
        return next((i for i in range(len(self.run.questions)) if self.run.revealed(i) is None), None)

    def _move(self, index: int) -> None:
        self.index = index
        self._reached = max(self._reached, index)
        questions, session = self.run.questions, self.session
        horizon = len(session.full_record()) if self.done else max(
            q.step for q in questions[: self._reached + 1])
        session.set_horizon(max(horizon, session.horizon or 0), questions[index].step)

    # ---- requests (checked first: a refusal changes nothing) --------------------------------------

    def answer(self, answer: Any, index: int | None = None) -> None:
        """Python: answer question `index` (default the current one): validated, revealed and locked."""
        self.request_quiz_answer(self.index if index is None else index, answer)

    def go(self, index: int) -> None:
        """Python: show question `index` (any answered one, or the first unanswered)."""
        self.request_quiz_go(index)

    @request("quiz_answer", "index", "answer")
    def request_quiz_answer(self, index: Any, answer: Any) -> None:
        """{kind: "quiz_answer", index, answer}: the answer to the current question."""
        if type(index) is not int or index != self.index:
            raise ArgumentError(f"Cannot answer question {quote(index)}: the question shown is {self.index}")
        self.run.answer(index, answer, time=self._clock() if self._clock else None)
        if self.done:
            self._move(self.index)

    @request("quiz_go", "index")
    def request_quiz_go(self, index: Any) -> None:
        """{kind: "quiz_go", index}: go to an answered question or to the first unanswered one."""
        total, first = len(self.run.questions), self._first_open()
        if type(index) is not int or not 0 <= index < total:
            raise ArgumentError(f"There is no question {quote(index)}: the questions are 0 to {total - 1}")
        if self.run.revealed(index) is None and index != first:
            raise ArgumentError(f"Cannot go to question {index} yet: answer question {first} first")
        self._move(index)

    # ---- the `quiz` trait -----------------------------------------------------------------------

    def _ask(self, index: int) -> dict[str, Any]:
        if index not in self._asked:
            self._asked[index] = self.run.ask(index)
        return self._asked[index]

    def state(self) -> dict[str, Any]:
        """{seat, student, total, index, done, items, question, reveal, summary}: see the widget's `quiz_state`
        trait. `summary` (`summary`) only once every question is answered.

        `items` lists the questions reached so far (a later one's step would tell how long the
        game goes on); `reveal` keeps back what `withheld` names until the quiz is done.
        """
        run, i = self.run, self.index
        asked, shown = self._ask(i), run.revealed(i)
        items = []
        for j, q in enumerate(run.questions[: self._reached + 1]):
            revealed = run.revealed(j)
            items.append({"index": j, "step": q.step, "kind": q.kind, "label": ITEM_LABELS[q.kind],
                          "answered": revealed is not None,
                          "verdict": None if revealed is None else _short(revealed, self.withheld(j))})
        q = run.questions[i]
        return {
            "seat": self.session.screen, "student": run.student, "total": len(run.questions), "index": i,
            "done": self.done, "items": items,
            "question": {"index": i, "step": q.step, "kind": q.kind, "prompt": asked["prompt"],
                         "label": KIND_LABELS[q.kind], "answered": shown is not None, "form": asked["form"]},
            "reveal": None if shown is None else reveal_text(shown, self.withheld(i)),
            # done: every question is answered, so each one's reveal is there
            "summary": summary([r for j in range(len(run.questions)) if (r := run.revealed(j)) is not None])
            if self.done else None,
        }
