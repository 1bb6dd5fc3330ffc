// The card table: the opponent's zone at the top, the piles and the status in the middle,
// the own zone at the bottom (for a spectator or the teacher: Player 2 top, Player 1 bottom).
// The table feature: the table and the controls (controls.js) on the tabletop; its UI slice `ui.table`
// holds the cards selected in the hand and whether the discard history is open.

import { h, srOnly } from "./dom.js";
import { cardBack, cardFace, emptySlot, hiddenNeedle, sameCard } from "./cards.js";
import { cardGrid, gridOf, gridTarget, tabStop } from "./cardgrid.js";
import { activeElementOf } from "./host.js";
import { keepsArrowKeys } from "./keys.js";
import { playerName, seatName } from "./names.js";
import { PICKER_ROWS, actionKeyRequest, renderControls, selectedCards } from "./controls.js";
import {
  actor, bottomPlayer, canAct, endedAfter, handSelectable, isPlayerPerspective, selectionScope, visibleNeedles,
} from "./selectors.js";

const PHASE_TEXT = {
  needle: (who) => `${who} picks a needle`,
  draw: (who) => `${who} draws a card`,
  sets: (who) => `${who} may lay sets`,
  discard: (who) => `${who} discards`,
};

/** "Turn 3 · Player 1 draws a card", "Picking needles · Player 2 picks a needle", "Round over". */
export function statusText(state) {
  const t = state.table;
  if (t.phase === "over") return `Round over after turn ${t.turn}`;
  const who = actor(state) === null ? "" : playerName(actor(state));
  const what = PHASE_TEXT[t.phase] ? PHASE_TEXT[t.phase](who) : `${who}: ${t.phase}`;
  return t.turn > 0 ? `Turn ${t.turn} · ${what}` : `Picking needles · ${what}`;
}

/** The public steal status of player `p`: "Steal available" (Python says the mover may steal now),
 * "Next steal on turn 9" (the limit of docs/RULES.md T2, a public fact), else null. Why a steal is
 * refused now is Python's text on the Steal button, never made up here. */
export function stealText(state, p) {
  const t = state.table;
  if (t.phase === "over" || t.phase === "needle") return null;
  const pl = t.players[p];
  if (pl.may_steal) return "Steal available";
  if (pl.next_steal_turn !== null && pl.next_steal_turn !== undefined && pl.next_steal_turn > t.turn) {
    return `Next steal on turn ${pl.next_steal_turn}`;
  }
  return null;
}

function needleNote(needles, code) {
  const owners = needles.get(String(code).toUpperCase());
  if (!owners) return undefined;
  return owners.map((p) => `${playerName(p)}'s needle`).join(" and ");
}

/** A face with the needle mark when it is a needle this perspective may see. */
function face(code, needles, options = {}) {
  const note = needleNote(needles, code);
  return cardFace(code, {
    ...options,
    note: [options.note, note].filter(Boolean).join(", ") || undefined,
    class: [options.class, note ? "nw-is-needle" : null].filter(Boolean).join(" ") || undefined,
  });
}

function needleBox(state, p) {
  const t = state.table;
  const pl = t.players[p];
  const own = t.perspective === p;
  const caption = own ? "Your needle" : "Needle";
  let card;
  if (pl.needle) card = face(pl.needle, new Map(), { note: `${playerName(p)}'s needle`, class: "nw-is-needle" });
  else if (pl.needle_chosen) card = hiddenNeedle(`${playerName(p)}'s needle: hidden`);
  else card = emptySlot(`${playerName(p)} has not picked a needle yet`, "md", "none yet");
  return h("div", { class: "nw-needle-box" }, h("span", { class: "nw-caption" }, caption), card);
}

/** The words a card that entered the hand this turn carries: its tag on the card, its note for screen readers. */
export const NEW_CARD_TAG = "new";
export const NEW_CARD_NOTE = "just drawn";

/** Whether `code` entered player `p`'s shown hand this turn (Python's `new_cards`: drawn, stolen, replenished). */
export function isNewCard(player, code) {
  const fresh = player && Array.isArray(player.new_cards) ? player.new_cards : [];
  return fresh.some((c) => sameCard(c, code));
}

function discardsOpen(ui) {
  return Boolean(ui && ui.table && ui.table.discardsOpen);
}

/** The key that selects the `i`th card of a hand (0-based): "1" to "9", then none. */
export function handKey(i) {
  return i < 9 ? String(i + 1) : null;
}

/** A card's tag and note while it is new in the hand (`isNewCard`), else nothing. */
function freshMarks(player, code) {
  return isNewCard(player, code) ? { note: NEW_CARD_NOTE, tag: NEW_CARD_TAG, class: "nw-new-card" } : {};
}

