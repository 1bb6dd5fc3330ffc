// The review (review.js) from Python's own synced states (whatif_states.json: a game of RandomBot
// against GreedyBot with Player 1's blunder at step 13, reviewed at a small budget), and its logic.

import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { renderApp } from "../src/app.js";
import { initialUi, reduceUi } from "../src/ui.js";
import { ledger, signed } from "../src/ledger.js";
import { entryAt, luckAt, points, reviewFor, score, shownSeat, stepMarks, tabStop } from "../src/review.js";
import { click, flush, mountsCleanedAfterEach, synced } from "./helpers.js";

const open = mountsCleanedAfterEach();
const stateOf = (name, overrides = {}) => ({ ...structuredClone(states[name]), answer: null, error: null, scale: 1, ...overrides });
const render = (name, overrides = {}, ui = initialUi()) => renderApp(stateOf(name, overrides), ui);
const byKey = (node, key) => node.querySelector(`[data-key="${key}"]`);
const request = (el) => JSON.parse(el.getAttribute("data-request"));

describe("the ledger", () => {
  for (const name of ["review_player", "review_teacher"]) {
    it(`adds up, bar by bar, from the first decision's value to the end (${name})`, () => {
      for (const review of stateOf(name).review.reviews) {
        const { line, bars } = ledger(review);
        expect(line[0]).toEqual({ x: review.entries[0].step, value: review.entries[0].reference_value });
        const total = bars.reduce((sum, b) => sum + (b.to - b.from), 0);
        expect(line[0].value + total).toBeCloseTo(review.end_value, 3);
        expect(line[line.length - 1].value).toBeCloseTo(review.end_value, 3);
        // Every bar is a jump of the staircase, in step order, the skill half a step after its decision.
        expect(bars.filter((b) => b.kind === "skill").length).toBe(review.entries.length);
        expect(bars.filter((b) => b.kind === "luck").length).toBe(review.luck.length);
        for (let i = 1; i < bars.length; i += 1) expect(bars[i].x).toBeGreaterThanOrEqual(bars[i - 1].x);
        const skill = bars.find((b) => b.kind === "skill");
        expect(skill.x).toBe(review.entries[0].step + 0.5);
        expect(skill.to - skill.from).toBeCloseTo(review.entries[0].skill, 3);
      }
    });
  }

  it("is empty without entries", () => {
    expect(ledger({ entries: [], luck: [] })).toEqual({ line: [], bars: [] });
    expect(ledger(null)).toEqual({ line: [], bars: [] });
  });

  it("writes changes of expected score signed, with a true minus", () => {
    expect(signed(0.125)).toBe("+0.13");
    expect(signed(-0.3)).toBe("−0.30");
    expect(signed(0.001)).toBe("0.00");
    expect(signed(null)).toBe("–");
    expect(score(0.5)).toBe("0.50");
    expect(score(-1.25)).toBe("−1.25");
  });

  it("writes the summary's figures in points of win chance, halves away from zero, as Python does", () => {
    // needle_widget/review/verdict.py in_points: 0.724 -> 72, 0.125 -> 13, -0.125 -> -13, 1.0 -> 100, -0.004 -> 0
    expect([0.724, 0.125, -0.125, 1, -0.004, 1.39].map((x) => points(x))).toEqual(["72", "13", "−13", "100", "0", "139"]);
    expect([0.19, -0.04, 0.001].map((x) => points(x, true))).toEqual(["+19", "−4", "0"]);
    expect(points(null)).toBe("–");
  });
});

describe("marks and the decision at a step", () => {
  it("lists the marked decisions (never best or good) by step", () => {
    const marks = stepMarks(stateOf("review_player"));
    const marked = stateOf("review_player").review.reviews[0].entries.filter((e) => !["best", "good"].includes(e.label));
    expect(marks.map((m) => m.at)).toEqual(marked.map((e) => e.at));
    expect(marks).toContainEqual({ at: 13, seat: 0, label: "blunder", mark: "??", words: "blunder", text: "Discard A♦" });
    expect(stepMarks({ review: null })).toEqual([]);
  });

  it("finds the entry that led to a step, and the luck that came after one", () => {
    const review = stateOf("review_player").review.reviews[0];
    expect(entryAt(review, 13).label).toBe("blunder");
    expect(entryAt(review, 0)).toBeNull();
    const free = [...Array(review.entries.at(-1).at).keys()].find((k) => !review.entries.some((e) => e.at === k));
    expect(entryAt(review, free)).toBeNull();
    const term = review.luck.find((t) => t.end > t.start + 1);
    expect(luckAt(review, term.end)).toBe(term);
    expect(luckAt(review, term.start)).not.toBe(term);
  });

  it("lists the perspective's own seat first, or the seat chosen", () => {
    const teacher = stateOf("review_teacher");
    expect(shownSeat(teacher, initialUi())).toBe(0);
    const ui = reduceUi(initialUi(), { ui: "review-seat", seat: 1 }, teacher);
    expect(shownSeat(teacher, ui)).toBe(1);
    expect(shownSeat(stateOf("review_player"), ui)).toBe(0); // a seat not sent falls back
    expect(reduceUi(ui, { ui: "review-seat", seat: 1 }, teacher)).toBe(ui);
  });
});

