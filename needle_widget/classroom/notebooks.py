"""Ready notebooks for a real class: a student's (their ticket filled in) and the teacher's (no simulation).

`room.invite("Ann", notebook="handout/")` writes `handout/01-ann.ipynb`, readable by its owner only (it holds
Ann's ticket); `classroom.teacher_notebook(path, url)` writes the teacher's notebook for a room at `url`. Both are
plain nbformat-4 JSON with no outputs, made here without a notebook library.

The repository's `notebooks/08_lead_a_class.ipynb` is the teacher's notebook for `TEACHER_ADDRESS`, written by
this module: `tests/test_class_notebooks.py` checks that the two agree (`NEEDLE_UPDATE_NOTEBOOKS=1` writes it
again), so the notebook a class opens and the one `teacher_notebook` writes never drift apart. It runs as it is,
with Run All: it opens (or reopens) the room, invites the class, hands out the tickets and shows the board and the
lesson; the cells for later in the lesson are safe under Run All (each waits for its moment, or for a switch the
teacher sets), and nothing in it closes the room unless the teacher asks, or deletes it.

>>> import json, tempfile
>>> from needle_widget.classroom.tickets import Ticket
>>> folder = tempfile.mkdtemp()
>>> path = write_student(folder, "folder:/srv/class/monday", Ticket("monday", 0, "Ann", bytes(10)))
>>> path.name, oct(path.stat().st_mode & 0o777)
('01-ann.ipynb', '0o600')
>>> "NeedleWidget.join('folder:/srv/class/monday', 'monday/0-AAAA-AAAA-AAAA-AAAA')" in path.read_text()
True
>>> "CLOSE_NOW = False" in notebook_text(teacher_cells(TEACHER_ADDRESS))
True
"""

from __future__ import annotations

import json
import os
import pathlib
import re
from collections.abc import Sequence
from typing import Any

from .tickets import Ticket

__all__ = ["write_student", "write_teacher", "student_cells", "teacher_cells", "notebook_text", "handout_name",
           "TEACHER_ADDRESS", "CLASS_LIST"]

TEACHER_ADDRESS = "folder:needle-class/monday"
"""The room the repository's teacher's notebook opens: a folder beside the notebook (one machine). A class on a
JupyterHub puts it on the volume every user mounts, a class across machines on Redis (the notebook's first cell)."""
CLASS_LIST = ("Ann", "Ben", "Cai")
"""The class list the teacher's notebook starts with, for the teacher to replace."""


def _notebook(cells: Sequence[tuple[str, str]]) -> dict[str, Any]:
    return {
        "cells": [{"cell_type": kind, "id": f"cell-{n}", "metadata": {}, "source": text.splitlines(keepends=True),
                   **({"execution_count": None, "outputs": []} if kind == "code" else {})}
                  for n, (kind, text) in enumerate(cells, start=1)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
                     "language_info": {"name": "python"}},
        "nbformat": 4, "nbformat_minor": 5,
    }


def notebook_text(cells: Sequence[tuple[str, str]]) -> str:
    """The notebook of `cells` ((kind, source) pairs) as the JSON text this module writes."""
    return json.dumps(_notebook(cells), indent=1, ensure_ascii=False) + "\n"


def handout_name(ticket: Ticket) -> str:
    """The file name of a student's ready notebook: `<number>-<name>.ipynb`, numbered in invitation order."""
    slug = re.sub(r"[^a-z0-9]+", "-", ticket.name.lower()).strip("-") or "student"
    return f"{ticket.index + 1:02d}-{slug}.ipynb"


def student_cells(url: str, ticket: Ticket) -> list[tuple[str, str]]:
    """The student's notebook: what to do, and the one cell that joins."""
    return [
        ("markdown", f"# {ticket.name}, join the class\n\nRun the cell below (Shift+Enter), or the whole notebook "
                     "(*Run › Run All Cells*). Your screen follows the teacher: step back to look whenever you like "
                     "and press **Back to live** to come back. When the teacher asks a question, answer it in the "
                     "widget; in a challenge or a match you play your own seat, and **New deal** deals your table's "
                     "next deal once a round is over. Once your game is over, **Review** shows what you could have "
                     "known at each move, and **Practise your mistakes** lets you play them again.\n\n"
                     "This notebook holds your own ticket: keep it to yourself. If the kernel restarts, run the cell "
                     "again: you come back where the class is."),
        ("code", f"from needle_widget import NeedleWidget\n\nNeedleWidget.join({url!r}, {ticket.code!r})"),
    ]


