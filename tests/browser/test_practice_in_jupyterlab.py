"""Practice mode in a real JupyterLab, driven by headless Chromium (issue 31).

Two exercises on the bundled found_early replay (tests/js_fixtures.py's `practice_example`, 8 worlds a decision; both
planted moves were in doubt, so their values are over 32 worlds): Player 2's
discard of 2♠ at step 10, planted as a mistake, and Player 1's "Done laying sets" at step 3. The student
plays a wrong move by clicking (3♦: "Try again"), presses Try again with the keyboard, plays the better one
(5♥: accepted), then Next; on the second exercise asks for the better move, then Next to the summary. After
each move the kernel's records are read back, and the game has not moved. Screenshots in the light and dark
themes: practice-{wrong,solved,next,done}-{light,dark}.png.
"""

from __future__ import annotations

import ast
import re

from playwright.sync_api import Locator, Page, expect

from .test_whatif_in_jupyterlab import shoot_both
from .test_widget_in_jupyterlab import kernel_eval, open_notebook, widget_root

CELLS = [  # tests/js_fixtures.py's practice_example, which the kernel cannot import
    "from needle_widget import NeedleWidget, actions, examples\n"
    "from needle_widget.review.exercises import exercise_at\n"
    "replay = examples.load('found_early')\n"
    "exercises = [exercise_at(replay, 10, actions.parse('discard 2S'), worlds=8),\n"
    "             exercise_at(replay, 3, actions.EndSets(), worlds=8)]\n"
    "w = NeedleWidget.practice(exercises, student='ann')\n"
    "w",
]
RECORDS = ("print(repr(([[(str(a.action), a.outcome.name) for a in r.attempts] for r in w.practice_results], "
           "len(w.game), w.practice_state['phase'])))")


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def records(page: Page) -> tuple:
    return ast.literal_eval(kernel_eval(page, RECORDS).strip())


def discard(root: Locator, code: str, text: str) -> None:
    """Select the card `code` in the hand, then press "Discard ..."."""
    key(root, f"hand-{code}").click()
    button = key(root, "act-discard")
    expect(button).to_contain_text(f"Discard {text}")  # and its key, D
    button.click()


def test_practice_a_wrong_move_then_the_better_one_then_next(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "practice.ipynb", CELLS)
    root = widget_root(page)
    panel, feedback = key(root, "practice"), key(root, "practice-feedback")
    expect(panel).to_contain_text("Practice · Player 2 · ann")
    prompt = "Step 11: you played Discard 2♠ (a mistake). Find a better move."
    expect(key(root, "practice-prompt")).to_have_text(f"?{prompt}")   # the mark, then the words
    expect(root.locator(".nw-mode")).to_have_text("Practice")
    expect(root.locator(".nw-step-count")).to_have_text("10 / 10")
    expect(feedback).to_have_attribute("aria-live", "polite")
    expect(feedback).to_have_text("")
    expect(key(root, "practice-retry")).to_have_count(0)
    expect(root.locator(".nw-analysis")).to_have_count(0)
    expect(key(root, "persp-p0")).to_be_disabled()                       # one seat's view only

    # ---- a wrong move, by clicking: "Try again", and the game has not moved ---------------------------------
    discard(root, "3D", "3♦")
    expect(feedback).to_have_text(re.compile(r"^Try again: discarding 3♦ gives up \d+ points? of win chance"))
    retry = key(root, "practice-retry")
    expect(retry).to_have_text("Try again")
    expect(retry).to_be_focused()                                        # the focus went on with the move
    expect(root.locator(".nw-waiting")).to_contain_text("Press Try again to play another move")
    expect(root.locator(".nw-step-count")).to_have_text("10 / 10")
    assert records(page) == ([[("Discard 3♦", "TRY_AGAIN")], []], 10, "wrong")
    shoot_both(page, "wrong", prefix="practice")

    # ---- Try again by keyboard, then the better move: accepted, with the candidates' values ------------------
    retry.focus()
    page.keyboard.press("Enter")
    expect(key(root, "practice-retry")).to_have_count(0)
    expect(key(root, "practice-prompt")).to_be_focused()
    expect(feedback).to_have_text("")
    discard(root, "5H", "5♥")
    expect(feedback).to_have_text(re.compile(r"^Good: discarding 5♥ wins \d+% of \d+ worlds you could not tell apart"))
    values = panel.locator(".nw-practice-values")
    expect(panel.locator(".nw-practice-values-note")).to_contain_text("the same worlds you could not tell apart")
    expect(panel.locator(".nw-practice-better")).to_contain_text("of 32 worlds you could not tell apart")
    expect(values.locator("tbody tr").first).to_contain_text("best found")
    expect(values).to_contain_text("you played it")
    nxt = key(root, "practice-next")
    expect(nxt).to_be_focused()
    assert records(page) == ([[("Discard 3♦", "TRY_AGAIN"), ("Discard 5♥", "SOLVED")], []], 10, "solved")
    shoot_both(page, "solved", prefix="practice")

    # ---- Next: the second exercise, from Player 1's seat ------------------------------------------------------
    nxt.click()
    expect(key(root, "practice-prompt")).to_contain_text("Step 4: you played Done laying sets (a blunder)")
    expect(key(root, "practice-prompt")).to_be_focused()
    expect(panel).to_contain_text("Exercise 2 of 2")
    expect(panel).to_contain_text("Practice · Player 1 · ann")
    expect(root.locator(".nw-step-count")).to_have_text("3 / 3")
    expect(feedback).to_have_text("")
    shoot_both(page, "next", prefix="practice")

    # ---- the better move shown, then the summary -------------------------------------------------------------
    key(root, "practice-show").click()
    # the review's budget for that move: its 8 worlds and two steps of 4 more, where its mark settled (`review.STEP`)
    expect(feedback).to_have_text(re.compile(r"^Better: laying .+ won \d+% of 16 worlds you could not tell apart"))
    expect(panel.locator(".nw-practice-values tbody tr").first).to_contain_text("best found")
    key(root, "practice-next").click()
    title = key(root, "practice-summary-title")
    expect(title).to_have_text("Practice finished: 2 exercises")
    expect(title).to_be_focused()
    expect(key(root, "practice-summary")).to_contain_text("solved after trying again")
    assert records(page)[0] == [[("Discard 3♦", "TRY_AGAIN"), ("Discard 5♥", "SOLVED")], []]
    shoot_both(page, "done", prefix="practice")
