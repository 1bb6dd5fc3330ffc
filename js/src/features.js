// The widget's features, each in its own module with its slice of the UI state and its views
// (js/README.md, "Features" and "Adding a panel"). A new feature is one import and one entry below.

import { coverFeature } from "./cover.js";
import { errorFeature } from "./errorline.js";
import { followFeature } from "./follow.js";
import { graphFeature } from "./graph.js";
import { infoFeature } from "./info.js";
import { noteFeature } from "./notes.js";
import { pausedFeature } from "./paused.js";
import { perspectiveFeature } from "./perspective.js";
import { pictureFeature } from "./picture.js";
import { practiceFeature } from "./practice.js";
import { quizFeature } from "./quiz.js";
import { readoutFeature } from "./readout.js";
import { replayFeature } from "./replaybar.js";
import { reviewFeature } from "./review.js";
import { tableFeature } from "./table.js";
import { linesFeature } from "./variations.js";
import { branchFeature } from "./whatif.js";
import { worldsFeature } from "./worlds.js";

// The order is the order of their views within each part of the layout (app.js): on the tabletop the
// branch banner, the paused banner, the table and controls, the error line; in the analysis area the
// "what if" toolbar and the branch form, then the worlds, then the graph, then the review; in the header
// the perspective switch, "Save picture", then the follow bar of a class on a line of its own, then the
// table read aloud (for screen readers only).
export const FEATURES = [
  branchFeature,
  pausedFeature,
  tableFeature,
  errorFeature,
  coverFeature,
  quizFeature,
  practiceFeature,
  noteFeature,
  replayFeature,
  linesFeature,
  infoFeature,
  worldsFeature,
  graphFeature,
  reviewFeature,
  perspectiveFeature,
  pictureFeature,
  followFeature,
  readoutFeature,
];

const BY_NAME = new Map();
for (const f of FEATURES) {
  if (!/^[a-z][a-z0-9]*$/.test(f.name) || BY_NAME.has(f.name)) throw new Error(`needle_widget: bad feature name ${f.name}`);
  BY_NAME.set(f.name, f);
}

/** The feature a UI action ("note-open", "table-select") belongs to: the one named before its first "-". */
export function featureOf(action) {
  return typeof action === "string" ? BY_NAME.get(action.split("-")[0]) || null : null;
}

/** What the features render in one part of the layout (`views[part]`), in the order of FEATURES. */
export function viewsIn(part, state, ui) {
  const nodes = [];
  for (const f of FEATURES) {
    const view = f.views && f.views[part];
    if (view) nodes.push(view(state, ui));
  }
  return nodes.flat().filter(Boolean);
}

// The handlers of `data-input` elements by event: `inputs` on input and change events, `changes` on
// change events only (selects that ask Python, or act once), `clicks` on a click on the element.
const HANDLERS = { input: ["inputs"], change: ["inputs", "changes"], click: ["clicks"] };
const BY_INPUT = {};
for (const field of ["inputs", "changes", "clicks"]) {
  BY_INPUT[field] = new Map();
  for (const f of FEATURES) {
    for (const [kind, handler] of Object.entries(f[field] || {})) {
      if (BY_INPUT[field].has(kind)) throw new Error(`needle_widget: two features handle ${field} of ${kind}`);
      BY_INPUT[field].set(kind, handler);
    }
  }
}

/** The handler of an element's `data-input` for an event type ("input" | "change" | "click"), or null. */
export function inputHandler(type, kind) {
  for (const field of HANDLERS[type] || []) if (BY_INPUT[field].has(kind)) return BY_INPUT[field].get(kind);
  return null;
}

/** What a key press asks of a feature (`key`): a UI action (Escape drops the selected cards), a request (D
 * draws, as the button shows), or null. */
export function keyAction(event, ui, state) {
  for (const f of FEATURES) {
    const action = f.key ? f.key(event, ui[f.name], state) : null;
    if (action) return action;
  }
  return null;
}

/** Where the focus goes when the control with `key` went away: a feature's `focus` list, for the
 * keys that start with its name ("note-save" -> "note-text", then "note-add"). */
export function focusFallbacks(key) {
  const f = typeof key === "string" ? featureOf(key) : null;
  return f && f.focus && key.startsWith(`${f.name}-`) ? f.focus : [];
}