def _literal(text: str) -> str:
    """`text` as a Python string literal in double quotes (JSON's string syntax is Python's for these)."""
    return json.dumps(text, ensure_ascii=False)


def _address_lines(url: str) -> str:
    """The first cell's address, with the other channels as commented alternatives."""
    other = [line for line in (
        '# ADDRESS = "folder:/srv/class/monday"  # JupyterHub: a folder on the volume every user mounts',
        '# ADDRESS = "redis://default:PASSWORD@class.example.org:6379/0?room=monday"  # Redis, across machines',
    ) if url not in line]
    return "\n".join([f"ADDRESS = {_literal(url)}  # the room: a folder every student's kernel can reach", *other])


_INTRO = """\
# 8 · Lead a class

This is your notebook for leading a class; each student has their own (a ready notebook this one writes \
for them, or `08_join_a_class.ipynb`). **Run All** (*Run › Run All Cells*) at the start of every lesson: \
it opens the room (or reopens it, with its students, answers and record), invites the class, hands out \
the tickets, and shows your board and the lesson.

The cells under *Later in the lesson* are for later: under Run All each only says what it waits for. \
Run each one (click in it, Shift+Enter) when the class is ready for it. Nothing here closes the room \
unless you ask, and nothing deletes it: if the kernel restarts, Run All again and the class goes on \
where it was.

Run this notebook from a copy of the lessons (`needle-widget lessons` makes one), not from the \
project's own folder. To try a class alone first, with simulated students, open `08_class_demo.ipynb`."""

_YOUR_CLASS = """\
## Your class

Set these once. `ADDRESS` is where the room lives: a folder every student's kernel can read and write. \
The folder beside this notebook works when the students' notebooks run on this machine; on a JupyterHub, \
use a folder on the volume every user mounts (the project's docs/CLASS.md says how to set \
up the accounts); for a class across machines, Redis. Keep the same address all term: opening it again \
brings back the room. `NAMES` is your class list: a name added later is invited the next time you run \
the cells below."""

_OPEN = """\
from needle_widget import classroom, examples

room = classroom.open(ADDRESS)
room"""

_INVITE_TEXT = """\
## Invite the class and hand out the tickets

Each student gets a **ticket**: the room's name, their number and a secret signed by the room. Whoever \
holds Ann's ticket can answer as Ann, so hand each student their own, privately. `room.invite` also \
writes each student's ready notebook, their ticket and the room's address in it, into the handout folder \
(readable by you only): give each student their file (on a JupyterHub, copy it into their home), and \
they run it. A student may instead open `08_join_a_class.ipynb` and paste the address and their \
ticket's code.

Inviting a name again gives the same ticket. `room.rename("Ann", "Anna")` renames a student; \
`room.remove("Ben")` takes a student off the roster, and their ticket stops working."""

_INVITE = """\
from needle_widget.classroom.notebooks import handout_name

tickets = [room.invite(name, notebook=HANDOUT) for name in NAMES]

print("The room's address:", room.url)
print()
print(f"{'student':16} {'ticket code':30} {'seat':9} ready notebook")
for ticket in tickets:
    seat = f"Player {room.assigned_seat(ticket.index) + 1}"
    print(f"{ticket.name:16} {ticket.code:30} {seat:9} {HANDOUT}/{handout_name(ticket)}")"""

_BOARD_TEXT = """\
## The board

Who has joined and who is online, the question on the students' screens and its answers, the games and \
the class's record, with a **Reveal** button. It names the students: it is for your screen. For the \
wall, `room.board("projector")` shows counts and no names."""

_LESSON_TEXT = """\
## The lesson

`room.lead` starts a lesson on a game: every student's screen follows your step, each from the seat they \
were invited with (`perspective="assigned"`; or `"p1"`, `"p2"` for the whole class). Step in your widget \
below (Next, the slider, the moves) or from Python (`lesson.go(17)`, `lesson.next()`): every screen \
moves. A lesson already on the students' screens with this title goes on where it was (Run All after a \
restart); change `TITLE` and `REPLAY` for next week's lesson."""

