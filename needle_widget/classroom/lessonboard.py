"""A lesson's part of the teacher's board: the lesson shown, the latest question, its answers' distribution,
each student's answer and score once revealed, and whether Reveal is open (`Lesson.board`).
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..engine.cards import Card
from ..engine.figures import interval, percent
from ..engine.seats import player_name
from ..review.verdict import in_points
from ..screen.notepad import KIND_LABELS
from ..screen.quizmode import CHOICE_LABELS

if TYPE_CHECKING:
    from .lesson import Asked, Lesson

__all__ = ["BANDS", "lesson_board"]

PRIVATE_MOVES = ("The moves are {seat}'s cards, which the students at the other seat may not see: each student "
                 "reads the best move and what was played on their own screen.")
"""The projector's words for a "your move" question asked of one seat in a lesson where each student sees their
own seat: the moves chosen, the best and the one played name that seat's cards, so the whole class gets none."""

BANDS = 5
"""A forecast's distribution and the calibration table in bands of 20%."""
TOP_CARDS = 10


def lesson_board(lesson: Lesson | None, view: str, members: list[Any]) -> dict[str, Any]:
    """The board's lesson parts for `view` ("teacher" or "projector": no names, no per-student columns)."""
    asked = lesson.asked[-1] if lesson is not None and lesson.asked else None
    students = [{"answered": None if asked is None else m.index in asked.answers,
                 "score": (_score(lesson, asked, m.index)
                           if lesson is not None and asked is not None and asked.revealed else None)}
                for m in members] if view == "teacher" else None
    shown_lesson = None
    if lesson is not None:
        shown = "each student's own seat" if lesson.perspective == "assigned" else \
            f"Player {lesson.perspective + 1}"
        shown_lesson = {"title": lesson.title, "step": lesson.step, "steps": len(lesson.replay), "shown": shown}
    question = None
    private = view != "teacher" and lesson is not None and asked is not None and not lesson.moves_public(asked)
    if lesson is not None and asked is not None:
        truth = (PRIVATE_MOVES.format(seat=player_name(next(iter(asked.questions)))) if private
                 else lesson.truth_line(asked))
        question = {"index": asked.index, "step": asked.step, "kind": asked.kind, "label": KIND_LABELS[asked.kind],
                    "prompt": lesson.quiz_prompt(asked), "revealed": asked.revealed,
                    "truth": truth if asked.revealed else None}
    can_reveal = asked is not None and not asked.revealed
    return {
        "roster": {"answered": None if asked is None else len(asked.answers)},
        "students": students, "lesson": shown_lesson, "question": question,
        "distribution": None if lesson is None or asked is None or private else _distribution(lesson, asked),
        "can_reveal": can_reveal,
        "reveal_reason": None if can_reveal else ("Already revealed" if asked is not None else "No question is open"),
    }


def _score(lesson: Lesson, asked: Asked, index: int) -> str | None:
    if index not in asked.answers:
        return None
    shown = lesson.revealed(asked, index)
    score = shown["score"]
    if asked.kind == "needle":
        return "found" if score["hit"] else "missed"
    if asked.kind == "pile_or_steal":
        return "better draw" if score["vs_best"] == 0 else "not the better draw"
    if asked.kind == "your_move":
        return f"{score['mark']}, −{round(100 * score['loss'])} points"
    return f"{in_points(1 - score['brier'])} of 100 (Brier {score['brier']:.3f})"  # the gradebook's, and its source



def _distribution(lesson: Lesson, asked: Asked) -> dict[str, Any]:
    values = list(asked.answers.values())
    truth = lesson.truth_value(asked) if asked.revealed else None
    if asked.kind in ("winner", "next_draw"):
        per_band = [0] * BANDS
        for v in values:
            per_band[min(int(v * BANDS), BANDS - 1)] += 1
        bars = [{"label": interval(k / BANDS, (k + 1) / BANDS), "count": c, "truth": False}
                for k, c in enumerate(per_band)]
        title = "Forecasts"
    elif asked.kind == "pile_or_steal":
        counts = Counter(values)
        bars = [{"label": CHOICE_LABELS[c], "count": counts.get(c, 0), "truth": truth == c} for c in ("pile", "steal")]
        title = "Draws chosen"
    elif asked.kind == "your_move":
        counts = Counter(values)
        moves = sorted(counts, key=lambda m: (-counts[m], m))
        if truth is not None and truth not in counts:
            moves.append(truth)  # the best move found, even if nobody chose it
        worth = lesson.move_values(asked, moves) if asked.revealed else {}
        bars = [{"label": f"{m} · {percent(worth[m])} wins" if m in worth else m, "count": counts.get(m, 0),
                 "truth": truth == m} for m in moves]
        title = "Moves chosen"
    else:
        counts = Counter(code for v in values for code in v)
        top = sorted(counts.items(), key=lambda kv: (-kv[1], Card.parse(kv[0]).index))[:TOP_CARDS]
        bars = [{"label": str(Card.parse(code)), "count": n, "truth": truth == code} for code, n in top]
        title = "Cards named as the needle"
    return {"title": title, "bars": bars, "total": len(values)}
