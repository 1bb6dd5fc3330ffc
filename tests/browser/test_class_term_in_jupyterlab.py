"""A whole term in a real JupyterLab (issue 45, "Deliver 7"): a teacher and three students (Ann, Bob, Cy), each in
their own notebook page and kernel, in one Chromium, on a shared folder room (8 worlds a decision, a fixed secret, so
the reviews and the homework are the same every run).

1. Lesson 1. The teacher opens the room, invites three students (each ticket to a file) and shows the board; each
   student joins. The teacher leads 'detective' (each student their invited seat), goes to step 12 and asks "Who will
   win?". Each student's follow bar says "Question 1 (Who will win?) is open: answer it below"; its "Go to question 1"
   takes the focus to the quiz's prompt; each answers by mouse on the slider (30%, 60%, 90%). The board's headline
   reads "Now on the students’ screens: Question 1 ... 3 of 3 joined answered". The teacher reveals, then ends the
   lesson: every follow bar says "The lesson is over".
2. Lesson 2, a match. `room.online()` lists the three; `room.match(deals=1, players=[...])` seats Ann against Bob and
   Cy against the bot; each student's own kernel plays the first legal move whenever it may (the three at once). The
   teacher opens table 1's view under the board: its follow bar names both seats, and it offers no New deal (nor
   any other new game); the board lists the tables with their names.
3. Close and reopen. `room.close()`: every student's follow bar says the teacher has closed the class. The teacher's
   kernel opens the room again (`classroom.open(url, worlds=8, start=False)`, its workers started once the board has
   been looked at): the board shows the three joined and none online, then all online once their kernels speak again
   (their heartbeat, every 10 s), and each student's screen follows the room again.
4. Lesson 3, homework. `room.assign_practice()` gives each student the exercises of their own match game (Ann 1,
   Bob 2, Cy 1); each follow bar offers "Homework: 0 of N done". Bob clicks it: "Exercise 1 of 2"; "Show the better
   move", then "Next"; the board's homework table counts his 1 of 2; "Back to the class" returns to his match game.
5. The gradebook. `room.export_gradebook` and `room.export_games`, and `needle-widget class-export` in a process of
   its own, write the same CSV files (UTF-8 with a byte-order mark): one row a student with Student, ID, SIS User ID,
   SIS Login ID and Section, then a column each for the lesson's questions, the match and the homework.

Screenshots, light and dark, each audited (axe.py), in ARTIFACTS as term_{screen}_{light,dark}.png: the board with
the question (board), a student's screen with the question in its follow bar (question), the table view (table), a
student's homework practice (homework) and the board with the homework (board_homework). A page behind the others
draws late (a screenshot of one waited 3-6 s): each is brought to the front before it is clicked or shot. The
students' kernels and Python stand in for clicks where a click adds nothing (the match's moves, the teacher's cells).
The browser tests are all `slow` (tests/conftest.py): the quick run leaves this one out. `pytest -s` prints the wall
time of each part.
"""

from __future__ import annotations

import csv
import re
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS, KERNEL_READY, write_notebook
from .test_widget_in_jupyterlab import set_theme, widget_root

SECRET = bytes(range(32))
"""The room's secret: the record's reviews (8 worlds a decision) draw their worlds from it, so the exercises each
student is given are the same every run."""
SEED = 36
"""The match's deal: each student playing the first move listed, the reviews mark one decision of Ann's, two of
Bob's and one of Cy's (with SECRET; found by playing the same term in one process)."""
STUDENTS = ("Ann", "Bob", "Cy")
ANSWERS = {"Ann": 0.3, "Bob": 0.6, "Cy": 0.9}
"""Each student's answer to "Who will win?", as a share of the slider's width (its step is 5%)."""
LESSON_SCORES = {"Ann": "51", "Bob": "64", "Cy": "99"}
"""Their scores in points (1 - Brier, × 100): Player 1 won 'detective'; Ann and Cy sit at Player 1, Bob at Player 2."""
MATCH_TITLES = {"Ann": "Match · deal 1 of 1 · you are Player 1, against Bob",
                "Bob": "Match · deal 1 of 1 · you are Player 2, against Ann",
                "Cy": "Match · deal 1 of 1 · you are Player 2, against the bot"}
