// The whole widget as a pure function of (state, ui) -> DOM. No model, no listeners.

import { h } from "./dom.js";
import { renderCover } from "./cover.js";
import { renderErrorLine } from "./errorline.js";
import { renderControls } from "./controls.js";
import { renderInfo, renderTeacherKnowledge } from "./info.js";
import { renderNotes } from "./notes.js";
import { renderPaused } from "./paused.js";
import { renderPerspective } from "./perspective.js";
import { renderPictureControl } from "./picture.js";
import { renderQuiz } from "./quiz.js";
import { renderReplayBar } from "./replaybar.js";
import { renderTable } from "./table.js";
import { renderGraph } from "./graph.js";
import { renderBranchBanner, renderBranchForm, renderToolbar } from "./whatif.js";
import { renderWorlds } from "./worlds.js";

const MODE_LABELS = { play: "Playing", hotseat: "Hotseat", watch: "Watching", replay: "Replay", live: "Live", quiz: "Quiz" };

/** The header's chip: the mode, or "Round over" once the round shown is over (a quiz stays "Quiz"). */
export function modeLabel(state) {
  if (!state.mode) return null;
  if (state.mode !== "quiz" && state.table && state.table.phase === "over") return "Round over";
  return MODE_LABELS[state.mode] || state.mode;
}

function header(state, ui) {
  const label = modeLabel(state);
  return h(
    "div",
    { class: "nw-header" },
    h("span", { class: "nw-title" }, "Needle in a Card Stack"),
    label ? h("span", { class: ["nw-mode", label === "Round over" ? "nw-mode-over" : null] }, label) : null,
    state.cover ? null : renderPerspective(state, ui),
    state.cover || !state.table ? null : renderPictureControl(ui.picture),
  );
}

export function renderApp(state, ui) {
  if (!state.table) {
    return h("div", { class: "nw-app" }, header(state, ui), h("p", { class: "nw-muted" }, "Loading the game…"));
  }
  if (state.cover) {
    return h("div", { class: "nw-app" }, header(state, ui), renderErrorLine(state, ui), renderCover(state.cover));
  }
  // A player's knowledge (heat map and figures), and the teacher's view (where the needles are, the
  // next cards) above the two players' knowledge, are rows across both columns: the side column holds
  // the replay bar, as tall as the board, for every perspective that has odds.
  // (A quiz keeps its panel beside the board, where the odds appear once the answer is revealed.)
  const row = state.mode !== "quiz" && Boolean(state.info && (state.info.kind === "player" || state.info.kind === "teacher"));
  return h(
    "div",
    { class: "nw-app" },
    header(state, ui),
    h(
      "div",
      { class: ["nw-main", state.table.perspective === "teacher" ? "nw-main-teacher" : null, row ? "nw-main-rows" : null] },
      h("div", { class: "nw-left" },
        h("div", { class: "nw-board" }, renderBranchBanner(state),
          renderPaused(state), renderTable(state, ui), renderControls(state, ui), renderErrorLine(state, ui)),
        renderQuiz(state, ui), renderNotes(state, ui)),
      h("div", { class: "nw-side" }, renderReplayBar(state), row ? null : renderInfo(state)),
      row ? renderInfo(state, { row: true }) : null,
      renderTeacherKnowledge(state),
    ),
    analysis(state, ui),
  );
}

/** The full-width area below the board: the "what if" toolbar, the branch form and the panels. */
function analysis(state, ui) {
  const parts = [renderToolbar(state, ui), renderBranchForm(state, ui), renderWorlds(state, ui), renderGraph(state, ui)]
    .filter(Boolean);
  return parts.length ? h("div", { class: "nw-analysis", "data-key": "analysis" }, parts) : null;
}
