"""The widget on a projector: JupyterLab in a 1280x720 window with `scale=1.5`. With the widget's top
scrolled to the top of the notebook (as a teacher does with the cell), the status line, the player's
hand and the buttons that play are on screen without scrolling further; in a teacher's replay (with
the possible worlds and the graph open), the status line and the replay's step buttons are. Heights
are printed; screenshots of both, light and dark, go to the artifacts folder.
"""

from __future__ import annotations

import re

from playwright.sync_api import Locator, Page, expect

from .conftest import ARTIFACTS
from .test_widget_in_jupyterlab import open_notebook, set_theme

CELLS = [
    "from needle_widget import NeedleWidget, bots, examples\n"
    "w = NeedleWidget.play(opponent=bots.GreedyBot(), seed=3, scale=1.5)\n"
    "w",
    "r = NeedleWidget.from_replay(examples.load('long_with_reshuffle'), perspective='teacher', step=20, scale=1.5)\n"
    "r.show_worlds(); r.show_graph()\n"
    "r",
]

# What is on screen: the part of the notebook's scrolled area inside the window.
SHOWN = """el => {
  const box = el.getBoundingClientRect();
  const pane = el.closest('.jp-WindowedPanel-outer') || document.scrollingElement;
  const view = pane.getBoundingClientRect();
  const top = Math.max(view.top, 0), bottom = Math.min(view.bottom, window.innerHeight);
  return {top: box.top - top, bottom: box.bottom - top, room: bottom - top,
          shown: box.height > 0 && box.top >= top - 0.5 && box.bottom <= bottom + 0.5};
}"""


# At the top of the notebook's scrolled area (or that area scrolled to its end).
AT_TOP = """el => {
  const pane = el.closest('.jp-WindowedPanel-outer');
  return Math.abs(el.getBoundingClientRect().top - pane.getBoundingClientRect().top) < 2
    || pane.scrollTop + pane.clientHeight >= pane.scrollHeight - 1;
}"""


def _to_top(root: Locator) -> None:
    """Scroll the notebook so that the widget's (or a part's) top is at the top of what it shows."""
    root.evaluate("el => el.scrollIntoView({block: 'start', behavior: 'instant'})")
    root.page.wait_for_function(AT_TOP, arg=root.element_handle())


def _on_screen(root: Locator, parts: dict[str, Locator]) -> dict[str, dict]:
    _to_top(root)
    where = {name: part.evaluate(SHOWN) for name, part in parts.items()}
    missing = {name: w for name, w in where.items() if not w["shown"]}
    room = next(iter(where.values()))["room"]
    assert not missing, f"below the first screen (px under the widget's top; {room} px shown): {missing}"
    return where


def _shoot(page: Page, root: Locator, name: str, panels: dict[str, Locator] | None = None) -> None:
    """The window as the class sees it, the widget's top at the top; then each panel at the top."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        theme = "dark" if dark else "light"
        set_theme(page, dark=dark)
        _to_top(root)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{theme}.png"), animations="disabled")
        for part, panel in (panels or {}).items():
            _to_top(panel)
            page.screenshot(path=str(ARTIFACTS / f"{name}-{part}-{theme}.png"), animations="disabled")
    set_theme(page, dark=False)


def test_the_acting_controls_are_on_the_first_screen_of_a_projector(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "projector.ipynb", CELLS)
    page.set_viewport_size({"width": 1280, "height": 720})
    roots = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .nw-root")
    play = roots.first
    heights = {}

    picker = play.get_by_role("grid", name="Pick your needle")
    picker.locator("button:not([aria-disabled=true])").first.click()
    draw = play.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    status, hand = play.locator(".nw-status-line"), play.locator(".nw-zone-bottom .nw-hand")
    steal = play.get_by_role("button", name="Steal from opponent")
    where = _on_screen(play, {"status": status, "hand": hand, "draw": draw, "steal": steal})
    heights["play"] = round(play.bounding_box()["height"])
    _shoot(page, play, "projector-play")
    draw.click()
    done = play.get_by_role("button", name="Done laying sets")
    discard = play.get_by_role("button", name=re.compile("^Discard"))
    expect(done.or_(discard)).to_be_visible()
    if done.is_visible():
        _on_screen(play, {"status": status, "lay": play.get_by_role("button", name=re.compile("^Lay set")),
                          "done": done})
        done.click()
    expect(discard).to_be_visible()
    hand.get_by_role("button").last.click()
    expect(discard).to_be_enabled()
    where.update(_on_screen(play, {"status": status, "hand": hand, "discard": discard}))

    replay = roots.nth(1)
    expect(replay.locator(".nw-graph .nw-line-win")).not_to_have_count(0)
    expect(replay.locator(".nw-worlds-table")).to_be_visible()
    parts = {"status": replay.locator(".nw-status-line"), "slider": replay.locator("input.nw-slider"),
             "previous": replay.get_by_role("button", name="Previous step"),
             "next": replay.get_by_role("button", name="Next step")}
    where.update({f"replay {k}": v for k, v in _on_screen(replay, parts).items()})
    heights["teacher replay, worlds and graph open"] = round(replay.bounding_box()["height"])
    _shoot(page, replay, "projector-teacher-replay",
           {"worlds": replay.locator(".nw-worlds"), "graph": replay.locator(".nw-graph")})
    print("widget heights at 1280x720, scale 1.5 (px):", heights)
    print("bottoms below the widget's top (px):", {k: round(v["bottom"]) for k, v in where.items()})
