// The review: each decision of the seats the perspective may see, marked as chess marks moves
// (?! inaccuracy, ? mistake, ?? blunder), a summary per seat, the decision at the step shown with the
// better move; its marks for the list of moves and the slider (replaybar.js draws them). The ledger of
// skill and luck, drawn on the graph, is ledger.js's. Python decides whose
// review this perspective gets (`state.review.reviews`); nothing here decides who sees what.
// Pure (state, ui) -> DOM. The review feature: its UI slice `ui.review` is the seat whose decisions
// are listed.

import { h, percent, srOnly } from "./dom.js";
import { playerName } from "./names.js";

/** The labels that get a mark in the list of moves and on the slider (best and good stay unmarked). */
export const MARKED = ["inaccuracy", "mistake", "blunder"];

/** The reviews Python sent (the seats this perspective may see), or []. */
export function reviewsOf(state) {
  const r = state.review;
  return r && Array.isArray(r.reviews) ? r.reviews : [];
}

/** One seat's review, or null. */
export function reviewFor(state, seat) {
  return reviewsOf(state).find((r) => r.seat === seat) || null;
}

/** The seat whose decisions are listed: the one chosen (if still sent), else the perspective's own, else the first. */
export function shownSeat(state, ui) {
  const seats = reviewsOf(state).map((r) => r.seat);
  const chosen = ui && ui.review ? ui.review.seat : null;
  if (seats.includes(chosen)) return chosen;
  if (seats.includes(state.perspective)) return state.perspective;
  return seats.length ? seats[0] : null;
}

/** The entry of `review` whose action led to `step` (entries sit at `at`, the step after the decision). */
export function entryAt(review, step) {
  return review ? (review.entries || []).find((e) => e.at === step) || null : null;
}

/** The luck term that covers `step` (the cards' doing after a decision, up to the next one), or null. */
export function luckAt(review, step) {
  return review ? (review.luck || []).find((t) => t.start < step && step <= t.end) || null : null;
}

/** Every marked decision of every review sent, by step: [{at, seat, label, mark, words, text}], in step order. */
export function stepMarks(state) {
  const out = [];
  for (const r of reviewsOf(state)) {
    for (const e of r.entries || []) {
      if (MARKED.includes(e.label)) out.push({ at: e.at, seat: r.seat, label: e.label, mark: e.mark, words: e.words, text: e.text });
    }
  }
  return out.sort((a, b) => a.at - b.at || a.seat - b.seat);
}

/** 0.5 -> "0.50", -1.25 -> "−1.25": an expected score (1 a win, ½ a draw, 0 a loss), or the luck-adjusted result. */
export function score(x) {
  return typeof x === "number" && Number.isFinite(x) ? x.toFixed(2).replace("-", "−") : "–";
}

/** The unit of the summary's figures, as the verdict and the class board say it (review/verdict.py `UNIT`). */
export const UNIT = "points of win chance (a win is 100, a draw 50, a loss 0)";

/** 0.724 -> "72", -0.25 -> "−25", 0.125 -> "13": an expected score (or a change of one) in whole points of win
 * chance, halves away from zero, as Python's `verdict.in_points` writes the same binary value. `signed`: "+19". */
export function points(x, signed = false) {
  if (typeof x !== "number" || !Number.isFinite(x)) return "–";
  const n = Math.floor(Math.abs(100 * x) + 0.5);
  if (n === 0) return "0";
  return x < 0 ? `−${n}` : signed ? `+${n}` : String(n);
}

// ---- the list of moves and the slider ------------------------------------------------------------

/** The marks of the decisions that led to `step`, for its line in the list of moves: symbol, colour, words. */
export function eventMarks(marks) {
  return (marks || []).map((m) => [
    h("span", { class: ["nw-ev-mark", `nw-mark-${m.label}`], "aria-hidden": "true", title: `${playerName(m.seat)}: ${m.words}` }, m.mark),
    srOnly(` (${m.words})`),
  ]);
}

/** The marks by step, for the list of moves: Map at -> [marks]. */
export function marksByStep(state) {
  const out = new Map();
  for (const m of stepMarks(state)) out.set(m.at, [...(out.get(m.at) || []), m]);
  return out;
}