TABLE_1 = "Player 1 found their needle A♣. Player 1 wins, 3-2."
TABLE_2 = "Player 1 found their needle A♣. Player 1 wins, 5-2."
"""How the two tables' games end, each student playing the first move listed (Cy is Player 2, against the bot)."""
HOMEWORK = {"Ann": 1, "Bob": 1, "Cy": 1}
"""The exercises each student is given: the decisions the review marks in their own match game (Bob had 2 before
issue 48: one of his marks in doubt settles on fewer further worlds, and differently)."""
QUESTION = "Question 1 (Who will win?)"
CLOSED = "The teacher has closed the class: your screen keeps what it showed"
CELLS = ".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell"


def teacher_cells(url: str) -> list[str]:
    return [
        "from needle_widget import classroom, examples\n"
        f"URL = {url!r}\n"
        f"room = classroom.open(URL, worlds=8, secret={SECRET!r})\n"
        f"for name in {STUDENTS!r}:\n"
        "    with open(f'{name.lower()}.ticket', 'w') as f:\n"
        "        f.write(room.invite(name).code)",
        "board = room.board()\nboard",
        "table = room.open_table(1)\ntable",
    ]


def student_cells(url: str, name: str) -> list[str]:
    return [
        "from needle_widget import NeedleWidget\n"
        f"me = NeedleWidget.join({url!r}, open('{name.lower()}.ticket').read())\n"
        "me",
    ]


PLAYS = """
import time
s = me.student
for _ in range(600):  # the match reaches this screen
    if s.state()["follow"]["kind"] == "match" and s.state()["table"] is not None:
        break
    time.sleep(0.05)
for _ in range(3000):
    if s.state()["table"]["result"] is not None:
        break
    if s.state()["can_act"]:
        s.act(s.state()["table"]["legal_actions"][0])
    time.sleep(0.02)
print(s.state()["table"]["result"]["text"])
"""
"""A student's kernel plays the first move listed whenever it may, to the game's end (the widget's traits follow
once the cell is done: its kernel is busy meanwhile)."""

START = """(code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  const future = kernel.requestExecute({code});
  let out = "";
  future.onIOPub = (msg) => {
    const t = msg.header.msg_type;
    if (t === "stream") out += msg.content.text;
    else if (t === "error") out += `${msg.content.ename}: ${msg.content.evalue}`;
  };
  window.__termRun = future.done.then(() => out.trim(), (e) => `failed: ${e}`);
}"""
FINISH = "() => window.__termRun"
RUN_CELL = """async (i) => {
  const panel = window.jupyterapp.shell.currentWidget;
  panel.content.activeCellIndex = i;
  await window.jupyterapp.commands.execute('notebook:run-cell');
}"""
SHUTDOWN = "async () => { await window.jupyterapp.shell.currentWidget.sessionContext.shutdown(); }"


def start(page: Page, code: str) -> None:
    """Run `code` in the page's kernel (not in a cell) and return at once: `finish` waits for what it printed."""
    page.evaluate(START, code)


def finish(page: Page) -> str:
    """What the code `start` ran printed (and its error's name and words, if it raised)."""
    return page.evaluate(FINISH)


def py(page: Page, code: str) -> str:
    start(page, code)
    return finish(page)


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def goto(page: Page, jupyter: dict, name: str, cells: list[str]) -> None:
    """Write notebook term/`name` and open it in its own workspace (the kernel starts meanwhile: `ready` waits)."""
    page.set_default_timeout(60_000)
    page.set_viewport_size({"width": 1500, "height": 1700})
    write_notebook(jupyter["root"] / "term" / name, cells)
    workspace = f"term-{name.removesuffix('.ipynb')}"
    page.goto(f"{jupyter['base']}/lab/workspaces/{workspace}/tree/term/{name}?reset&token={jupyter['token']}")


