"""A class lesson's edges a teacher tripped on (issue 29): the student notebook's demo cells in a real
class, a question's repr in a cell, and a replay note's own question beside the teacher's.
"""

from __future__ import annotations

import contextlib
import io
import json
import time
from pathlib import Path

import pytest
from conftest import pumped_class, settle

from needle_widget import classroom, examples

NOTEBOOK = Path(__file__).resolve().parents[1] / "notebooks" / "08_join_a_class.ipynb"


def _code_cells() -> list[str]:
    book = json.loads(NOTEBOOK.read_text(encoding="utf-8"))
    return ["".join(c["source"]) for c in book["cells"] if c["cell_type"] == "code"]


def _run_in_class(url: str, ticket: str) -> tuple[str, float, dict]:
    """Every code cell of the student notebook, as Run All runs it with the room's address and ticket given."""
    cells = _code_cells()
    assert cells[0].startswith("URL = None")
    ns: dict = {}
    out = io.StringIO()
    start = time.monotonic()
    try:
        with contextlib.redirect_stdout(out):
            for source in cells:
                exec(compile(source, f"<{NOTEBOOK.name} cell>", "exec"), ns)  # noqa: S102
                if "URL" in ns and ns["URL"] is None:
                    ns["URL"], ns["TICKET"] = url, ticket
    finally:
        if "w" in ns:
            ns["w"].close()
    return out.getvalue(), time.monotonic() - start, ns


@pytest.mark.parametrize("leading", [False, True], ids=["idle", "leading"])
def test_the_student_notebook_runs_all_in_a_class_whose_teacher_has_not_asked(tmp_path, leading):
    room = classroom.open(f"folder:{tmp_path}/monday")  # the real teacher, in another kernel, workers on
    try:
        ticket = room.invite("Ann")
        if leading:
            room.lead(examples.load("detective"), perspective=0, title="detective").go(5)
        printed, took, ns = _run_in_class(room.url, ticket.code)
    finally:
        room.close()
    assert ns["demo"] is None  # the class's room, not a demo
    assert took < 8.0, f"Run All took {took:.1f} s"
    assert "Joining the room at" in printed
    assert "Your teacher has not asked yet: answer in the widget when they do." in printed
    assert "Traceback" not in printed
    assert room.lesson is None or not room.lesson.asked  # the cells asked nothing of the real room


def test_the_student_notebook_in_a_class_shows_the_teachers_open_question(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/monday")
    try:
        ticket = room.invite("Ann")
        lesson = room.lead(examples.load("detective"), perspective=0, title="detective")
        lesson.go(17)
        lesson.ask("winner")
        printed, took, _ = _run_in_class(room.url, ticket.code)
    finally:
        room.close()
    assert took < 8.0
    prompt = lesson.quiz_prompt(lesson.asked[0])
    assert prompt in printed
    assert "has not asked yet" not in printed
    assert not lesson.asked[0].answers and not lesson.asked[0].revealed  # the class's answers are the students'


# ---- lesson.ask(...) as a cell's last line ----------------------------------------------------------------


@pytest.fixture
def klass(tmp_path):
    with pumped_class(f"folder:{tmp_path}/monday", ("Ann", "Bob")) as room_and_students:
        yield room_and_students


def test_an_asked_question_reads_as_the_board_shows_it(klass):
    room, (ann, bob) = klass
    lesson = room.lead(examples.load("detective"), perspective=0, title="detective")
    lesson.go(17)
    asked = lesson.ask("winner")
    settle(room, ann, bob)
    assert repr(asked) == "Asked: question 1 'Who will win?' at step 17, 0 of 2 answered"
    ann.answer(0.7)
    settle(room, ann, bob)
    assert repr(asked) == "Asked: question 1 'Who will win?' at step 17, 1 of 2 answered"
    html = asked._repr_html_()
    assert "Question 1" in html and "Who will win?" in html and "step 17" in html and "1 of 2 answered" in html
    lesson.reveal()
    assert repr(asked).endswith("1 of 2 answered, revealed")
    second = lesson.ask("needle")
    assert repr(second) == "Asked: question 2 \"Which is the opponent's needle?\" at step 17, 0 of 2 answered"
    # nothing of the replay's hidden side: no card, no answer, no name
    for text in (repr(asked), asked._repr_html_(), repr(second)):
        assert "0.7" not in text and "Ann" not in text and "♦" not in text and "♣" not in text
    assert len(repr(asked)) < 100


def test_an_asked_question_restored_with_its_room_still_reads_short(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/monday", start=False)
    room.invite("Ann")
    room.lead(examples.load("detective"), perspective=0).ask("winner", 17)
    room.close()
    again = classroom.open(f"folder:{tmp_path}/monday", start=False)
    try:
        assert repr(again.lesson.asked[0]) == "Asked: question 1 'Who will win?' at step 17, 0 of 0 answered"
    finally:
        again.close()


# ---- a replay note's own question beside the teacher's ----------------------------------------------------


def test_a_notes_own_question_does_not_compete_with_the_teachers(klass):
    room, (ann, bob) = klass
    lesson = room.lead(examples.load("detective"), perspective=0, title="detective")
    lesson.go(17)  # a note for Player 1 asks "Which card is Player 2's needle?" here
    settle(room, ann, bob)
    before = [n for n in ann.state()["shown_notes"] if n["step"] == 17]
    assert before and any(n["question"] for n in before)  # no class question: the note's own shows
    texts = [n["text"] for n in ann.state()["shown_notes"]]
    lesson.ask("winner")
    settle(room, ann, bob)
    for student in (ann, bob):
        state = student.state()
        assert state["quiz_state"]["question"]["kind"] == "winner"
        assert state["shown_notes"], "the notes' words stay"
        assert [n["text"] for n in state["shown_notes"]] == texts
        assert all(n["question"] is None for n in state["shown_notes"])
        assert "needle?" not in json.dumps(state["shown_notes"])
    ann.go(10)  # stepping back while the question is open: still no note question
    assert all(n["question"] is None for n in ann.state()["shown_notes"])
    ann.back_to_live()
    lesson.reveal()
    settle(room, ann, bob)
    assert ann.state()["quiz_state"]["reveal"] is not None
    assert any(n["question"] for n in ann.state()["shown_notes"] if n["step"] == 17)  # answered: back


def test_the_follow_widget_syncs_no_note_question_while_the_teacher_asks(klass):
    from needle_widget.jupyter.follow import FollowWidget

    room, (ann, _) = klass
    lesson = room.lead(examples.load("detective"), perspective=0, title="detective")
    lesson.go(17)
    lesson.ask("winner")
    settle(room, ann)
    widget = FollowWidget(ann)
    try:
        assert widget.quiz_state["question"]["kind"] == "winner"
        assert widget.shown_notes and all(n["question"] is None for n in widget.shown_notes)
    finally:
        widget.close()
