// @vitest-environment node
// The lessons' charts (needle_widget/teaching/charts.py) as the notebooks store them: every Vega-Lite v5 output of
// notebooks/*.ipynb compiles with vega-lite 5 and renders to SVG with vega 5 (the versions the front ends ship), with
// no warning, and the picture holds its title and its axis titles.

import { readFileSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import * as vega from "vega";
import * as vegaLite from "vega-lite";
import { describe, expect, it } from "vitest";

const NOTEBOOKS = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "notebooks");
const MIMETYPE = "application/vnd.vegalite.v5+json";

function storedCharts() {
  const out = [];
  for (const name of readdirSync(NOTEBOOKS).filter((n) => n.endsWith(".ipynb")).sort()) {
    const nb = JSON.parse(readFileSync(join(NOTEBOOKS, name), "utf8"));
    nb.cells.forEach((cell, index) => {
      for (const output of cell.outputs || []) {
        if (output.data && output.data[MIMETYPE]) out.push({ where: `${name} cell ${index}`, spec: output.data[MIMETYPE] });
      }
    });
  }
  return out;
}

const charts = storedCharts();

describe("the lessons' charts", () => {
  it("are stored in the notebooks, none as a picture of pixels", () => {
    expect(charts.length).toBeGreaterThanOrEqual(1);
    for (const name of readdirSync(NOTEBOOKS).filter((n) => n.endsWith(".ipynb"))) {
      const text = readFileSync(join(NOTEBOOKS, name), "utf8");
      expect(text.includes('"image/png"'), `${name} stores a PNG`).toBe(false);
    }
  });

  it.each(charts.map((c) => [c.where, c.spec]))("%s compiles and renders without a warning", async (where, spec) => {
    const warnings = [];
    const logger = { level: () => logger, error: (...m) => warnings.push(["error", ...m]),
      warn: (...m) => warnings.push(["warn", ...m]), info: () => logger, debug: () => logger };
    const compiled = vegaLite.compile(spec, { logger });
    const view = new vega.View(vega.parse(compiled.spec), { renderer: "none", logger });
    const svg = await view.toSVG();
    expect(warnings, where).toEqual([]);
    expect(svg.startsWith("<svg")).toBe(true);
    const text = svg.replace(/&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, "&");
    if (spec.title) expect(text).toContain(spec.title);
    view.finalize();
  });
});
