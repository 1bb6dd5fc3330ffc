// "R" reads the table aloud (issue 33): the hands this screen shows, the needles, the sets, the piles, the
// scores, whose turn it is and what the viewer may do, in one status line that screen readers announce. Made
// from the synced state alone, so it names no card the screen does not show.

import { cardName } from "./cards.js";
import { h } from "./dom.js";
import { keepsArrowKeys } from "./keys.js";
import { playerName, seatName } from "./names.js";
import { actor, isPlayerPerspective } from "./selectors.js";

const READ_KEY = "r";

function cards(codes) {
  return codes.length ? codes.map(cardName).join(", ") : "none";
}

function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

/** One player's part: their hand (or how many cards), their needle as far as the screen shows it, their sets. */
function playerWords(state, p) {
  const t = state.table;
  const pl = t.players[p];
  const mine = isPlayerPerspective(t.perspective) && t.perspective === p;
  const who = mine ? "You" : seatName(state, p);
  const parts = [`${who}: ${count(pl.score, "point", "points")}`];
  if (Array.isArray(pl.hand)) parts.push(`${mine ? "your" : "their"} hand: ${cards(pl.hand)}`);
  else {
    const known = isPlayerPerspective(t.perspective) && !mine ? (t.known_opponent_cards || []) : [];
    parts.push(`${count(pl.hand_size, "card", "cards")} in hand${known.length ? `, known to you: ${cards(known)}` : ""}`);
  }
  if (pl.needle) parts.push(`needle: ${cardName(pl.needle)}`);
  else parts.push(pl.needle_chosen ? "needle hidden" : "no needle yet");
  const sets = pl.sets || [];
  parts.push(sets.length ? `sets: ${sets.map((s) => `${cards(s.cards)} (${count(s.points, "point", "points")})`).join("; ")}`
    : "no sets");
  return `${parts.join(", ")}.`;
}

/** The table in words, for the screen's perspective: "You: 5 points, your hand: …. Player 2 (greedy): …. Draw
 * pile: 13 cards. Discards: 7, the top one 3 of spades. Turn 8, Player 2 to move. You may: …". */
export function tableWords(state) {
  const t = state.table;
  if (!t) return "";
  const order = t.perspective === 1 ? [1, 0] : [0, 1];
  const discards = t.discard_pile || [];
  const out = order.map((p) => playerWords(state, p));
  out.push(`Draw pile: ${count(t.pile_size, "card", "cards")}.`);
  out.push(discards.length ? `Discards: ${discards.length}, the top one ${cardName(discards[discards.length - 1])}.`
    : "Discards: none.");
  const moving = actor(state);
  if (t.phase === "over") out.push(t.result && t.result.text ? `Round over: ${t.result.text}` : "Round over.");
  else if (moving !== null) {
    const yours = isPlayerPerspective(t.perspective) && t.perspective === moving;
    out.push(`${t.turn > 0 ? `Turn ${t.turn}` : "Picking needles"}, ${yours ? "your move" : `${playerName(moving)} to move`}.`);
    const legal = (state.can_act !== false && (t.legal_actions || [])) || [];
    if (yours && t.phase === "needle" && legal.length) out.push(`You may pick a needle: any of ${legal.length} cards not in your hand.`);
    else if (yours && legal.length) out.push(`You may: ${legal.map((a) => a.label || a.type).join("; ")}.`);
  }
  return out.join(" ");
}

export const readoutFeature = {
  name: "readout",
  initial: () => ({ text: "", count: 0, step: null }),
  /** readout-read: the table's words now (`count` makes a second press at the same step speak again). */
  reduce(slice, action, state) {
    if (action.ui !== "readout-read") return slice;
    return { text: tableWords(state), count: slice.count + 1, step: state.step };
  },
  /** Stepping away silences the last reading (it no longer describes the table). */
  sync(slice, state) {
    return slice.text && slice.step !== state.step ? { ...slice, text: "", step: state.step } : slice;
  },
  key(event, slice, state) {
    if (event.key.toLowerCase() !== READ_KEY || event.ctrlKey || event.metaKey || event.altKey) return null;
    return keepsArrowKeys(event.target) || !state.table || state.cover ? null : { ui: "readout-read" };
  },
  views: {
    header: (state, ui) => h("p", {
      class: "nw-sr", role: "status", "aria-live": "polite", "aria-atomic": "true", "data-key": "readout",
      "data-count": String(ui.readout ? ui.readout.count : 0),
    }, ui.readout ? ui.readout.text : ""),
  },
};
