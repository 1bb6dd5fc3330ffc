// The distribution of a class's answers (`board.distribution`): one bar per answer or band, its
// count as text beside it, the truth marked in words once revealed. The bars are CSS widths; the
// list reads as "0–20%: 3 answers (25%)" to a screen reader.

import { h, percent } from "./dom.js";

/** "3 answers", "1 answer". */
export function answers(n) {
  return `${n} ${n === 1 ? "answer" : "answers"}`;
}

/** The words of one bar: "0–20%: 3 answers (25%)", with ", the truth" once revealed. */
export function barText(bar, total) {
  const count = Number.isInteger(bar.count) ? bar.count : 0;
  const share = total > 0 ? ` (${percent(count / total)})` : "";
  return `${bar.label}: ${answers(count)}${share}${bar.truth ? ", the truth" : ""}`;
}

/** The distribution panel, or null when there is none. */
export function renderDistribution(d, uid = "nb") {
  if (!d || !Array.isArray(d.bars)) return null;
  const total = Number.isInteger(d.total) ? d.total : d.bars.reduce((n, b) => n + (b.count || 0), 0);
  const most = Math.max(1, ...d.bars.map((b) => b.count || 0));
  const titleId = `${uid}-dist-title`;
  return h(
    "section",
    { class: "nb-dist", "data-key": "dist", "aria-labelledby": titleId },
    h("h3", { class: "nb-h", id: titleId }, `${d.title || "Answers"} (${answers(total)})`),
    d.bars.length
      ? h("ul", { class: "nb-bars" }, d.bars.map((b, i) => h(
          "li",
          { class: ["nb-bar-row", b.truth ? "nb-bar-truth" : null], "data-key": `bar-${i}` },
          h("span", { class: "nb-bar-label", "aria-hidden": "true" }, b.label),
          h("span", { class: "nb-bar-track", "aria-hidden": "true" },
            h("span", { class: "nb-bar", style: { "--nb-share": String((b.count || 0) / most) } })),
          h("span", { class: "nb-bar-count", "aria-hidden": "true" }, String(b.count || 0), b.truth ? " ✓" : null),
          h("span", { class: "nb-sr" }, barText(b, total)),
        )))
      : h("p", { class: "nb-muted" }, "No answers yet."),
  );
}
