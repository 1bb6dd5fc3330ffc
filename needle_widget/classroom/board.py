"""The teacher's board as plain data: who joined and answered, the distribution of the answers to
the latest question, the class's calibration so far, and the challenge's ranking. The "projector"
view has counts and distributions only: no student's name.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

from ..engine.cards import Card
from ..engine.figures import interval, percent
from ..screen.notepad import KIND_LABELS
from ..screen.quizmode import CHOICE_LABELS
from ..teaching.answers import calibration

if TYPE_CHECKING:
    from .lesson import Asked, Lesson
    from .room import Room

__all__ = ["board_state", "BANDS"]

BANDS = 5
"""A forecast's distribution and the calibration table in bands of 20%."""
TOP_CARDS = 10


def board_state(room: Room, view: str) -> dict[str, Any]:
    """The board's state of `room` for `view` ("teacher" or "projector"); the room's lock is held."""
    members = room.members()
    lesson = room.lesson
    asked = lesson.asked[-1] if lesson is not None and lesson.asked else None
    answered = None if asked is None else len(asked.answers)
    students = None
    if view == "teacher":
        students = [{"name": m.name, "joined": m.joined, "online": m.joined,
                     "answered": None if asked is None else m.index in asked.answers,
                     "score": _score(lesson, asked, m.index) if asked is not None and asked.revealed else None}
                    for m in members]
    shown_lesson = None
    if lesson is not None:
        shown = "each student's own seat" if lesson.perspective == "assigned" else \
            f"Player {lesson.perspective + 1}"
        shown_lesson = {"title": lesson.title, "step": lesson.step, "steps": len(lesson.replay), "shown": shown}
    question = None
    if asked is not None:
        question = {"index": asked.index, "step": asked.step, "kind": asked.kind, "label": KIND_LABELS[asked.kind],
                    "prompt": lesson.quiz_prompt(asked), "revealed": asked.revealed,
                    "truth": lesson.truth_line(asked) if asked.revealed else None}
    can_reveal = asked is not None and not asked.revealed
    return {
        "room": room.name, "url": room.url, "view": view, "showing": room.showing,
        "roster": {"invited": len(members), "joined": sum(m.joined for m in members), "answered": answered},
        "students": students, "lesson": shown_lesson, "question": question,
        "distribution": None if asked is None else _distribution(lesson, asked),
        "calibration": _calibration(room),
        "can_reveal": can_reveal,
        "reveal_reason": None if can_reveal else ("Already revealed" if asked is not None else "No question is open"),
        "challenge": _challenge(room, view),
        "connected": room.link.connected, "status": room.link.why,
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
    return f"Brier {score['brier']:.3f}"


def _distribution(lesson: Lesson, asked: Asked) -> dict[str, Any]:
    values = list(asked.answers.values())
    truth = lesson.truth_value(asked) if asked.revealed else None
    if asked.kind in ("winner", "next_draw"):
        counts = [0] * BANDS
        for v in values:
            counts[min(int(v * BANDS), BANDS - 1)] += 1
        bars = [{"label": interval(k / BANDS, (k + 1) / BANDS), "count": c, "truth": False}
                for k, c in enumerate(counts)]
        title = "Forecasts"
    elif asked.kind == "pile_or_steal":
        counts = Counter(values)
        bars = [{"label": CHOICE_LABELS[c], "count": counts.get(c, 0), "truth": truth == c} for c in ("pile", "steal")]
        title = "Draws chosen"
    else:
        counts = Counter(code for v in values for code in v)
        top = sorted(counts.items(), key=lambda kv: (-kv[1], Card.parse(kv[0]).index))[:TOP_CARDS]
        bars = [{"label": str(Card.parse(code)), "count": n, "truth": truth == code} for code, n in top]
        title = "Cards named as the needle"
    return {"title": title, "bars": bars, "total": len(values)}


def _calibration(room: Room) -> list[dict[str, Any]]:
    rows = []
    for band in calibration(room.answers, bins=BANDS):
        if band["count"]:
            hits = round(band["observed"] * band["count"])
            rows.append({"band": interval(band["lo"], band["hi"]), "count": band["count"],
                         "said": percent(band["mean_forecast"]),
                         "happened": f"{hits} of {band['count']} ({percent(band['observed'])})"})
    return rows


def _challenge(room: Room, view: str) -> dict[str, Any] | None:
    challenge = room.challenge_game
    if challenge is None:
        return None
    rows = []
    for m in room.members():
        if m.index in challenge.games:
            rows.append({**challenge.row(m.index), "name": m.name if view == "teacher" else None})
    ranked = sorted(rows, key=lambda r: (r["sort"] is None, -(r["sort"] or 0), -(r["score"] or -999)))
    for rank, row in enumerate(ranked, start=1):
        row["rank"] = rank if row["sort"] is not None else None
        row["can_open"] = row["can_open"] and view == "teacher"
        del row["sort"]
    return {"opponent": challenge.opponent, "rows": ranked,
            "note": "Ranked by luck-adjusted score: the result with the luck of the deal and the draws taken out "
                    "(each decision valued from what the student knew; the bot's skill counts against them). "
                    "The raw result is beside it."}
