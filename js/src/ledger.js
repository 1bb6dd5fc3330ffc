// The ledger of a review: the seat's expected score as a staircase whose jumps are the decisions'
// skill and the cards' luck, drawn on the game's graph (graph.js) with its legend and its words for
// the graph's table. Pure: a review (one seat's, from the `review` trait) in, SVG and text out.

import { h, s } from "./dom.js";

/** "+0.12", "−0.30", "0.00": a change of expected score, signed. */
export function signed(x) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "–";
  const text = Math.abs(x).toFixed(2);
  return text === "0.00" ? text : `${x > 0 ? "+" : "−"}${text}`;
}

/**
 * The ledger of one review as a staircase: the seat's expected score starts at the first decision's
 * value; each decision moves it by its skill (a bar half a step after the decision), and the cards
 * between two decisions move it by their luck (a bar at the next decision, or the end). Returns
 * {line: [{x, value}], bars: [{kind: "skill" | "luck", x, from, to, value, step?, start?, end?}]},
 * x in steps. By construction the bars add up: start + skill + luck = end (to Python's rounding).
 */
export function ledger(review) {
  const entries = (review && review.entries) || [];
  const luck = (review && review.luck) || [];
  const line = [];
  const bars = [];
  if (!entries.length) return { line, bars };
  line.push({ x: entries[0].step, value: entries[0].reference_value });
  entries.forEach((e) => {
    const x = e.step + 0.5;
    line.push({ x, value: e.reference_value }, { x, value: e.chosen_value });
    bars.push({ kind: "skill", x, from: e.reference_value, to: e.chosen_value, value: e.skill, step: e.at });
    const t = luck.find((term) => term.start === e.step) || null;
    if (!t) return;
    const to = e.chosen_value + t.luck;
    line.push({ x: t.end, value: e.chosen_value }, { x: t.end, value: to });
    bars.push({ kind: "luck", x: t.end, from: e.chosen_value, to, value: t.luck, start: t.start, end: t.end });
  });
  return { line, bars };
}

const LEDGER_WORDS = {
  value: (who) => `${who}'s expected score in the review`,
  skill: "skill: what a decision gained or lost against GreedyBot's choice",
  luck: "luck: what the cards did between decisions",
};

/**
 * The ledger drawn into the graph's plot: `scale` = {x(step), y(value), stepWidth}. SVG nodes (aria-hidden
 * with the graph; the review panel and the graph's table say the same in words), or null.
 */
export function ledgerLayer(review, scale) {
  const { line, bars } = ledger(review);
  if (!line.length) return null;
  const clamp = (v) => Math.max(0, Math.min(1, v));
  // A skill bar half a step from the nearest luck bar: the two never overlap (0.45 / 2 + 0.3 / 2 < 0.5).
  const widths = {
    skill: Math.max(2.5, Math.min(10, scale.stepWidth * 0.45)),
    luck: Math.max(1.5, Math.min(7, scale.stepWidth * 0.3)),
  };
  const points = line.map((p) => `${scale.x(p.x).toFixed(1)},${scale.y(clamp(p.value)).toFixed(1)}`).join(" ");
  return s(
    "g",
    { class: "nw-ledger" },
    s("polyline", { class: "nw-ledger-line", points }),
    bars.map((b) => {
      const y1 = scale.y(clamp(b.from));
      const y2 = scale.y(clamp(b.to));
      const width = widths[b.kind];
      return s("rect", {
        class: ["nw-ledger-bar", `nw-ledger-${b.kind}`, b.to < b.from ? "nw-ledger-down" : "nw-ledger-up"],
        x: (scale.x(b.x) - width / 2).toFixed(1), y: Math.min(y1, y2).toFixed(1),
        width: width.toFixed(1), height: Math.max(1, Math.abs(y2 - y1)).toFixed(1),
      });
    }),
  );
}

/** The ledger's legend items for the graph's legend (`swatch(cls)` draws a line sample), or []. */
export function ledgerLegend(review, who) {
  if (!review || !(review.entries || []).length) return [];
  const bar = (cls) => s("svg", { class: "nw-legend-swatch nw-legend-mk", viewBox: "0 0 12 12", "aria-hidden": "true" },
    s("rect", { class: ["nw-ledger-bar", cls], x: 3, y: 0, width: 6, height: 12 }));
  const line = s("svg", { class: "nw-legend-swatch", viewBox: "0 0 24 12", "aria-hidden": "true" },
    s("polyline", { class: "nw-ledger-line", points: "1,9 12,9 12,3 23,3" }));
  return [
    h("li", null, line, LEDGER_WORDS.value(who)),
    h("li", null, bar("nw-ledger-skill"), LEDGER_WORDS.skill),
    h("li", null, bar("nw-ledger-luck"), LEDGER_WORDS.luck),
  ];
}

/** The ledger at `step` in words, for the graph's table: "skill −0.30 (Discard Q♣); luck +0.05", or "". */
export function ledgerText(review, step) {
  const parts = [];
  for (const e of (review && review.entries) || []) if (e.at === step) parts.push(`skill ${signed(e.skill)} (${e.text})`);
  for (const t of (review && review.luck) || []) if (t.end === step) parts.push(`luck ${signed(t.luck)}`);
  return parts.join("; ");
}
