// The practice panel (mode "practice"): a review's marked decision as an exercise, "You played X. Find a
// better move." The student plays an attempt with the normal buttons (the tabletop's controls send "act";
// Python judges it and never plays it); here: the prompt, the feedback in a polite live region, the
// attempts so far, "Try again", "Show the better move" and "Next", the better move with the candidates'
// values once solved or shown, and after the last exercise the summary. Pure (state, ui) -> DOM, Python's
// words throughout; the feature's `connect` moves the focus to what comes next when the phase changes.

import { h, srOnly } from "./dom.js";
import { playerName } from "./names.js";
import { activeElementOf } from "./host.js";

/** The practice trait, or null outside practice mode. */
export function practiceOf(state) {
  const p = state.practice;
  return p && typeof p === "object" && typeof p.phase === "string" ? p : null;
}

/** The words of each attempt's outcome in the list of tries. */
const OUTCOME_WORDS = { solved: "accepted", try_again: "not accepted", same: "the move you played" };

/** What the buttons say, and what they do. */
export const BUTTONS = {
  retry: "Try again",
  show: "Show the better move",
  next: "Next",
};

/** Where the focus goes when the phase (or the exercise) changes and the focus was on the panel or lost:
 * the control to use next, else the words to read. */
export const FOCUS_AFTER = {
  asking: "practice-prompt",
  judging: "practice-feedback",
  wrong: "practice-retry",
  solved: "practice-next",
  shown: "practice-next",
  done: "practice-summary-title",
};

function feedbackLine(p) {
  const f = p.feedback;
  // The live region is always there (a region that appears with its text is not announced everywhere).
  return h(
    "p",
    {
      class: ["nw-practice-feedback", f ? `nw-practice-${f.outcome}` : "nw-practice-quiet"],
      role: "status", "aria-live": "polite", "aria-atomic": "true",
      "data-key": "practice-feedback", tabindex: "-1",
    },
    f ? f.text : "",
  );
}

function attemptList(p, ui) {
  const tries = Array.isArray(p.attempts) ? p.attempts : [];
  if (!tries.length) return null;
  const labelId = `${(ui && ui.uid) || "nw"}-practice-tries`;
  return h(
    "div",
    { class: "nw-practice-tries" },
    h("span", { class: "nw-practice-tries-label", id: labelId }, "Your tries:"),
    h("ol", { class: "nw-practice-tries-list", "aria-labelledby": labelId },
      tries.map((t) => h("li", { class: `nw-practice-try-${t.outcome}` },
        h("span", { class: "nw-practice-try-move" }, t.text),
        ` · ${OUTCOME_WORDS[t.outcome] || t.outcome}`,
        t.outcome === "solved" ? null : ` (${t.words}, ${t.loss} lost)`))),
  );
}

/** The tags of a candidate's row: the best found, the move played in the game, a move tried. */
function rowTags(row) {
  const tags = [];
  if (row.best) tags.push(["best", "best found"]);
  if (row.played) tags.push(["played", "you played it"]);
  if (row.tried && !row.played) tags.push(["tried", "you tried it"]);
  return tags.map(([k, words]) => h("span", { class: ["nw-practice-tag", `nw-practice-tag-${k}`] }, words));
}

function solutionBlock(p, ui) {
  const s = p.solution;
  if (!s) return null;
  const rows = Array.isArray(s.rows) ? s.rows : [];
  const captionId = `${(ui && ui.uid) || "nw"}-practice-values`;
  return h(
    "div",
    { class: "nw-practice-solution", "data-key": "practice-solution" },
    p.phase === "shown" ? null : h("p", { class: "nw-practice-better" }, s.text),
    // The table's name is a line of its own above it: a caption would wrap to the table's narrow width.
    rows.length ? h("p", { class: "nw-practice-values-note", id: captionId }, s.caption) : null,
    rows.length
      ? h("table", { class: "nw-practice-values", "aria-labelledby": captionId },
          h("thead", null, h("tr", null,
            h("th", { scope: "col" }, "Move"),
            h("th", { scope: "col" }, "Wins"),
            h("th", { scope: "col" }, "Noise"),
            h("th", { scope: "col" }, srOnly("Notes")))),
          h("tbody", null, rows.map((row) => h("tr", {
            class: [row.best ? "nw-practice-row-best" : null, row.played ? "nw-practice-row-played" : null],
          },
          h("th", { scope: "row" }, row.text),
          h("td", null, row.wins),
          h("td", null, row.noise),
          h("td", null, rowTags(row))))))
      : null,
  );
}

function buttons(p) {
  const can = p.can || {};
  const index = p.index;
  const last = p.total > 0 && index === p.total - 1;
  const button = (name, primary, extra = {}) => h("button", {
    type: "button", class: ["nw-btn", primary ? "nw-btn-primary" : null], "data-key": `practice-${name}`,
    "data-request": { kind: `practice_${name}`, index }, ...extra,
  }, BUTTONS[name]);
  const shown = [];
  if (can.retry) shown.push(button("retry", true));
  if (can.show) shown.push(button("show", false));
  if (can.next) {
    shown.push(button("next", p.phase === "solved" || p.phase === "shown", {
      title: last ? "Finish: the summary of this practice" : "The next exercise",
    }));
  }
  if (!shown.length) return null;
  return h("div", { class: "nw-actions nw-practice-buttons", role: "group", "aria-label": "Practice" }, shown);
}