function handView(state, ui, p, needles) {
  const t = state.table;
  const pl = t.players[p];
  const label = `${playerName(p)}'s hand: ${pl.hand_size} ${pl.hand_size === 1 ? "card" : "cards"}`;
  if (Array.isArray(pl.hand) && pl.hand.length && handSelectable(state, p)) {
    // The mover's hand while cards are picked: a grid of one row (cardgrid.js), each card with its number key.
    const selected = selectedCards(ui);
    const stop = tabStop([pl.hand], ui && ui.table && ui.table.cursor.hand);
    const cells = pl.hand.map((code, i) => face(code, needles, {
      ...freshMarks(pl, code),
      button: {
        key: `hand-${code}`,
        ui: { ui: "table-select", card: code },
        pressed: selected.includes(code),
        tabindex: sameCard(code, stop) ? "0" : "-1",
        shortcut: handKey(i),
      },
    }));
    return cardGrid({ class: "nw-hand", "aria-label": label }, [{ class: "nw-hand-row", cells }]);
  }
  const cards = [];
  if (Array.isArray(pl.hand)) {
    for (const code of pl.hand) {
      cards.push(face(code, needles, freshMarks(pl, code)));
    }
  } else {
    // Hidden hand: only the cards this player knows are there (stolen from them), then backs.
    const known = p !== t.perspective && isPlayerPerspective(t.perspective) ? t.known_opponent_cards || [] : [];
    for (const code of known.slice(0, pl.hand_size)) {
      cards.push(face(code, needles, { note: "known to you", class: "nw-known" }));
    }
    for (let i = known.length; i < pl.hand_size; i++) cards.push(cardBack());
  }
  if (!cards.length) cards.push(h("span", { class: "nw-empty-text" }, "No cards"));
  return h("div", { class: "nw-hand", role: "group", "aria-label": label }, cards);
}

function setsView(t, p, needles) {
  const sets = t.players[p].sets || [];
  if (!sets.length) return null;
  return h(
    "ul",
    { class: "nw-sets", "aria-label": `${playerName(p)}'s sets` },
    sets.map((set) =>
      h(
        "li",
        { class: "nw-set" },
        h("span", { class: "nw-set-cards" }, set.cards.map((c) => face(c, needles, { size: "sm" }))),
        h("span", { class: ["nw-badge", set.points > 1 ? "nw-badge-2" : null] },
          `${set.points} ${set.points === 1 ? "point" : "points"}`),
      ),
    ),
  );
}

/** The tag of the seat that acts at the step shown: "to move", "thinking…" while a bot thinks, and in a live
 * round that has ended (stepped back) "moved next": that seat made the next move, nobody plays here now. */
export function moveTag(state) {
  if (endedAfter(state) !== null) return "moved next";
  return state.busy ? "thinking…" : "to move";
}

function zone(state, ui, p, where, needles) {
  const t = state.table;
  const pl = t.players[p];
  const moving = actor(state) === p;
  const won = t.result && t.result.winner === p;
  const steal = stealText(state, p);
  return h(
    "section",
    {
      class: ["nw-zone", `nw-zone-${where}`, moving ? "nw-moving" : null, won ? "nw-winner" : null],
      "aria-label": `${seatName(state, p)}${t.perspective === p && !seatName(state, p).endsWith("(You)") ? ", you" : ""}`,
    },
    h(
      "div",
      { class: "nw-zone-head" },
      h("span", { class: "nw-name" }, seatName(state, p)),
      moving ? h("span", { class: "nw-tag nw-tag-move" }, moveTag(state)) : null,
      won ? h("span", { class: "nw-tag nw-tag-win" }, "winner") : null,
      h("span", { class: "nw-score" }, `${pl.score} ${pl.score === 1 ? "point" : "points"}`),
      steal ? h("span", { class: ["nw-steal", pl.may_steal ? "nw-steal-yes" : null] }, steal) : null,
    ),
    h("div", { class: "nw-zone-body" }, needleBox(state, p), handView(state, ui, p, needles), setsView(t, p, needles)),
  );
}

