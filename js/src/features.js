// The widget's features, each in its own module with its slice of the UI state and its views
// (js/README.md, "Features" and "Adding a panel"). A new feature is one import and one entry below.

import { errorFeature } from "./errorline.js";
import { graphFeature } from "./graph.js";
import { noteFeature } from "./notes.js";
import { quizFeature } from "./quiz.js";
import { tableFeature } from "./table.js";
import { branchFeature } from "./whatif.js";

export const FEATURES = [
  branchFeature,
  tableFeature,
  errorFeature,
  quizFeature,
  noteFeature,
  graphFeature,
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
