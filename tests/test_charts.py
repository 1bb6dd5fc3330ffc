"""The lessons' charts without a compiled package (issue 47, item 3): Vega-Lite v5 specifications, shown through
`_repr_mimebundle_` with the v5 type and text only, the same JSON on every run. js/test/charts.test.js compiles and
renders every chart the notebooks store with vega-lite 5 and vega 5; tests/browser/test_charts_in_jupyterlab.py shows
one in JupyterLab.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from needle_widget.teaching.charts import COLOURS, MIMETYPE, Chart


def every_layer() -> Chart:
    return (Chart("All of them", x="x", y="y", x_domain=(0, 10), y_domain=(0, 1))
            .line([0, 1, 2], [0.1, 0.2, 0.30000000000000004], label="a line")
            .points([0, 1], [0.5, 0.6], label="points", shape="square", line=True)
            .band([0, 1, 2], [0, 0, 0], [1, 0, 1], label="band", step=True)
            .errorbars([3, 4], [0.4, 0.5], [0.3, 0.4], [0.5, 0.6], label="errors")
            .rule(y=0.5, label="half", dashed=True).rule(x=2)
            .text(1, 0.9, "a note"))


def test_a_chart_is_vega_lite_v5_and_text_only():
    bundle = every_layer()._repr_mimebundle_()
    assert set(bundle) == {MIMETYPE, "text/plain"}  # no HTML: JupyterLab would rank it above its Vega renderer
    assert MIMETYPE == "application/vnd.vegalite.v5+json"
    spec = bundle[MIMETYPE]
    assert spec["$schema"] == "https://vega.github.io/schema/vega-lite/v5.json"
    assert bundle["text/plain"] == "<Chart: All of them>" == repr(every_layer())
    json.dumps(spec, allow_nan=False)


def test_the_same_chart_is_the_same_json_with_numbers_rounded():
    assert json.dumps(every_layer().spec()) == json.dumps(every_layer().spec())
    values = every_layer().spec()["layer"][0]["data"]["values"]
    assert [v["y"] for v in values] == [0.1, 0.2, 0.3]
    assert Chart().line([0, 1], [float("nan"), 1.0]).spec()["layer"][0]["data"]["values"][0]["y"] is None


def test_one_legend_each_label_in_one_colour():
    spec = every_layer().spec()
    scales = [layer["encoding"]["color"]["scale"] for layer in spec["layer"]
              if layer["encoding"].get("color", {}).get("field") == "series"]
    assert scales and all(s == scales[0] for s in scales)
    assert scales[0]["domain"] == ["a line", "points", "band", "errors", "half"]
    line, points = (layer for layer in spec["layer"] if layer["data"]["values"]
                    and layer["data"]["values"][0].get("series") == "points")
    assert line["mark"]["type"] == "line" and points["mark"]["shape"] == "square"
    assert scales[0]["range"][0] == COLOURS["blue"] and scales[0]["range"][1] == COLOURS["orange"]


def test_bars_histograms_and_heatmaps():
    bars = Chart("b").bars(["x", "y"], [0.2, 0.4], colour=["gray", "blue"], errors=[0.1, 0.1]).spec()
    assert bars["layer"][0]["encoding"]["x"]["sort"] == ["x", "y"]
    assert [v["colour"] for v in bars["layer"][0]["data"]["values"]] == [COLOURS["gray"], COLOURS["blue"]]
    hist = Chart("h").histogram({"found": [1, 2, 2, 5], "lost": [3]}, edges=[1, 3, 5, 7]).spec()
    assert [v["y"] for v in hist["layer"][0]["data"]["values"]] == [3, 0, 1]
    assert hist["layer"][0]["encoding"]["y"]["stack"] == "zero"
    heat = Chart("m").heatmap(["a", "b"], ["a", "b"], [[None, 0.6], [0.4, None]],
                              words=[["–", "60%"], ["40%", "–"]]).spec()
    cells = heat["layer"][0]["data"]["values"]
    assert [c["v"] for c in cells] == [None, 0.6, 0.4, None] and heat["layer"][1]["mark"]["type"] == "text"


def test_columns_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="differ in length"):
        Chart().line([0, 1, 2], [0, 1])


def test_the_charts_need_no_compiled_package():
    """Imported with numpy and matplotlib made unimportable, as in a browser's Python that has neither."""
    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('numpy', 'matplotlib', 'PIL'):\n"
            "            raise ImportError('blocked ' + name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from needle_widget.teaching.charts import Chart\n"
            "print(len(Chart('t').bars(['a'], [1]).spec()['layer']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "1", done.stderr
