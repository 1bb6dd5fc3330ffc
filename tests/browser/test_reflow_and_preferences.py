"""The widget under a reader's settings (issue 33), on an exported teacher's page opened from disk (the same style
sheet as in JupyterLab, without its --jp-* variables):

- 200% zoom on a 1280 px screen (a 640 px wide page at two device pixels a pixel): nothing wider than the page,
  no horizontal scrolling, and axe finds nothing serious;
- forced colours (Windows high contrast, emulated): the heat maps keep the colours that are their data and the
  current move is outlined (axe is not run here: it reads the colours the page asked for, not the system's that
  Chromium draws instead, and finds the felt's light text on white);
- reduced motion: no transition runs.

Screenshots of the first two, light: artifacts/a11y-zoom-200.png and a11y-forced-colours.png.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from needle_widget import examples

from .axe import audit
from .conftest import ARTIFACTS

pytestmark = pytest.mark.filterwarnings("ignore::needle_widget.apps.export.GuessableSeedWarning")

WIDER = """() => {
  const out = [];
  for (const el of document.querySelectorAll('.nw-root, .nw-root *')) {
    const box = el.getBoundingClientRect();
    if (box.width > 0 && box.right > window.innerWidth + 0.5) out.push(`${el.className || el.tagName} ${box.right}`);
  }
  return {page: document.documentElement.scrollWidth, width: window.innerWidth, wider: out.slice(0, 10)};
}"""


@pytest.fixture
def exported(tmp_path: Path) -> Path:
    path = tmp_path / "teacher.html"
    examples.load("long_with_reshuffle").to_html(path, perspective="teacher", step=30)
    return path


def open_page(browser: Browser, path: Path, **options: object) -> Page:
    context = browser.new_context(offline=True, **options)
    page = context.new_page()
    page.goto(path.as_uri())
    page.wait_for_selector(".nw-root .nw-table", timeout=10_000)
    return page


def test_at_200_percent_zoom_on_a_1280_px_screen_nothing_scrolls_sideways(browser: Browser, exported: Path) -> None:
    page = open_page(browser, exported, viewport={"width": 640, "height": 900}, device_scale_factor=2)
    fits = page.evaluate(WIDER)
    assert fits["page"] <= fits["width"] and fits["wider"] == [], fits
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "a11y-zoom-200.png"), full_page=True, animations="disabled")
    audit(page, page.locator(".nw-root"), "export-zoom-200")
    page.context.close()


def test_forced_colours_keep_the_heat_maps_and_mark_the_current_move(browser: Browser, exported: Path) -> None:
    page = open_page(browser, exported, viewport={"width": 1280, "height": 900}, forced_colors="active")
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    shades = page.eval_on_selector_all(".nw-heat-cell", "cells => new Set(cells.map((c) => getComputedStyle(c)"
                                                         ".backgroundColor)).size")
    assert shades > 2  # the heat map's shades, not one system colour
    current = page.eval_on_selector(".nw-event-btn.nw-current", "b => getComputedStyle(b).outlineStyle")
    assert current == "solid"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "a11y-forced-colours.png"), full_page=True, animations="disabled")
    page.context.close()


MOVING = """() => {
  const card = document.createElement('button');  // a card in a hand to play from (a replay shows none)
  card.className = 'nw-card nw-face';
  document.querySelector('.nw-root .nw-table').appendChild(card);
  const moving = [...document.querySelectorAll('.nw-root *')].filter((e) => getComputedStyle(e).transitionDuration
                                                                            .split(',').some((d) => d.trim() !== '0s'));
  card.remove();
  return moving.map((e) => e.className);
}"""


def test_reduced_motion_runs_no_transition(browser: Browser, exported: Path) -> None:
    for motion, moving in (("no-preference", True), ("reduce", False)):
        page = open_page(browser, exported, viewport={"width": 1280, "height": 900}, reduced_motion=motion)
        found = page.evaluate(MOVING)
        assert bool(found) is moving, (motion, found[:5])
        page.context.close()
