"""How parts of the widget are laid out, measured in a real JupyterLab with headless Chromium (issue 20):
the "what if" toolbar keeps its buttons together at the start in every perspective, every card of a
laid set shows its rank and suit, and the list of moves keeps the current move centred (scrolling
only itself, never the notebook). Screenshots of each part in the light and the dark theme.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS
from .test_quiz_in_jupyterlab import kernel
from .test_widget_in_jupyterlab import open_notebook, set_theme, widget_root

# 'long_with_reshuffle' (72 actions) from the spectator's seat: by step 7 Player 2 has laid 9♦ 10♥ J♣,
# the 10 in the middle of its set. The second cell is re-run to move the step from Python.
STEPS = 72
CELLS = [
    "from needle_widget import NeedleWidget, examples\n"
    "w = NeedleWidget.from_replay(examples.load('long_with_reshuffle'), perspective='spectator', step=40)\n"
    "w",
    "w.step = 12\nprint(repr(('step', w.step)))",
]
PERSPECTIVES = ("p0", "p1", "teacher", "spectator")  # the move list is then measured as the spectator sees it

# The notebook's own scrolling box (JupyterLab 4 windows the notebook inside it).
NOTEBOOK_SCROLL = """e => {
  let p = e.parentElement;
  const scrolls = (n) => n.scrollHeight > n.clientHeight && /(auto|scroll)/.test(getComputedStyle(n).overflowY);
  while (p && !scrolls(p)) p = p.parentElement;
  return p ? p.scrollTop : document.scrollingElement.scrollTop;
}"""

# Where the current move sits in the list: its centre's distance from the list's centre, the
# row's height, whether it is wholly inside the list's box, and how far the list may scroll.
CURRENT = """root => {
  const list = root.querySelector('.nw-events');
  const item = list.querySelector('[aria-current="step"]').parentElement;
  const a = item.getBoundingClientRect(), b = list.getBoundingClientRect();
  return {off: (a.top + a.bottom) / 2 - (b.top + b.bottom) / 2, height: a.height,
          inside: a.top >= b.top - 1 && a.bottom <= b.bottom + 1,
          top: list.scrollTop, max: list.scrollHeight - list.clientHeight};
}"""


def key(root: Locator, name: str) -> Locator:
    return root.locator(f'[data-key="{name}"]')


def shoot_part(page: Page, part: Locator, name: str) -> list[str]:
    """`part` in the light and the dark theme: looks-{name}-light.png / -dark.png."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    paths = []
    for theme in ("light", "dark"):
        set_theme(page, dark=theme == "dark")
        path = ARTIFACTS / f"looks-{name}-{theme}.png"
        part.screenshot(path=str(path), animations="disabled")
        audit(page, part, path.stem)
        paths.append(str(path))
    set_theme(page, dark=False)
    return paths


def show(page: Page, root: Locator, perspective: str) -> None:
    key(root, f"persp-{perspective}").click()
    expect(key(root, f"persp-{perspective}")).to_have_attribute("aria-pressed", "true")


def centred(page: Page, root: Locator, step: int) -> dict:
    """The current move is `step`, wholly in view, and centred in the list (as near as its scrolling allows)."""
    expect(root.locator(".nw-live")).to_have_text(re.compile(rf"^Step {step} of {STEPS}:"))
    expect(key(root, f"ev-{step}")).to_have_attribute("aria-current", "step")
    page.wait_for_function(f"root => ({CURRENT})(root).inside", arg=root.element_handle())
    at = root.evaluate(CURRENT)
    assert at["inside"], at
    if 0 < at["top"] < at["max"]:  # not held at either end of its scrolling: centred
        assert abs(at["off"]) <= at["height"] / 2 + 1, at
    else:  # at an end, as near the centre as the list can put it
        assert (at["top"] == 0 and at["off"] < 0) or (at["top"] >= at["max"] - 1 and at["off"] > 0), at
    return at


def test_toolbar_sets_and_move_list(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "looks.ipynb", CELLS)
    root = widget_root(page)
    expect(root.locator(".nw-live")).to_have_text(re.compile(rf"^Step 12 of {STEPS}:"))

    # ---- laid sets: each card's corner (rank and suit) clear of the next card -----------------------------------
    key(root, "ev-40").click()
    expect(root.locator(".nw-live")).to_have_text(re.compile(rf"^Step 40 of {STEPS}:"))
    cards = root.evaluate("""root => [...root.querySelectorAll('.nw-set-cards')].flatMap((set) => {
        const all = [...set.children];
        return all.slice(0, -1).map((card, i) => {
          const corner = card.querySelector('.nw-corner').getBoundingClientRect();
          return {card: card.dataset.card, right: corner.right, next: all[i + 1].getBoundingClientRect().left};
        });
      })""")
    assert "10H" in [c["card"] for c in cards], cards  # 9♦ 10♥ J♣: the 10 is under the jack
    # 2 px: the next card's shadow (0 1px 2px) must not blur the rank either.
    covered = [c for c in cards if c["right"] + 2 > c["next"]]
    assert covered == [], covered
    shoot_part(page, root.locator(".nw-zone-top"), "sets")

    # ---- the "what if" toolbar: its buttons side by side at its start, in every perspective ---------------------
    for perspective in PERSPECTIVES:
        show(page, root, perspective)
        bar = root.locator(".nw-toolbar")
        expect(bar.locator("button")).to_have_count(4)  # Possible worlds, Graph, Play from here…, Review
        boxes = bar.locator("button").evaluate_all("bs => bs.map((b) => b.getBoundingClientRect().toJSON())")
        start = bar.evaluate("e => e.getBoundingClientRect().left")
        gap = root.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")  # 1em
        assert abs(boxes[0]["left"] - start) <= 1, (perspective, boxes, start)
        for a, b in zip(boxes, boxes[1:], strict=False):
            assert abs(a["top"] - b["top"]) <= 1, (perspective, boxes)  # one row
            assert 0 <= b["left"] - a["right"] <= gap, (perspective, boxes)  # together
        if perspective == "spectator":
            # the closed Graph says why, under the row, and is described by it
            why = bar.locator(".nw-tool-reason")
            expect(why).to_contain_text("The graph follows a player")
            described = key(root, "tool-graph").get_attribute("aria-describedby")
            assert described and bar.locator(f"#{described}").count() == 1
            shoot_part(page, bar, "toolbar-spectator")

    # ---- the move list: the current move centred whatever moved the step ------------------------------------
    assert kernel(page, 1) == ("step", 12)  # the notebook's second cell again: Python moves the step
    centred(page, root, 12)
    notebook_at = root.evaluate(NOTEBOOK_SCROLL)  # (running the cell may scroll to it: the widget never does)
    root.focus()
    page.keyboard.press("End")
    at = centred(page, root, STEPS)  # the last move: the list scrolled to its end
    assert at["top"] >= at["max"] - 1, at
    for _ in range(STEPS - 40):
        page.keyboard.press("ArrowLeft")
    at = centred(page, root, 40)  # keys
    assert 0 < at["top"] < at["max"], at
    key(root, "prev").click()
    centred(page, root, 39)  # a button
    slider = key(root, "slider")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    centred(page, root, 38)  # the slider
    key(root, "ev-35").click()
    centred(page, root, 35)  # the list itself
    assert root.evaluate(NOTEBOOK_SCROLL) == notebook_at  # the notebook never scrolled
    key(root, "ev-40").click()
    centred(page, root, 40)
    assert root.evaluate(NOTEBOOK_SCROLL) == notebook_at
    shoot_part(page, root.locator(".nw-replay"), "move-list")
