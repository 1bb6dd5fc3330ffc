"""Issue 23, "It keeps working": 60 student processes answer 20 questions each, concurrently, on each
channel (a shared folder; a private Redis). Nothing is lost or duplicated, and the board's counts are
exact. Each student is a process of its own (`apps.classbench.student_process`: multiprocessing's
forkserver, the class code imported once in the server), joined with its ticket, its workers running;
it answers each question as soon as its screen shows it.
"""

from __future__ import annotations

import time

import pytest

from needle_widget import examples
from needle_widget.apps.classbench import Class, answer_for
from needle_widget.classroom.presence import HEARTBEAT
from needle_widget.engine.errors import NeedleError
from needle_widget.teaching.quiz import QuizQuestion, check_question

STUDENTS = 60
QUESTIONS = 20


def _questions(replay) -> list[tuple[int, str]]:
    """20 questions for Player 1 at 20 steps of `replay`: every pile-or-steal it allows, the rest 'winner'."""
    fits = {kind: [s for s in range(len(replay) + 1) if _fits(replay, s, kind)] for kind in ("pile_or_steal", "winner")}
    draws = fits["pile_or_steal"][:QUESTIONS // 4]
    rest = [s for s in fits["winner"] if s not in draws]
    stride = max(1, len(rest) // (QUESTIONS - len(draws)))
    chosen = [(s, "pile_or_steal") for s in draws] + [(s, "winner") for s in rest[::stride][:QUESTIONS - len(draws)]]
    assert len(chosen) == QUESTIONS
    return sorted(chosen)


def _fits(replay, step: int, kind: str) -> bool:
    try:
        check_question(replay, QuizQuestion(step, kind, 0))
        return True
    except NeedleError:
        return False


def _stress(url: str) -> dict:
    replay = examples.load("detective")
    questions = _questions(replay)
    room = Class(url, STUDENTS, answer=True)
    counts_open: list[int] = []
    start = time.monotonic()
    try:
        lesson = room.start(replay, perspective=0)
        joined = time.monotonic()
        for number, (step, kind) in enumerate(questions):
            asked = lesson.ask(kind, step)
            assert asked.index == number
            room.wait(lambda a=asked: len(a.answers) >= STUDENTS, f"question {number}'s {STUDENTS} answers")
            board = room.room.board_state("teacher")
            assert board["question"]["index"] == number and not board["question"]["revealed"]
            counts_open.append(board["roster"]["answered"])
            assert sum(s["answered"] for s in board["students"]) == STUDENTS
            lesson.reveal()
        room.wait_revealed(QUESTIONS - 1)  # the last reveal reaches every screen
        records = room.finish()
    except BaseException:
        room.close()
        raise
    elapsed = time.monotonic() - start

    assert [r["error"] for r in records] == [None] * STUDENTS
    assert counts_open == [STUDENTS] * QUESTIONS
    for number, asked in enumerate(lesson.asked):
        assert asked.revealed and sorted(asked.answers) == list(range(STUDENTS))
        for record in records:  # the room kept exactly what each student sent
            assert asked.answers[record["index"]] == answer_for(record["index"], asked.kind, number)
    for record in records:
        assert sorted(record["seen"]) == list(range(QUESTIONS)), record["index"]
        assert sorted(record["answers"]) == list(range(QUESTIONS)), record["index"]
        assert record["duplicates"] == 0
        assert QUESTIONS - 1 in record["revealed"]
    answers = room.room.answers
    assert len(answers) == STUDENTS * QUESTIONS
    assert len({(a.student, a.step) for a in answers}) == STUDENTS * QUESTIONS
    ignored = [line for line in room.room.log if "ignored" in line]
    assert ignored == []
    posted = sum(r["posted"] for r in records)
    received = sum(r["received"] for r in records)
    figures = {"students": STUDENTS, "questions": QUESTIONS, "answers": len(answers),
               "student messages posted": posted, "student messages received": received,
               "duplicates": sum(r["duplicates"] for r in records), "ignored by the room": len(ignored),
               "revealed seen": sum(len(r["revealed"]) for r in records),
               "join s": round(joined - start, 1), "total s": round(elapsed, 1)}
    print(f"\n{url.split(':')[0]} stress: {figures}")
    return figures


@pytest.mark.slow
def test_sixty_students_on_the_folder_channel(tmp_path) -> None:
    figures = _stress(f"folder:{tmp_path}/stress")
    # each student posted its hello, 20 answers and its goodbye, and a heartbeat every HEARTBEAT seconds
    assert_posted(figures)


@pytest.mark.slow
def test_sixty_students_on_redis(redis_server) -> None:
    figures = _stress(redis_server.fresh_url("stress"))
    assert_posted(figures)


def assert_posted(figures: dict) -> None:
    """Each student posted its hello, its 20 answers, its goodbye, and at most one heartbeat a HEARTBEAT seconds."""
    least = STUDENTS * (2 + QUESTIONS)
    beats = STUDENTS * (int(figures["total s"] / HEARTBEAT) + 1)
    assert least <= figures["student messages posted"] <= least + beats, figures
