import { describe, expect, it } from "vitest";
import { button, click, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { GRAPH_COMPUTING, GRAPH_NO_NEEDLE, GRAPH_READY, OFFERS_PLAYER, OFFERS_TEACHER } from "./whatif_fixtures.js";
import { H, PAD, W, pointerStep, stepAt } from "../src/graph.js";

const open = mountsCleanedAfterEach();

const replay = (graph, overrides = {}) =>
  stateFrom("over_teacher", { mode: "replay", step: 12, offers: OFFERS_TEACHER, worlds: null, graph, ...overrides });

const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);
const panel = (root) => root.querySelector(".nw-analysis section.nw-graph");

function change(el, value) {
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}

function pointer(target, type, clientX, pointerId = 1) {
  const event = new MouseEvent(type, { bubbles: true, cancelable: true, clientX, button: 0 });
  Object.defineProperty(event, "pointerId", { value: pointerId });
  target.dispatchEvent(event);
}

/** Lay the graph's SVG out at 0..W px wide (happy-dom lays nothing out). */
function layOut(root) {
  const svg = byKey(root, "graph-box").querySelector("svg");
  svg.getBoundingClientRect = () => ({ left: 0, top: 0, width: W, height: H, right: W, bottom: H });
}

const xOfStep = (step, steps) => PAD.left + (step / steps) * (W - PAD.left - PAD.right);

describe("stepAt and pointerStep", () => {
  it("maps x across the width onto 0..steps, rounding and clamping", () => {
    expect(stepAt(0, 600, 60)).toBe(0);
    expect(stepAt(600, 600, 60)).toBe(60);
    expect(stepAt(300, 600, 60)).toBe(30);
    expect(stepAt(104, 600, 60)).toBe(10);
    expect(stepAt(106, 600, 60)).toBe(11);
    expect(stepAt(-50, 600, 60)).toBe(0);
    expect(stepAt(900, 600, 60)).toBe(60);
  });

  it("is 0 for an empty axis or no width", () => {
    expect(stepAt(10, 0, 60)).toBe(0);
    expect(stepAt(10, 600, 0)).toBe(0);
    expect(stepAt(Number.NaN, 600, 60)).toBe(0);
  });

  it("pointerStep accounts for the plot's margins and the SVG's scale", () => {
    const rect = { left: 100, width: W / 2 };
    expect(pointerStep(100 + xOfStep(30, 60) / 2, rect, 60)).toBe(30);
    expect(pointerStep(100, rect, 60)).toBe(0);
    expect(pointerStep(100 + W / 2, rect, 60)).toBe(60);
    expect(pointerStep(5, { left: 0, width: 0 }, 60)).toBe(0);
  });
});

