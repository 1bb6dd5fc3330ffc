"""Ready notebooks for a real class (issues 30 and 45): `room.invite(name, notebook=)` writes the student's notebook
with their ticket (mode 600) and `classroom.teacher_notebook` the teacher's, without the simulation. Both run in a
real kernel: the student's joins the room; the teacher's, run with Run All, opens the room, invites, hands out the
tickets and leaves the board and the lesson running (it once closed them and deleted the room's folder), and its
later cells (ask, reveal, a match, homework, the class's files, the end, closing) act when the teacher runs them.

The repository's teacher's notebook (notebooks/08_lead_a_class.ipynb, left out of nbval: it opens a real room) is
the one `teacher_notebook` writes, cell for cell; `NEEDLE_UPDATE_NOTEBOOKS=1` writes it again.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import nbformat
import pytest
from conftest import settle
from nbclient import NotebookClient

from needle_widget import classroom
from needle_widget.classroom.notebooks import TEACHER_ADDRESS, notebook_text, teacher_cells

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
TEACHER = NOTEBOOKS / "08_lead_a_class.ipynb"
STUDENT = NOTEBOOKS / "08_join_a_class.ipynb"
DEMO = NOTEBOOKS / "08_class_demo.ipynb"
CODE = re.compile(r"^(\S+)\s+(\S+/\d+-[A-Z0-9-]+)\s", re.MULTILINE)


def run(path, cwd):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute()
    return notebook


def _errors(notebook) -> list:
    return [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]


def _printed(cell) -> str:
    return "".join(o.get("text", "") for o in cell.outputs if o.output_type == "stream")


def _cell(notebook, start: str):
    return next(c for c in notebook.cells if c.cell_type == "code" and c.source.startswith(start))


def _until(done, seconds: float = 20.0) -> bool:
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        time.sleep(0.05)
    return bool(done())


def _play_a_deal(students, seconds: float = 120.0) -> None:
    """The students play their table's deal to its end, each the first legal move, waiting for each move to land."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        states = [s.state() for s in students]
        if all(st["table"] and st["table"].get("result") is not None for st in states):
            return
        mover = next((s for s, st in zip(students, states, strict=True) if st["can_act"]), None)
        if mover is None:
            time.sleep(0.05)
            continue
        state = mover.state()
        mover.act({k: v for k, v in state["table"]["legal_actions"][0].items() if k in ("type", "card", "cards")})
        _until(lambda m=mover, n=state["steps"]: m.state()["steps"] != n or not m.state()["can_act"], 10)
    raise AssertionError("the deal did not end")


def test_the_repository_s_teacher_notebook_is_the_one_teacher_notebook_writes(tmp_path):
    expected = notebook_text(teacher_cells(TEACHER_ADDRESS))
    if os.environ.get("NEEDLE_UPDATE_NOTEBOOKS"):
        TEACHER.write_text(expected, encoding="utf-8")
    assert TEACHER.read_text(encoding="utf-8") == expected, (
        "notebooks/08_lead_a_class.ipynb differs from classroom.notebooks.teacher_cells: NEEDLE_UPDATE_NOTEBOOKS=1 "
        "python -m pytest -n 0 tests/test_class_notebooks.py writes it again")
    written = classroom.teacher_notebook(tmp_path / "monday.ipynb", TEACHER_ADDRESS)
    assert written.read_text(encoding="utf-8") == expected
    assert oct(written.stat().st_mode & 0o777) == "0o600"  # an address may hold credentials


def test_the_class_notebooks_use_no_demo_arguments():
    """A real room draws its own secret and runs its workers: `secret=` and `start=False` are the demo's only."""
    for path in (TEACHER, STUDENT):
        text = path.read_text(encoding="utf-8")
        assert "secret=" not in text and "start=False" not in text, path.name
        assert "simulat" not in text.lower().replace("with simulated students, open `08_class_demo", ""), path.name
    demo = DEMO.read_text(encoding="utf-8")
    assert "secret=bytes(32)" in demo and "start=False" in demo and "simulated" in demo


def test_the_class_notebooks_name_the_buttons_as_they_read():
    labels = (Path(__file__).resolve().parents[1] / "js" / "src").glob("*.js")
    source = "".join(p.read_text(encoding="utf-8") for p in labels)
    for label in ("New deal", "Back to live", "Practise your mistakes"):
        assert label in source, label
    for path in (TEACHER, STUDENT, DEMO):
        text = path.read_text(encoding="utf-8")
        assert "New game" not in text and "**Live**" not in text and "press Live" not in text, path.name
        assert "return to *live*" not in text, path.name
    assert "**Back to live**" in DEMO.read_text(encoding="utf-8")


def test_the_student_notebook_asks_for_the_address_and_the_ticket_in_one_marked_cell():
    book = json.loads(STUDENT.read_text(encoding="utf-8"))
    code = [c for c in book["cells"] if c["cell_type"] == "code"]
    first = "".join(code[0]["source"])
    assert first.startswith("URL = None") and "TICKET = None" in first and first.count("✏️") == 2
    assert sum("✏️" in "".join(c["source"]) for c in code) == 1  # only that cell is to be filled in
    before = book["cells"][book["cells"].index(code[0]) - 1]
    assert before["cell_type"] == "markdown" and "✏️ Fill in" in "".join(before["source"])


