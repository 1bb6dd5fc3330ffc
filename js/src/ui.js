// Local UI state (selected cards, discard history open, dismissed error, the "Play from here"
// form and the graph's table): a pure reducer.

import { canAct, selectionScope } from "./selectors.js";

const BRANCH_FIELDS = ["seat", "opponent", "world"];

function closedBranch() {
  return { open: false, seat: null, opponent: null, world: null };
}

export function initialUi(uid = "nw") {
  return {
    uid, selected: [], scope: null, discardsOpen: false, dismissedError: null,
    branch: closedBranch(), branchFrom: null, graphTable: false,
  };
}

/** Drops the selection when the position changes or the cards left the hand; closes the
 * branch form once a branch opens or closes (Python answered "Play"). */
export function syncUi(ui, state) {
  let next = ui;
  const scope = selectionScope(state);
  if (scope !== ui.scope) next = { ...next, scope, selected: [] };
  const from = state.branch_info ? JSON.stringify(state.branch_info) : null;
  if (from !== ui.branchFrom) next = { ...next, branchFrom: from, branch: closedBranch() };
  return next;
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
    case "branch-form":
      return { ...ui, branch: ui.branch.open ? closedBranch() : { ...closedBranch(), open: true } };
    case "branch-set":
      if (!BRANCH_FIELDS.includes(action.field)) return ui;
      return { ...ui, branch: { ...ui.branch, [action.field]: action.value } };
    case "graph-table":
      return { ...ui, graphTable: !ui.graphTable };
    default:
      return ui;
  }
}
