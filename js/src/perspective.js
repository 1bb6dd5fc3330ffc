// Switch between Player 1 / Player 2 / Spectator / Teacher (only those in `perspectives`).

import { h } from "./dom.js";
import { PERSPECTIVES, perspectiveKey, perspectiveLabel } from "./names.js";

export function renderPerspective(state) {
  const allowed = state.perspectives || [];
  return h(
    "div",
    { class: "nw-perspective", role: "group", "aria-label": "Perspective" },
    h("span", { class: "nw-perspective-label", "aria-hidden": "true" }, "View as"),
    PERSPECTIVES.map((p) => {
      const current = state.perspective === p;
      const enabled = allowed.includes(p);
      return h(
        "button",
        {
          type: "button",
          class: ["nw-seg", current ? "nw-seg-on" : null],
          "data-key": `persp-${perspectiveKey(p)}`,
          "aria-pressed": String(current),
          "data-request": enabled && !current ? { kind: "perspective", to: p } : null,
          disabled: !enabled && !current,
          title: !enabled && !current ? "Hidden while the round is live" : null,
        },
        perspectiveLabel(p),
      );
    }),
  );
}
