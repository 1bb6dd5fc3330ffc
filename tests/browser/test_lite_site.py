"""The JupyterLite site `needle-widget lite` builds (issue 47), opened in Chromium with every request outside
127.0.0.1 refused: each lesson that needs no server runs whole with Run All and no error, a turn is played by
clicking, and a replay steps with the keys, all with Python running in the browser.

It builds the site (about 45 s the first time: the builder's environment, Pyodide and the wheels go to the cache)
and runs each lesson in a fresh page (10-40 s each), so it is not part of README's command: CI's stage `.ci/lite`
runs it, with NEEDLE_LITE=1 (tests/browser/conftest.py leaves it out otherwise). Run it alone with
`NEEDLE_LITE=1 python -m pytest -o addopts="" -p no:cacheprovider tests/browser/test_lite_site.py`.
"""

from __future__ import annotations

import functools
import http.server
import importlib.metadata
import json
import os
import re
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from needle_widget.apps.lite import BROWSER_LESSONS, SITE_MARK, build_site

from .conftest import ARTIFACTS, _free_port
from .test_widget_in_jupyterlab import PLAY_CELLS, REPLAY_CELLS, kernel_eval

pytestmark = pytest.mark.slow

LESSON_SECONDS = 600
"""At most this long for one lesson's Run All in the browser (they take 3-40 s here)."""
TIMES: dict[str, dict[str, float]] = {}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 (the base class's name)
        pass


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    started = time.monotonic()
    cache = os.environ.get("NEEDLE_LITE_CACHE")
    built = build_site(tmp_path_factory.mktemp("lite") / "site", cache=Path(cache) if cache else None, log=print)
    seconds = time.monotonic() - started
    lines: list[str] = []
    again = build_site(built.folder, cache=Path(cache) if cache else None, log=lines.append)  # over its own site
    assert again.lessons == built.lessons and (again.folder / SITE_MARK).is_file()
    assert not [line for line in lines if line.startswith(("downloading", "making"))], lines  # the cache serves it
    names = [re.split(r"-\d", wheel)[0].lower().replace("_", "-") for wheel in built.wheels]
    assert len(names) == len(set(names)), built.wheels  # one version of each
    served = {name: wheel.split("-")[1] for name, wheel in zip(names, built.wheels, strict=True)}
    for name in ("anywidget", "jupyterlab-widgets"):  # the versions whose front ends the site carries
        assert served[name] == importlib.metadata.version(name), (name, served)
    port = _free_port()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Quiet, directory=built.folder))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield {"base": f"http://127.0.0.1:{port}", "site": built, "build_seconds": seconds}
    finally:
        server.shutdown()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        (ARTIFACTS / "lite-site.json").write_text(json.dumps({
            "size_bytes": built.size, "build_seconds": round(seconds, 1), "wheels": built.wheels,
            "lessons": TIMES}, indent=1))


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    """tests/browser/conftest.py's, with no host name resolving but 127.0.0.1: a request from a web worker, which
    the page's route may not see, fails too.
    """
    return {**browser_type_launch_args,
            "args": [*browser_type_launch_args["args"], "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]}


@pytest.fixture
def lite(site: dict, page: Page) -> Iterator[tuple[dict, Page]]:
    """The page, with every request outside the site refused and recorded; the test fails if there was one."""
    outside: list[str] = []

    def route(request_route) -> None:  # noqa: ANN001
        url = request_route.request.url
        if url.startswith(site["base"] + "/"):
            request_route.continue_()
        else:
            outside.append(url)
            request_route.abort()

    page.context.route("**/*", route)
    page.set_default_timeout(120_000)
    expect.set_options(timeout=120_000)
    page.set_viewport_size({"width": 1400, "height": 1200})
    yield site, page
    assert outside == [], f"requests outside the site: {outside[:5]}"


def _open(page: Page, base: str, name: str) -> float:
    """Open lesson `name` in the site's JupyterLab; wait for its Pyodide kernel; the seconds that took."""
    started = time.monotonic()
    page.goto(f"{base}/lab/index.html?path=notebooks/{name}")
    page.wait_for_function("() => window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel"
                           "?.status === 'idle'", polling=500)
    return time.monotonic() - started


RUN_ALL_DONE = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.model.cells;
  let pending = false, error = false;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code') continue;
    if (cell.executionCount === null || cell.executionCount === undefined) pending = true;
    for (let j = 0; j < cell.outputs.length; j++) if (cell.outputs.get(j).type === 'error') error = true;
  }
  window.__idle = panel.sessionContext.session.kernel.status === 'idle' ? (window.__idle || 0) + 1 : 0;
  return (!pending || error) && window.__idle >= 3;
}"""
ERRORS = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells, found = [];
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code') continue;
    if (cell.executionCount === null || cell.executionCount === undefined) found.push(`cell ${i} did not run`);
    for (let j = 0; j < cell.outputs.length; j++) {
      const out = cell.outputs.get(j).toJSON();
      if (out.output_type === 'error') found.push(`cell ${i}: ${out.ename}: ${out.evalue}`);
      else if (out.name === 'stderr' && /Traceback|Error/.test(out.text)) found.push(`cell ${i}: ${out.text}`);
    }
  }
  return found;
}"""


