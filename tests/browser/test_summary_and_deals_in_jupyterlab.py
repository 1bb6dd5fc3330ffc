"""The end of a quiz, the end of a round and the marks of a turn in a real JupyterLab (issue 20), driven by
headless Chromium: the quiz's summary after the last "Commit answer" (and at a projector's scale), "New
deal" and "Same deal again" once a round is over, a newly drawn card's "new" tag, and the odds panel
while a needle is not picked yet (a player's panel and the teacher's two). The kernel's state is read
back from re-run print cells. Screenshots of each part in the light and the dark theme.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .test_looks_in_jupyterlab import shoot_part
from .test_quiz_in_jupyterlab import kernel
from .test_whatif_in_jupyterlab import shoot_both
from .test_widget_in_jupyterlab import open_notebook, widget_root

QUIZ_CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "w = NeedleWidget.quiz(examples.load('detective'), seat=0, student='ann')\n"
    "w",
    "print(repr(([(a.kind, a.answer) for a in w.answers], w.quiz_state['done'])))",
    # The first four answered from Python, as the browser would; the last is left to the browser.
    "for i, a in enumerate(['steal', 0.75, ['AC', '6D'], 0.7]):\n"
    "    w.go_to_question(i)\n"
    "    w.answer_question(a)\n"
    "w.go_to_question(4)\n"
    "print(repr(w.quiz_state['index']))",
    # A projector's scale, once the quiz is done (not when "Run All" first runs it).
    "if w.quiz_state['done']:\n    w.scale = 1.5\nprint(repr(w.scale))",
]
PLAY_CELLS = [
    "from needle_widget import NeedleWidget, bots\n"
    "w = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, bot_delay=0.3)\n"
    "w",
    # GreedyBot chooses for Player 1 to the end of the round (its opponent answers at once).
    "me = bots.GreedyBot()\n"
    "while w.game.phase != 'over':\n"
    "    w.apply(me.choose(w.game.player_view(0), w.game.legal_actions()))\n"
    "print(repr((w.game.phase, w.deals)))",
    "print(repr((w.game.phase, w.game.turn, w.deals, [c.code for c in w.game.hand(0)])))",
]
TEACHER_CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "t = NeedleWidget.from_replay(examples.load('detective'), perspective='teacher', step=1)\n"
    "t",
]
WAITING = re.compile(r"^Player [12] has not picked a needle yet: the odds of where it is appear once it has\.$")
DEAL_TEXTS = {"New deal": "Deal new cards", "Same deal again": "Play the same cards again: same hands, same pile"}

# The part's box lies inside its container's box (nothing cut off or spilling out).
INSIDE = """([part, box]) => {
  const a = part.getBoundingClientRect(), b = box.getBoundingClientRect();
  return a.width > 0 && a.left >= b.left - 0.5 && a.right <= b.right + 0.5
    && a.top >= b.top - 0.5 && a.bottom <= b.bottom + 0.5;
}"""


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def inside(part: Locator, box: Locator) -> bool:
    return part.evaluate(f"(p, b) => ({INSIDE})([p, b])", box.element_handle())


def fits_across(table: Locator) -> None:
    """The table is as wide as its panel at most: nothing scrolls or spills sideways."""
    width = table.evaluate(
        "t => [t.scrollWidth, t.closest('.nw-quiz').clientWidth, t.getBoundingClientRect().width]")
    assert width[0] <= width[1] and width[2] <= width[1], width


def framed(waiting: Locator) -> None:
    """The waiting words stand in the heat map's place: a dashed frame, in the panel's full text colour,
    as wide as a heat map at most, beside the figures (not above them).
    """
    expect(waiting).to_have_css("border-top-style", "dashed")
    look = waiting.evaluate(
        "w => { const s = getComputedStyle(w), k = getComputedStyle(w.closest('.nw-root'));"
        " const f = w.parentElement.querySelector('.nw-knowledge-facts').getBoundingClientRect();"
        " const a = w.getBoundingClientRect(), em = parseFloat(k.fontSize);"
        " return [s.color === k.color, a.width <= 19 * em + 1, f.left >= a.right, Math.abs(f.top - a.top) < em]; }")
    assert look == [True, True, True, True], look


def summary_shown(root: Locator) -> Locator:
    """The summary: its heading, a table of the student beside the models and the calibration table."""
    summary = key(root, "quiz-summary")
    expect(summary).to_be_visible()
    heading = summary.get_by_role("heading", name="Quiz finished: 5 questions")
    expect(heading).to_be_visible()
    vs = summary.get_by_role("table", name="You and the models, on the same questions")
    expect(vs.get_by_role("columnheader")).to_have_text(["Question", "You", "Model-free", "GreedyBot model"])
    expect(vs.get_by_role("rowheader").first).to_have_text(re.compile(r"^Forecasts: mean Brier score \(3\)$"))
    cal = summary.get_by_role("table", name=re.compile("^Calibration"))
    expect(cal.get_by_role("columnheader")).to_have_text(["You said", "How many", "Your average", "It happened"])
    for table in (vs, cal):
        fits_across(table)
    return summary


def test_quiz_summary(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "summary.ipynb", QUIZ_CELLS)
    root = widget_root(page)
    expect(key(root, "quiz")).to_contain_text("Question 5 of 5")
    assert kernel(page) == ([("pile_or_steal", "steal"), ("next_draw", 0.75), ("needle", ("AC", "6D")),
                             ("winner", 0.7)], False)
    expect(key(root, "quiz-summary")).to_have_count(0)  # not before the last answer

    # The last answer by keyboard: the focus goes to the verdict, the summary follows it.
    key(root, "quiz-prob").focus()
    page.keyboard.press("PageDown")  # from the middle: 40%
    expect(root.locator(".nw-quiz-prob-value")).to_have_text("40%")
    key(root, "quiz-commit").focus()
    page.keyboard.press("Enter")
    verdict = key(root, "quiz-verdict")
    expect(verdict).to_be_focused()
    summary = summary_shown(root)
    assert kernel(page)[1] is True
    # Reading on from the verdict reaches the summary before anything else in the panel can take the focus.
    between = verdict.evaluate(
        "(v, s) => { const r = document.createRange(); r.setStartAfter(v); r.setEndBefore(s);"
        " return [...v.closest('.nw-quiz').querySelectorAll('button, [href], input, select, [tabindex]')]"
        ".filter((n) => r.intersectsNode(n)).length; }", summary.element_handle())
    assert between == 0, between
    shoot_part(page, key(root, "quiz"), "summary")
    shoot_both(page, "summary", prefix="front")

    # Reviewing an earlier question keeps it.
    key(root, "quiz-item-0").click()
    expect(key(root, "quiz-item-0")).to_have_attribute("aria-current", "step")
    summary_shown(root)

    # On a projector (scale 1.5) it still fits its panel.
    assert kernel(page, 3) == 1.5
    expect(root).to_have_css("font-size", re.compile(r"^19\.5px$"))
    summary = summary_shown(root)
    shoot_part(page, summary, "summary-projector")


def deal_buttons(root: Locator) -> dict[str, Locator]:
    banner = root.locator(".nw-banner")
    out = {}
    for name, text in DEAL_TEXTS.items():
        b = banner.get_by_role("button", name=name, exact=True)
        expect(b).to_be_visible()
        expect(b).to_be_enabled()
        expect(b).to_have_accessible_description(text)
        expect(banner.get_by_text(text, exact=True)).to_be_visible()
        out[name] = b
    return out


def test_new_game_choice_new_cards_and_waiting_odds(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "deals.ipynb", PLAY_CELLS)
    root = widget_root(page)
    phase, deals = kernel(page)
    assert (phase, deals) == ("over", (3,))
    expect(root.locator(".nw-banner-title")).to_have_text(re.compile(r"wins$|^A draw$"))
    buttons = deal_buttons(root)
    shoot_part(page, root.locator(".nw-banner"), "deals")
    shoot_both(page, "deals", prefix="front")

    # Same deal again: the same seed, dealt again; Player 2 has not picked a needle, so no odds yet.
    buttons["Same deal again"].click()
    expect(root.locator(".nw-banner")).to_have_count(0)
    phase, turn, deals, hand = kernel(page, 2)
    assert (phase, turn, deals) == ("needle", 0, (3, 3)), (phase, turn, deals)
    info = root.locator(".nw-info")
    waiting = info.locator(".nw-odds-waiting")
    expect(waiting).to_have_text(WAITING)
    expect(waiting).to_contain_text("Player 2 has not picked")
    framed(waiting)
    expect(info.locator(".nw-heat")).to_have_count(0)
    expect(info).to_contain_text("not picked yet")
    shoot_part(page, info, "waiting-player")

    # Pick a needle, draw: the drawn card carries its "new" tag, inside the hand and the zone.
    picker = root.get_by_role("grid", name="Pick your needle")
    picker.locator("button:not([aria-disabled=true])").first.click()
    draw = root.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    expect(info.locator(".nw-odds-waiting")).to_have_count(0)  # Player 2 picked: the odds are back
    expect(info.locator(".nw-heat")).to_have_count(1)
    expect(root.locator(".nw-card-tag")).to_have_count(0)
    draw.click()
    hand = root.locator(".nw-zone-bottom .nw-hand")
    tag = hand.locator(".nw-card-tag")
    expect(tag).to_have_count(1)
    expect(tag).to_be_visible()
    expect(tag).to_have_text("new")
    fresh = hand.locator(".nw-new-card")
    expect(fresh).to_have_accessible_name(re.compile(r", just drawn$"))
    drawn = fresh.get_attribute("data-card")
    _, _, _, now = kernel(page, 2)
    assert len(now) == hand.locator("[data-card]").count(), (now, drawn)
    assert drawn.upper() in [c.upper() for c in now], (drawn, now)
    assert inside(tag, root.locator(".nw-zone-bottom")), "the tag spills out of the hand's zone"
    # the tag overlaps its card (it is on it, not beside it) and covers neither corner mark
    overlap = tag.evaluate(
        "t => { const a = t.getBoundingClientRect(), c = t.parentElement;"
        " const b = c.getBoundingClientRect(), r = c.querySelector('.nw-rank').getBoundingClientRect(),"
        " l = c.querySelector('.nw-letter').getBoundingClientRect();"
        " const hit = (x, y) => x.left < y.right && y.left < x.right && x.top < y.bottom && y.top < x.bottom;"
        " return [hit(a, b), hit(a, r), hit(a, l)]; }")
    assert overlap == [True, False, False], overlap
    shoot_part(page, root.locator(".nw-zone-bottom"), "new-card")
    shoot_both(page, "new-card", prefix="front")

    # To the end again from Python, then a new deal: a fresh seed.
    phase, deals = kernel(page)
    assert phase == "over"
    deal_buttons(root)["New deal"].click()
    expect(root.locator(".nw-banner")).to_have_count(0)
    phase, turn, deals, _ = kernel(page, 2)
    assert (phase, turn, len(deals), deals[:2]) == ("needle", 0, 3, (3, 3)), (phase, turn, deals)
    expect(info.locator(".nw-odds-waiting")).to_have_text(WAITING)


def test_waiting_odds_for_the_teacher(jupyter: dict, page: Page) -> None:
    """Step 1 of 'detective': Player 1 has picked, Player 2 not: Player 1's panel waits, Player 2's has odds."""
    open_notebook(page, jupyter, "waiting.ipynb", TEACHER_CELLS)
    root = widget_root(page)
    row = key(root, "teacher-knowledge")
    expect(root.locator(".nw-step-count")).to_have_text(re.compile(r"^1 / \d+$"))
    knows = row.locator(".nw-knows")
    expect(knows).to_have_count(2)
    expect(knows.nth(0).locator(".nw-odds-waiting")).to_have_text(WAITING)
    expect(knows.nth(0).locator(".nw-heat")).to_have_count(0)
    framed(knows.nth(0).locator(".nw-odds-waiting"))
    expect(knows.nth(1).locator(".nw-odds-waiting")).to_have_count(0)
    expect(knows.nth(1).locator(".nw-heat")).to_have_count(1)
    shoot_part(page, row, "waiting-teacher")
    # Step 0: both wait.
    root.focus()
    page.keyboard.press("Home")
    expect(root.locator(".nw-step-count")).to_have_text(re.compile(r"^0 / \d+$"))
    expect(row.locator(".nw-odds-waiting")).to_have_count(2)
    shoot_part(page, row, "waiting-teacher-both")
