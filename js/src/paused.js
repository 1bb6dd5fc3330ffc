// A bot failed and the game waits: what happened (never a card), and built-in bots to go on with.

import { h } from "./dom.js";
import { playerName } from "./names.js";

/** The paused banner, or null while no bot has failed. */
export function renderPaused(state) {
  const p = state.paused;
  if (!p || !p.text) return null;
  return h(
    "div",
    { class: "nw-paused", role: "alert", "data-key": "paused" },
    h("p", { class: "nw-paused-text" }, p.text),
    (p.bots || []).length
      ? h(
          "div",
          { class: "nw-actions", role: "group", "aria-label": `Go on with another bot as ${playerName(p.player)}` },
          p.bots.map((name) =>
            h("button", {
              type: "button",
              class: "nw-btn",
              "data-key": `resume-${name}`,
              "data-request": { kind: "resume", bot: name },
            }, `Go on with ${name}`)),
        )
      : null,
  );
}

export const pausedFeature = {
  name: "paused",
  views: { tabletop: renderPaused },
};