function summaryPanel(s, ui) {
  const rows = Array.isArray(s.rows) ? s.rows : [];
  const items = Array.isArray(s.items) ? s.items : [];
  const dues = items.some((it) => it.due);
  const titleId = `${(ui && ui.uid) || "nw"}-practice-summary-title`;
  return h(
    "section",
    { class: "nw-practice-summary", "data-key": "practice-summary", "aria-labelledby": titleId },
    h("h3", { class: "nw-practice-summary-title", id: titleId, "data-key": "practice-summary-title", tabindex: "-1" },
      s.title || "Practice finished"),
    s.text ? h("p", { class: "nw-practice-summary-text" }, s.text) : null,
    rows.length
      ? h("table", { class: "nw-practice-counts" },
          h("caption", null, "How it went"),
          h("tbody", null, rows.map((r) => h("tr", null, h("th", { scope: "row" }, r.label), h("td", null, String(r.count))))))
      : null,
    items.length
      ? h("table", { class: "nw-practice-items" },
          h("caption", null, "Each exercise"),
          h("thead", null, h("tr", null,
            h("th", { scope: "col" }, "Step"),
            h("th", { scope: "col" }, "You played"),
            h("th", { scope: "col" }, "This time"),
            dues ? h("th", { scope: "col" }, "Comes back") : null)),
          h("tbody", null, items.map((it) => h("tr", null,
            h("th", { scope: "row" }, String(it.step)),
            h("td", null, it.played),
            h("td", null, it.outcome),
            dues ? h("td", null, it.due || "–") : null))))
      : null,
    s.deck ? h("p", { class: "nw-note nw-practice-deck" }, s.deck) : null,
  );
}

/** The practice panel, or null outside practice mode. */
export function renderPractice(state, ui) {
  const p = practiceOf(state);
  if (!p) return null;
  const x = p.exercise;
  const who = [playerName(p.seat), p.student].filter(Boolean).join(" · ");
  const summary = p.summary && typeof p.summary === "object" ? p.summary : null;
  return h(
    "section",
    { class: ["nw-practice", `nw-practice-phase-${p.phase}`], "data-key": "practice", "aria-label": "Practice" },
    h("span", { class: "nw-caption" }, `Practice · ${who}`),
    x
      ? [
          h("p", { class: "nw-practice-count" }, `Exercise ${p.index + 1} of ${p.total}`),
          h("p", { class: "nw-practice-prompt", "data-key": "practice-prompt", tabindex: "-1" },
            x.mark ? h("span", { class: ["nw-practice-mark", `nw-mark-${x.label}`], "aria-hidden": "true" }, x.mark) : null,
            x.prompt),
          p.phase === "asking" && state.step === x.step
            ? h("p", { class: "nw-practice-how" }, "Play your move with the buttons above: it is judged, not played.")
            : null,
          state.step !== x.step
            ? h("div", { class: "nw-practice-away" },
                h("p", null, `You are looking at step ${state.step}; the exercise is at step ${x.step}.`),
                h("button", {
                  type: "button", class: "nw-btn", "data-key": "practice-to-step", "data-request": { kind: "step", to: x.step },
                }, `Back to step ${x.step}`))
            : null,
        ]
      : null,
    feedbackLine(p),
    attemptList(p, ui),
    solutionBlock(p, ui),
    buttons(p),
    summary ? summaryPanel(summary, ui) : null,
  );
}

/** The focus follows the practice: when the phase or the exercise changes while the focus is on the panel
 * (or was lost with the control that went away), or the practice begins while the focus is in the widget, it
 * goes to what comes next (`FOCUS_AFTER`). */
function followFocus(ctx) {
  let last = null;
  return function rendered() {
    const p = practiceOf(ctx.state());
    const now = p ? `${p.index}:${p.phase}` : null;
    const began = last === null && now !== null;
    const changed = now !== last;
    last = now;
    if (!p || !changed) return;
    const root = ctx.root;
    const active = activeElementOf(root);
    const panel = root.querySelector('[data-key="practice"]');
    const inPanel = active && panel && panel.contains(active);
    // The focus is elsewhere (the hand, the page): leave it there; but a practice begun from this screen (a class
    // screen's "Practise your mistakes") takes the focus from the control that started it.
    const started = began && active && root.contains(active);
    if (active !== root && !inPanel && !started) return;
    const target = root.querySelector(`[data-key="${FOCUS_AFTER[p.phase]}"]`);
    if (target && target !== active && !target.disabled) target.focus({ preventScroll: true });
  };
}

export const practiceFeature = {
  name: "practice",
  views: { left: renderPractice },
  // After "Try again" or "Show the better move" goes away: the next control there, else the prompt.
  focus: ["practice-next", "practice-prompt", "practice-feedback"],
  connect: (ctx) => ({ rendered: followFocus(ctx) }),
};
