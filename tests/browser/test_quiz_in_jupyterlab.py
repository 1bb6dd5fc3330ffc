"""Quiz mode and the teacher's notes in a real JupyterLab, driven by headless Chromium.

The quiz (issue 12): one question of each kind is answered, by keyboard and by mouse, and
after each "Commit answer" the kernel's `w.answers` is read from a re-run print cell. Before
each answer the widget shows no verdict and no odds, and cannot be stepped past the question.
The notes: a teacher adds a note for Player 2 with a question, sees it (and its marks), checks
that Player 1 does not, edits it and removes it. Screenshots in the light and dark themes.
"""

from __future__ import annotations

import ast
import re

from playwright.sync_api import Locator, Page, expect

from .test_whatif_in_jupyterlab import shoot_both
from .test_widget_in_jupyterlab import open_notebook, widget_root

QUIZ_CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "w = NeedleWidget.quiz(examples.load('detective'), seat=0, student='ann', n=40)\n"
    "w",
    "print(repr(([(a.kind, a.answer) for a in w.answers], w.step, w.steps, w.quiz_state['index'])))",
]
NOTES_CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "t = NeedleWidget.from_replay(examples.load('found_early').copy(), perspective='teacher', step=3)\n"
    "t",
    "print(repr([(n.step, n.text, n.perspective, n.question and n.question.kind) for n in t.notes]))",
]
# The quiz for Player 1 on 'detective' (checked in Python): (kind, step) of questions 0..4.
QUESTIONS = [("pile_or_steal", 2), ("next_draw", 10), ("needle", 17), ("winner", 24), ("winner", 43)]
NO_ODDS = "The odds appear once you have answered."
# Words only a reveal shows (quizmode.reveal_text); none may be on screen before the answer.
REVEAL_WORDS = re.compile(r"Brier|The better draw|needle was|How it ended|You chose|You said|Found it")


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def kernel(page: Page, cell: int = 1):
    """Re-run print cell `cell` and read its repr back as Python values.

    Unlike kernel_print this waits for a new execution count, not a new output, so the same
    state may be read twice in a row.
    """
    target = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").nth(cell)
    prompt = target.locator(".jp-InputPrompt")
    done = re.compile(r"^\s*\[\d+\]:\s*$")
    expect(prompt).to_have_text(done)  # not queued or running (e.g. still from "Run All Cells")
    before = prompt.inner_text().strip()
    target.locator(".jp-InputArea-editor").click()
    page.keyboard.press("Control+Enter")
    expect(prompt).not_to_have_text(re.compile(r"^\s*(" + re.escape(before) + r"|\[\*\]:)\s*$"))
    expect(prompt).to_have_text(done)
    out = target.locator(".jp-OutputArea-output")
    expect(out).to_have_count(1)
    return ast.literal_eval(out.inner_text().strip())


def shoot(page: Page, name: str) -> list[str]:
    """The whole widget, light and dark: quiz-{name}-light.png / -dark.png."""
    return shoot_both(page, name, prefix="quiz")


def at_question(page: Page, root: Locator, index: int, answers: list) -> None:
    """Question `index` is shown, unanswered, at its step; no verdict, no odds; no way past its step."""
    kind, step = QUESTIONS[index]
    quiz = key(root, "quiz")
    expect(quiz.locator(".nw-quiz-count")).to_have_text(f"Question {index + 1} of {len(QUESTIONS)} · step {step}")
    expect(root.locator(".nw-step-count")).to_have_text(f"{step} / {step}")
    expect(key(root, "quiz-commit")).to_be_visible()
    expect(key(root, "quiz-verdict")).to_have_count(0)
    expect(key(root, "quiz-next")).to_have_count(0)
    expect(key(root, "quiz-to-step")).to_have_count(0)
    expect(key(root, f"quiz-item-{index}")).to_have_attribute("aria-current", "step")
    expect(root.locator(".nw-info")).to_contain_text(NO_ODDS)
    text = root.inner_text()
    assert not REVEAL_WORDS.search(text), REVEAL_WORDS.search(text)
    # The replay bar stops at the question's step, and → on the widget asks for nothing.
    expect(key(root, "next")).to_be_disabled()
    expect(key(root, "last")).to_be_disabled()
    expect(key(root, "slider")).to_have_attribute("max", str(step))
    root.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("End")
    assert kernel(page) == (answers, step, step, index)
    expect(root.locator(".nw-step-count")).to_have_text(f"{step} / {step}")


