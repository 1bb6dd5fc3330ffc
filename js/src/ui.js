// Local UI state: one slice per feature (`ui[name]`, see features.js), plus `uid` (this view's prefix
// for element ids). Pure: a UI action goes to the feature that owns it; no case of any feature here.

import { FEATURES, featureOf } from "./features.js";

/** The UI state of a new view: each feature's initial slice, under its name. */
export function initialUi(uid = "nw") {
  const ui = { uid };
  for (const f of FEATURES) if (f.initial) ui[f.name] = f.initial(uid);
  return ui;
}

/** Applies one data-ui action ({ui: "note-open"}, {ui: "table-select", card} ...) to the UI state:
 * the feature named before its first "-" reduces its own slice. The same `ui` when nothing changed. */
export function reduceUi(ui, action, state) {
  const f = action && featureOf(action.ui);
  if (!f || !f.reduce) return ui;
  const slice = f.reduce(ui[f.name], action, state);
  return slice === ui[f.name] ? ui : { ...ui, [f.name]: slice };
}

/** Brings every slice up to date with a new state (a selection of cards gone from the hand, the
 * draft of a question no longer asked...). `answers` ({answered(id), answer}: Python's answers to
 * this view's requests) is there in a mounted widget. The same `ui` when nothing changed. */
export function syncUi(ui, state, answers = null) {
  let next = ui;
  for (const f of FEATURES) {
    if (!f.sync) continue;
    const slice = f.sync(next[f.name], state, answers);
    if (slice !== next[f.name]) next = { ...next, [f.name]: slice };
  }
  return next;
}