_LESSON = """\
TITLE = "detective"  # the lesson's name, on the board and in the gradebook
REPLAY = examples.load("detective")  # a bundled game (examples.EXAMPLES), or Replay.load("game.json")

lesson = room.lesson
if lesson is None or room.showing != "lesson" or lesson.title != TITLE:
    lesson = room.lead(REPLAY, perspective="assigned", title=TITLE)
lesson.widget()"""

_LATER_TEXT = """\
## Later in the lesson

Run each cell below when the class is ready for it. Under Run All they change nothing on the students' \
screens: each says what it waits for. A cell with a switch (`START_MATCH = False`) acts once you set its \
switch to True and run it: set it back to False afterwards, so the next Run All leaves it be.

### Ask, then reveal

Step the class to a moment worth a question, then run the next cell: every student is asked at that \
step, from their seat, and the answers come in on the board. Run it twice at the same step and the \
question is asked once. The kinds: `"needle"`, `"next_draw"`, `"winner"`, `"pile_or_steal"`, \
`"your_move"`."""

_ASK = """\
QUESTION = "winner"

if lesson.step == 0:
    print("Step the class to a moment first (Next in the widget above, or lesson.go(17)), "
          "then run this cell to ask.")
else:
    print(lesson.ask(QUESTION))"""

_REVEAL_TEXT = """\
The next cell reveals the open question once every student online has answered: each sees the truth \
and their own score. The board's **Reveal** button reveals it at once."""

_REVEAL = """\
question = lesson.open_question
if question is None:
    print("No question is open: ask one first (the cell above).")
elif not question.answers or len(question.answers) < len(room.online()):
    print(question, "· run this cell again once everyone has answered, or press Reveal on the board")
else:
    lesson.reveal()
    print(question)"""

_MATCH_TEXT = """\
### A match

The students online play each other, two a table (a bot takes an odd seat), every table the same deals, \
each deal twice with the seats swapped. Their screens show their own seat and whom they play; your board \
lists the tables; `room.open_table(1)` watches table 1. A student who joins late takes a bot's seat, or \
waits for the next match. To choose who plays: `room.match(deals=2, players=["Ann", "Cai"])`.

Set `START_MATCH = True` and run the cell when the class is ready to play."""

_MATCH = """\
START_MATCH = False

if room.showing == "match":
    print("A match is on:", room.activity)
elif not START_MATCH:
    print("No match yet: set START_MATCH = True and run this cell when the class is ready to play.")
elif not room.online():
    print("Nobody is online yet: run this cell again once the students have joined.")
else:
    match = room.match(deals=2)
    print(match)"""

_HOMEWORK_TEXT = """\
### Homework

Each student gets the mistakes of their own games in the class to practise, on their own screen, and \
the board shows who has done how many. Set `GIVE_HOMEWORK = True` and run the cell once the games are \
played."""

_HOMEWORK = """\
GIVE_HOMEWORK = False

if not GIVE_HOMEWORK:
    print("No homework given: set GIVE_HOMEWORK = True and run this cell once the games are played.")
elif not room.record.entries:
    print("No finished game is in the record yet: run this cell again once the class has played.")
else:
    homework = room.assign_practice()  # the mistakes of the latest match's (or challenge's) games
    print(f"Homework {homework.id} given: {homework.title}")
if room.homework is not None:
    print("Done of given, each student:", room.homework_progress())"""

_FILES_TEXT = """\
### The class's files

What the room holds now, as files in the results folder: `games.csv` (one row a finished game: who \
held each seat, their result and luck-adjusted score), `gradebook.csv` (one row a student, one column an \
assignment: Canvas and Moodle import it) and `answers.csv` (the answers to the lessons' questions). They \
name the students: keep them to yourself. Run the cell again at any time: it writes what the room holds \
then. From a shell, `needle-widget class-export ADDRESS --gradebook gradebook.csv` does the same \
without this notebook."""

