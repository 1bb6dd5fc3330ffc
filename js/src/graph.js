// The evaluation graph: a seat's win share at every step (with its interval), its belief in the
// opponent's real needle, the game's steals / sets / reshuffles, and a cursor at the step shown.
// The box is a slider: ←/→ step (root keydown), a click or drag sends the step under the pointer.
// The graph feature: its UI slice `ui.graph` says whether the graph's table is open.

import { h, percent, s } from "./dom.js";
import { cardText } from "./cards.js";
import { perspectiveLabel, playerName } from "./names.js";
import { ledgerLayer, ledgerLegend, ledgerText } from "./ledger.js";
import { reviewFor } from "./review.js";
import { offer, offerReason, panelRequest } from "./whatif.js";

export const W = 720;
export const H = 240;
export const PAD = { left: 42, right: 14, top: 26, bottom: 30 };
const PW = W - PAD.left - PAD.right;
const PH = H - PAD.top - PAD.bottom;
export const MARKERS = { steal: "a steal", set: "a set laid", reshuffle: "a reshuffle" };

/** The step under x (0..width from the plot's left edge) on an axis of `steps` steps. */
export function stepAt(x, width, steps) {
  if (!(width > 0) || !(steps > 0) || !Number.isFinite(x)) return 0;
  return Math.round(Math.max(0, Math.min(1, x / width)) * steps);
}

/** The step under a pointer at clientX over the graph's SVG laid out at `rect`. */
export function pointerStep(clientX, rect, steps) {
  if (!rect || !(rect.width > 0)) return 0;
  return stepAt(((clientX - rect.left) * W) / rect.width - PAD.left, PW, steps);
}

const xOf = (step, steps) => PAD.left + (steps > 0 ? (step / steps) * PW : 0);
const yOf = (v) => PAD.top + (1 - v) * PH;
const pt = (x, y) => `${x.toFixed(1)},${y.toFixed(1)}`;

function tickEvery(steps) {
  return [1, 2, 5, 10, 20, 50, 100, 200, 500].find((k) => steps / k <= 10) || 1000;
}

/** A marker's shape centred at (x, y): steal ▼, set ■, reshuffle ●. */
export function markerShape(kind, x, y, r = 5) {
  if (kind === "steal") return s("path", { class: "nw-mk nw-mk-steal", d: `M${x - r} ${y - r}H${x + r}L${x} ${y + r}Z` });
  if (kind === "set") return s("rect", { class: "nw-mk nw-mk-set", x: x - r + 1, y: y - r + 1, width: 2 * r - 2, height: 2 * r - 2 });
  return s("circle", { class: "nw-mk nw-mk-reshuffle", cx: x, cy: y, r: r - 0.5 });
}

function lines(points, key, steps) {
  const runs = [];
  let run = [];
  for (const p of points) {
    if (typeof p[key] === "number") run.push(pt(xOf(p.step, steps), yOf(p[key])));
    else if (run.length) { runs.push(run); run = []; }
  }
  if (run.length) runs.push(run);
  return runs;
}

function plot(g, cursor, review) {
  const steps = g.steps || 0;
  const points = (g.points || []).filter((p) => typeof p.win === "number");
  const every = tickEvery(steps);
  const ticks = [];
  for (let k = 0; k <= steps; k += every) ticks.push(k);
  const band = points.length > 1
    ? [...points.map((p) => pt(xOf(p.step, steps), yOf(p.hi ?? p.win))),
      ...[...points].reverse().map((p) => pt(xOf(p.step, steps), yOf(p.lo ?? p.win)))].join(" ")
    : null;
  return s(
    "svg",
    { class: "nw-graph-svg", viewBox: `0 0 ${W} ${H}`, "aria-hidden": "true", focusable: "false" },
    [0, 0.25, 0.5, 0.75, 1].map((v) => s("line", {
      class: ["nw-grid", v === 0.5 ? "nw-grid-half" : null], x1: PAD.left, x2: W - PAD.right, y1: yOf(v), y2: yOf(v),
    })),
    [0, 0.5, 1].map((v) => s("text", { class: "nw-axis", x: PAD.left - 6, y: yOf(v) + 4, "text-anchor": "end" }, percent(v))),
    ticks.map((k) => s("text", { class: "nw-axis", x: xOf(k, steps), y: H - PAD.bottom + 16, "text-anchor": "middle" }, String(k))),
    s("text", { class: "nw-axis", x: W - PAD.right, y: H - 2, "text-anchor": "end" }, "step"),
    (g.markers || []).map((m) => s("line", { class: "nw-mk-line", x1: xOf(m.step, steps), x2: xOf(m.step, steps), y1: PAD.top - 4, y2: H - PAD.bottom })),
    band ? s("polygon", { class: "nw-band", points: band }) : null,
    review ? ledgerLayer(review, { x: (k) => xOf(k, steps), y: yOf, stepWidth: steps > 0 ? PW / steps : PW }) : null,
    lines(points, "win", steps).map((r) => s("polyline", { class: "nw-line-win", points: r.join(" ") })),
    g.needle ? lines(points, "belief", steps).map((r) => s("polyline", { class: "nw-line-belief", points: r.join(" ") })) : null,
    points.length === 1 ? s("circle", { class: "nw-dot-win", cx: xOf(points[0].step, steps), cy: yOf(points[0].win), r: 3 }) : null,
    (g.markers || []).map((m) => {
      const shape = markerShape(m.kind, xOf(m.step, steps), PAD.top - 12);
      shape.appendChild(s("title", null, `Step ${m.step}: ${m.text}`));
      return shape;
    }),
    s("line", { class: "nw-cursor", x1: xOf(cursor, steps), x2: xOf(cursor, steps), y1: PAD.top - 4, y2: H - PAD.bottom }),
  );
}

