// Switch between Player 1 / Player 2 / Spectator / Teacher (only those in `perspectives`).
// A closed one is disabled with Python's reason (`hidden_reason`) as its description and tooltip.

import { h } from "./dom.js";
import { PERSPECTIVES, perspectiveKey, perspectiveLabel } from "./names.js";

export function renderPerspective(state, ui = {}) {
  const allowed = state.perspectives || [];
  const why = state.hidden_reason || null;
  const whyId = `${ui.uid || "nw"}-hidden-why`;
  let closed = false;
  const buttons = PERSPECTIVES.map((p) => {
    const current = state.perspective === p;
    const disabled = !allowed.includes(p) && !current;
    closed = closed || disabled;
    return h(
      "button",
      {
        type: "button",
        class: ["nw-seg", current ? "nw-seg-on" : null],
        "data-key": `persp-${perspectiveKey(p)}`,
        "aria-pressed": String(current),
        "data-request": !disabled && !current ? { kind: "perspective", to: p } : null,
        disabled,
        title: disabled && why ? why : null,
        "aria-describedby": disabled && why ? whyId : null,
      },
      perspectiveLabel(p),
    );
  });
  return h(
    "div",
    { class: "nw-perspective", role: "group", "aria-label": "Perspective" },
    h("span", { class: "nw-perspective-label", "aria-hidden": "true" }, "View as"),
    buttons,
    closed && why ? h("span", { class: "nw-sr", id: whyId }, why) : null,
  );
}

export const perspectiveFeature = {
  name: "perspective",
  views: { header: (state, ui) => (state.cover ? null : renderPerspective(state, ui)) },
};