def answered(page: Page, root: Locator, index: int, answers: list) -> str:
    """After "Commit answer": the kernel has the answer, the verdict shows, the form is gone.
    After the last question the quiz is done: no "Next question" beside "Quiz finished".
    """
    kind, step = QUESTIONS[index]
    last = index == len(QUESTIONS) - 1
    verdict = key(root, "quiz-verdict")
    expect(verdict).to_be_visible()
    expect(verdict).not_to_have_text("")
    expect(verdict).to_be_focused()  # the focus goes from the gone "Commit answer" to the verdict
    expect(key(root, "quiz-commit")).to_have_count(0)  # an answer cannot change
    if last:
        expect(key(root, "quiz-done")).to_be_visible()
        expect(key(root, "quiz-next")).to_have_count(0)
    else:
        expect(key(root, "quiz-next")).to_be_visible()
    expect(key(root, f"quiz-item-{index}")).to_have_class(re.compile(r"\bnw-quiz-item-done\b"))
    expect(root.locator(".nw-info")).not_to_contain_text(NO_ODDS)
    got, at, steps, shown = kernel(page)
    assert (got, at, shown) == (answers, step, index)
    assert steps == step or last, steps  # once done, the rest of the game may be stepped through
    return verdict.inner_text()


def not_set(root: Locator, reason: str) -> None:
    """No answer yet: "Commit answer" is disabled and says why, in a visible line that describes it."""
    commit = key(root, "quiz-commit")
    expect(commit).to_be_disabled()
    why = commit.get_attribute("aria-describedby")
    assert why, "Commit answer has no description"
    expect(root.locator(f"#{why}")).to_have_text(reason)
    expect(root.locator(f"#{why}")).to_be_visible()


def slider_unset(root: Locator) -> None:
    """The probability slider shows that no value is chosen, and says so to screen readers."""
    prob, shown = key(root, "quiz-prob"), root.locator(".nw-quiz-prob-value")
    expect(prob).to_have_attribute("aria-valuetext", "not set")
    expect(shown).to_have_text("not set")
    expect(prob).to_have_attribute("step", "5")
    not_set(root, "Set a probability on the slider first")


def click_at(page: Page, prob: Locator, share: float) -> None:
    """A click at `share` of the slider's width (where a student aims at a figure on it)."""
    prob.scroll_into_view_if_needed()
    box = prob.bounding_box()
    assert box and box["width"] > 50, box
    page.mouse.click(box["x"] + share * box["width"], box["y"] + box["height"] / 2)


