"""The lessons' charts where classes run them (issue 47, item 3): a `Chart` is drawn by the front end's own Vega-Lite
v5 renderer, offline, with no text/html fallback to win over it: in JupyterLab (light and dark), in the Notebook 7 UI,
in Voila (which also shows a JavaScript error of its own renderer under any Vega-Lite output) and in marimo.
Screenshots in the artifacts folder.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import Locator, Page, expect

from .conftest import ARTIFACTS, KERNEL_READY, _free_port, stop_server, wait_until_up, write_notebook
from .test_marimo import _serve
from .test_notebook7_and_voila import EXPOSE_APP, _need
from .test_widget_in_jupyterlab import open_notebook, set_theme

CELLS = [
    "from needle_widget.teaching.charts import Chart\n"
    "(Chart('Win rates with 95% intervals', x='bot', y='win rate', y_domain=(0, 1), width=300, height=200)\n"
    " .bars(['random', 'greedy', 'odds'], [0.2, 0.55, 0.62], colour=['gray', 'blue', 'orange'],\n"
    "       errors=[0.03, 0.02, 0.02])\n"
    " .rule(y=0.5, label='even', dashed=True))",
]


def drawn(page: Page) -> Locator:
    """The chart's output, checked drawn by the Vega renderer: its picture the chart's size, no HTML fallback."""
    output = page.locator(".jp-OutputArea-output").filter(has=page.locator(".vega-embed")).first
    picture = output.locator(".vega-embed canvas, .vega-embed svg.marks").first
    expect(picture).to_be_visible()
    box = picture.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200, box  # the plot, its axes and legend
    assert output.locator(".jp-RenderedHTMLCommon").count() == 0
    assert output.locator(".chart-wrapper[role=graphics-document]").count() == 1
    return output


def test_a_chart_is_drawn_by_jupyterlab_s_vega_lite_renderer(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "chart.ipynb", CELLS, shows=".vega-embed")
    output = drawn(page)
    assert "jp-RenderedVegaCommon5" in (output.get_attribute("class") or ""), output.get_attribute("class")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        set_theme(page, dark=dark)
        output.screenshot(path=str(ARTIFACTS / f"chart-{'dark' if dark else 'light'}.png"), animations="disabled")
    set_theme(page, dark=False)


def test_a_chart_is_drawn_in_notebook7(jupyter: dict, page: Page) -> None:
    _need("notebook")
    name = "nb7-chart.ipynb"
    write_notebook(jupyter["root"] / name, CELLS)
    page.add_init_script(EXPOSE_APP)
    page.goto(f"{jupyter['base']}/notebooks/{name}?token={jupyter['token']}")
    expect(page.locator("body[data-notebook='notebooks']")).to_have_count(1)  # the Notebook 7 UI, not Lab
    page.wait_for_function(KERNEL_READY)
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name=re.compile(r"^Run All Cells")).click()
    drawn(page).screenshot(path=str(ARTIFACTS / "chart-notebook7-light.png"), animations="disabled")


def test_a_chart_is_drawn_in_voila(tmp_path: Path, page: Page) -> None:
    _need("voila")
    write_notebook(tmp_path / "chart.ipynb", CELLS)
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path / "config"), "JUPYTER_RUNTIME_DIR": str(tmp_path / "rt"),
           "IPYTHONDIR": str(tmp_path / "ipython")}
    port = _free_port()
    log_path = tmp_path / "voila.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "voila", "chart.ipynb", "--no-browser", f"--port={port}", "--Voila.ip=127.0.0.1",
             "--Voila.port_retries=0", "--Voila.auto_token=False"],
            cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        base = f"http://127.0.0.1:{port}"
        wait_until_up(proc, f"{base}/voila/static/voila.js", "voila", log_path, 60, lambda: stop_server(proc))
        page.goto(base, timeout=110_000)
        drawn(page).screenshot(path=str(ARTIFACTS / "chart-voila-light.png"), animations="disabled")
        # Voila (0.5) adds "Javascript Error: e.setData is not a function" under any Vega-Lite output, a raw v5
        # bundle of IPython.display as well as a Chart (tried on 2026-12-06): its renderer's, after drawing it.
        errors = page.locator(".jp-RenderedText[data-mime-type='application/vnd.jupyter.stderr']").all_inner_texts()
        assert all(e.strip() == "Javascript Error: e.setData is not a function" for e in errors), errors
    finally:
        stop_server(proc)


MARIMO_APP = """import marimo

app = marimo.App()


@app.cell
def _():
    from needle_widget.teaching.charts import Chart

    (Chart("Win rates with 95% intervals", x="bot", y="win rate", y_domain=(0, 1), width=300, height=200)
     .bars(["random", "greedy", "odds"], [0.2, 0.55, 0.62], colour=["gray", "blue", "orange"])
     .rule(y=0.5, label="even", dashed=True))
    return


if __name__ == "__main__":
    app.run()
"""


def test_a_chart_is_drawn_in_marimo(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, page: Page) -> None:
    source = tmp_path / "chart_app.py"
    source.write_text(MARIMO_APP, encoding="utf-8")
    served = _serve("run", tmp_path_factory, source=source)
    server = next(served)
    try:
        page.goto(server["base"])
        picture = page.locator(".vega-embed canvas, .vega-embed svg.marks").first
        expect(picture).to_be_visible(timeout=60_000)
        box = picture.bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 200, box
        page.screenshot(path=str(ARTIFACTS / "chart-marimo-light.png"), animations="disabled")
    finally:
        next(served, None)