function legend(g, who, review) {
  const swatch = (cls) => s("svg", { class: "nw-legend-swatch", viewBox: "0 0 24 12", "aria-hidden": "true" },
    s("line", { class: cls, x1: 1, x2: 23, y1: 6, y2: 6 }));
  const shape = (kind) => s("svg", { class: "nw-legend-swatch nw-legend-mk", viewBox: "0 0 12 12", "aria-hidden": "true" },
    markerShape(kind, 6, 6, 5));
  return h("ul", { class: "nw-graph-legend" },
    h("li", null, swatch("nw-line-win"), `${who}'s win share (band: 95% interval)`),
    g.needle ? h("li", null, swatch("nw-line-belief"), `${who}'s belief that the opponent's needle is ${cardText(g.needle)}`) : null,
    Object.entries(MARKERS).map(([kind, text]) => h("li", null, shape(kind), text)),
    ledgerLegend(review, who));
}

function graphTable(g, ui, review) {
  const byStep = new Map();
  for (const m of g.markers || []) byStep.set(m.step, [...(byStep.get(m.step) || []), m.text]);
  const open = Boolean(ui && ui.graph && ui.graph.tableOpen);
  return h(
    "details",
    { class: "nw-graph-table", open },
    h("summary", { "data-key": "graph-table", "data-ui": { ui: "graph-table" } }, "The graph as a table"),
    open ? h("div", { class: "nw-table-scroll" }, h("table", { class: "nw-data-table" },
      h("thead", null, h("tr", null, h("th", { scope: "col" }, "Step"), h("th", { scope: "col" }, "Win"),
        h("th", { scope: "col" }, "Interval"), g.needle ? h("th", { scope: "col" }, "Belief") : null,
        h("th", { scope: "col" }, "Events"), review ? h("th", { scope: "col" }, "Review: skill and luck") : null)),
      h("tbody", null, (g.points || []).map((p) => h("tr", null,
        h("th", { scope: "row" }, String(p.step)), h("td", null, percent(p.win)),
        h("td", null, p.certain ? "certain" : `${percent(p.lo)}–${percent(p.hi)}`),
        g.needle ? h("td", null, percent(p.belief)) : null,
        h("td", { class: "nw-td-text" }, (byStep.get(p.step) || []).join("; ")),
        review ? h("td", { class: "nw-td-text" }, ledgerText(review, p.step)) : null))))) : null,
  );
}

function select(key, label, visible, options, value) {
  return h("label", { class: "nw-field" },
    h("span", { class: "nw-field-label", "aria-hidden": "true" }, visible),
    h("select", { class: "nw-select", "data-key": key, "data-input": key, "aria-label": label, value: String(value), disabled: options.length < 2 },
      options.map((o) => h("option", { value: String(o.id), selected: String(o.id) === String(value) }, o.label))));
}