describe("the review panel", () => {
  it("shows a player its summary, the blunder at the step shown with the better move, and its decisions", () => {
    const s = stateOf("review_player");
    const app = render("review_player");
    const panel = app.querySelector("section.nw-review");
    expect(panel.getAttribute("aria-label")).toBe("Review");
    expect(panel.getAttribute("aria-busy")).toBe("false");
    // The answer in words comes first, told to the seat, before the figures.
    const verdict = byKey(panel, "review-verdict");
    expect(verdict.textContent).toBe(reviewFor(s, 0).verdict);
    expect(verdict.textContent).toMatch(/^Your decisions cost you about \d+ points of win chance/);
    expect(verdict.compareDocumentPosition(panel.querySelector(".nw-review-summary")) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const rows = panel.querySelectorAll(".nw-review-summary tbody tr");
    expect(rows.length).toBe(1);
    expect(rows[0].textContent).toContain("Player 1");
    expect([...panel.querySelectorAll(".nw-review-summary th")].map((th) => th.textContent)).toEqual(
      expect.arrayContaining(["Accuracy", "?? blunders", "?! inaccuracies", "Luck (points)", "Result (points)",
        "Luck-adjusted (points)"]));
    // The unit, as the verdict above it and the class board say it (issue 45: "Luck-adjusted" had no unit).
    expect(panel.querySelector(".nw-review-summary caption").textContent)
      .toBe("Summary: luck, result and luck-adjusted in points of win chance (a win is 100, a draw 50, a loss 0)");
    const review = reviewFor(s, 0);
    const figures = [...rows[0].children].slice(-3).map((c) => c.textContent);
    const adjusted = Math.round(Math.abs(100 * review.luck_adjusted));
    expect(figures[2]).toBe(review.luck_adjusted < 0 && adjusted ? `−${adjusted}` : String(adjusted));
    expect(figures[1]).toMatch(/^(won \(100\)|lost \(0\)|drew \(50\)|\d+ \(not finished\))$/);
    const entry = reviewFor(s, 0).entries.find((e) => e.at === 13);
    const here = panel.querySelector(".nw-review-here");
    expect(here.getAttribute("aria-label")).toBe("Player 1's decision at step 13");
    expect(here.textContent).toContain(entry.explain);
    expect(here.textContent).toContain(`Better: ${entry.best_text}`);
    expect(here.querySelector(".nw-review-values .nw-chosen").textContent).toContain("Discard A♦ (chosen)");
    expect(request(byKey(panel, "review-before"))).toEqual({ kind: "step", to: 12 });
    const items = panel.querySelectorAll(".nw-review-list button");
    expect(items.length).toBe(reviewFor(s, 0).entries.length);
    const current = panel.querySelector('.nw-review-list [aria-current="step"]');
    expect(current.textContent).toContain("Step 13");
    expect(current.textContent).toContain("blunder");
    expect(request(current)).toEqual({ kind: "step", to: 13 });
    expect(byKey(panel, "review-seat")).toBeNull(); // one seat only: its own
    expect(panel.textContent).toContain("4 worlds drawn from what Player 1 could see");
  });

  it("marks the blunder in the list of moves and under the slider, in symbol, colour and words", () => {
    const app = render("review_player");
    const event = byKey(app, "ev-13");
    const mark = event.querySelector(".nw-ev-mark");
    expect(mark.textContent).toBe("??");
    expect(mark.classList.contains("nw-mark-blunder")).toBe(true);
    expect(mark.getAttribute("aria-hidden")).toBe("true");
    expect(event.textContent).toContain("(blunder)");
    const tick = byKey(app, "review-tick-0-13");
    expect(tick.getAttribute("aria-label")).toBe("Step 13: Player 1's blunder, Discard A♦");
    expect(tick.getAttribute("tabindex")).toBe("-1");
    expect(request(tick)).toEqual({ kind: "step", to: 13 });
    const marked = stateOf("review_player").review.reviews[0].entries.filter((e) => !["best", "good"].includes(e.label));
    expect(app.querySelectorAll(".nw-ev-mark").length).toBe(marked.length);
  });

  it("draws the ledger on the graph of the review's seat, with its legend and its words in the table", () => {
    const app = render("review_player");
    const graph = app.querySelector("section.nw-graph");
    const review = stateOf("review_player").review.reviews[0];
    const plot = graph.querySelector("svg.nw-graph-svg");
    expect(plot.querySelectorAll(".nw-ledger-skill").length).toBe(review.entries.length);
    expect(plot.querySelectorAll(".nw-ledger-luck").length).toBe(review.luck.length);
    expect(graph.querySelector(".nw-ledger-line")).not.toBeNull();
    expect(graph.querySelector(".nw-graph-legend").textContent).toContain("Player 1's expected score in the review");
    const ui = reduceUi(initialUi(), { ui: "graph-table" }, stateOf("review_player"));
    const table = renderApp(stateOf("review_player"), ui).querySelector(".nw-graph-table table");
    expect(table.textContent).toContain("Review: skill and luck");
    expect(table.textContent).toContain("skill −0.63 (Discard A♦)");
  });

  it("gives the teacher both seats, a choice of whose decisions to list, and both seats' marks", () => {
    const s = stateOf("review_teacher");
    const app = render("review_teacher");
    expect(app.querySelectorAll(".nw-review-summary tbody tr").length).toBe(2);
    const select = byKey(app, "review-seat");
    expect(select.getAttribute("aria-label")).toBe("Whose decisions");
    expect([...select.options].map((o) => o.textContent)).toEqual(["Player 1", "Player 2"]);
    const marks = stepMarks(s);
    expect(app.querySelectorAll(".nw-review-tick").length).toBe(marks.length);
    const ui = reduceUi(initialUi(), { ui: "review-seat", seat: 1 }, s);
    const other = renderApp(s, ui);
    expect(other.querySelectorAll(".nw-review-list button").length).toBe(reviewFor(s, 1).entries.length);
    expect(other.querySelector("section.nw-review h3").textContent).toBe("Review: Player 2's decisions");
    // The teacher reads each verdict about its seat, never told as "you".
    expect(byKey(app, "review-verdict").textContent).toMatch(/^Player 1's decisions/);
    expect(byKey(other, "review-verdict").textContent).toMatch(/^Player 2 played/);
  });

  it("says why it is empty during a live round, and the toggle closes it", () => {
    const s = stateOf("review_live_hidden");
    const app = render("review_live_hidden");
    const panel = app.querySelector("section.nw-review");
    expect(panel.textContent).toContain("The review opens once the round is over");
    expect(panel.querySelector(".nw-review-summary")).toBeNull();
    const toggle = byKey(app, "tool-review");
    expect(toggle.getAttribute("aria-pressed")).toBe("true");
    expect(request(toggle)).toEqual({ kind: "review", open: false });
    const closed = renderApp({ ...s, review: null }, initialUi());
    expect(byKey(closed, "tool-review").disabled).toBe(true);
    expect(closed.textContent).toContain("Review: The review opens once the round is over");
  });

  it("is absent while closed, and its toggle opens it where Python offers it", () => {
    const app = render("review_player", { review: null });
    expect(app.querySelector("section.nw-review")).toBeNull();
    expect(request(byKey(app, "tool-review"))).toEqual({ kind: "review", open: true });
    expect(app.querySelector(".nw-ev-mark")).toBeNull();
  });
});

describe("the list of decisions by keyboard", () => {
  it("is one tab stop: the decision that led to the step, else the last before it, else the first", () => {
    const entries = [{ at: 3 }, { at: 7 }, { at: 12 }];
    expect(tabStop(entries, 7)).toBe(entries[1]);
    expect(tabStop(entries, 10)).toBe(entries[1]);
    expect(tabStop(entries, 0)).toBe(entries[0]);
    expect(tabStop(entries, 40)).toBe(entries[2]);
    expect(tabStop([], 4)).toBeNull();
    const app = render("review_player");
    const stops = [...app.querySelectorAll(".nw-review-list button")].filter((b) => b.getAttribute("tabindex") === "0");
    expect(stops.map((b) => b.getAttribute("data-key"))).toEqual(["review-at-0-13"]);
  });

  it("moves the focus along the list with ↑ / ↓ and leaves the step alone until Enter", async () => {
    const { root, model } = open(stateOf("review_player"));
    const current = byKey(root, "review-at-0-13");
    current.focus();
    current.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowDown", bubbles: true, cancelable: true }));
    const next = document.activeElement;
    expect(next).not.toBe(current);
    expect(next.classList.contains("nw-review-item")).toBe(true);
    next.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowUp", bubbles: true, cancelable: true }));
    expect(document.activeElement).toBe(current);
    expect(model.sent).toEqual([]);
  });
});

describe("the review in a mounted widget", () => {
  it("jumps to a decision when its mark is clicked, and lists another seat's without asking Python", async () => {
    const { root, model } = open(stateOf("review_teacher", { step: 0 }));
    const s = stateOf("review_teacher");
    const blunder = stepMarks(s).find((m) => m.label === "blunder");
    click(byKey(root, `review-tick-${blunder.seat}-${blunder.at}`));
    expect(model.sent.at(-1)).toEqual({ kind: "step", to: blunder.at });
    click(byKey(root, `review-at-0-${blunder.at}`));
    expect(model.sent.at(-1)).toEqual({ kind: "step", to: blunder.at });
    const sent = model.sent.length;
    const select = byKey(root, "review-seat");
    select.value = "1";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    await flush();
    expect(model.sent.length).toBe(sent);
    expect(root.querySelector("section.nw-review h3").textContent).toBe("Review: Player 2's decisions");
    model.update(synced({ review: null }));
    await flush();
    expect(root.querySelector("section.nw-review")).toBeNull();
  });
});
