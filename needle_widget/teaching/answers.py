"""Quiz answers: one student's run through a quiz, the answer records, their files, and the class's table.

`QuizRun` asks a replay's questions (`quiz`) one at a time, takes each answer once (then
it is locked) and keeps an `Answer` record of each reveal. `save_answers` writes records
as JSON Lines or CSV, `load_answers` and `load_folder` read them back (bounded: file size,
rows, files), and `class_table` and `calibration` give the teacher's view of a class:
each student's mean Brier score beside the models', and how often the forecasts in each
band of probability came true. No clock is read: a record's `time` is passed in.
"""

from __future__ import annotations

import csv
import io
import json
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.errors import NeedleError, finite
from ..engine.paths import check_path, write_text
from ..inference.outcomes import wilson
from ..inference.worlds import check_count, check_seed
from ..records.jsontext import parse
from .quiz import (
    CHOICES,
    QUIZ_WORLDS,
    AnswerError,
    AnswerFileError,
    AnswerLocked,
    QuizError,
    QuizQuestion,
    QuizQuestionError,
    _check_cards,
    _quote,
    ask,
    check_answer,
    check_question,
    reveal,
)

__all__ = [
    "ANSWER_FIELDS", "MAX_ANSWERS", "MAX_FILES", "MAX_FILE_BYTES", "Answer", "QuizRun", "calibration",
    "class_table", "load_answers", "load_folder", "rounded_dict", "save_answers", "SIGNIFICANT",
]

MAX_FILE_BYTES = 8 * 2**20
"""The largest answer file `load_answers` reads."""
MAX_ANSWERS = 100_000
"""The most answers one file (or one folder) may hold."""
MAX_FILES = 1000
"""The most answer files `load_folder` reads from one folder."""
MAX_STUDENT_LENGTH = 100
MAX_REPLAY_LENGTH = 200
MAX_TIME_LENGTH = 64
SIGNIFICANT = 6
"""Significant digits of each score field in an answer file (`save_answers`). Enough to leave every figure as it
was: a student's Brier score of a forecast given to three decimals is exact ((0.333 - 1)² = 0.444889), the
models' figures are estimates on a hundred-odd worlds (good to a few hundredths), and a small difference stays
non-zero (a draw's `vs_best` of -0.00004 is not the better draw; four decimals would make it 0, the better draw).
Only the float noise goes: 0.09000000000000002 is written 0.09."""