function centre(state, ui, needles) {
  const t = state.table;
  const discards = t.discard_pile || [];
  const top = discards.length ? discards[discards.length - 1] : null;
  const listId = `${ui.uid || "nw"}-discards`;
  const pileLabel = `Draw pile: ${t.pile_size} ${t.pile_size === 1 ? "card" : "cards"}`;
  const pile = h(
    "div",
    { class: "nw-pile" },
    h("span", { class: "nw-caption" }, "Draw pile"),
    t.pile_size > 0
      ? h("span", { class: ["nw-stack", t.pile_size > 1 ? "nw-stack-deep" : null] }, cardBack({ label: pileLabel }))
      : emptySlot("Draw pile: empty", "md", "empty"),
    h("span", { class: "nw-count", "aria-hidden": "true" }, `${t.pile_size} ${t.pile_size === 1 ? "card" : "cards"}`),
    t.reshuffles ? h("span", { class: "nw-count" }, `reshuffled ${t.reshuffles}×`) : null,
  );
  const discard = h(
    "div",
    { class: "nw-discard" },
    h("span", { class: "nw-caption" }, "Discards"),
    top ? face(top, needles, { note: "top of the discard pile" }) : emptySlot("Discard pile: empty", "md", "empty"),
    h("span", { class: "nw-count" }, `${discards.length} ${discards.length === 1 ? "card" : "cards"}`),
    discards.length
      ? h(
          "button",
          {
            type: "button",
            class: "nw-link",
            "data-key": "toggle-discards",
            "data-ui": { ui: "table-discards" },
            "aria-expanded": String(discardsOpen(ui)),
            "aria-controls": listId,
          },
          discardsOpen(ui) ? "Hide discards" : "Show all discards",
        )
      : null,
  );
  const status = h(
    "div",
    { class: "nw-status" },
    h("span", { class: "nw-status-line" }, statusText(state)),
    // A plain span's aria-label is not read (ARIA prohibits naming it): the words are in its text, for screen
    // readers only, and the figures are for the eye.
    h("span", { class: "nw-scoreline" },
      h("span", { "aria-hidden": "true" }, `${t.scores[0]} – ${t.scores[1]}`),
      srOnly(`Score: ${playerName(0)} ${t.scores[0]}, ${playerName(1)} ${t.scores[1]}`)),
  );
  const history =
    discardsOpen(ui) && discards.length
      ? h(
          "div",
          { class: "nw-discard-history", id: listId },
          h("span", { class: "nw-caption" }, "All discards, first to last"),
          h("ol", { class: "nw-discard-list" }, discards.map((c) => h("li", null, face(c, needles, { size: "sm" })))),
        )
      : h("div", { class: "nw-discard-history", id: listId, hidden: true });
  return h("div", { class: "nw-centre-wrap" }, h("div", { class: "nw-centre" }, pile, discard, status), history);
}

/** Python's offer of a new game once the round is over: {reason: null | public words, deals: ["new", "same"]},
 * or null when Python offers none (a screen that may not start one). */
export function newGameOffer(state) {
  const o = state.offers && state.offers.new_game;
  if (!state.table || state.table.phase !== "over" || !o || typeof o !== "object") return null;
  return o;
}

/** The two ways to deal again, in the order shown: each button's words, its description, its data-key. */
export const DEALS = [
  { deal: "new", label: "New deal", text: "Deal new cards", key: "new-game-new" },
  { deal: "same", label: "Same deal again", text: "Play the same cards again: same hands, same pile", key: "new-game-same" },
];

/** The deals Python offers (`deals`; a new deal when it names none), in DEALS' order. */
export function offeredDeals(offer) {
  const names = Array.isArray(offer && offer.deals) ? offer.deals : ["new"];
  return DEALS.filter((d) => names.includes(d.deal));
}

function newGameButtons(state, ui) {
  const o = newGameOffer(state);
  if (!o) return null;
  const deals = offeredDeals(o);
  if (!deals.length) return null;
  const reason = typeof o.reason === "string" && o.reason ? o.reason : null;
  const uid = (ui && ui.uid) || "nw";
  const reasonId = `${uid}-new-game-why`;
  return h(
    "div",
    { class: "nw-banner-actions" },
    h("div", { class: "nw-deals", role: "group", "aria-label": "Play again" },
      deals.map((d, i) => {
        const textId = `${uid}-${d.key}-text`;
        return h("div", { class: "nw-deal" },
          h("button", {
            type: "button",
            class: ["nw-btn", i === 0 ? "nw-btn-primary" : null],
            "data-key": d.key,
            "data-request": reason ? null : { kind: "new_game", deal: d.deal },
            disabled: Boolean(reason),
            // Disabled: Python's reason first (as on every disabled button), then what the button does.
            "aria-describedby": reason ? `${reasonId} ${textId}` : textId,
            title: reason || d.text,
          }, d.label),
          h("span", { class: "nw-deal-text", id: textId }, d.text));
      })),
    reason ? h("span", { class: "nw-banner-why", id: reasonId }, reason) : null,
  );
}