describe("the graph panel", () => {
  it("is absent while closed", () => {
    const { root } = open(replay(null));
    expect(panel(root)).toBeNull();
  });

  it("draws the win line with its band, the belief dashed, markers and the cursor", () => {
    const { root } = open(replay(GRAPH_READY));
    const svg = panel(root).querySelector("svg.nw-graph-svg");
    expect(svg.getAttribute("aria-hidden")).toBe("true");
    expect(svg.querySelectorAll(".nw-line-win")).toHaveLength(1);
    expect(svg.querySelector(".nw-line-win").getAttribute("points").split(" ")).toHaveLength(61);
    expect(svg.querySelectorAll(".nw-band")).toHaveLength(1);
    expect(svg.querySelectorAll(".nw-line-belief")).toHaveLength(1);
    expect(svg.querySelectorAll(".nw-mk-steal")).toHaveLength(2);
    expect(svg.querySelectorAll(".nw-mk-set")).toHaveLength(1);
    expect(svg.querySelectorAll(".nw-mk-reshuffle")).toHaveLength(1);
    expect(Number(svg.querySelector(".nw-cursor").getAttribute("x1"))).toBeCloseTo(xOfStep(12, 60));
    const legend = panel(root).querySelector(".nw-graph-legend").textContent;
    for (const text of ["win share", "needle is Q♠", "a steal", "a set laid", "a reshuffle"]) expect(legend).toContain(text);
  });

  it("has no belief line without the needle", () => {
    const { root } = open(replay(GRAPH_NO_NEEDLE));
    expect(panel(root).querySelectorAll(".nw-line-belief")).toHaveLength(0);
    expect(panel(root).querySelector(".nw-graph-legend").textContent).not.toContain("belief");
  });

  it("is a focusable slider over the steps", () => {
    const { root } = open(replay(GRAPH_READY));
    const box = byKey(root, "graph-box");
    expect(box.getAttribute("tabindex")).toBe("0");
    expect(box.getAttribute("role")).toBe("slider");
    expect(box.getAttribute("aria-label")).toBe("Step on the graph");
    expect(box.getAttribute("aria-valuemin")).toBe("0");
    expect(box.getAttribute("aria-valuemax")).toBe("60");
    expect(box.getAttribute("aria-valuenow")).toBe("12");
    expect(box.getAttribute("aria-valuetext")).toMatch(/^Step 12: Player 1 wins \d+%$/);
  });

  it("steps with ← / → while focused, and keeps the focus", async () => {
    const { root, model } = open(replay(GRAPH_READY));
    const box = byKey(root, "graph-box");
    box.focus();
    key(box, "ArrowRight");
    expect(model.sent).toEqual([{ kind: "step", to: 13 }]);
    model.answer({ step: 13 });
    await flush();
    expect(document.activeElement).toBe(byKey(root, "graph-box"));
    expect(byKey(root, "graph-box").getAttribute("aria-valuenow")).toBe("13");
  });

  it("a click sends the step under the pointer; a drag only when it changes", () => {
    const { root, model } = open(replay(GRAPH_READY));
    layOut(root);
    const box = byKey(root, "graph-box");
    pointer(box, "pointerdown", xOfStep(30, 60));
    pointer(box, "pointermove", xOfStep(30, 60) + 1);
    pointer(box, "pointermove", xOfStep(31, 60));
    pointer(box, "pointermove", xOfStep(31, 60) + 1);
    pointer(box, "pointermove", xOfStep(12, 60));
    pointer(box, "pointerup", xOfStep(12, 60));
    pointer(box, "pointermove", xOfStep(50, 60));
    expect(model.sent).toEqual([{ kind: "step", to: 30 }, { kind: "step", to: 31 }, { kind: "step", to: 12 }]);
  });

  it("a click on the step shown sends nothing", () => {
    const { root, model } = open(replay(GRAPH_READY));
    layOut(root);
    pointer(byKey(root, "graph-box"), "pointerdown", xOfStep(12, 60));
    expect(model.sent).toEqual([]);
  });

  it("shows progress while computing", () => {
    const { root } = open(replay(GRAPH_COMPUTING));
    const progress = panel(root).querySelector("progress");
    expect(progress.getAttribute("max")).toBe("61");
    expect(progress.getAttribute("value")).toBe("13");
    expect(progress.getAttribute("aria-label")).toBe("Graph progress");
    expect(panel(root).textContent).toContain("Computing 13 of 61 steps");
    expect(panel(root).querySelector('[aria-live="polite"]').textContent).toBe("Computing the graph…");
    expect(panel(root).querySelector(".nw-line-win").getAttribute("points").split(" ")).toHaveLength(13);
  });

  it("has the graph as a table, opened from its summary", () => {
    const { root } = open(replay(GRAPH_READY));
    const details = panel(root).querySelector("details.nw-graph-table");
    expect(details.querySelector("summary").textContent).toBe("The graph as a table");
    expect(details.hasAttribute("open")).toBe(false);
    click(details.querySelector("summary"));
    const opened = panel(root).querySelector("details.nw-graph-table");
    expect(opened.hasAttribute("open")).toBe(true);
    const heads = Array.from(opened.querySelectorAll("thead th")).map((th) => th.textContent);
    expect(heads).toEqual(["Step", "Win", "Interval", "Belief", "Events"]);
    const rows = opened.querySelectorAll("tbody tr");
    expect(rows).toHaveLength(61);
    expect(rows[9].textContent).toContain("Player 1 steals");
    expect(rows[60].textContent).toContain("certain");
  });

  it("the model and seat selects ask Python at once", () => {
    const { root, model } = open(replay(GRAPH_READY));
    expect(byKey(root, "graph-model").getAttribute("aria-label")).toBe("Opponent in the graph");
    change(byKey(root, "graph-model"), "greedy");
    change(byKey(root, "graph-seat"), "1");
    expect(model.sent).toEqual([
      { kind: "graph", open: true, seat: 0, model: "greedy" },
      { kind: "graph", open: true, seat: 1, model: "random" },
    ]);
  });

  it("a player's graph has no seat select", () => {
    const { root } = open(replay(GRAPH_READY, { perspective: 0, offers: OFFERS_PLAYER }));
    expect(byKey(root, "graph-seat")).toBeNull();
    expect(byKey(root, "graph-model")).not.toBeNull();
  });

  it("a failed graph says so", async () => {
    const { root, model } = open(replay(GRAPH_COMPUTING));
    model.update({ graph: { ...GRAPH_COMPUTING, status: "failed", error: "Something went wrong" } });
    await flush();
    expect(panel(root).querySelector(".nw-whatif-error").textContent).toBe("Something went wrong");
    expect(button(root, "Graph").getAttribute("aria-pressed")).toBe("true");
  });
});
