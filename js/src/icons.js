// Small inline SVG icons for the replay bar (no icon font, no network).

import { s } from "./dom.js";

const PATHS = {
  first: "M4 3h2v10H4zM14 3v10L7 8z",
  prev: "M12 3v10L5 8z",
  next: "M4 3v10l7-5z",
  last: "M2 3v10l7-5zM10 3h2v10h-2z",
  play: "M4 2v12l10-6z",
  pause: "M3 2h4v12H3zM9 2h4v12H9z",
};

export function icon(name) {
  return s("svg", { class: "nw-icon", viewBox: "0 0 16 16", "aria-hidden": "true", focusable: "false" },
    s("path", { d: PATHS[name] }));
}
