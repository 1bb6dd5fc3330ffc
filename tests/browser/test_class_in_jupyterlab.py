"""A class session in a real JupyterLab (issue 23): one server, three pages in one browser, each its own
notebook and kernel. The teacher opens a room on a shared folder, invites Ann and Bob (their tickets go
to files), leads 'detective' from Player 1's seat and shows the lead widget and the board; each student
joins with their ticket. The teacher steps to 2 in the lead widget and both students follow; the teacher
asks "pile or steal" and each student answers by mouse; the board counts 1 and 1; the teacher clicks
Reveal and both students see their verdict while the board shows the truth. Then a challenge: Ann's
kernel plays a move, the board ranks her game, and the teacher clicks "Open Ann's replay": her game opens
under the board in the teacher's view (issue 29). Screenshots of the board and of a student's screen
after the reveal, and of the board with the opened replay, light and dark. A page behind the others draws late
(a click there took 2 s, a screenshot 3-4 s): each is brought to the front (conftest.to_front) before it is
clicked in or shot.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS, to_front
from .test_widget_in_jupyterlab import begin_notebook, kernel_eval, run_notebook, set_theme, widget_root

STUDENTS = ("Ann", "Bob")


def teacher_cells(url: str) -> list[str]:
    return [
        "from needle_widget import classroom, examples\n"
        f"room = classroom.open({url!r})\n"
        "for name in ('Ann', 'Bob'):\n"
        "    with open(f'{name.lower()}.ticket', 'w') as f:\n"
        "        f.write(room.invite(name).code)\n"
        "lesson = room.lead(examples.load('detective'), perspective=0)",
        "w = lesson.widget()\nw",
        "board = room.board()\nboard",
    ]


def student_cells(url: str, name: str) -> list[str]:
    return [
        "from needle_widget import NeedleWidget\n"
        f"me = NeedleWidget.join({url!r}, open('{name.lower()}.ticket').read())\n"
        "me",
    ]


ANN_MOVES = """
import time
s = me.student
for _ in range(400):
    if s.state()["follow"]["kind"] == "challenge" and s.state()["can_act"]:
        break
    time.sleep(0.05)
s.act(s.state()["table"]["legal_actions"][0])
for _ in range(400):
    if s.state()["can_act"] or s.state()["table"]["result"] is not None:
        break
    time.sleep(0.05)
print(s.state()["can_act"])
"""


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def board_root(page: Page) -> Locator:
    return page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .nb-root")


def shoot(page: Page, root: Locator, name: str, *more: tuple[Locator, str], restore: bool = True) -> list[str]:
    """`root`, and each further (root, name) of `more` on the same page, in the light and the dark theme:
    class-{name}-light.png / -dark.png. The page's own theme first, then the other: one switch, and one back
    to the page's theme unless `restore` is False, for a page whose theme no later step depends on (the
    theme is a setting of the user's, saved on their server: a page opened later would open in it too).
    The page is brought to the front first (a page behind the others draws late).
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    to_front(page)
    shots = [(root, name), *more]
    dark = page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
    for in_dark in (dark, not dark):
        set_theme(page, dark=in_dark)
        for part, label in shots:
            part.evaluate("e => e.scrollIntoView({block: 'start'})")
            part.screenshot(path=str(ARTIFACTS / f"class-{label}-{'dark' if in_dark else 'light'}.png"),
                            animations="disabled")
            audit(page, part, f"class-{label}-{'dark' if in_dark else 'light'}")
    if restore:
        set_theme(page, dark=dark)
    return [str(ARTIFACTS / f"class-{label}-{theme}.png") for _, label in shots for theme in ("light", "dark")]


