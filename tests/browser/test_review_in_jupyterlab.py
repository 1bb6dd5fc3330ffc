"""The review in a real JupyterLab, driven by headless Chromium: a finished game of RandomBot (Player 1)
against GreedyBot, seen from Player 1's seat; open the graph and the review from the toolbar, wait
until both are ready, find Player 1's blunder mark under the slider and in the list of moves, click it
and check that the step changed (in the widget and in the kernel) and that the panel shows the better
move; then screenshots of the review with the ledger on the graph, light and dark.
"""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Locator, Page, expect

from .axe import audit
from .conftest import ARTIFACTS
from .test_whatif_in_jupyterlab import FITS, key, live_at, state
from .test_widget_in_jupyterlab import open_notebook, set_theme, widget_root

# Found offline: at 8 worlds a decision (the review's seed 0), Player 1's (RandomBot's) discard at
# step 23 is the one blunder of its review; the game (RandomBot(71) against GreedyBot, deal 71, saved
# from before bots were told `bots.bot_seed`) has 91 actions.
GAME = Path(__file__).resolve().parents[1] / "data" / "random_bot_deal71.json"
WORLDS, STEPS, BLUNDER = 8, 91, 24
CELLS = [
    "from needle_widget import NeedleWidget, Replay\n"
    f"replay = Replay.load({str(GAME)!r})\n"
    "w = NeedleWidget.from_replay(replay, perspective=0, reveal_at_end=False)\n"
    f"w.review_worlds = {WORLDS}\n"
    "w",
    "print(w.step, w.review and (w.review['status'], [r['seat'] for r in w.review['reviews']]))",
]


def shoot(page: Page, part: Locator, name: str) -> list[str]:
    """`part` of the widget in the light and the dark theme: {name}-light.png / -dark.png in ARTIFACTS."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    part.scroll_into_view_if_needed()
    page.wait_for_function(FITS, arg=part.element_handle())
    paths = []
    for theme in ("light", "dark"):
        set_theme(page, dark=theme == "dark")
        path = ARTIFACTS / f"{name}-{theme}.png"
        part.screenshot(path=str(path), animations="disabled")
        audit(page, part, path.stem)
        paths.append(str(path))
    set_theme(page, dark=False)
    return paths


def test_the_review_marks_a_blunder_and_clicking_it_goes_there(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "review.ipynb", CELLS)
    root = widget_root(page)
    live = root.locator(".nw-live")
    expect(live).to_have_text(live_at(0, STEPS))

    # ---- open the graph and the review, wait until both are ready -----------------------------------
    key(root, "tool-graph").click()
    graph = root.get_by_role("region", name="Graph", exact=True)
    expect(graph.get_by_role("progressbar", name="Graph progress")).to_have_count(0)
    tool = key(root, "tool-review")
    expect(tool).to_have_accessible_name("Review")
    tool.click()
    expect(tool).to_have_attribute("aria-pressed", "true")
    review = root.get_by_role("region", name="Review", exact=True)
    expect(review).to_be_visible()
    expect(review).to_have_attribute("aria-busy", "false")
    expect(review.get_by_role("progressbar", name="Review progress")).to_have_count(0)
    expect(review.locator(".nw-review-summary tbody tr")).to_have_count(1)  # Player 1's own review only
    assert state(page, 1) == ["0", "ready", "0"]

    # ---- the blunder: a mark under the slider and in the list of moves, in symbol and words ----------
    ticks = root.get_by_role("group", name="Marked decisions")
    blunder = ticks.get_by_role("button", name=re.compile(rf"^Step {BLUNDER}: Player 1's blunder, Discard "))
    expect(blunder).to_have_count(1)
    expect(blunder).to_have_text("??")
    event = key(root, f"ev-{BLUNDER}")
    expect(event.locator(".nw-ev-mark")).to_have_text("??")
    expect(event).to_contain_text("(blunder)")
    expect(graph.locator("svg .nw-ledger-skill").first).to_be_attached()  # the ledger on the graph

    # ---- click the mark: the step changes, and the panel shows the better move ---------------------
    blunder.click()
    expect(live).to_have_text(live_at(BLUNDER, STEPS))
    assert state(page, 1)[0] == str(BLUNDER)
    here = review.get_by_role("group", name=f"Player 1's decision at step {BLUNDER}")
    expect(here).to_contain_text("blunder")
    expect(here).to_contain_text("Better: Discard")
    expect(here).to_contain_text(f"over {WORLDS} worlds Player 1 could not tell apart")
    current = review.locator('.nw-review-list [aria-current="step"]')
    expect(current).to_contain_text(f"Step {BLUNDER}")
    expect(key(root, "graph-box")).to_have_attribute("aria-valuenow", str(BLUNDER))

    # ---- and a decision in the panel's list goes to its step too -----------------------------------
    first = review.locator(".nw-review-list button").first
    first_step = int(re.search(r"Step (\d+)", first.inner_text()).group(1))
    first.click()
    expect(live).to_have_text(live_at(first_step, STEPS))
    blunder.click()
    expect(live).to_have_text(live_at(BLUNDER, STEPS))

    # ---- screenshots: the review with the ledger on the graph, light and dark ----------------------
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 2600})
    shoot(page, root.locator(".nw-analysis"), "review")
    shoot(page, root, "review-widget")
    page.set_viewport_size(size)