/** The marked decisions under the slider: each a small button that goes to its step (the decisions
 * list in the review panel is the keyboard's way to them: these stay out of the tab order). */
export function reviewTicks(state) {
  const steps = state.steps;
  const marks = stepMarks(state).filter((m) => m.at >= 0 && m.at <= steps);
  if (!marks.length || !(steps > 0)) return null;
  return h(
    "div",
    { class: "nw-review-ticks", role: "group", "aria-label": "Marked decisions" },
    marks.map((m) => {
      const name = `Step ${m.at}: ${playerName(m.seat)}'s ${m.words}, ${m.text}`;
      return h("button", {
        type: "button", class: ["nw-review-tick", `nw-mark-${m.label}`], tabindex: "-1",
        "data-key": `review-tick-${m.seat}-${m.at}`, "data-request": { kind: "step", to: m.at },
        "aria-label": name, title: name, style: { "--nw-at": (m.at / steps).toFixed(4) },
      }, m.mark);
    }),
  );
}

// ---- the panel -------------------------------------------------------------------------------------

function markSymbol(entry) {
  return entry.mark
    ? h("span", { class: ["nw-review-mark", `nw-mark-${entry.label}`], "aria-hidden": "true" }, entry.mark)
    : h("span", { class: ["nw-review-mark", "nw-review-dot"], "aria-hidden": "true" }, "·");
}

function words(entry) {
  return h("span", { class: ["nw-review-words", `nw-mark-${entry.label}`] }, entry.words);
}

function resultWords(r) {
  if (typeof r.end_value !== "number") return "–";
  if (!r.finished) return `${points(r.end_value)} (not finished)`;
  return r.end_value === 1 ? "won (100)" : r.end_value === 0 ? "lost (0)" : `drew (${points(r.end_value)})`;
}

function summaryTable(reviews, legend) {
  const marked = legend.filter((l) => MARKED.includes(l.label)).reverse();
  return h(
    "div",
    { class: "nw-table-scroll" },
    h("table", { class: "nw-data-table nw-review-summary" },
      h("caption", null, `Summary: luck, result and luck-adjusted in ${UNIT}`),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, "Seat"),
        h("th", { scope: "col" }, "Accuracy"),
        marked.map((l) => h("th", { scope: "col" }, h("span", { class: `nw-mark-${l.label}`, "aria-hidden": "true" }, `${l.mark} `), l.plural || l.words)),
        h("th", { scope: "col" }, "Luck (points)"),
        h("th", { scope: "col" }, "Result (points)"),
        h("th", { scope: "col" }, "Luck-adjusted (points)"))),
      h("tbody", null, reviews.map((r) => h("tr", null,
        h("th", { scope: "row" }, r.name || playerName(r.seat)),
        h("td", null, typeof r.accuracy === "number" ? `${Math.round(r.accuracy)}` : "–"),
        marked.map((l) => h("td", null, String((r.counts || {})[l.label] ?? 0))),
        h("td", null, points(r.luck_total, true)),
        h("td", { class: "nw-td-text" }, resultWords(r)),
        h("td", null, points(r.luck_adjusted)))))),
  );
}

function candidates(entry) {
  return h("table", { class: "nw-data-table nw-review-values" },
    h("caption", null, `Each choice's expected score, over ${entry.worlds} worlds`),
    h("thead", null, h("tr", null, h("th", { scope: "col" }, "Choice"), h("th", { scope: "col" }, "Won"),
      h("th", { scope: "col" }, "±"))),
    h("tbody", null, (entry.values || []).map((v) => h("tr", { class: [v.chosen ? "nw-chosen" : null, v.best ? "nw-review-best" : null] },
      h("th", { scope: "row" }, v.text, v.chosen ? " (chosen)" : "", v.best && !v.chosen ? " (best)" : ""),
      h("td", null, percent(v.value)),
      h("td", null, percent(v.se))))));
}

