"""A student practises the mistakes of their own class game, in a real JupyterLab (issue 44): two pages in one
browser, each its own notebook and kernel. The teacher opens a room on a folder (8 worlds a decision), invites Ann
(her ticket goes to a file), starts a match of one deal (the bot takes the other seat) and shows the board; then
runs nothing more. Ann joins with her ticket; her own kernel plays the first move listed whenever she may, to the
game's end, and the room's review of her game marks two of those moves. Then, by mouse in Ann's page only: she
opens the Review panel and clicks "Practise your mistakes (2)"; her screen practises ("Exercise 1 of 2", "... Find
a better move."); she plays another move with the table's buttons ("Done laying sets"), judged in her own kernel
on its thread; the better move and every move's wins are shown (she would ask for them after a wrong move); Next
goes to the second exercise, and "Back to the class" to her finished match game again. Screenshots of the
practice screen, light and dark: class_practice_{light,dark}.png.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS, to_front
from .test_widget_in_jupyterlab import begin_notebook, kernel_eval, run_notebook, set_theme, widget_root

SEED = 6
"""The match's deal: Ann, playing the first move listed each time, makes two mistakes the review marks (with the
room's secret below; at 8 worlds a decision the marks depend on the worlds drawn, which the secret seeds)."""
SECRET = bytes(range(32))
GAME_OVER = "Player 2 found their needle 7♦. Player 2 wins, 1-4."
TITLE = "Match · deal 1 of 1 · you are Player 1, against the bot"


def teacher_cells(url: str) -> list[str]:
    return [
        "from needle_widget import classroom\n"
        f"room = classroom.open({url!r}, worlds=8, secret={SECRET!r})\n"
        "with open('ann.ticket', 'w') as f:\n"
        "    f.write(room.invite('Ann').code)\n"
        f"match = room.match(deals=1, seed={SEED}, players=['Ann'])",
        "board = room.board()\nboard",
    ]


def student_cells(url: str) -> list[str]:
    return [
        "from needle_widget import NeedleWidget\n"
        f"me = NeedleWidget.join({url!r}, open('ann.ticket').read())\n"
        "me",
    ]


ANN_PLAYS = """
import time
s = me.student
for _ in range(1200):
    if s.state()["table"] is not None and s.state()["table"]["result"] is not None:
        break
    if s.state()["can_act"]:
        s.act(s.state()["table"]["legal_actions"][0])
    time.sleep(0.05)
print(s.state()["table"]["result"]["text"])
"""


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def play_a_move(root: Locator) -> None:
    """Play a move with the table's buttons: "Done laying sets", a draw or a steal if offered, else discard the
    first card of the hand.
    """
    for name in ("act-end-sets", "act-draw", "act-steal"):
        button = key(root, name)
        if button.count() and button.is_enabled():
            button.click()
            return
    root.locator('[data-key^="hand-"]').first.click()
    key(root, "act-discard").click()


def shoot_practice(page: Page, root: Locator) -> list[Path]:
    """The practice screen in the light and the dark theme (class_practice_{light,dark}.png), each audited; then the
    page's theme again (a user setting, saved on the server: a page opened later opens in it).
    """
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    to_front(page)  # a page behind the others draws late
    dark = page.evaluate("() => document.body.dataset.jpThemeLight") == "false"
    paths = []
    for in_dark in (False, True):
        set_theme(page, dark=in_dark)
        path = ARTIFACTS / f"class_practice_{'dark' if in_dark else 'light'}.png"
        root.evaluate("e => e.scrollIntoView({block: 'start'})")
        root.screenshot(path=str(path), animations="disabled")
        audit(page, root, path.stem)
        paths.append(path)
    set_theme(page, dark=dark)
    return paths


