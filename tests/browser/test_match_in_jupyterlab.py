"""Students play each other in a real JupyterLab (issue 30, part 2): one server, three pages, each its own
notebook and kernel. The teacher opens a room, invites Ann and Bob and shows the board; the students join;
the teacher starts a match. Ann picks her needle by clicking, and Bob's screen shows her move and lets him
pick his; his pick reaches Ann's screen, whose Draw opens. The board lists the table. The students' kernels play
the deal out; the board's record lists both, level; Ann opens her own review by clicking. Screenshots of the
board, each student's match screen, the record and Ann's review, light and dark.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .test_class_in_jupyterlab import board_root, key, shoot, student_cells
from .test_widget_in_jupyterlab import kernel_eval, open_notebook, widget_root

STUDENTS = ("Ann", "Bob")
FINISH = """
import threading, time
def finish(s=me.student):
    for _ in range(3000):
        state = s.state()
        if state["table"] is not None and state["table"]["result"] is not None:
            return
        if state["can_act"]:
            s.act(state["table"]["legal_actions"][0])
        time.sleep(0.02)
threading.Thread(target=finish, daemon=True).start()
"""


def teacher_cells(url: str) -> list[str]:
    return [
        "from needle_widget import classroom\n"
        f"room = classroom.open({url!r})\n"
        "for name in ('Ann', 'Bob'):\n"
        "    with open(f'{name.lower()}.ticket', 'w') as f:\n"
        "        f.write(room.invite(name).code)",
        "board = room.board()\nboard",
    ]


def test_two_students_play_a_match_by_clicking(jupyter: dict, page: Page) -> None:
    url = f"folder:{jupyter['root'] / 'match-room'}"
    teacher = page
    open_notebook(teacher, jupyter, "match-teacher.ipynb", teacher_cells(url), workspace="match-teacher",
                  shows=".nb-root")
    board = board_root(teacher)
    expect(board).to_be_visible()
    students: dict[str, Page] = {}
    for name in STUDENTS:
        students[name] = teacher.context.new_page()
        open_notebook(students[name], jupyter, f"match-{name.lower()}.ipynb", student_cells(url, name),
                      workspace=f"match-{name.lower()}")
    expect(key(board, "roster")).to_have_text("2 of 2 joined")
    kernel_eval(teacher, "match = room.match(deals=1, seed=3)")

    ann, bob = (widget_root(students[name]) for name in STUDENTS)
    expect(key(ann, "follow")).to_contain_text("you are Player 1, against a classmate")
    expect(key(bob, "follow")).to_contain_text("you are Player 2, against a classmate")
    expect(ann.locator(".nw-mode")).to_have_text("Class")
    ann.get_by_role("group", name="Pick your needle").locator("button:enabled").first.click()
    expect(bob.locator(".nw-events")).to_contain_text("Player 1 picked a needle.")
    bob.get_by_role("group", name="Pick your needle").locator("button:enabled").first.click()
    expect(ann.locator(".nw-events")).to_contain_text("Player 2 picked a needle.")
    expect(ann.get_by_role("button", name="Draw from pile")).to_be_enabled()
    expect(bob.get_by_role("button", name="Draw from pile")).to_have_count(0)

    tables = key(board, "match")
    expect(tables).to_be_visible()
    expect(tables.locator("tbody tr").first).to_contain_text("Ann · Bob")
    expect(tables.locator("tbody tr").first).to_contain_text("1 of 1")
    shoot(teacher, board, "match-board")
    for name in STUDENTS:
        shoot(students[name], widget_root(students[name]), f"match-{name.lower()}")

    # The rest of the deal through each student's own kernel (their moves still go to the room); then the record
    # on the board, and Ann's own review of her game, opened by clicking.
    for name in STUDENTS:
        kernel_eval(students[name], FINISH)
    record = key(board, "record")
    expect(record.locator("tbody tr")).to_have_count(2, timeout=90_000)
    expect(record).to_contain_text("provisional")
    expect(record.locator("tbody tr").first).to_contain_text("1–2")  # one game each: they cannot be told apart
    shoot(teacher, record, "match-record")
    toggle = ann.get_by_role("button", name="Review", exact=True)
    expect(toggle).to_be_enabled(timeout=60_000)
    toggle.click()
    review = ann.get_by_role("region", name="Review", exact=True)
    expect(review).to_contain_text("Review: Player")
    shoot(students["Ann"], ann, "match-review")
    for student in students.values():
        student.close()