def test_quiz_one_question_of_each_kind(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "quiz.ipynb", QUIZ_CELLS)
    root = widget_root(page)
    expect(key(root, "quiz")).to_be_visible()
    expect(key(root, "quiz")).to_contain_text("Quiz · Player 1 · ann")
    answers: list = []

    # ---- q0 pile or steal, by keyboard: Space on "Steal", Tab to Commit, Enter ---------------------------
    at_question(page, root, 0, answers)
    expect(key(root, "quiz-prompt")).to_contain_text("pile or steal")
    steal, pile, commit = key(root, "quiz-choice-steal"), key(root, "quiz-choice-pile"), key(root, "quiz-commit")
    not_set(root, "Choose pile or steal first")
    steal.focus()
    page.keyboard.press("Space")
    expect(steal).to_have_attribute("aria-pressed", "true")
    expect(pile).to_have_attribute("aria-pressed", "false")
    expect(steal).to_be_focused()
    expect(commit).to_be_enabled()
    page.keyboard.press("Tab")
    expect(commit).to_be_focused()
    page.keyboard.press("Enter")
    answers.append(("pile_or_steal", "steal"))
    text = answered(page, root, 0, answers)
    assert "steal" in text, text

    # ---- q1 next draw, by keyboard on the range: PageUp (+10), → ×3 (+3) --------------------------------
    key(root, "quiz-next").focus()
    page.keyboard.press("Enter")
    expect(key(root, "quiz-prompt")).to_be_focused()
    at_question(page, root, 1, answers)
    expect(key(root, "quiz-prompt")).to_contain_text("next pile draw")
    prob, shown = key(root, "quiz-prob"), root.locator(".nw-quiz-prob-value")
    slider_unset(root)
    shoot(page, "probability-unset")
    prob.focus()
    page.keyboard.press("PageUp")  # from the middle, where the slider waits unset: +10
    expect(shown).to_have_text("60%")
    expect(key(root, "quiz-commit")).to_be_enabled()
    for _ in range(3):
        page.keyboard.press("ArrowRight")  # one step each: 5 percentage points
    expect(shown).to_have_text("75%")
    expect(prob).to_have_value("75")
    expect(prob).to_have_attribute("aria-valuetext", "75%")
    expect(prob).to_be_focused()
    assert kernel(page) == (answers, 10, 10, 1)  # the slider is a local draft: nothing sent yet
    key(root, "quiz-commit").focus()
    page.keyboard.press("Enter")
    answers.append(("next_draw", 0.75))
    answered(page, root, 1, answers)

    # ---- q2 needle, by mouse: two cards ----------------------------------------------------------------
    key(root, "quiz-next").click()
    at_question(page, root, 2, answers)
    expect(key(root, "quiz-prompt")).to_contain_text("Player 2's needle")
    commit = key(root, "quiz-commit")
    not_set(root, "Choose 1 to 3 cards first")
    for code in ("AC", "6D"):
        card = key(root, f"quiz-card-{code}")
        expect(card).to_have_attribute("aria-pressed", "false")
        card.click()
        expect(card).to_have_attribute("aria-pressed", "true")
    expect(root.locator(".nw-quiz-cards [aria-pressed='true']")).to_have_count(2)
    expect(root.locator(".nw-quiz-chosen")).to_contain_text("Chosen (2 of 3)")
    expect(commit).to_be_enabled()
    shoot(page, "cards")
    commit.click()
    answers.append(("needle", ("AC", "6D")))
    text = answered(page, root, 2, answers)
    assert "needle was" in text, text
    shoot(page, "needle-reveal")

    # ---- q3 winner, by mouse on the slider at 70% of its width: 70, on the slider's step of 5 -------------
    key(root, "quiz-next").click()
    at_question(page, root, 3, answers)
    prob, shown = key(root, "quiz-prob"), root.locator(".nw-quiz-prob-value")
    slider_unset(root)
    click_at(page, prob, 0.7)
    expect(shown).to_have_text("70%")
    expect(prob).to_have_value("70")
    shoot(page, "probability")
    key(root, "quiz-commit").click()
    answers.append(("winner", 0.7))
    answered(page, root, 3, answers)
    expect(key(root, "quiz-done")).to_have_count(0)  # question 4 is still open
    expect(key(root, "quiz-verdict")).to_contain_text("Who won is revealed when the quiz is done")
    expect(key(root, "quiz-item-4")).to_have_count(0)  # not reached: its step would tell how long the game goes on

    # ---- q4 winner, the last: then the quiz is done, and a question reviewed offers no "Next question" ------
    key(root, "quiz-next").click()
    at_question(page, root, 4, answers)
    slider_unset(root)
    click_at(page, key(root, "quiz-prob"), 0.3)
    expect(root.locator(".nw-quiz-prob-value")).to_have_text("30%")
    key(root, "quiz-commit").click()
    answers.append(("winner", 0.3))
    answered(page, root, 4, answers)
    shoot(page, "done")
    key(root, "quiz-item-0").click()
    expect(key(root, "quiz-item-0")).to_have_attribute("aria-current", "step")
    expect(key(root, "quiz-verdict")).to_be_visible()
    expect(key(root, "quiz-done")).to_be_visible()
    expect(key(root, "quiz-next")).to_have_count(0)
    shoot(page, "done-review")