def ready(page: Page, cells: int) -> None:
    expect(page.locator(CELLS)).to_have_count(cells)
    page.wait_for_function(KERNEL_READY)


def run_cell(page: Page, index: int) -> Locator:
    """Run cell `index` of the page's notebook in place; the cell."""
    page.evaluate(RUN_CELL, index)
    return page.locator(CELLS).nth(index)


def click_at(page: Page, slider: Locator, share: float) -> None:
    """A click at `share` of the slider's width."""
    slider.scroll_into_view_if_needed()
    box = slider.bounding_box()
    assert box and box["width"] > 50, box
    page.mouse.click(box["x"] + share * box["width"], box["y"] + box["height"] / 2)


def online_column(board: Locator) -> Locator:
    return key(board, "students").locator("tbody tr td:nth-of-type(2)")


def shoot(page: Page, part: Locator, screen: str) -> list[Path]:
    """`part` in the page's theme, then in the other (one switch: the page stays in it), as
    term_{screen}_{light,dark}.png, each audited by axe.
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    dark = page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
    page.bring_to_front()  # a page behind the others draws late: a screenshot of it waited 3-6 s
    paths = []
    for in_dark in (dark, not dark):
        set_theme(page, dark=in_dark)
        path = ARTIFACTS / f"term_{screen}_{'dark' if in_dark else 'light'}.png"
        part.evaluate("e => e.scrollIntoView({block: 'start'})")
        part.screenshot(path=str(path), animations="disabled")
        audit(page, part, path.stem)
        paths.append(path)
    return paths


def read_csv(path: Path) -> tuple[bytes, list[list[str]]]:
    raw = path.read_bytes()
    return raw, list(csv.reader(raw.decode("utf-8-sig").splitlines()))


class Clock:
    """The wall time of each part of the term, printed at the end (pytest -s shows it)."""

    def __init__(self) -> None:
        self.t0 = self.last = time.monotonic()
        self.parts: list[str] = []

    def lap(self, what: str) -> None:
        now = time.monotonic()
        self.parts.append(f"{what} {now - self.last:.1f} s")
        self.last = now

    def __str__(self) -> str:
        return f"term: {time.monotonic() - self.t0:.1f} s (" + ", ".join(self.parts) + ")"


def test_a_whole_term(jupyter: dict, page: Page, tmp_path: Path) -> None:
    clock = Clock()
    expect.set_options(timeout=60_000)
    folder = jupyter["root"] / "term"
    folder.mkdir(exist_ok=True)
    url = f"folder:{folder / '7b'}"
    teacher = page
    pages = {name: teacher.context.new_page() for name in STUDENTS}
    # Every page loads (and its kernel starts) at once; the students run their cell once the tickets exist.
    goto(teacher, jupyter, "teacher.ipynb", teacher_cells(url))
    for name, student in pages.items():
        goto(student, jupyter, f"{name.lower()}.ipynb", student_cells(url, name))
    ready(teacher, 3)
    run_cell(teacher, 0)
    board = run_cell(teacher, 1).locator(".nb-root")
    expect(board).to_be_visible()
    expect(key(board, "roster")).to_have_text("0 of 3 joined · 0 online")
    roots = {}
    for name, student in pages.items():
        ready(student, 1)
        run_cell(student, 0)
        roots[name] = widget_root(student)
    for name, root in roots.items():
        expect(key(root, "follow-status")).to_have_text("Waiting for the teacher to start")
        expect(key(root, "follow")).to_contain_text(name)
    expect(key(board, "roster")).to_have_text("3 of 3 joined · 3 online")
    clock.lap("four pages open, three joined")

    # ---- 1. Lesson 1: a question in the follow bar, answered by mouse; the reveal; the lesson's end -----------
    assert py(teacher, "lesson = room.lead(examples.load('detective'), perspective='assigned')\n"
                       "lesson.go(12)\na = lesson.ask('winner')\nprint(a.index, a.step, a.kind)") == "0 12 winner"
    headline = key(board, "headline")
    expect(headline).to_have_text(f"Now on the students’ screens: {QUESTION} at step 12: 0 of 3 joined answered")
    for name, root in roots.items():
        hint = key(root, "follow-question-text")
        expect(hint).to_have_text(f" · {QUESTION} is open: answer it below")
        expect(key(root, "follow-status")).to_contain_text("Following the teacher at step 12")
        expect(key(root, "quiz")).to_contain_text(name)
    ann = roots["Ann"]
    question_shots = shoot(pages["Ann"], ann, "question")
    for name, root in roots.items():
        student = pages[name]
        student.bring_to_front()
        go = key(root, "follow-question")
        expect(go).to_have_text("Go to question 1")
        go.click()
        expect(key(root, "quiz-prompt")).to_be_focused()  # "Go to question 1" takes the focus to the question
        expect(key(root, "quiz-prompt")).to_contain_text("Who will win")
        click_at(student, key(root, "quiz-prob"), ANSWERS[name])
        expect(root.locator(".nw-quiz-prob-value")).to_have_text(f"{round(ANSWERS[name] * 100)}%")
        key(root, "quiz-commit").click()
        expect(key(root, "quiz-waiting")).to_have_text("Sent: the teacher reveals the answer to everyone at once.")
        expect(key(root, "follow-question-text")).to_have_text(
            f" · {QUESTION}: your answer is sent, the teacher reveals it")
    expect(headline).to_have_text(f"Now on the students’ screens: {QUESTION} at step 12: 3 of 3 joined answered")
    expect(key(board, "roster")).to_have_text("3 of 3 joined · 3 online · 3 answered")
    board_shots = shoot(teacher, board, "board")
    assert py(teacher, "print(sorted(lesson.asked[0].answers.items()))") == "[(0, 0.3), (1, 0.6), (2, 0.9)]"
    py(teacher, "lesson.reveal()")
    for root in roots.values():
        expect(key(root, "quiz-verdict")).to_be_visible()
        expect(key(root, "follow-question-text")).to_have_count(0)  # revealed: no question open
    expect(headline).to_have_text(re.compile(r"^Now on the students’ screens: Lesson: .*, step 12 of \d+$"))
    py(teacher, "room.end('The lesson is over')")
    for root in roots.values():
        expect(key(root, "follow-status")).to_have_text("The lesson is over")
    expect(headline).to_have_text("Now on the students’ screens: The lesson is over")
    clock.lap("lesson 1")

    # ---- 2. Lesson 2: a match of those online; the students' kernels play; the teacher's table view ---------
    teacher.bring_to_front()
    assert py(teacher, "print(room.online())") == "['Ann', 'Bob', 'Cy']"
    assert py(teacher, f"match = room.match(deals=1, seed={SEED}, players={list(STUDENTS)!r})\n"
                       "print([t.players for t in match.tables])") == "[(0, 1), (2, None)]"
    for name, root in roots.items():
        expect(key(root, "follow-status")).to_have_text(MATCH_TITLES[name])
    for student in pages.values():
        start(student, PLAYS)
    results = {name: finish(student) for name, student in pages.items()}
    assert results == {"Ann": TABLE_1, "Bob": TABLE_1, "Cy": TABLE_2}, results
    for name, root in roots.items():
        expect(root.locator(".nw-banner-result")).to_contain_text(results[name])
    clock.lap("the match played")
    table = run_cell(teacher, 2).locator(".nw-root")
    expect(table).to_be_visible()
    expect(key(table, "follow-status")).to_have_text(re.compile(
        r"^Table 1 · deal 1 of 1 · Ann \(Player 1\) against Bob \(Player 2\): the deal is over \(step \d+\)"))
    expect(table.locator(".nw-banner-result")).to_contain_text(results["Ann"])
    expect(table.locator(".nw-mode")).to_be_visible()
    for new_game in ("new-game-new", "new-game-same"):
        expect(key(table, new_game)).to_have_count(0)
    expect(table.get_by_role("button", name=re.compile("New deal|Same deal again|New game"))).to_have_count(0)
    assert py(teacher, "print(table.replay.players)") == "('Ann', 'Bob')"
    match_rows = key(board, "match").locator("tbody tr")
    expect(match_rows).to_have_count(2)
    expect(match_rows.nth(0).locator("td").first).to_have_text("Ann · Bob")
    expect(match_rows.nth(1).locator("td").first).to_have_text("Cy · Bot")
    expect(match_rows.nth(0)).to_contain_text("Round over")
    expect(headline).to_have_text("Now on the students’ screens: Match: 1 deal at 2 tables, 0 still playing")
    table_shots = shoot(teacher, table, "table")
    assert py(teacher, "print(room.wait_for_reviews(120), len(room.record))") == "True 2"
    clock.lap("the table view and the reviews")

    # ---- 3. The room closed, then opened again: online once the students' kernels speak again ---------------
    teacher.bring_to_front()
    py(teacher, "room.close()")
    closed_at = time.monotonic()
    for root in roots.values():
        expect(key(root, "follow-status")).to_have_text(CLOSED, timeout=10_000)
    closed_in = time.monotonic() - closed_at
    # Its workers start once the board has shown nobody online: no student's message is read before.
    assert py(teacher, "room = classroom.open(URL, worlds=8, start=False)\n"
                       "print(room.online(), [m.joined for m in room.members()],\n"
                       "      any('another kernel' in line for line in room.log))") \
        == "[] [True, True, True] False"  # and no warning that another kernel holds it: the closed room let it go
    board = run_cell(teacher, 1).locator(".nb-root")  # the reopened room's board, where the first one was
    expect(key(board, "roster")).to_have_text("3 of 3 joined · 0 online")  # no count of lesson 1's answers
    expect(online_column(board)).to_have_text(["no", "no", "no"])
    py(teacher, "room.start()")
    started = time.monotonic()
    online = "3 of 3 joined · 3 online"
    expect(key(board, "roster")).to_have_text(online, timeout=25_000)  # a heartbeat every 10 s, and a tick
    online_in = time.monotonic() - started
    expect(online_column(board)).to_have_text(["yes", "yes", "yes"])
    for name, root in roots.items():  # the reopened room sends again: each screen follows it
        expect(key(root, "follow-status")).to_have_text(MATCH_TITLES[name])
    clock.lap(f"closed (said in {closed_in:.1f} s) and reopened (online in {online_in:.1f} s)")

    # ---- 4. Lesson 3: homework, the exercises of each student's own game -------------------------------------
    assert py(teacher, "hw = room.assign_practice()\nprint(sorted(room.homework_progress().items()))") == \
        str(sorted((name, (0, n)) for name, n in HOMEWORK.items()))
    for name, root in roots.items():
        offer = key(root, "follow-homework")
        expect(offer).to_have_text(f"Homework: 0 of {HOMEWORK[name]} done")
        expect(offer).to_have_attribute("aria-label", f"Homework: 0 of {HOMEWORK[name]} done. Practise it")
    homework_rows = key(board, "homework").locator("tbody tr")
    expect(homework_rows).to_have_count(3)
    expect(key(board, "homework-counts")).to_have_text("0 of 3 students have done all of theirs.")
    bob = roots["Bob"]
    pages["Bob"].bring_to_front()
    key(bob, "follow-homework").click()
    expect(key(bob, "follow-status")).to_have_text(
        "Practising your homework (1): nobody else sees this. Back to the class when you are done")
    expect(key(bob, "follow-homework")).to_have_count(0)  # while it is practised
    practice = key(bob, "practice")
    expect(practice).to_contain_text("Exercise 1 of 1")
    expect(practice).to_contain_text("Bob")
    expect(key(bob, "practice-prompt")).to_have_text(re.compile(r"Step \d+: you played .+\. Find a better move\.$"))
    expect(bob.locator(".nw-mode")).to_have_text("Practice")
    key(bob, "practice-show").click()
    expect(key(bob, "practice-feedback")).to_have_text(re.compile(r"^Better: "))
    homework_shots = shoot(pages["Bob"], bob, "homework")
    key(bob, "practice-next").click()
    expect(key(bob, "practice-summary-title")).to_have_count(1)
    expect(homework_rows.filter(has_text="Bob").locator("td")).to_have_text(["1", "1"])  # done, given
    back = key(bob, "follow-live")
    expect(back).to_have_text("Back to the class")
    back.click()
    expect(key(bob, "follow-status")).to_have_text(MATCH_TITLES["Bob"])  # his match game again
    expect(key(bob, "follow-homework")).to_have_text("Homework: 1 of 1 done")
    expect(practice).to_have_count(0)
    for name in ("Ann", "Cy"):
        expect(homework_rows.filter(has_text=name).locator("td")).to_have_text(["0", str(HOMEWORK[name])])
    board_homework_shots = shoot(teacher, board, "board_homework")
    clock.lap("homework")

    # ---- 5. The gradebook and the games, from Python and from the command line -------------------------------
    assert py(teacher, "print(room.export_gradebook('gradebook.csv'), room.export_games('games.csv'))") == "3 2"
    script = Path(sys.executable).with_name("needle-widget")  # the command as installed, else its module
    cli = [str(script)] if script.exists() else [sys.executable, "-m", "needle_widget.apps.cli"]
    done = subprocess.run([*cli, "class-export", url, "--gradebook", str(tmp_path / "g.csv"),
                           "--games", str(tmp_path / "games.csv")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "g.csv: 3 students" in done.stdout, done.stdout
    for ours, theirs in (("gradebook.csv", "g.csv"), ("games.csv", "games.csv")):
        raw, rows = read_csv(folder / ours)
        assert raw.startswith(b"\xef\xbb\xbf"), raw[:20]  # UTF-8 with a byte-order mark
        assert (tmp_path / theirs).read_bytes() == raw, f"the command's {theirs} differs from Python's {ours}"
    raw, rows = read_csv(folder / "gradebook.csv")
    header, body = rows[0], rows[1:]
    assert header[:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"], header
    assert [row[0] for row in body] == list(STUDENTS)
    named = {row[0]: dict(zip(header, row, strict=True)) for row in body}
    lesson_column = next(c for c in header if c.startswith("Lesson 1") and c.endswith("· questions"))
    assert {name: row[lesson_column] for name, row in named.items()} == LESSON_SCORES
    assert {name: row["Match 1 · games"] for name, row in named.items()} == {name: "1" for name in STUDENTS}
    assert "Match 1 · luck-adjusted" in header, header
    homework_column = next(c for c in header if c.startswith("Homework 1") and c.endswith("· % done"))
    assert {name: row[homework_column] for name, row in named.items()} == {"Ann": "0", "Bob": "100", "Cy": "0"}
    _, games = read_csv(folder / "games.csv")
    columns = games[0]  # one row a game: each seat's student and result
    results_by_name = {row[columns.index(f"Player {n}")]: row[columns.index(f"Player {n} result")]
                       for row in games[1:] for n in (1, 2)}
    assert results_by_name == {"Ann": "won", "Bob": "lost", "Cy": "lost", "greedy (bot)": ""}, games
    clock.lap("exported")

    # ---- the kernels shut down: the room closed first (its reviews' process with it) -------------------------
    py(teacher, "room.close()")
    for student in pages.values():
        student.evaluate(SHUTDOWN)
        student.close()
    teacher.evaluate(SHUTDOWN)
    print("screenshots:", *question_shots, *board_shots, *table_shots, *homework_shots, *board_homework_shots)
    print(clock)