class QuizRun:
    """One student's pass through a quiz on a replay: ask, answer once, see the reveal; the records.

    `questions` (QuizQuestions or their dicts) are checked when the run is made
    (`check_question`: one that cannot be asked or revealed is refused then, before anyone
    answers). `answer(i, value, time=...)` validates the answer (a bad one raises
    AnswerError and leaves the question open), reveals, records an `Answer` and locks the
    question: a second answer raises AnswerLocked. The state a widget shows is `ask(i)`
    (with "index" and "answered") and `revealed(i)` (None before the answer).

    >>> from needle_widget import bots
    >>> from needle_widget.players.sim import play_game
    >>> run = QuizRun(play_game(bots.GreedyBot(), bots.GreedyBot(), seed=2).replay(),
    ...               [QuizQuestion(10, "winner", 0)], student="ann", replay_name="seed-2", n=20)
    >>> run.ask(0)["answered"], run.revealed(0)
    (False, None)
    >>> _ = run.answer(0, 0.25, time="2026-12-01T09:00:00Z")
    >>> run.answers[0].answer, run.ask(0)["answered"]
    (0.25, True)
    >>> run.answer(0, 0.5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    needle_widget.teaching.quiz.AnswerLocked: question 0 (winner at step 10) is already answered (0.25): ...
    """

    def __init__(self, replay: Any, questions: Iterable[QuizQuestion | dict], *, student: str, replay_name: str,
                 seed: int = 0, n: int = QUIZ_WORLDS) -> None:
        self.replay = replay
        self.questions: tuple[QuizQuestion, ...] = tuple(check_question(replay, q) for q in questions)
        Answer(student, replay_name, 0, "winner", 0, 0.0)  # checks the names the records will carry
        self.student, self.replay_name = student, replay_name
        self.seed, self.n = check_seed(seed), check_count(n)
        self._revealed: dict[int, dict[str, Any]] = {}
        self._answers: dict[int, Answer] = {}

    def _index(self, index: Any) -> int:
        if type(index) is not int or not 0 <= index < len(self.questions):
            raise QuizQuestionError(f"question index {_quote(index)} is not one of 0..{len(self.questions) - 1}")
        return index

    def ask(self, index: int) -> dict[str, Any]:
        """`ask(replay, question)` for question `index`, with "index" and "answered"."""
        i = self._index(index)
        return {**ask(self.replay, self.questions[i]), "index": i, "answered": i in self._answers}

    def answer(self, index: int, answer: Any, *, time: str | None = None) -> dict[str, Any]:
        """Answer question `index` once: the `reveal` dict; the record goes to `answers`."""
        i = self._index(index)
        q = self.questions[i]
        if i in self._answers:
            raise AnswerLocked(f"question {i} ({q.kind} at step {q.step}) is already answered "
                               f"({_quote(self._answers[i].answer)}): answers are final")
        shown = reveal(self.replay, q, answer, seed=self.seed, n=self.n)
        record = Answer.from_reveal(shown, student=self.student, replay=self.replay_name, time=time)
        self._revealed[i], self._answers[i] = shown, record
        return shown

    def revealed(self, index: int) -> dict[str, Any] | None:
        """The reveal of question `index`, or None while it is unanswered."""
        return self._revealed.get(self._index(index))

    @property
    def answers(self) -> tuple[Answer, ...]:
        """The records so far, in question order."""
        return tuple(self._answers[i] for i in sorted(self._answers))

    def save_answers(self, path: str | os.PathLike) -> None:
        """`save_answers(self.answers, path)`."""
        save_answers(self.answers, path)


# ---- answer records ---------------------------------------------------------------------------

ANSWER_FIELDS = ("student", "replay", "step", "kind", "seat", "answer", "truth", "brier", "model_forecast",
                 "model_brier", "greedy_forecast", "greedy_brier", "coverage", "greedy_coverage", "hit", "vs_best",
                 "greedy_vs_best", "time")
"""The fields of an answer record, in file order (the CSV header)."""
_FLOATS = ("brier", "model_forecast", "model_brier", "greedy_forecast", "greedy_brier", "coverage",
           "greedy_coverage", "vs_best", "greedy_vs_best")