def test_a_class_follows_answers_and_sees_the_reveal(jupyter: dict, page: Page) -> None:
    url = f"folder:{jupyter['root'] / 'class-room'}"
    teacher = page
    students = {name: teacher.context.new_page() for name in STUDENTS}
    # The three pages load (and their kernels start) at once; each student's cell runs once the tickets exist.
    begin_notebook(teacher, jupyter, "class-teacher.ipynb", teacher_cells(url), workspace="class-teacher")
    for name, student in students.items():
        begin_notebook(student, jupyter, f"class-{name.lower()}.ipynb", student_cells(url, name),
                       workspace=f"class-{name.lower()}")
    run_notebook(teacher, len(teacher_cells(url)))
    lead, board = widget_root(teacher), board_root(teacher)
    expect(board).to_be_visible()
    expect(key(board, "roster")).to_have_text("0 of 2 joined · 0 online")

    for name, student in students.items():
        run_notebook(student, len(student_cells(url, name)))
        expect(key(widget_root(student), "follow")).to_be_visible()
    expect(key(board, "roster")).to_have_text("2 of 2 joined · 2 online")
    for name, student in students.items():
        follow = key(widget_root(student), "follow")
        expect(follow).to_contain_text(name)
        expect(key(follow, "follow-status")).to_have_text("Following the teacher at step 0")

    # ---- (1) the teacher steps to 2 in the lead widget: every student follows -------------------------------
    expect(lead.locator(".nw-step-count")).to_have_text(re.compile(r"^0 / \d+$"))
    to_front(teacher)  # Bob's page, run last, is in front
    for k in (1, 2):
        key(lead, "next").click()
        expect(lead.locator(".nw-step-count")).to_have_text(re.compile(rf"^{k} / \d+$"))
    for student in students.values():
        root = widget_root(student)
        expect(key(root, "follow-status")).to_have_text("Following the teacher at step 2")
        expect(root.locator(".nw-step-count")).to_have_text(re.compile(r"^2 / \d+$"))
        expect(key(root, "follow-live")).to_be_disabled()  # already live
    expect(board.locator(".nb-lesson")).to_contain_text("step 2 of")

    # ---- (2) the teacher asks; each student answers by mouse and waits --------------------------------------
    assert kernel_eval(teacher, "print(lesson.step, list(lesson.seats()))") == "2 [0]"
    assert kernel_eval(teacher, "a = lesson.ask('pile_or_steal'); print(a.index, sorted(a.questions))") == "0 [0]"
    expect(key(board, "question")).to_contain_text("Question 1: Pile or steal? · step 2")
    expect(key(board, "roster")).to_have_text("2 of 2 joined · 2 online · 0 answered")
    expect(key(board, "reveal")).to_be_enabled()  # an open question may be revealed at any time
    choices = {"Ann": ("steal", "Steal"), "Bob": ("pile", "Draw from the pile")}
    verdicts = {"Ann": "The better draw:", "Bob": "Not the better draw:"}  # steal wins 81%, pile 66% (Python)
    for name, student in students.items():
        to_front(student)
        root = widget_root(student)
        quiz = key(root, "quiz")
        expect(quiz).to_be_visible()
        expect(quiz).to_contain_text(f"Class question · Player 1 · {name}")
        expect(key(root, "quiz-prompt")).to_contain_text("pile or steal")
        expect(key(root, "quiz-commit")).to_be_disabled()
        expect(key(root, "quiz-verdict")).to_have_count(0)
        option, label = choices[name]
        button = key(root, f"quiz-choice-{option}")
        expect(button).to_have_text(label)
        button.click()
        expect(button).to_have_attribute("aria-pressed", "true")
        key(root, "quiz-commit").click()
        expect(key(root, "quiz-waiting")).to_have_text("Sent: the teacher reveals the answer to everyone at once.")
        expect(key(root, "quiz-commit")).to_have_count(0)
        expect(key(root, "quiz-verdict")).to_have_count(0)

    # ---- (3) the board counts 1 and 1; Reveal goes to every screen at once ----------------------------------
    expect(key(board, "roster")).to_have_text("2 of 2 joined · 2 online · 2 answered")
    dist = key(board, "dist")
    expect(dist.locator(".nb-h")).to_have_text("Draws chosen (2 answers)")
    expect(key(dist, "bar-0")).to_contain_text("Draw from the pile: 1 answer (50%)")
    expect(key(dist, "bar-1")).to_contain_text("Steal: 1 answer (50%)")
    expect(dist.locator(".nb-bar-truth")).to_have_count(0)
    students_table = key(board, "students")
    for name in STUDENTS:
        row = students_table.locator("tbody tr", has_text=name)
        expect(row.locator("td")).to_have_text(["yes", "yes", "yes", "–"])  # joined, online, answered, no score yet
    reveal = key(board, "reveal")
    expect(reveal).to_be_enabled()
    to_front(teacher)
    reveal.click()
    expect(board.locator(".nb-truth")).to_have_text("Revealed: The better draw, by the model-free figures: steal.")
    expect(key(dist, "bar-1")).to_contain_text("Steal: 1 answer (50%), the truth")
    expect(dist.locator(".nb-bar-truth")).to_have_count(1)
    expect(reveal).to_be_disabled()
    expect(board.locator(".nb-why")).to_have_text("Already revealed")
    for name, student in students.items():
        root = widget_root(student)
        verdict = key(root, "quiz-verdict")
        expect(verdict).to_have_text(re.compile("^" + re.escape(verdicts[name]) + ".* steal wins 81% .* pile 66%"))
        expect(root.locator(".nw-quiz-answer")).to_have_text(f"You chose: {choices[name][1].lower()}.")
        expect(key(root, "quiz-waiting")).to_have_count(0)
    assert kernel_eval(teacher, "print(sorted((k, v) for k, v in lesson.asked[0].answers.items()))") == \
        "[(0, 'steal'), (1, 'pile')]"

    shoot(teacher, board, "board")
    shoot(students["Ann"], widget_root(students["Ann"]), "student")

    # ---- (4) a challenge: Ann plays a move (from her kernel); the teacher opens her replay from the board ----
    assert kernel_eval(teacher, "c = room.challenge(seed=5); print(c.opponent)") == "greedy"
    assert kernel_eval(students["Ann"], ANN_MOVES) == "True"
    ranking = key(board, "challenge")
    expect(ranking.locator("tbody tr", has_text="Ann")).to_contain_text("Playing (step 2)")
    open_ann = ranking.get_by_role("button", name="Open Ann's replay")
    expect(open_ann).to_be_visible()
    to_front(teacher)  # Ann's page was shot last
    open_ann.click()
    expect(board.locator(".nb-error")).to_have_count(0)
    cell = teacher.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell", has=teacher.locator(".nb-root"))
    replay = cell.locator(".nw-root")
    expect(replay).to_be_visible()
    expect(cell.locator(".nb-opened")).to_have_text("Ann's challenge game, in the teacher's view (every card)")
    expect(replay).to_contain_text("Teacher")
    expect(replay.locator(".nw-step-count")).to_have_text(re.compile(r"^\d+ / 2$"))
    assert kernel_eval(teacher, "print(type(board.opened).__name__, board.opened.perspective, board.opened.steps)") \
        == "NeedleWidget teacher 2"
    shoot(teacher, cell, "board-replay")
    for student in students.values():
        student.close()
