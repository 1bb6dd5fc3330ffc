// The whole widget as a pure function of (state, ui) -> DOM. No model, no listeners. The layout is
// here; what fills each part of it is the features' views (features.js): `views.header`, `tabletop`
// (the game, in the felt box `.nw-board`; not the class's board, board.js), `left` (under the tabletop),
// `side` (beside it), `rows` (across both columns under them), `analysis` (the full-width area below) and
// `cover` (the hotseat cover, instead of all the others).

import { h } from "./dom.js";
import { viewsIn } from "./features.js";
import { infoAsRow } from "./info.js";
import { isClassScreen } from "./names.js";
import { endedAfter } from "./selectors.js";

const MODE_LABELS = {
  play: "Playing", hotseat: "Hotseat", watch: "Watching", replay: "Replay", live: "Live", quiz: "Quiz",
  practice: "Practice",
};

/** The header's chip: the mode, or "Round over" once the round shown is over (a quiz stays "Quiz", a class's
 * screen "Class" but while it practises; a practice position is never over): at its last step, and at every
 * step of a live round that has ended (`endedAfter`). */
export function modeLabel(state) {
  if (isClassScreen(state) && state.mode !== "practice") return "Class"; // a class screen's own practice: "Practice"
  if (!state.mode) return null;
  if (state.mode !== "quiz") {
    if ((state.table && state.table.phase === "over") || endedAfter(state) !== null) return "Round over";
  }
  return MODE_LABELS[state.mode] || state.mode;
}

function header(state, ui) {
  const label = modeLabel(state);
  return h(
    "div",
    { class: "nw-header" },
    h("span", { class: "nw-title" }, "Needle in a Card Stack"),
    label ? h("span", { class: ["nw-mode", label === "Round over" ? "nw-mode-over" : null] }, label) : null,
    viewsIn("header", state, ui),
  );
}

export function renderApp(state, ui) {
  if (!state.table) {
    return h("div", { class: "nw-app" }, header(state, ui), h("p", { class: "nw-muted" }, "Loading the game…"));
  }
  if (state.cover) return h("div", { class: "nw-app" }, header(state, ui), viewsIn("cover", state, ui));
  // A player's knowledge (heat map and figures), and the teacher's view (where the needles are, the
  // next cards) above the two players' knowledge, are rows across both columns: the side column holds
  // the replay bar, as tall as the tabletop, for every perspective that has odds.
  const row = infoAsRow(state);
  const analysis = viewsIn("analysis", state, ui);
  return h(
    "div",
    { class: "nw-app" },
    header(state, ui),
    h(
      "div",
      { class: ["nw-main", state.table.perspective === "teacher" ? "nw-main-teacher" : null, row ? "nw-main-rows" : null] },
      h("div", { class: "nw-left" }, h("div", { class: "nw-board" }, viewsIn("tabletop", state, ui)), viewsIn("left", state, ui)),
      h("div", { class: "nw-side" }, viewsIn("side", state, ui)),
      viewsIn("rows", state, ui),
    ),
    // The full-width area below the tabletop: the "what if" toolbar, the branch form and the panels.
    analysis.length ? h("div", { class: "nw-analysis", "data-key": "analysis" }, analysis) : null,
  );
}