_FILES = """\
from pathlib import Path

from needle_widget.classroom import gradebook

Path(RESULTS).mkdir(exist_ok=True)
room.wait_for_reviews(60)  # the games' reviews, for their figures (at most a minute)
games = gradebook.games_csv(room, f"{RESULTS}/games.csv")
students = gradebook.gradebook_csv(room, f"{RESULTS}/gradebook.csv")
room.save_answers(f"{RESULTS}/answers.csv")
print(f"{RESULTS}/: games.csv ({games} game{'s' * (games != 1)}), gradebook.csv ({students} students), "
      f"answers.csv ({len(room.answers)} answers)")"""

_END_TEXT = """\
### The end of the lesson

Every student's screen says the lesson is over, until you start something new. Set `END_LESSON = True` \
and run the cell at the end of the lesson."""

_END = """\
END_LESSON = False

if END_LESSON:
    room.end("The lesson is over")
    print("The students' screens say: The lesson is over")
else:
    print("The lesson goes on: set END_LESSON = True and run this cell to end it.")"""

_CLOSE_TEXT = """\
### Close the room

Closing stops the room's work in this kernel and tells the students' screens; the room stays in its \
folder (or on Redis) with everything it holds, and Run All next week opens it again. Shutting the kernel \
down does the same without telling the students. Set `CLOSE_NOW = True` and run the cell when you are \
done."""

_CLOSE = """\
CLOSE_NOW = False

if CLOSE_NOW:
    room.close()
    print("The room is closed; it opens again with classroom.open(ADDRESS).")
else:
    print("The room stays open: set CLOSE_NOW = True and run this cell to close it.")"""


def teacher_cells(url: str, names: Sequence[str] = CLASS_LIST, handout: str = "handout",
                  results: str = "results") -> list[tuple[str, str]]:
    """The teacher's notebook for the room at `url`, run as it is with Run All: the room opened (or reopened), the
    class list `names` invited with each student's ready notebook written in the folder `handout` and a table of
    the tickets, the board, the lesson and its widget; then, safe under Run All, a question and its reveal, a match
    of the students online, homework, the class's files in the folder `results`, the end of the lesson, and a
    "close the room" cell that runs only when the teacher sets its switch.
    """
    roster = "[" + ", ".join(_literal(str(name)) for name in names) + "]"
    settings = (f"{_address_lines(url)}\nNAMES = {roster}  # your class list\n"
                f"HANDOUT = {_literal(handout)}  # the folder for each student's ready notebook (their ticket in it)\n"
                f"RESULTS = {_literal(results)}  # the folder for the class's files: games, gradebook, answers")
    return [
        ("markdown", _INTRO), ("markdown", _YOUR_CLASS), ("code", settings), ("code", _OPEN),
        ("markdown", _INVITE_TEXT), ("code", _INVITE), ("markdown", _BOARD_TEXT), ("code", "room.board()"),
        ("markdown", _LESSON_TEXT), ("code", _LESSON), ("markdown", _LATER_TEXT), ("code", _ASK),
        ("markdown", _REVEAL_TEXT), ("code", _REVEAL), ("markdown", _MATCH_TEXT), ("code", _MATCH),
        ("markdown", _HOMEWORK_TEXT), ("code", _HOMEWORK), ("markdown", _FILES_TEXT), ("code", _FILES),
        ("markdown", _END_TEXT), ("code", _END), ("markdown", _CLOSE_TEXT), ("code", _CLOSE),
    ]


def _write(path: pathlib.Path, cells: Sequence[tuple[str, str]], mode: int) -> pathlib.Path:
    text = notebook_text(cells)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, mode)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        os.fchmod(f.fileno(), mode)
        f.write(text)
    return path


def write_student(where: str | os.PathLike[str], url: str, ticket: Ticket) -> pathlib.Path:
    """Write the student's notebook: `where` is a folder (made if missing; the file is `handout_name(ticket)`,
    `<number>-<name>.ipynb`, numbered in invitation order) or a path ending in .ipynb; mode 600. Its path.
    """
    target = pathlib.Path(where)
    if target.suffix != ".ipynb":
        target.mkdir(parents=True, exist_ok=True)
        target = target / handout_name(ticket)
    return _write(target, student_cells(url, ticket), 0o600)


def write_teacher(path: str | os.PathLike[str], url: str) -> pathlib.Path:
    """Write the teacher's notebook for the room at `url` (mode 600: the address may hold credentials)."""
    return _write(pathlib.Path(path), teacher_cells(url), 0o600)