def test_a_student_practises_the_mistakes_of_their_own_match_game(jupyter: dict, page: Page) -> None:
    url = f"folder:{jupyter['root'] / 'class-practice'}"
    teacher = page
    ann = teacher.context.new_page()
    # Both pages load (and their kernels start) at once; Ann's cell runs once her ticket exists.
    begin_notebook(teacher, jupyter, "class-practice-teacher.ipynb", teacher_cells(url),
                   workspace="class-practice-teacher")
    begin_notebook(ann, jupyter, "class-practice-ann.ipynb", student_cells(url), workspace="class-practice-ann")
    run_notebook(teacher, len(teacher_cells(url)), shows=".nb-root")
    run_notebook(ann, len(student_cells(url)))  # and Ann's page is in front from here on (conftest.to_front)
    root = widget_root(ann)
    follow = key(root, "follow-status")
    expect(follow).to_have_text(TITLE)

    # ---- Ann's kernel plays her game to its end; the room reviews it (no teacher code from here on) ----------
    assert kernel_eval(ann, ANN_PLAYS) == GAME_OVER
    expect(root.locator(".nw-banner-result")).to_contain_text(GAME_OVER)
    review = root.get_by_role("button", name="Review")
    expect(review).to_be_enabled()  # once the review has come: "Your review is being computed" meanwhile

    # ---- (1) the Review panel, then "Practise your mistakes (2)" ---------------------------------------------
    review.click()
    expect(review).to_have_attribute("aria-pressed", "true")
    practise = key(root, "review-practice")
    expect(practise).to_have_text("Practise your mistakes (2)")
    expect(practise).to_be_enabled()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    key(root, "review-practice").locator("xpath=ancestor::section[1]").screenshot(  # the review panel and its offer
        path=str(ARTIFACTS / "class_review_practise.png"), animations="disabled")
    practise.click()

    # ---- (2) the practice screen: Ann's seat, her first marked decision --------------------------------------
    expect(follow).to_have_text(
        "Practising the mistakes of your game (2): nobody else sees this. Back to the class when you are done")
    panel = key(root, "practice")
    expect(panel).to_contain_text("Practice · Player 1 · Ann")
    expect(panel).to_contain_text("Exercise 1 of 2")
    expect(key(root, "practice-prompt")).to_have_text(re.compile(r"^\?Step \d+: you played .+\. Find a better move\.$"))
    expect(key(root, "practice-prompt")).to_be_focused()  # the focus follows the practice begun from the review
    expect(root.locator(".nw-mode")).to_have_text("Practice")
    feedback = key(root, "practice-feedback")
    expect(feedback).to_have_text("")
    back = key(root, "follow-live")
    expect(back).to_have_text("Back to the class")
    expect(back).to_be_enabled()

    # ---- (3) a move by the table's buttons, judged in Ann's kernel on its thread ------------------------------
    play_a_move(root)
    expect(feedback).to_have_text(re.compile(r"^(Good: |Try again: |That is the move you played)"), timeout=60_000)
    assert kernel_eval(ann, "print(len(me.student.state()['practice_state']['attempts']))") == "1"

    # ---- (4) the better move (where offered), the practice screen in both themes, then Next ------------------
    show = key(root, "practice-show")
    if show.count():
        show.click()
        expect(feedback).to_have_text(re.compile(r"^Better: "))
    expect(panel.locator(".nw-practice-values tbody tr").first).to_contain_text("best found")
    shots = shoot_practice(ann, root)
    key(root, "practice-next").click()
    expect(panel).to_contain_text("Exercise 2 of 2")
    expect(feedback).to_have_text("")

    # ---- (5) back to the class: Ann's finished match game again ----------------------------------------------
    back.click()
    expect(follow).to_have_text(TITLE)
    expect(panel).to_have_count(0)
    expect(back).to_have_text("Back to live")
    expect(back).to_be_disabled()
    expect(key(root, "follow-status")).to_be_focused()  # not lost with the button: on the line that says where
    expect(root.locator(".nw-mode")).to_have_text("Class")
    expect(root.locator(".nw-banner-result")).to_contain_text(GAME_OVER)
    assert kernel_eval(ann, "print(me.student.state()['mode'], me.student.state()['offers']['practice'])") == \
        "play {'count': 2, 'reason': None}"
    print("screenshots:", *shots)
    ann.close()