@pytest.mark.slow
def test_a_student_s_ready_notebook_joins_with_their_ticket(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    try:
        ticket = room.invite("Ann Lee", notebook=tmp_path / "handout")
        path = tmp_path / "handout" / "01-ann-lee.ipynb"
        assert oct(path.stat().st_mode & 0o777) == "0o600" and ticket.code in path.read_text()
        assert "**Back to live**" in path.read_text() and room.url in path.read_text()
        assert room.invite("Ann Lee") == ticket  # the same ticket again, no second notebook
        run(path, tmp_path)  # the kernel joins and says hello before it ends
        settle(room)
        assert [m.joined for m in room.members()] == [True]
    finally:
        room.close()


@pytest.mark.slow
def test_the_teacher_s_notebook_runs_all_and_leaves_the_class_running(tmp_path):
    """Run All in a real kernel: the room opened, the class invited with their notebooks and a table of their tickets,
    the board and the lesson shown; the later cells only say what they wait for. The kernel still running, students
    join and follow; then each later cell, run with its switch set, acts: a question asked and revealed, a match of
    those online, the class's files, the end of the lesson on the students' screens, the room closed, its folder
    kept. Run All again reopens the room with the same tickets.
    """
    url = f"folder:{tmp_path}/monday"
    path = classroom.teacher_notebook(tmp_path / "teacher.ipynb", url)
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(notebook, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}})
    students: list = []
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            client.execute_cell(cell, index)
        assert _errors(notebook) == []
        shown = [o["data"]["text/plain"] for c in notebook.cells if c.cell_type == "code" for o in c.outputs
                 if "application/vnd.jupyter.widget-view+json" in o.get("data", {})]
        assert any(s.startswith("BoardWidget(") for s in shown) and any(s.startswith("NeedleWidget(") for s in shown)
        table = _printed(_cell(notebook, "from needle_widget.classroom.notebooks import handout_name"))
        tickets = dict(CODE.findall(table))
        assert list(tickets) == ["Ann", "Ben", "Cai"] and f"The room's address: {url}" in table
        assert sorted(p.name for p in (tmp_path / "handout").iterdir()) == ["01-ann.ipynb", "02-ben.ipynb",
                                                                             "03-cai.ipynb"]
        for name, code in tickets.items():
            assert code in (tmp_path / "handout" / f"0{list(tickets).index(name) + 1}-{name.lower()}.ipynb").read_text()
        waiting = {c.source.split("\n", 1)[0]: _printed(c) for c in notebook.cells if c.cell_type == "code"
                   and c.source.startswith(("QUESTION", "question", "START_MATCH", "GIVE_HOMEWORK", "END_LESSON",
                                            "CLOSE_NOW"))}
        assert all(printed.strip() for printed in waiting.values()), waiting
        assert "The room stays open" in waiting["CLOSE_NOW = False"]
        assert "results/: games.csv (0 games), gradebook.csv (3 students)" in _printed(
            _cell(notebook, "from pathlib import Path"))

        def later(start: str, switch: str | None = None, before: str = "") -> str:
            """Run the notebook's cell that starts with `start` (its switch set to True) in the teacher's kernel."""
            source = _cell(notebook, start).source
            if switch is not None:
                source = source.replace(f"{switch} = False", f"{switch} = True", 1)
            cell = nbformat.v4.new_code_cell(before + source)
            notebook.cells.append(cell)
            client.execute_cell(cell, len(notebook.cells) - 1)
            assert _errors(notebook) == [], cell.outputs
            return _printed(cell)

        # the kernel still runs the room: students join and follow the lesson
        students = [classroom.join(url, tickets[name]) for name in ("Ann", "Ben")]
        assert _until(lambda: all(s.state()["follow"]["text"].startswith("Following the teacher") for s in students))
        assert "Asked: question 1" in later("QUESTION", before="lesson.go(17)\n")
        assert _until(lambda: all(s.state()["quiz_state"] and s.state()["quiz_state"]["question"] for s in students))
        assert "No question is open" not in later("question = lesson.open_question")  # nobody answered: it waits
        for student, forecast in zip(students, (0.8, 0.3), strict=True):
            student.answer(forecast)
        for _ in range(200):  # the answers reach the room in the background: the cell reveals once both are in
            printed = later("question = lesson.open_question")
            if "run this cell again" not in printed:
                break
            time.sleep(0.1)
        assert printed.strip().endswith("revealed"), printed
        assert _until(lambda: all((s.state()["quiz_state"] or {}).get("reveal") for s in students))
        printed = later("START_MATCH", "START_MATCH")
        assert "No match yet" not in printed and "Nobody is online" not in printed, printed
        assert _until(lambda: all(s.state()["follow"]["text"].startswith("Match") for s in students))
        assert "A match is on" in later("START_MATCH", "START_MATCH")  # run again: the same match goes on
        assert "No finished game" in later("GIVE_HOMEWORK", "GIVE_HOMEWORK")  # nothing to practise yet: it waits
        _play_a_deal(students)
        assert "Homework 1 given" in later("GIVE_HOMEWORK", "GIVE_HOMEWORK")
        assert "games.csv (1 game), gradebook.csv (3 students), answers.csv (2 answers)" in later(
            "from pathlib import Path")
        assert (tmp_path / "results" / "gradebook.csv").read_text(encoding="utf-8-sig").startswith("Student,")
        assert "The lesson is over" in later("END_LESSON", "END_LESSON")
        assert _until(lambda: all("The lesson is over" in s.state()["follow"]["text"] for s in students))
        assert "The room is closed" in later("CLOSE_NOW", "CLOSE_NOW")
        assert _until(lambda: all(s.state()["follow"]["status"] == "closed" for s in students))
    for student in students:
        student.close()
    assert (tmp_path / "monday" / "teacher" / "secret").is_file()  # closed, never deleted

    again = run(path, tmp_path)  # next week: Run All reopens the room
    assert _errors(again) == []
    table = _printed(_cell(again, "from needle_widget.classroom.notebooks import handout_name"))
    assert dict(CODE.findall(table)) == tickets
    with pytest.raises(classroom.ClassError):
        classroom.teacher_notebook(tmp_path / "x.ipynb", "nowhere:at-all")
