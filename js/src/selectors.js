// Small read-only questions about the synced state. No game rule is decided here:
// what is legal always comes from table.legal_actions, sent by Python.

import { sameCard } from "./cards.js";
import { isClassScreen } from "./names.js";

export function legalActions(state) {
  return (state.table && state.table.legal_actions) || [];
}

/** The legal action dict without its display fields, as sent back in an "act" request. */
export function bareAction(action) {
  const rest = { ...action };
  delete rest.label;
  delete rest.points;
  return rest;
}

export function actRequest(action) {
  return { kind: "act", action: bareAction(action) };
}

/** Which player sits at the bottom of the table: the perspective's own seat, else Player 1. */
export function bottomPlayer(state) {
  return state.table && state.table.perspective === 1 ? 1 : 0;
}

export function isPlayerPerspective(p) {
  return p === 0 || p === 1;
}

/** The player who acts now, or null when the round is over. */
export function actor(state) {
  const t = state.table;
  return t && t.phase !== "over" && (t.to_move === 0 || t.to_move === 1) ? t.to_move : null;
}

/** The step where the round ended (Python marks the event that ended it `over`), or null while it goes on. */
export function roundEndStep(state) {
  const events = state.events || [];
  const last = events[events.length - 1];
  return last && last.over === true && Number.isInteger(last.step) ? last.step : null;
}

/** Modes that show a record rather than a round being played: their chip stays theirs while stepping. */
const RECORD_MODES = ["replay", "quiz"];

/** A live round that is over, shown at a step before its end: the step where it ended, else null.
 * Such a screen invites no play: "Round over" in the header, no "to move", no "Go to the latest step". */
export function endedAfter(state) {
  if (RECORD_MODES.includes(state.mode) || isClassScreen(state)) return null;
  const end = roundEndStep(state);
  return end !== null && state.step < end ? end : null;
}

/** May the browser ask to act now, and is there anything to ask? */
export function canAct(state) {
  return Boolean(state.can_act) && !state.cover && legalActions(state).length > 0;
}

/** In sets/discard phases the actor's hand cards become toggle buttons. */
export function handSelectable(state, player) {
  const t = state.table;
  if (!canAct(state) || actor(state) !== player) return false;
  if (t.phase !== "sets" && t.phase !== "discard") return false;
  return Array.isArray(t.players[player].hand);
}

export function findLaySet(state, selected) {
  if (!selected || selected.length !== 3) return null;
  return (
    legalActions(state).find(
      (a) =>
        a.type === "lay_set" &&
        Array.isArray(a.cards) &&
        a.cards.length === 3 &&
        a.cards.every((c) => selected.some((x) => sameCard(x, c))),
    ) || null
  );
}

export function findDiscard(state, card) {
  if (!card) return null;
  return legalActions(state).find((a) => a.type === "discard" && sameCard(a.card, card)) || null;
}

/** code -> [players whose needle it is], for the needles this perspective may see. */
export function visibleNeedles(state) {
  const out = new Map();
  const t = state.table;
  if (!t) return out;
  t.players.forEach((pl, i) => {
    if (pl.needle) {
      const key = String(pl.needle).toUpperCase();
      out.set(key, [...(out.get(key) || []), i]);
    }
  });
  return out;
}

/** Clears the selection whenever the position shown changes. */
export function selectionScope(state) {
  const t = state.table || {};
  return JSON.stringify([state.step, t.phase, t.turn, t.to_move, state.perspective]);
}
