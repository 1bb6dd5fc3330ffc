// Hotseat cover: hides the whole table until the next player takes the seat.

import { h } from "./dom.js";
import { playerName } from "./names.js";

export function renderCover(cover) {
  const who = playerName(cover.player);
  return h(
    "div",
    { class: "nw-cover", role: "region", "aria-label": "Pass the device" },
    h("p", { class: "nw-cover-text" }, cover.text || `Pass to ${who}`),
    h("p", { class: "nw-muted" }, "The table is hidden so nobody sees the other hand."),
    h(
      "button",
      { type: "button", class: "nw-btn nw-btn-primary", "data-key": "reveal", "data-request": { kind: "reveal" } },
      `I am ${who}: show my hand`,
    ),
  );
}

export const coverFeature = {
  name: "cover",
  views: { cover: (state) => renderCover(state.cover) },
};
