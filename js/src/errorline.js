// The error line: Python's refusal of the last request (the `error` trait) as a role=alert line
// under the controls (and on the hotseat cover), until dismissed or followed by another error.

import { h } from "./dom.js";

/** The error line, or null when there is no error or it was dismissed. */
export function renderErrorLine(state, ui) {
  const err = state.error;
  const dismissed = ui && ui.error ? ui.error.dismissed : null;
  if (!err || !err.text || err.id === dismissed) return null;
  return h(
    "div",
    { class: "nw-error", role: "alert", "data-key": `error-${err.id}` },
    h("span", { class: "nw-error-text" }, err.text),
    h("button", {
      type: "button", class: "nw-link", "data-key": "dismiss-error", "aria-label": "Dismiss error",
      "data-ui": { ui: "error-dismiss", id: err.id },
    }, "×"),
  );
}

export const errorFeature = {
  name: "error",
  initial: () => ({ dismissed: null }),
  reduce: (slice, action) => (action.ui === "error-dismiss" ? { ...slice, dismissed: action.id } : slice),
  views: { tabletop: renderErrorLine, cover: renderErrorLine },
};