/** The graph panel, or null while closed. */
export function renderGraph(state, ui) {
  const g = state.graph;
  if (!g) return null;
  const o = offer(state, "graph") || {};
  const reason = offerReason(state, "graph");
  const who = playerName(g.seat);
  const steps = g.steps || 0;
  const cursor = Math.max(0, Math.min(steps, Number.isInteger(state.asked) ? state.asked : state.step));
  const here = (g.points || []).find((p) => p.step === cursor);
  const computing = g.status === "computing";
  const models = o.models && o.models.length ? o.models : [{ id: g.model, label: g.model_label || g.model }];
  // The review of the graph's seat, when this perspective has it open: its ledger is drawn on the graph.
  const review = reviewFor(state, g.seat);
  return h(
    "section",
    { class: "nw-graph nw-panel", id: `${ui.uid || "nw"}-graph`, "aria-label": "Graph", "aria-busy": String(computing) },
    h("h3", { class: "nw-panel-title" }, `${who}'s chances, step by step`),
    h("div", { class: "nw-panel-controls" },
      (o.seats || []).length > 1
        ? select("graph-seat", "Whose graph", "Graph of", o.seats.map((p) => ({ id: p, label: perspectiveLabel(p) })), g.seat)
        : null,
      select("graph-model", "Opponent in the graph", "Opponent", models, g.model)),
    reason ? h("p", { class: "nw-tool-reason" }, reason) : null,
    h("p", { class: "nw-busy-text", "aria-live": "polite" }, computing ? "Computing the graph…" : ""),
    computing
      ? h("div", { class: "nw-progress" },
          h("progress", { max: String(g.total || 1), value: String(g.done || 0), "aria-label": "Graph progress" }),
          h("span", null, `Computing ${g.done || 0} of ${g.total || 0} steps`))
      : null,
    g.status === "failed" ? h("p", { class: "nw-whatif-error" }, g.error || "The graph failed.") : null,
    h(
      "div",
      {
        class: "nw-graph-box", "data-key": "graph-box", "data-graph": String(steps), tabindex: "0", role: "slider",
        "aria-label": "Step on the graph", "aria-valuemin": "0", "aria-valuemax": String(steps),
        "aria-valuenow": String(cursor),
        "aria-valuetext": here ? `Step ${cursor}: ${who} wins ${percent(here.win)}` : `Step ${cursor}`,
      },
      plot(g, cursor, review),
    ),
    legend(g, who, review),
    h("p", { class: "nw-note" }, `Each step: ${g.n} worlds drawn from ${who}'s view, the opponent ${g.model_label || g.model}, played out by GreedyBots.`),
    graphTable(g, ui, review),
  );
}

function stepUnder(box, event) {
  const svg = box.querySelector("svg");
  return pointerStep(event.clientX, svg && svg.getBoundingClientRect(), Number(box.getAttribute("data-graph")));
}

/** Clicking or dragging on the graph (the element with data-graph = its number of steps) asks for the
 * step under the pointer: at once, then only when a drag reaches another step. Listens on `root`;
 * `send(request)` sends a step, `stepFrom()` is the step shown or asked for. Returns the cleanup. */
export function graphDrag(root, { send, stepFrom }) {
  let drag = null;

  function onPointerDown(event) {
    const box = event.target.closest && event.target.closest("[data-graph]");
    if (!box || !root.contains(box) || event.button !== 0) return;
    if (box.setPointerCapture) {
      try {
        box.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic pointer has nothing to capture
      }
    }
    const to = stepUnder(box, event);
    drag = { pointerId: event.pointerId, last: to };
    if (to !== stepFrom()) send({ kind: "step", to });
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const box = root.querySelector("[data-graph]");
    if (!box) return;
    const to = stepUnder(box, event);
    if (to === drag.last) return;
    drag.last = to;
    send({ kind: "step", to });
  }

  function onPointerUp(event) {
    if (drag && event.pointerId === drag.pointerId) drag = null;
  }

  const handlers = { pointerdown: onPointerDown, pointermove: onPointerMove, pointerup: onPointerUp, pointercancel: onPointerUp };
  for (const [type, fn] of Object.entries(handlers)) root.addEventListener(type, fn);
  return function cleanup() {
    for (const [type, fn] of Object.entries(handlers)) root.removeEventListener(type, fn);
  };
}

export const graphFeature = {
  name: "graph",
  initial: () => ({ tableOpen: false }),
  reduce: (slice, action) => (action.ui === "graph-table" ? { ...slice, tableOpen: !slice.tableOpen } : slice),
  views: { analysis: renderGraph },
  // Its selects ask Python at once.
  changes: {
    "graph-seat": (el, { state }) => panelRequest(state, "graph", "seat", el.value),
    "graph-model": (el, { state }) => panelRequest(state, "graph", "model", el.value),
  },
  focus: ["tool-graph"],
  connect: (ctx) => ({ disconnect: graphDrag(ctx.root, ctx) }),
};