CHARTS = """() => {
  const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
  let count = 0;
  for (let i = 0; i < cells.length; i++) {
    const cell = cells.get(i);
    if (cell.type !== 'code') continue;
    for (let j = 0; j < cell.outputs.length; j++) {
      count += 'application/vnd.vegalite.v5+json' in cell.outputs.get(j).data;
    }
  }
  return count;
}"""
CHART_LESSONS = ("03_needle_odds", "04_strategy_lab", "05_be_the_detective", "06_is_it_fair")
"""The lessons that draw charts (needle_widget.teaching.charts: Vega-Lite v5, which JupyterLite draws itself)."""


def _run_all(page: Page) -> float:
    started = time.monotonic()
    page.evaluate("() => { window.__idle = 0; return window.jupyterapp.commands.execute('notebook:run-all-cells'); }")
    page.wait_for_function(RUN_ALL_DONE, polling=1000, timeout=LESSON_SECONDS * 1000)
    return time.monotonic() - started


def _append_and_run(page: Page, source: str) -> None:
    """Add a code cell at the notebook's end with `source`, and run it."""
    page.evaluate("""(source) => {
      const panel = window.jupyterapp.shell.currentWidget;
      const model = panel.content.model;
      model.sharedModel.insertCell(model.cells.length, {cell_type: 'code', source});
      panel.content.activeCellIndex = model.cells.length - 1;
      return window.jupyterapp.commands.execute('notebook:run-cell');
    }""", source)


@pytest.mark.parametrize("lesson", BROWSER_LESSONS)
def test_the_lesson_runs_whole_in_the_browser(lite: tuple[dict, Page], lesson: str) -> None:
    site, page = lite
    kernel = _open(page, site["base"], f"{lesson}.ipynb")
    run_all = _run_all(page)
    TIMES[lesson] = {"kernel_seconds": round(kernel, 1), "run_all_seconds": round(run_all, 1)}
    print(f"{lesson}: kernel {kernel:.0f} s, Run All {run_all:.0f} s")
    assert page.evaluate(ERRORS) == []
    shown = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-OutputArea-output").all_inner_texts()
    assert not [t for t in shown if "Error displaying widget" in t or "Failed to load model" in t], shown
    charts = page.evaluate(CHARTS)
    TIMES[lesson]["charts"] = charts
    assert (charts > 0) == (lesson in CHART_LESSONS), charts
    if charts:  # each drawn by JupyterLite's own Vega renderer, with no request outside the site
        pictures = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .vega-embed :is(canvas, svg.marks)")
        expect(pictures).to_have_count(charts)
        pictures.last.scroll_into_view_if_needed()
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        pictures.last.screenshot(path=str(ARTIFACTS / f"lite-chart-{lesson}.png"))
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.name") == "python"


def test_a_turn_is_played_by_clicking_and_a_replay_steps_with_the_keys(lite: tuple[dict, Page]) -> None:
    site, page = lite
    _open(page, site["base"], "01_play.ipynb")
    _run_all(page)  # the lesson's first cell installs needle_widget from the site
    _append_and_run(page, PLAY_CELLS[0])
    root = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .nw-root").last
    root.scroll_into_view_if_needed()
    root.get_by_role("grid", name="Pick your needle").get_by_role("button", name="king of spades").click()
    draw = root.get_by_role("button", name="Draw from pile")
    expect(draw).to_be_enabled()
    draw.click()
    for name in ("4 of clubs", "5 of hearts", "6 of hearts"):
        root.get_by_role("button", name=re.compile(f"^{name}")).click()
    root.get_by_role("button", name="Lay set").click()
    root.get_by_role("button", name="Done laying sets").click()
    expect(root.locator(".nw-controls-discard")).to_be_visible()
    root.get_by_role("button", name=re.compile("^9 of spades")).click()
    root.get_by_role("button", name="Discard").click()
    expect(root.get_by_role("button", name="Draw from pile")).to_be_enabled()  # the bot answered, in the browser
    out = kernel_eval(page, "print(w.game.turn, w.game.phase, w.game.to_move, w.game.needle(0))")
    assert out == "3 draw 0 K♠", out

    _append_and_run(page, REPLAY_CELLS[0])
    replay = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .nw-root").last
    live = replay.locator(".nw-live")
    expect(live).to_contain_text("Step 6 of")
    replay.focus()
    page.keyboard.press("ArrowRight")
    expect(live).to_contain_text("Step 7 of")
    page.keyboard.press("ArrowRight")
    expect(live).to_contain_text("Step 8 of")
    assert kernel_eval(page, "print(r.step)") == "8"
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lite-site-replay.png"))