/** The decision at the step shown ("show the better move"), the luck that led here, or a hint. */
function here(state, review) {
  const step = Number.isInteger(state.asked) ? state.asked : state.step;
  const who = review.name || playerName(review.seat);
  const entry = entryAt(review, step);
  const luck = luckAt(review, step);
  const parts = [];
  if (entry) {
    parts.push(
      h("p", { class: "nw-review-head" }, markSymbol(entry), h("strong", null, `Step ${entry.at}: ${entry.text}`), " ", words(entry)),
      h("p", { class: "nw-review-explain" }, entry.explain),
      entry.is_best ? null : h("p", { class: "nw-review-better" },
        h("strong", null, "Better: "), `${entry.best_text}, ${percent(entry.best_value)} against ${percent(entry.chosen_shown ?? entry.chosen_value)} `,
        `for ${entry.text} (${entry.valued} of ${entry.choices} choices valued, over ${entry.worlds} worlds ${who} could not tell apart).`),
      candidates(entry),
      h("button", {
        type: "button", class: "nw-btn", "data-key": "review-before", "data-request": { kind: "step", to: entry.step },
      }, `See the position before it (step ${entry.step})`),
    );
  } else {
    parts.push(h("p", { class: "nw-muted" }, `Step ${step} was not ${who}'s decision. Choose a decision below, or a mark in the list of moves or under the slider, to see how it was judged.`));
  }
  if (luck) parts.push(h("p", { class: "nw-review-luck" }, h("strong", null, "Luck: "), luck.sentence));
  return h("div", { class: "nw-review-here", role: "group", "aria-label": `${who}'s decision at step ${step}` }, parts);
}

/** The decision the list's one tab stop is on: the one that led to `step`, else the last before it, else the first. */
export function tabStop(entries, step) {
  let stop = entries.length ? entries[0] : null;
  for (const e of entries) if (e.at <= step) stop = e;
  return stop;
}

function decisions(state, review, uid) {
  const step = Number.isInteger(state.asked) ? state.asked : state.step;
  const entries = review.entries || [];
  const stop = tabStop(entries, step);
  return h(
    "ol",
    { class: "nw-review-list", id: `${uid}-review-list`, "aria-label": `${review.name || playerName(review.seat)}'s decisions` },
    entries.map((e) => h("li", null, h(
      "button",
      {
        type: "button", class: ["nw-review-item", e.at === step ? "nw-current" : null],
        "data-key": `review-at-${review.seat}-${e.at}`, "data-request": { kind: "step", to: e.at },
        "aria-current": e.at === step ? "step" : null, tabindex: e === stop ? "0" : "-1",
      },
      markSymbol(e),
      h("span", { class: "nw-review-step" }, `Step ${e.at}`),
      h("span", { class: "nw-review-text" }, e.text),
      words(e),
    ))),
  );
}

function legendList(legend) {
  return h("ul", { class: "nw-review-legend", "aria-label": "Marks" },
    legend.filter((l) => MARKED.includes(l.label)).reverse().map((l) =>
      h("li", null, h("span", { class: ["nw-review-mark", `nw-mark-${l.label}`], "aria-hidden": "true" }, l.mark), l.words)),
    h("li", null, h("span", { class: ["nw-review-mark", "nw-review-dot"], "aria-hidden": "true" }, "·"), "best or good (unmarked in the list of moves)"));
}

/** "Practise your mistakes": on a class screen, the offer to practise the decisions one's own review marked
 * (`offers.practice`: {count, reason}); the practice runs in the student's own kernel. Null where none is offered. */
export function practiceButton(state, uid) {
  const offer = (state.offers || {}).practice;
  if (!offer) return null;
  const whyId = `${uid}-practice-why`;
  return h("p", { class: "nw-review-practice" },
    h("button", {
      type: "button", class: "nw-btn", "data-key": "review-practice", disabled: Boolean(offer.reason),
      "data-request": offer.reason ? null : { kind: "practice", open: true },
      "aria-describedby": offer.reason ? whyId : null,
    }, offer.count ? `Practise your mistakes (${offer.count})` : "Practise your mistakes"),
    offer.reason ? h("span", { class: "nw-tool-reason", id: whyId }, ` ${offer.reason}`) : null);
}

