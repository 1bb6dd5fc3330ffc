// Local UI state (selected cards, discard history open, dismissed error): a pure reducer.

import { canAct, selectionScope } from "./selectors.js";

export function initialUi(uid = "nw") {
  return { uid, selected: [], scope: null, discardsOpen: false, dismissedError: null };
}

/** Drops the selection when the position changes or the cards left the hand. */
export function syncUi(ui, state) {
  const scope = selectionScope(state);
  if (scope !== ui.scope) return { ...ui, scope, selected: [] };
  return ui;
}

/** Applies one data-ui action ({ui: "select", card} etc.) to the UI state. */
export function reduceUi(ui, action, state) {
  switch (action.ui) {
    case "select": {
      if (!canAct(state)) return ui;
      const phase = state.table.phase;
      const has = ui.selected.includes(action.card);
      let selected;
      if (has) selected = ui.selected.filter((c) => c !== action.card);
      else if (phase === "discard") selected = [action.card];
      else selected = [...ui.selected, action.card].slice(-3);
      return { ...ui, selected };
    }
    case "discards":
      return { ...ui, discardsOpen: !ui.discardsOpen };
    case "dismiss-error":
      return { ...ui, dismissedError: action.id };
    default:
      return ui;
  }
}