function banner(state, ui) {
  const r = state.table.result;
  if (!r) return null;
  return h(
    "div",
    { class: ["nw-banner", r.winner === null || r.winner === undefined ? "nw-banner-draw" : null] },
    h("div", { class: "nw-banner-result", role: "status" },
      h("span", { class: "nw-banner-title" },
        r.winner === 0 || r.winner === 1 ? `${seatName(state, r.winner)} wins` : "A draw"),
      h("span", { class: "nw-banner-text" }, r.text || "")),
    newGameButtons(state, ui),
  );
}

/** The whole table for the state's perspective. */
export function renderTable(state, ui) {
  const bottom = bottomPlayer(state);
  const needles = visibleNeedles(state);
  return h(
    "div",
    { class: "nw-table", role: "region", "aria-label": "Card table" },
    zone(state, ui, 1 - bottom, "top", needles),
    centre(state, ui, needles),
    banner(state, ui),
    zone(state, ui, bottom, "bottom", needles),
  );
}


/** A card pressed in the hand: toggled; three at most while laying sets (a fourth replaces the first),
 * one while discarding. The hand's cursor goes to it. */
function select(slice, card, state) {
  if (!canAct(state)) return slice;
  const has = slice.selected.includes(card);
  let selected;
  if (has) selected = slice.selected.filter((c) => c !== card);
  else if (state.table.phase === "discard") selected = [card];
  else selected = [...slice.selected, card].slice(-3);
  return { ...slice, selected, cursor: { ...slice.cursor, hand: card } };
}

/** The rows of a grid as the screen shows them now (the mover's hand, the needle picker), or null. */
function gridRows(grid, state) {
  const me = actor(state);
  if (grid === "needle") return state.table.phase === "needle" && canAct(state) ? PICKER_ROWS : null;
  return me !== null && handSelectable(state, me) ? [state.table.players[me].hand] : null;
}

/** The keys of the table: an arrow, Home or End on a card of a grid moves its cursor; 1–9 select the mover's
 * cards; the action letters press their buttons (controls.js); Escape drops the selection. */
function tableKey(event, slice, state) {
  if (event.ctrlKey || event.metaKey || event.altKey || !state.table || keepsArrowKeys(event.target)) return null;
  if (event.key === "Escape") return slice.selected.length ? { ui: "table-clear" } : null;
  const grid = gridOf(event.target && event.target.getAttribute && event.target.getAttribute("data-key"));
  const rows = grid && gridRows(grid, state);
  if (rows) {
    const card = gridTarget(rows, event.target.getAttribute("data-card"), event.key);
    if (card) return { ui: "table-cursor", grid, card };
  }
  if (event.repeat) return null; // a key held down asks once, not once per repeat
  if (/^[1-9]$/.test(event.key)) {
    const hand = gridRows("hand", state);
    const card = hand && hand[0][Number(event.key) - 1];
    return card ? { ui: "table-select", card } : null;
  }
  return /^[a-z]$/i.test(event.key) && !event.shiftKey ? actionKeyRequest(event.key, state, { table: slice }) : null;
}

/** The focus follows a grid's cursor when a key moved it (`moved`), from a card of that grid. */
function followCursor(ctx) {
  let seen = 0;
  return function rendered() {
    const slice = ctx.ui().table;
    if (!slice || slice.moved === seen) return;
    seen = slice.moved;
    const root = ctx.root;
    const active = activeElementOf(root);
    const from = active && root.contains(active) ? gridOf(active.getAttribute("data-key")) : null;
    const grid = slice.movedIn;
    const target = grid && root.querySelector(`[data-key="${grid}-${slice.cursor[grid]}"]`);
    if (from === grid && target && target !== active) target.focus({ preventScroll: true });
  };
}

export const tableFeature = {
  name: "table",
  initial: () => ({ selected: [], scope: null, discardsOpen: false, cursor: { hand: null, needle: null }, moved: 0,
    movedIn: null }),
  reduce(slice, action, state) {
    switch (action.ui) {
      case "table-select":
        return select(slice, action.card, state);
      case "table-cursor":
        return { ...slice, cursor: { ...slice.cursor, [action.grid]: action.card }, moved: slice.moved + 1,
          movedIn: action.grid };
      case "table-discards":
        return { ...slice, discardsOpen: !slice.discardsOpen };
      case "table-clear":
        return slice.selected.length ? { ...slice, selected: [] } : slice;
      default:
        return slice;
    }
  },
  /** The selection goes when the position changes (or the cards left the hand). */
  sync(slice, state) {
    const scope = selectionScope(state);
    return scope === slice.scope ? slice : { ...slice, scope, selected: [] };
  },
  key: tableKey,
  connect: (ctx) => ({ rendered: followCursor(ctx) }),
  views: { tabletop: (state, ui) => [renderTable(state, ui), renderControls(state, ui)] },
};
