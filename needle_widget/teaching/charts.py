"""The lessons' charts as Vega-Lite v5 specifications: no compiled package, drawn by the notebook's front end.

JupyterLab, Notebook 7, Voilà, JupyterLite, marimo and VS Code each ship a renderer for Vega-Lite v5
(`application/vnd.vegalite.v5+json`), offline; none renders v6. A `Chart` shows itself through `_repr_mimebundle_`
with that type and `text/plain` only: no HTML fallback, which JupyterLab would rank above its Vega renderer and
whose script would need the network. Its specification is plain JSON, its numbers rounded to 6 significant digits,
so a notebook's stored output is the same on every run (nbval compares it).

A chart is layers on shared axes: `line`, `points`, `bars`, `band`, `errorbars`, `rule`, `text`, `histogram` and
`heatmap`. Each labelled layer has an entry in one legend, in its colour.

>>> c = Chart("Win rates", x="bot", y="win rate", y_domain=(0, 1))
>>> c.bars(["greedy", "odds"], [0.52, 0.61], errors=[0.03, 0.03]).rule(y=0.5).spec()["$schema"]
'https://vega.github.io/schema/vega-lite/v5.json'
>>> sorted(c._repr_mimebundle_())
['application/vnd.vegalite.v5+json', 'text/plain']
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["Chart", "COLOURS", "MIMETYPE"]

MIMETYPE = "application/vnd.vegalite.v5+json"
COLOURS = {"blue": "#1f77b4", "orange": "#ff7f0e", "green": "#2ca02c", "red": "#d62728", "purple": "#9467bd",
           "brown": "#8c564b", "pink": "#e377c2", "gray": "#7f7f7f", "olive": "#bcbd22", "cyan": "#17becf",
           "black": "#000000"}
"""The colours a layer may name (matplotlib's tab10, so the lessons read as they did), or any CSS colour."""
_SHAPES = {"circle": "circle", "square": "square", "triangle": "triangle-up", "diamond": "diamond", "cross": "cross"}
_CYCLE = ("blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan")


def _num(x: Any) -> Any:
    """A number rounded to 6 significant digits (None, strings and bools kept)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return x
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if x == 0 or isinstance(x, int):
        return x
    return float(f"{x:.6g}")


def _colour(name: str | None, default: str) -> str:
    return COLOURS.get(name or default, name or COLOURS[default])


class Chart:
    """A chart: a title, axis titles and domains, and layers added by its methods (each returns the chart)."""

    def __init__(self, title: str = "", x: str = "", y: str = "", *, x_domain: Sequence[float] | None = None,
                 y_domain: Sequence[float] | None = None, width: int = 480, height: int = 280) -> None:
        self.title, self.x, self.y = title, x, y
        self.x_domain = None if x_domain is None else [_num(v) for v in x_domain]
        self.y_domain = None if y_domain is None else [_num(v) for v in y_domain]
        self.width, self.height = width, height
        self._layers: list[dict[str, Any]] = []
        self._legend: dict[str, str] = {}
        self._x_type = "quantitative"
        self._x_sort: list[Any] | None = None
        self._y_type = "quantitative"
        self._y_sort: list[Any] | None = None

    # ---- layers ----------------------------------------------------------------------------------------------

    def line(self, xs: Sequence[float], ys: Sequence[float], label: str | None = None, colour: str | None = None,
             dashed: bool = False, step: bool = False) -> Chart:
        """A line through (xs, ys)."""
        mark: dict[str, Any] = {"type": "line", "strokeDash": [6, 4] if dashed else None}
        if step:
            mark["interpolate"] = "step"
        return self._add(mark, {"x": xs, "y": ys}, label, colour)

    def points(self, xs: Sequence[float], ys: Sequence[float], label: str | None = None, colour: str | None = None,
               shape: str = "circle", line: bool = False) -> Chart:
        """Points at (xs, ys) (`shape`: circle, square, triangle, diamond, cross), joined if `line`."""
        if line:
            self._add({"type": "line"}, {"x": xs, "y": ys}, label, colour)
        return self._add({"type": "point", "filled": True, "shape": _SHAPES.get(shape, shape), "size": 50},
                         {"x": xs, "y": ys}, label, colour)

    def bars(self, categories: Sequence[Any], values: Sequence[float], label: str | None = None,
             colour: str | Sequence[str] | None = None, errors: Sequence[float] | None = None) -> Chart:
        """A bar for each category (the x axis becomes the categories, in this order), with ± `errors` if given."""
        self._x_type, self._x_sort = "nominal", [str(c) for c in categories]
        colours = None if colour is None or isinstance(colour, str) else [_colour(c, "blue") for c in colour]
        data = {"x": [str(c) for c in categories], "y": values}
        if colours is not None:
            data["colour"] = colours
        single = colour if isinstance(colour, str) else None
        self._add({"type": "bar"}, data, label, single, per_row=colours is not None)
        if errors is not None:
            self.errorbars([str(c) for c in categories], values,
                           [v - e for v, e in zip(values, errors, strict=True)],
                           [v + e for v, e in zip(values, errors, strict=True)], colour="black")
        return self

    def band(self, xs: Sequence[float], lows: Sequence[float], highs: Sequence[float], label: str | None = None,
             colour: str | None = None, opacity: float = 0.25, step: bool = False) -> Chart:
        """A shaded band from `lows` to `highs` along xs (in steps centred on each x if `step`)."""
        mark: dict[str, Any] = {"type": "area", "opacity": opacity}
        if step:
            mark["interpolate"] = "step"
        return self._add(mark, {"x": xs, "y": lows, "y2": highs}, label, colour)

    def errorbars(self, positions: Sequence[Any], values: Sequence[float], lows: Sequence[float],
                  highs: Sequence[float], label: str | None = None, colour: str | None = None,
                  horizontal: bool = False, shape: str = "circle") -> Chart:
        """Points at `values` with bars from `lows` to `highs`: up the chart at x = `positions`, or across it
        (`horizontal`) at y = `positions` (names, listed top to bottom).
        """
        dot = {"type": "point", "filled": True, "shape": _SHAPES.get(shape, shape), "size": 50}
        if horizontal:
            if positions and isinstance(positions[0], str):
                self._y_type, self._y_sort = "nominal", list(positions)
            self._add({"type": "rule"}, {"x": lows, "x2": highs, "y": positions}, None, colour)
            for ends in (lows, highs):
                self._add({"type": "tick", "orient": "vertical", "thickness": 1, "size": 10},
                          {"x": ends, "y": positions}, None, colour)
            return self._add(dot, {"x": values, "y": positions}, label, colour)
        self._add({"type": "rule"}, {"x": positions, "y": lows, "y2": highs}, None, colour)
        for ends in (lows, highs):
            self._add({"type": "tick", "orient": "horizontal", "thickness": 1, "size": 10},
                      {"x": positions, "y": ends}, None, colour)
        return self._add(dot, {"x": positions, "y": values}, label, colour)

    def rule(self, x: float | None = None, y: float | None = None, label: str | None = None,
             colour: str | None = "black", dashed: bool = False) -> Chart:
        """A vertical line at `x` or a horizontal one at `y`, across the chart."""
        mark = {"type": "rule", "strokeDash": [6, 4] if dashed else None}
        layer = self._layer(mark, {}, label, colour)
        layer["encoding"].pop("x", None)
        layer["encoding"].pop("y", None)
        if x is not None:
            layer["encoding"]["x"] = {"datum": _num(x), "type": self._x_type}
        if y is not None:
            layer["encoding"]["y"] = {"datum": _num(y), "type": "quantitative"}
        layer["data"] = {"values": [{} if label is None else {"series": label}]}
        self._layers.append(layer)
        return self

    def text(self, x: Any, y: float, words: str, colour: str | None = "gray", align: str = "right") -> Chart:
        """`words` at (x, y)."""
        layer = self._layer({"type": "text", "align": align, "baseline": "bottom"}, {"x": [x], "y": [y]}, None,
                            colour)
        layer["data"]["values"][0]["words"] = words
        layer["encoding"]["text"] = {"field": "words"}
        self._layers.append(layer)
        return self

    def histogram(self, groups: dict[str, Sequence[float]], edges: Sequence[float], stacked: bool = True) -> Chart:
        """Counts of each group's values in the bins between `edges` (left-closed), stacked or side by side."""
        for k, (name, values) in enumerate(groups.items()):
            counts = [sum(lo <= v < hi for v in values) for lo, hi in zip(edges[:-1], edges[1:], strict=True)]
            layer = self._layer({"type": "bar"}, {"x": list(edges[:-1]), "x2": list(edges[1:]), "y": counts},
                                name, _CYCLE[k % len(_CYCLE)])
            if stacked:
                layer["encoding"]["y"]["stack"] = "zero"
            self._layers.append(layer)
        return self

    def heatmap(self, rows: Sequence[str], columns: Sequence[str], values: Sequence[Sequence[float | None]],
                words: Sequence[Sequence[str]] | None = None, domain: Sequence[float] = (0, 1)) -> Chart:
        """A grid of cells coloured by value (red low, blue high; None grey), with `words` in them."""
        self._x_type = "nominal"
        cells = [{"x": str(c), "y": str(r), "v": _num(values[i][j]),
                  "words": None if words is None else words[i][j]}
                 for i, r in enumerate(rows) for j, c in enumerate(columns)]
        sort_x, sort_y = [str(c) for c in columns], [str(r) for r in rows]
        self._layers.append({"data": {"values": cells}, "mark": {"type": "rect"}, "encoding": {
            "x": {"field": "x", "type": "nominal", "sort": sort_x, "title": self.x},
            "y": {"field": "y", "type": "nominal", "sort": sort_y, "title": self.y},
            "color": {"field": "v", "type": "quantitative", "title": None,
                      "scale": {"scheme": "redblue", "domain": [_num(d) for d in domain]}}}})
        if words is not None:
            self._layers.append({"data": {"values": cells}, "mark": {"type": "text"}, "encoding": {
                "x": {"field": "x", "type": "nominal", "sort": sort_x},
                "y": {"field": "y", "type": "nominal", "sort": sort_y}, "text": {"field": "words"}}})
        return self

    # ---- the specification ---------------------------------------------------------------------------------

    def spec(self) -> dict[str, Any]:
        """The Vega-Lite v5 specification (JSON-ready)."""
        scale = {"domain": list(self._legend), "range": list(self._legend.values())}
        layers = []
        for layer in self._layers:
            colour = layer["encoding"].get("color")
            if colour is not None and colour.get("field") == "series":
                layer = {**layer, "encoding": {**layer["encoding"],
                                               "color": {**colour, "scale": scale, "legend": {"symbolOpacity": 1}}}}
            layers.append(layer)
        out: dict[str, Any] = {"$schema": "https://vega.github.io/schema/vega-lite/v5.json", "width": self.width,
                               "height": self.height, "layer": layers}
        if self.title:
            out["title"] = self.title
        return out

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        return {MIMETYPE: self.spec(), "text/plain": f"<Chart: {self.title or 'untitled'}>"}

    def __repr__(self) -> str:
        return f"<Chart: {self.title or 'untitled'}>"

    # ---- building a layer --------------------------------------------------------------------------------

    def _add(self, mark: dict[str, Any], columns: dict[str, Sequence[Any]], label: str | None, colour: str | None,
             per_row: bool = False) -> Chart:
        self._layers.append(self._layer(mark, columns, label, colour, per_row))
        return self

    def _layer(self, mark: dict[str, Any], columns: dict[str, Sequence[Any]], label: str | None,
               colour: str | None, per_row: bool = False) -> dict[str, Any]:
        mark = {k: v for k, v in mark.items() if v is not None}
        names = list(columns)
        length = len(columns[names[0]]) if names else 0
        if any(len(columns[n]) != length for n in names):
            raise ValueError(f"a chart's columns differ in length: {({n: len(columns[n]) for n in names})}")
        values = [{n: _num(columns[n][i]) for n in names} for i in range(length)]
        hue = self._legend[label] if colour is None and label in self._legend else \
            _colour(colour, _CYCLE[len(self._legend) % len(_CYCLE)])
        encoding: dict[str, Any] = {}
        if "x" in columns:
            x: dict[str, Any] = {"field": "x", "type": self._x_type, "title": self.x}
            if self._x_sort is not None:
                x["sort"] = self._x_sort
                x["axis"] = {"labelAngle": 0 if len(self._x_sort) <= 8 else -45}
            if self.x_domain is not None and self._x_type == "quantitative":
                x["scale"] = {"domain": self.x_domain}
            encoding["x"] = x
        if "x2" in columns:
            encoding["x2"] = {"field": "x2"}
        if "y" in columns:
            y: dict[str, Any] = {"field": "y", "type": self._y_type, "title": self.y}
            if self._y_sort is not None:
                y["sort"] = self._y_sort
            if self.y_domain is not None and self._y_type == "quantitative":
                y["scale"] = {"domain": self.y_domain}
            encoding["y"] = y
        if "y2" in columns:
            encoding["y2"] = {"field": "y2"}
        if per_row:  # its own channel: the labelled layers' colour scale stays one legend
            encoding["fill"] = {"field": "colour", "type": "nominal", "scale": None, "legend": None}
        elif label is not None:
            self._legend[label] = hue
            for row in values:
                row["series"] = label
            encoding["color"] = {"field": "series", "type": "nominal", "title": None}
        else:
            mark["color"] = hue
        return {"data": {"values": values}, "mark": mark, "encoding": encoding}