/** The review panel, or null while closed. */
export function renderReview(state, ui) {
  const r = state.review;
  if (!r) return null;
  const uid = ui.uid || "nw";
  const reviews = reviewsOf(state);
  const seat = shownSeat(state, ui);
  const review = reviewFor(state, seat);
  const computing = r.status === "computing";
  const working = reviews.find((x) => x.status === "computing");
  const legend = r.legend || [];
  return h(
    "section",
    { class: "nw-review nw-panel", id: `${uid}-review`, "aria-label": "Review", "aria-busy": String(computing) },
    h("h3", { class: "nw-panel-title" }, review ? `Review: ${review.name || playerName(review.seat)}'s decisions` : "Review"),
    reviews.length > 1
      ? h("div", { class: "nw-panel-controls" }, h("label", { class: "nw-field" },
          h("span", { class: "nw-field-label", "aria-hidden": "true" }, "Decisions of"),
          h("select", { class: "nw-select", "data-key": "review-seat", "data-input": "review-seat", "aria-label": "Whose decisions", value: String(seat) },
            reviews.map((x) => h("option", { value: String(x.seat), selected: x.seat === seat }, x.name || playerName(x.seat))))))
      : null,
    // The live line says what is being done once; the count is the progress bar's (no announcement per decision).
    h("p", { class: "nw-busy-text", "aria-live": "polite" },
      working ? `Reviewing ${working.name || playerName(working.seat)}'s decisions…` : ""),
    working
      ? h("div", { class: "nw-progress" },
          h("progress", { max: String(working.total || 1), value: String(working.done || 0), "aria-label": "Review progress" }),
          h("span", null, `${working.done || 0} of ${working.total ?? "?"} decisions`))
      : null,
    r.status === "hidden" ? h("p", { class: "nw-tool-reason" }, r.reason || "No review on this screen now.") : null,
    reviews.filter((x) => x.status === "failed").map((x) => h("p", { class: "nw-whatif-error" }, x.error || "The review failed.")),
    // The answer first, in words: did the decisions or the cards decide this game (review/verdict.py).
    review && review.verdict ? h("p", { class: "nw-review-verdict", "data-key": "review-verdict" }, review.verdict) : null,
    practiceButton(state, uid),
    reviews.length ? summaryTable(reviews, legend) : null,
    review ? here(state, review) : null,
    review && (review.entries || []).length
      ? [h("h4", { class: "nw-review-subtitle" }, "Decisions"), decisions(state, review, uid)]
      : null,
    reviews.length ? legendList(legend) : null,
    r.note ? h("p", { class: "nw-note" }, r.note) : null,
  );
}

export const reviewFeature = {
  name: "review",
  initial: () => ({ seat: null }),
  reduce: (slice, action) => (action.ui === "review-seat" && slice.seat !== action.seat ? { ...slice, seat: action.seat } : slice),
  views: { analysis: renderReview },
  // The seat whose decisions are listed is this view's choice: every review shown is already here.
  changes: { "review-seat": (el) => ({ ui: "review-seat", seat: Number(el.value) }) },
  focus: ["review-seat", "tool-review"],
  connect: ({ root }) => {
    // The list of decisions is one tab stop; ↑ / ↓ move the focus along it (Enter goes there). The root's
    // own handler leaves these keys alone here: they step only in the list of moves and on sliders.
    function onKeydown(event) {
      if (event.key !== "ArrowUp" && event.key !== "ArrowDown") return;
      const item = event.target.closest && event.target.closest(".nw-review-item");
      if (!item || !root.contains(item)) return;
      const items = [...item.closest(".nw-review-list").querySelectorAll(".nw-review-item")];
      const next = items[items.indexOf(item) + (event.key === "ArrowDown" ? 1 : -1)];
      event.preventDefault();
      if (next) next.focus();
    }
    root.addEventListener("keydown", onKeydown);
    return { rendered: keepInSight(root), disconnect: () => root.removeEventListener("keydown", onKeydown) };
  },
};

/** After a render: keep the current decision in sight in its list as the step changes. */
function keepInSight(root) {
  return function rendered({ stepChanged }) {
    if (!stepChanged) return;
    const list = root.querySelector(".nw-review-list");
    const current = list && list.querySelector('[aria-current="step"]');
    if (!current || !(list.clientHeight > 0)) return;
    const a = current.getBoundingClientRect();
    const b = list.getBoundingClientRect();
    if (a.top < b.top || a.bottom > b.bottom) list.scrollTop += a.top - b.top - (list.clientHeight - a.height) / 2;
  };
}
