"""Ready notebooks for a real class: a student's (their ticket filled in) and the teacher's (no simulation).

`room.invite("Ann", notebook="handout/")` writes `handout/01-ann.ipynb`, readable by its owner only (it holds
Ann's ticket); `classroom.teacher_notebook(path, url)` writes the teacher's notebook for a room at `url`. Both are
plain nbformat-4 JSON with no outputs, made here without a notebook library.

>>> import json, tempfile
>>> from needle_widget.classroom.tickets import Ticket
>>> folder = tempfile.mkdtemp()
>>> path = write_student(folder, "folder:/srv/class/monday", Ticket("monday", 0, "Ann", bytes(10)))
>>> path.name, oct(path.stat().st_mode & 0o777)
('01-ann.ipynb', '0o600')
>>> "NeedleWidget.join('folder:/srv/class/monday', 'monday/0-AAAA-AAAA-AAAA-AAAA')" in path.read_text()
True
"""

from __future__ import annotations

import json
import os
import pathlib
import re
from typing import Any

from .tickets import Ticket

__all__ = ["write_student", "write_teacher", "student_cells", "teacher_cells"]


def _notebook(cells: list[tuple[str, str]]) -> dict[str, Any]:
    return {
        "cells": [{"cell_type": kind, "id": f"cell-{n}", "metadata": {}, "source": text.splitlines(keepends=True),
                   **({"execution_count": None, "outputs": []} if kind == "code" else {})}
                  for n, (kind, text) in enumerate(cells, start=1)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def student_cells(url: str, ticket: Ticket) -> list[tuple[str, str]]:
    """The student's notebook: what to do, and the one cell that joins."""
    return [
        ("markdown", f"# {ticket.name}, join the class\n\nRun the cell below (Shift+Enter). Your screen follows "
                     "the teacher: step back to look whenever you like and press **Live** to come back. When the "
                     "teacher asks a question, answer it in the widget; in a challenge or a match you play your own "
                     "seat. Once your game is over, **Review** shows what you could have known at each move.\n\n"
                     "This notebook holds your own ticket: keep it to yourself. If the kernel restarts, run the cell "
                     "again: you come back where the class is."),
        ("code", f"from needle_widget import NeedleWidget\n\nNeedleWidget.join({url!r}, {ticket.code!r})"),
    ]


def teacher_cells(url: str) -> list[tuple[str, str]]:
    """The teacher's notebook: the room, the invitations, the board, a lesson, a challenge, a match, the record."""
    return [
        ("markdown", "# Lead a class\n\nRun each cell when the class is ready for it. The room is kept in its "
                     "channel: if this kernel restarts, run the first cell again and it comes back with its "
                     "students, answers and record."),
        ("code", f"from needle_widget import classroom, examples\n\nroom = classroom.open({url!r})\nroom"),
        ("markdown", "## Invite\n\nEach student gets a notebook of their own with their ticket in it (readable "
                     "by its owner only): hand each one its file."),
        ("code", "names = [\"Ann\", \"Ben\", \"Cai\"]  # the class list\n"
                 "for name in names:\n    room.invite(name, notebook=\"handout\")\nsorted(name for name in names)"),
        ("code", "room.board()  # who joined, the answers, the games and the record; room.board(\"projector\") "
                 "shows no names"),
        ("markdown", "## A lesson\n\nEvery student's screen follows your step; ask a question, then reveal."),
        ("code", "lesson = room.lead(examples.load(\"detective\"), perspective=\"assigned\")\nlesson.widget()"),
        ("code", "lesson.ask(\"winner\")"),
        ("code", "lesson.reveal()"),
        ("markdown", "## A challenge and a match\n\nA challenge deals one game to everyone against the bot; a match "
                     "seats the students two a table and every table plays the same deals, half of them the other "
                     "way round. Every finished game goes into the record."),
        ("code", "room.challenge(opponent=\"greedy\")"),
        ("code", "room.match(deals=2)"),
        ("markdown", "## The record\n\nEach student's luck-adjusted score over their games, with its 95% interval. "
                     "A place shown as a range (\"2–4\") means the games so far cannot tell those students apart "
                     "yet; fewer than 10 games is provisional."),
        ("code", "room.board()"),
    ]


def _write(path: pathlib.Path, cells: list[tuple[str, str]], mode: int) -> pathlib.Path:
    text = json.dumps(_notebook(cells), indent=1, ensure_ascii=False) + "\n"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), mode)
        f.write(text)
    return path


def write_student(where: str | os.PathLike[str], url: str, ticket: Ticket) -> pathlib.Path:
    """Write the student's notebook: `where` is a folder (made if missing; the file is `<number>-<name>.ipynb`,
    numbered in invitation order) or a path ending in .ipynb; mode 600. Its path.
    """
    target = pathlib.Path(where)
    if target.suffix != ".ipynb":
        target.mkdir(parents=True, exist_ok=True)
        slug = re.sub(r"[^a-z0-9]+", "-", ticket.name.lower()).strip("-") or "student"
        target = target / f"{ticket.index + 1:02d}-{slug}.ipynb"
    return _write(target, student_cells(url, ticket), 0o600)


def write_teacher(path: str | os.PathLike[str], url: str) -> pathlib.Path:
    """Write the teacher's notebook for the room at `url` (mode 600: the address may hold credentials)."""
    return _write(pathlib.Path(path), teacher_cells(url), 0o600)
