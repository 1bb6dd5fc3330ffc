"""The lessons' charts in JupyterLab (issue 47, item 3): a `Chart` is drawn by JupyterLab's own Vega-Lite v5
renderer, offline, as SVG, with its title, axis titles and legend, light and dark; no text/html fallback is there to
win over it. Screenshots in the artifacts folder.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from .conftest import ARTIFACTS
from .test_widget_in_jupyterlab import open_notebook, set_theme

CELLS = [
    "from needle_widget.teaching.charts import Chart\n"
    "(Chart('Win rates with 95% intervals', x='bot', y='win rate', y_domain=(0, 1), width=300, height=200)\n"
    " .bars(['random', 'greedy', 'odds'], [0.2, 0.55, 0.62], colour=['gray', 'blue', 'orange'],\n"
    "       errors=[0.03, 0.02, 0.02])\n"
    " .rule(y=0.5, label='even', dashed=True))",
]


def test_a_chart_is_drawn_by_jupyterlab_s_vega_lite_renderer(jupyter: dict, page: Page) -> None:
    open_notebook(page, jupyter, "chart.ipynb", CELLS, shows=".vega-embed")
    output = page.locator(".jp-OutputArea-output").filter(has=page.locator(".vega-embed")).first
    drawn = output.locator(".vega-embed canvas, .vega-embed svg.marks").first
    expect(drawn).to_be_visible()
    box = drawn.bounding_box()
    assert box is not None and box["width"] > 300 and box["height"] > 200, box  # the plot, its axes and legend
    assert output.locator(".chart-wrapper[role=graphics-document]").count() == 1
    assert output.locator(".jp-RenderedHTMLCommon").count() == 0  # no HTML fallback drawn instead
    assert "jp-RenderedVegaCommon5" in (output.get_attribute("class") or ""), output.get_attribute("class")
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for dark in (False, True):
        set_theme(page, dark=dark)
        output.screenshot(path=str(ARTIFACTS / f"chart-{'dark' if dark else 'light'}.png"), animations="disabled")
    set_theme(page, dark=False)