@dataclass(frozen=True)
class Answer:
    """One student's answer to one question, with its score: a row of the class's table.

    `student` and `replay` (a name or id) are text; `step`, `kind`, `seat` the question;
    `answer` the normalized answer (a tuple of codes for needle); `truth` the needle's
    code, the outcome 0 or 1 (next_draw, winner) or the better draw by the model-free
    evaluation (pile_or_steal), or the best move found (your_move). Score fields are None where
    the kind has none: `brier`, `model_forecast`, `model_brier`, `greedy_forecast`, `greedy_brier`
    (next_draw, winner); `coverage`, `greedy_coverage`, `hit` (needle); `vs_best`, `greedy_vs_best`
    (pile_or_steal; your_move has `vs_best`, minus the review's loss). `time` is text passed in (e.g. an
    ISO 8601 time), or None.
    """

    student: str
    replay: str
    step: int
    kind: str
    seat: int
    answer: Any
    truth: Any = None
    brier: float | None = None
    model_forecast: float | None = None
    model_brier: float | None = None
    greedy_forecast: float | None = None
    greedy_brier: float | None = None
    coverage: float | None = None
    greedy_coverage: float | None = None
    hit: bool | None = None
    vs_best: float | None = None
    greedy_vs_best: float | None = None
    time: str | None = None

    def __post_init__(self) -> None:
        for name, limit in (("student", MAX_STUDENT_LENGTH), ("replay", MAX_REPLAY_LENGTH)):
            value = getattr(self, name)
            if type(value) is not str or not value.strip() or len(value) > limit:
                raise AnswerError(f"answer {name} {_quote(value)} is not 1 to {limit} characters of text")
        question = QuizQuestion(self.step, self.kind, self.seat)
        object.__setattr__(self, "answer", check_answer(question, self.answer))
        for name in _FLOATS:
            value = getattr(self, name)
            if value is not None and finite(value) is None:
                raise AnswerError(f"answer {name} {_quote(value)} is not a finite number or None")
            if value is not None:
                object.__setattr__(self, name, finite(value))
        if self.hit is not None and type(self.hit) is not bool:
            raise AnswerError(f"answer hit {_quote(self.hit)} is not true, false or None")
        if self.time is not None and (type(self.time) is not str or len(self.time) > MAX_TIME_LENGTH):
            raise AnswerError(f"answer time {_quote(self.time)} is not text of at most {MAX_TIME_LENGTH} characters")
        truth = self.truth
        if self.kind == "needle" and truth is not None:
            object.__setattr__(self, "truth", _check_cards(truth, None)[0] if isinstance(truth, str) else _bad(truth))
        elif self.kind in ("next_draw", "winner") and truth is not None:
            if truth not in (0, 1) or type(truth) not in (int, float):
                _bad(truth)
            object.__setattr__(self, "truth", int(truth))
        elif self.kind == "pile_or_steal" and truth is not None and truth not in CHOICES:
            _bad(truth)
        elif self.kind == "your_move" and truth is not None and type(truth) is not str:
            _bad(truth)

    @classmethod
    def from_reveal(cls, revealed: dict[str, Any], *, student: str, replay: str, time: str | None = None) -> Answer:
        """The record of a `reveal` dict, for `student` on `replay` (a name or id), at `time` (text)."""
        q = QuizQuestion.of(revealed["question"])
        score, model, truth = revealed["score"], revealed["model"], revealed["truth"]
        extra: dict[str, Any] = {}
        if q.kind == "needle":
            extra = {"truth": truth["needle"], "coverage": score["coverage"],
                     "greedy_coverage": score["greedy_coverage"], "hit": score["hit"]}
        elif q.kind == "pile_or_steal":
            extra = {"truth": score["best"], "vs_best": score["vs_best"], "greedy_vs_best": score["greedy_vs_best"]}
        elif q.kind == "your_move":
            extra = {"truth": score["best"], "vs_best": -score["loss"]}
        else:
            extra = {"truth": truth["outcome"], "brier": score["brier"], "model_forecast": model["free"]["forecast"],
                     "model_brier": model["free"]["brier"], "greedy_forecast": model["greedy"]["forecast"],
                     "greedy_brier": model["greedy"]["brier"]}
        return cls(student, replay, q.step, q.kind, q.seat, revealed["answer"], time=time, **extra)

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: every field in ANSWER_FIELDS order (a needle answer as a list of codes)."""
        data = {name: getattr(self, name) for name in ANSWER_FIELDS}
        if isinstance(data["answer"], tuple):
            data["answer"] = list(data["answer"])
        return data

    @classmethod
    def from_dict(cls, data: Any) -> Answer:
        """The record a `to_dict` gave; anything else raises AnswerError."""
        if not isinstance(data, dict):
            raise AnswerError(f"an answer record must be an object, not {_quote(data)}")
        unknown = sorted(str(k) for k in data if k not in ANSWER_FIELDS)
        missing = [k for k in ("student", "replay", "step", "kind", "seat", "answer") if k not in data]
        if unknown or missing:
            raise AnswerError("answer record: " + "; ".join(
                ([f"missing {', '.join(missing)}"] if missing else [])
                + ([f"unknown {', '.join(unknown)}"] if unknown else [])))
        return cls(**data)


def _bad(truth: Any) -> Any:
    raise AnswerError(f"answer truth {_quote(truth)} does not fit the question's kind")


def save_answers(answers: Iterable[Answer], path: str | os.PathLike) -> None:
    """Write `answers` to `path`: JSON Lines for a .jsonl suffix, CSV (header ANSWER_FIELDS) for .csv.

    In CSV a needle answer is its codes joined by spaces, None an empty cell, a bool
    true/false. Each score field is rounded to SIGNIFICANT significant digits (`rounded_dict`): `load_answers`
    gives back the answers as rounded. Another suffix raises AnswerFileError, as does anything but Answers.
    """
    rows = list(answers)
    given: Sequence[object] = rows  # checked: a caller may pass anything
    bad = [k for k, a in enumerate(given) if not isinstance(a, Answer)]
    if bad:
        raise AnswerFileError(f"save_answers: item {bad[0]} is {_quote(rows[bad[0]])}, not an Answer")
    kind = _suffix(path)
    if kind == "jsonl":
        text = "".join(_json_line(rounded_dict(a)) for a in rows)
    else:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(ANSWER_FIELDS)
        for a in rows:
            data = rounded_dict(a)
            writer.writerow([_cell(tuple(v) if name == "answer" and isinstance(v, list) else v)
                             for name, v in data.items()])
        text = out.getvalue()
    write_text(path, text, "save_answers", AnswerFileError)


def rounded_dict(answer: Answer) -> dict[str, Any]:
    """`answer.to_dict()` with each score field rounded to SIGNIFICANT significant digits: what `save_answers`
    writes (the answer itself stays as the student gave it).

    >>> rounded_dict(Answer("ann", "r", 3, "winner", 0, 0.7, truth=1, brier=(0.7 - 1) ** 2))["brier"]
    0.09
    """
    data = answer.to_dict()
    for name in _FLOATS:
        if data[name] is not None:
            data[name] = float(f"{data[name]:.{SIGNIFICANT}g}")
    return data


_LINE_BREAKS = {"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"}
"""Characters some readers take for a line break (`str.splitlines` does), escaped in a JSON line."""


def _json_line(data: dict[str, Any]) -> str:
    """One JSON Lines record: UTF-8 text, with nothing any reader could split it at but its final newline."""
    line = json.dumps(data, ensure_ascii=False)
    for char, escaped in _LINE_BREAKS.items():
        line = line.replace(char, escaped)
    return line + "\n"


def _suffix(path: object) -> str:
    name = str(check_path(path, "answer file", AnswerFileError))
    lower = name.lower()
    if lower.endswith(".jsonl"):
        return "jsonl"
    if lower.endswith(".csv"):
        return "csv"
    raise AnswerFileError(f"answer file {name!r} must end in .jsonl (JSON Lines) or .csv")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return " ".join(value)
    if isinstance(value, float):
        return repr(value)
    return str(value)


def _from_cells(row: dict[str, str]) -> dict[str, Any]:
    """A CSV row's cells as an answer record's values."""
    data: dict[str, Any] = {}
    kind = row.get("kind")
    for name, cell in row.items():
        if cell == "" and name not in ("student", "replay", "answer"):
            data[name] = None
        elif name in ("step", "seat"):
            data[name] = _number(cell, name, int)
        elif name in _FLOATS:
            data[name] = _number(cell, name, float)
        elif name == "hit":
            if cell not in ("true", "false"):
                raise AnswerError(f"hit {cell!r} is not true or false")
            data[name] = cell == "true"
        elif name == "answer":
            data[name] = cell.split() if kind == "needle" else (
                _number(cell, name, float) if kind in ("next_draw", "winner") else cell)
        elif name == "truth" and kind in ("next_draw", "winner"):
            data[name] = _number(cell, name, int)
        else:
            data[name] = cell
    return data


def _number(cell: str, name: str, kind: type) -> Any:
    try:
        return kind(cell)
    except ValueError:
        raise AnswerError(f"{name} {cell!r} is not {'an integer' if kind is int else 'a number'}") from None


def load_answers(path: str | os.PathLike) -> list[Answer]:
    """The answers in a .jsonl or .csv file `save_answers` wrote (blank JSON lines skipped).

    A file over MAX_FILE_BYTES, with more than MAX_ANSWERS rows, or with a bad row raises
    AnswerFileError naming the file (and the row: its line in a .jsonl file, its line after
    the header in a .csv file).
    """
    kind = _suffix(path)
    name = os.fspath(path)
    try:
        info = os.stat(path)
        if not stat.S_ISREG(info.st_mode):
            raise AnswerFileError(f"answer file {name!r} is not a regular file")
        if info.st_size > MAX_FILE_BYTES:
            raise AnswerFileError(f"answer file {name!r} is too big: {info.st_size:,} bytes, more than "
                                  f"{MAX_FILE_BYTES:,}")
        with open(path, encoding="utf-8", newline="") as f:
            text = f.read(MAX_FILE_BYTES + 1)
    except (OSError, UnicodeDecodeError) as error:
        raise AnswerFileError(f"cannot read answer file {name!r}: {error}") from None
    answers: list[Answer] = []
    if kind == "jsonl":  # JSON Lines: split at "\n" only (U+2028 and the like may sit inside a string)
        rows: Iterable[tuple[int, Any]] = ((k, line) for k, line in enumerate(text.split("\n"), 1) if line.strip())
    else:
        reader = csv.reader(io.StringIO(text))
        try:
            header = next(reader, None)
        except csv.Error as error:
            raise AnswerFileError(f"answer file {name!r}: the header is not CSV ({error})") from None
        if header is None or tuple(header) != ANSWER_FIELDS:
            raise AnswerFileError(f"answer file {name!r}: the header {_quote(header)} is not "
                                  f"{','.join(ANSWER_FIELDS)}")
        rows = _csv_rows(reader, name)
    for k, row in rows:
        if len(answers) >= MAX_ANSWERS:
            raise AnswerFileError(f"answer file {name!r}: more than {MAX_ANSWERS:,} answers")
        try:
            if kind == "jsonl":
                data = parse(row, "invalid JSON", AnswerError)
            else:
                if len(row) != len(ANSWER_FIELDS):
                    raise AnswerError(f"{len(row)} cells, not {len(ANSWER_FIELDS)}")
                data = _from_cells(dict(zip(ANSWER_FIELDS, row, strict=True)))
            answers.append(Answer.from_dict(data))
        except (NeedleError, TypeError) as error:
            raise AnswerFileError(f"answer file {name!r}, row {k}: {error}") from None
    return answers


def _csv_rows(reader: Any, name: str) -> Iterable[tuple[int, list[str]]]:
    """(row number, cells) of a CSV reader; a row the csv module refuses (a cell over its field limit,
    a bad quote) raises AnswerFileError naming it.
    """
    k = 0
    while True:
        k += 1
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            raise AnswerFileError(f"answer file {name!r}, row {k}: not CSV ({error})") from None
        yield k, row


def load_folder(folder: str | os.PathLike) -> list[Answer]:
    """Every answer of every .jsonl and .csv file directly in `folder`, files in name order.

    At most MAX_FILES files and MAX_ANSWERS answers in all; a bad file raises AnswerFileError naming it.
    """
    name = str(check_path(folder, "answer folder", AnswerFileError))
    try:
        entries = sorted(os.listdir(folder))
    except OSError as error:
        raise AnswerFileError(f"cannot read answer folder {name!r}: {error}") from None
    files = [e for e in entries if e.lower().endswith((".jsonl", ".csv"))]
    if len(files) > MAX_FILES:
        raise AnswerFileError(f"answer folder {name!r} has {len(files):,} answer files, more than {MAX_FILES:,}")
    answers: list[Answer] = []
    for entry in files:
        answers += load_answers(os.path.join(folder, entry))
        if len(answers) > MAX_ANSWERS:
            raise AnswerFileError(f"answer folder {name!r}: more than {MAX_ANSWERS:,} answers (at {entry!r})")
    return answers


def calibration(answers: Iterable[Answer], bins: int = 5) -> list[dict[str, Any]]:
    """Stated probability against observed frequency, over the next_draw and winner answers with a truth.

    `bins` equal bins of [0, 1] (the last includes 1), every bin listed: {"lo", "hi",
    "count", "mean_forecast", "observed", "interval"} (None where count is 0; `interval` the
    Wilson 95% interval of `observed`). A well-calibrated forecaster's `observed` is near
    its `mean_forecast` in every bin.

    >>> a = [Answer("ann", "r", 3, "winner", 0, 0.9, truth=1), Answer("ann", "r", 5, "winner", 0, 0.1, truth=1)]
    >>> [(b["lo"], b["count"], b["observed"]) for b in calibration(a, bins=2)]
    [(0.0, 1, 1.0), (0.5, 1, 1.0)]
    """
    if type(bins) is not int or not 1 <= bins <= 100:
        raise QuizError(f"bins must be an integer from 1 to 100, not {_quote(bins)}")
    groups: list[list[Answer]] = [[] for _ in range(bins)]
    for a in answers:
        if a.kind in ("next_draw", "winner") and a.truth is not None:
            groups[min(int(a.answer * bins), bins - 1)].append(a)
    out = []
    for k, group in enumerate(groups):
        count = len(group)
        hits = sum(a.truth for a in group)
        out.append({
            "lo": k / bins, "hi": (k + 1) / bins, "count": count,
            "mean_forecast": sum(a.answer for a in group) / count if count else None,
            "observed": hits / count if count else None,
            "interval": list(wilson(hits, count)) if count else None,
        })
    return out


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def class_table(folder: str | os.PathLike, *, bins: int = 5) -> list[dict[str, Any]]:
    """The teacher's view of a class: one row per student (by name) from every answer file in `folder`.

    Each row: "student", "answers" (how many), "forecasts" (next_draw and winner answers
    scored), "mean_brier" and "model_mean_brier" / "greedy_mean_brier" (the models' over
    the same questions: lower is better), "needles", "mean_coverage", "hits", "draws",
    "mean_vs_best", "moves" and "mean_move_loss" (your_move answers: the review's loss, 0..1),
    and "calibration" (`calibration` of the student's forecasts). Means are
    None when there is nothing to average.
    """
    answers = load_folder(folder)
    by_student: dict[str, list[Answer]] = {}
    for a in answers:
        by_student.setdefault(a.student, []).append(a)
    rows = []
    for student in sorted(by_student):
        mine = by_student[student]
        forecasts = [a for a in mine if a.brier is not None]
        needles = [a for a in mine if a.coverage is not None]
        draws = [a for a in mine if a.vs_best is not None and a.kind == "pile_or_steal"]
        moves = [a for a in mine if a.vs_best is not None and a.kind == "your_move"]
        rows.append({
            "student": student, "answers": len(mine), "forecasts": len(forecasts),
            "mean_brier": _mean([a.brier for a in forecasts if a.brier is not None]),
            "model_mean_brier": _mean([a.model_brier for a in forecasts if a.model_brier is not None]),
            "greedy_mean_brier": _mean([a.greedy_brier for a in forecasts if a.greedy_brier is not None]),
            "needles": len(needles), "mean_coverage": _mean([a.coverage for a in needles if a.coverage is not None]),
            "hits": sum(1 for a in needles if a.hit),
            "draws": len(draws), "mean_vs_best": _mean([a.vs_best for a in draws if a.vs_best is not None]),
            "moves": len(moves), "mean_move_loss": _mean([-a.vs_best for a in moves if a.vs_best is not None]),
            "calibration": calibration(mine, bins),
        })
    return rows

