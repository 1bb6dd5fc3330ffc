"""Ready notebooks for a real class (issue 30): `room.invite(name, notebook=)` writes the student's notebook with
their ticket (mode 600) and `classroom.teacher_notebook` the teacher's, without the simulation. Both run in a
real kernel: the student's joins the room, the teacher's opens one, invites, leads, and shows the board.
"""

from __future__ import annotations

import json

import nbformat
import pytest
from conftest import settle
from nbclient import NotebookClient

from needle_widget import classroom

pytestmark = pytest.mark.slow


def run(path, cwd):
    notebook = nbformat.read(path, as_version=4)
    NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(cwd)}}).execute()
    return notebook


def test_a_student_s_ready_notebook_joins_with_their_ticket(tmp_path):
    room = classroom.open(f"folder:{tmp_path}/room", start=False)
    try:
        ticket = room.invite("Ann Lee", notebook=tmp_path / "handout")
        path = tmp_path / "handout" / "01-ann-lee.ipynb"
        assert oct(path.stat().st_mode & 0o777) == "0o600" and ticket.code in path.read_text()
        assert room.invite("Ann Lee") == ticket  # the same ticket again, no second notebook
        run(path, tmp_path)  # the kernel joins and says hello before it ends
        settle(room)
        assert [m.joined for m in room.members()] == [True]
    finally:
        room.close()


def test_the_teacher_s_notebook_runs_without_a_simulation(tmp_path):
    url = f"folder:{tmp_path}/monday"
    path = classroom.teacher_notebook(tmp_path / "teacher.ipynb", url)
    assert oct(path.stat().st_mode & 0o777) == "0o600"
    text = path.read_text()
    assert "simulat" not in text.lower() and json.loads(text)["nbformat"] == 4
    notebook = run(path, tmp_path)
    errors = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs if o.output_type == "error"]
    assert errors == []
    assert sorted(p.name for p in (tmp_path / "handout").iterdir()) == ["01-ann.ipynb", "02-ben.ipynb", "03-cai.ipynb"]
    with pytest.raises(classroom.ClassError):
        classroom.teacher_notebook(tmp_path / "x.ipynb", "nowhere:at-all")