def test_teacher_notes(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "notes.ipynb", NOTES_CELLS)
    root = widget_root(page)
    notes = key(root, "notes")
    expect(root.locator(".nw-step-count")).to_have_text(re.compile(r"^3 / \d+$"))
    expect(notes).to_contain_text("No notes yet.")
    assert kernel(page) == []

    # ---- add: text, for Player 2, a question ------------------------------------------------------------
    add = key(root, "note-add")
    expect(add).to_have_text("Add a note at step 3")
    add.click()
    text = key(root, "note-text")
    expect(text).to_be_focused()
    text.press_sequentially("Why steal here?")
    expect(text).to_have_value("Why steal here?")
    expect(root.locator(".nw-note-count")).to_have_text("15 of 2000 characters")
    expect(key(root, "note-for")).to_have_value("")  # Everyone
    key(root, "note-for").select_option(label="Player 2")
    expect(key(root, "note-for")).to_have_value("1")
    key(root, "note-question").select_option("pile_or_steal")
    expect(key(root, "note-question")).to_have_value("pile_or_steal")
    expect(text).to_have_value("Why steal here?")  # the draft survives the selects
    save = key(root, "note-save")
    expect(save).to_be_enabled()
    shoot(page, "notes")
    save.click()
    expect(key(root, "note-form")).to_have_count(0)
    note = key(root, "note-0")
    expect(note).to_be_visible()
    expect(note.locator(".nw-note-text")).to_have_text("Why steal here?")
    expect(note.locator(".nw-note-for")).to_have_text("for Player 2")
    expect(note.locator(".nw-note-question")).to_contain_text("Question:")
    assert kernel(page) == [(3, "Why steal here?", 1, "pile_or_steal")]
    # its marks: in the event list at step 3 and under the slider
    expect(key(root, "ev-3").locator(".nw-ev-note")).to_have_count(1)
    expect(root.locator(".nw-note-tick")).to_have_count(1)
    expect(root.locator(".nw-note-tick")).to_have_attribute("title", "Note at step 3")
    shoot(page, "notes-saved")

    # ---- Player 1 may not read it; Player 2 may ----------------------------------------------------------
    key(root, "persp-p0").click()
    expect(key(root, "persp-p0")).to_have_attribute("aria-pressed", "true")
    expect(root.locator(".nw-step-count")).to_have_text(re.compile(r"^3 / \d+$"))
    expect(root).not_to_contain_text("Why steal here?")
    assert "Why steal here?" not in root.evaluate("e => e.outerHTML")
    expect(root.locator(".nw-note-tick")).to_have_count(0)
    key(root, "persp-p1").click()
    expect(key(root, "persp-p1")).to_have_attribute("aria-pressed", "true")
    expect(root).to_contain_text("Why steal here?")
    key(root, "persp-teacher").click()
    expect(key(root, "persp-teacher")).to_have_attribute("aria-pressed", "true")

    # ---- edit ---------------------------------------------------------------------------------------------
    key(root, "note-edit-0").click()
    text = key(root, "note-text")
    expect(text).to_have_value("Why steal here?")
    expect(key(root, "note-for")).to_have_value("1")
    expect(key(root, "note-question")).to_have_value("pile_or_steal")
    text.fill("Why not the pile?")
    expect(text).to_have_value("Why not the pile?")
    key(root, "note-save").click()
    expect(key(root, "note-form")).to_have_count(0)
    expect(key(root, "note-0").locator(".nw-note-text")).to_have_text("Why not the pile?")
    assert kernel(page) == [(3, "Why not the pile?", 1, "pile_or_steal")]

    # ---- remove -------------------------------------------------------------------------------------------
    key(root, "note-remove-0").click()
    expect(key(root, "note-0")).to_have_count(0)
    expect(notes).to_contain_text("No notes yet.")
    expect(root.locator(".nw-note-tick")).to_have_count(0)
    expect(key(root, "ev-3").locator(".nw-ev-note")).to_have_count(0)
    expect(key(root, "note-add")).to_be_focused()
    assert kernel(page) == []
