// Play controls for the player to move: the needle picker, draw/steal, sets, discard.
// Only what Python lists in table.legal_actions is offered; JS never decides legality.
// A disabled button carries Python's reason (table.refusals) as its description and tooltip;
// the card-selection hints ("Select three cards…") are the only texts made here.

import { h } from "./dom.js";
import { RANKS, SUITS, SUIT_ORDER, cardFace, cardText, sameCard } from "./cards.js";
import { cardGrid, tabStop } from "./cardgrid.js";
import { isClassScreen, playerName, seatName } from "./names.js";
import { actRequest, actor, canAct, endedAfter, findDiscard, findLaySet, legalActions } from "./selectors.js";

/** The cards selected in the hand (`ui.table`, the table feature's slice: table.js). */
export function selectedCards(ui) {
  return (ui && ui.table && ui.table.selected) || [];
}

function prompt(text) {
  return h("p", { class: "nw-prompt" }, text);
}

/** The letter that presses each action button (shown on it, and in its aria-keyshortcuts): draw and discard
 * never show at once, so D is both. */
export const ACTION_KEYS = { "act-draw": "D", "act-steal": "S", "act-lay": "L", "act-end-sets": "F", "act-discard": "D" };

function actionButton({ key, label, text, request, disabled, reason, reasonId, primary }) {
  return h(
    "span",
    { class: "nw-action" },
    h(
      "button",
      {
        type: "button",
        class: ["nw-btn", primary ? "nw-btn-primary" : null],
        "data-key": key,
        "data-request": disabled ? null : request,
        disabled: Boolean(disabled),
        "aria-label": text && text !== label ? label : null,
        "aria-describedby": reason ? reasonId : null,
        "aria-keyshortcuts": ACTION_KEYS[key] || null,
        title: reason || null,
      },
      text || label,
      ACTION_KEYS[key] ? h("kbd", { class: "nw-kbd", "aria-hidden": "true" }, ACTION_KEYS[key]) : null,
    ),
    reason ? h("span", { class: "nw-reason", id: reasonId }, reason) : null,
  );
}

/** The needle picker's cards, a row per suit (the grid's rows). */
export const PICKER_ROWS = SUIT_ORDER.map((suit) => RANKS.map((rank) => `${rank}${suit}`));

function needlePicker(state, ui) {
  const t = state.table;
  const me = actor(state);
  const hand = (t.players[me] && t.players[me].hand) || [];
  const legal = new Map(
    legalActions(state)
      .filter((a) => a.type === "choose_needle")
      .map((a) => [String(a.card).toUpperCase(), a]),
  );
  const stop = tabStop(PICKER_ROWS, ui && ui.table && ui.table.cursor.needle, (code) => legal.has(code));
  const rows = PICKER_ROWS.map((codes, i) => ({
    label: SUITS[SUIT_ORDER[i]].name,
    class: "nw-picker-row",
    cells: codes.map((code) => {
      const action = legal.get(code);
      const inHand = hand.some((c) => sameCard(c, code));
      const why = inHand ? "in your hand" : "not allowed";
      return cardFace(code, {
        size: "sm",
        note: action ? undefined : why,
        button: {
          key: `needle-${code}`,
          request: action ? actRequest(action) : null,
          inert: !action,
          tabindex: code === stop ? "0" : "-1",
          title: action ? `Choose ${cardText(code)} as your needle` : `${cardText(code)}: ${why}`,
        },
      });
    }),
  }));
  return [
    prompt(`${playerName(me)}: pick your needle, a card you hope to find. Cards in your hand cannot be picked.`),
    cardGrid({ class: "nw-picker", "aria-label": "Pick your needle" }, rows),
  ];
}

/** The action each button of the phase would take now (null: the button is disabled), by its data-key: what the
 * buttons show and what their letters (ACTION_KEYS) send. */
function offers(state, ui) {
  const legal = legalActions(state);
  const selected = selectedCards(ui);
  switch (state.table.phase) {
    case "draw":
      return {
        "act-draw": legal.find((a) => a.type === "draw_pile") || null,
        "act-steal": legal.find((a) => a.type === "steal") || null,
      };
    case "sets":
      return { "act-lay": findLaySet(state, selected), "act-end-sets": legal.find((a) => a.type === "end_sets") || null };
    case "discard":
      return { "act-discard": findDiscard(state, selected.length ? selected[selected.length - 1] : null) };
    default:
      return {};
  }
}

function drawControls(state, ui) {
  const me = actor(state);
  const opp = 1 - me;
  const { "act-draw": draw, "act-steal": steal } = offers(state, ui);
  const drawWhy = draw ? null : refusal(state, "draw_pile");
  const stealWhy = steal ? null : refusal(state, "steal");
  return [
    prompt(`${playerName(me)}: draw a card from the pile, or steal one at random from ${playerName(opp)}.`),
    h(
      "div",
      { class: "nw-actions" },
      actionButton({
        key: "act-draw", label: "Draw from pile", request: draw && actRequest(draw), disabled: !draw,
        reason: drawWhy, reasonId: `${ui.uid}-draw-why`, primary: true,
      }),
      actionButton({
        key: "act-steal", label: "Steal from opponent", request: steal && actRequest(steal), disabled: !steal,
        reason: stealWhy, reasonId: `${ui.uid}-steal-why`,
      }),
    ),
  ];
}

/** Python's reason for refusing the button of `type` now (table.refusals), or null. */
function refusal(state, type) {
  const reasons = (state.table && state.table.refusals) || {};
  return typeof reasons[type] === "string" && reasons[type] ? reasons[type] : null;
}

function pointsText(n) {
  return `${n} ${n === 1 ? "point" : "points"}`;
}

function setsControls(state, ui) {
  const legal = legalActions(state);
  const selected = selectedCards(ui);
  const { "act-lay": lay, "act-end-sets": end } = offers(state, ui);
  const canLay = legal.some((a) => a.type === "lay_set");
  let why = null;
  if (!lay) {
    if (!canLay) why = "No set in your hand";
    else if (selected.length !== 3) why = `Select three cards of your hand (${selected.length} of 3)`;
    else why = "These three cards are not a set";
  }
  const shown = selected.map(cardText).join(" ");
  return [
    prompt(
      `${playerName(actor(state))}: lay sets of three cards in a row (select them in your hand), then finish.`,
    ),
    h(
      "div",
      { class: "nw-actions" },
      actionButton({
        key: "act-lay",
        label: "Lay set",
        text: lay ? `Lay set · ${pointsText(lay.points)}` : "Lay set",
        request: lay && actRequest(lay),
        disabled: !lay,
        reason: lay ? `${shown} scores ${pointsText(lay.points)}` : why,
        reasonId: `${ui.uid}-lay-why`,
        primary: true,
      }),
      actionButton({
        key: "act-end-sets", label: "Done laying sets", request: end && actRequest(end), disabled: !end,
        reason: end ? null : refusal(state, "end_sets"), reasonId: `${ui.uid}-end-why`,
      }),
    ),
  ];
}

function discardControls(state, ui) {
  const selected = selectedCards(ui);
  const card = selected.length ? selected[selected.length - 1] : null;
  const action = offers(state, ui)["act-discard"];
  const why = action ? null : card ? "This card cannot be discarded" : "Select a card of your hand";
  return [
    prompt(`${playerName(actor(state))}: choose a card of your hand to discard. That ends the turn.`),
    h(
      "div",
      { class: "nw-actions" },
      actionButton({
        key: "act-discard",
        label: "Discard",
        text: action ? `Discard ${cardText(card)}` : "Discard",
        request: action && actRequest(action),
        disabled: !action,
        reason: why,
        reasonId: `${ui.uid}-discard-why`,
        primary: true,
      }),
    ),
  ];
}

/** Why this screen has no controls now: the round has ended (stepped back in a finished round), a bot
 * thinking, else Python's `act_reason`. */
function waiting(state) {
  const who = actor(state);
  if (((state.mode === "replay" || state.mode === "quiz") && !isClassScreen(state)) || who === null) return null;
  const end = endedAfter(state);
  let text;
  if (end !== null) text = `The round ended at step ${end}`;
  else if (state.busy) text = `${seatName(state, who)} is thinking…`;
  else if (state.act_reason) text = state.act_reason;
  else text = `Waiting for ${seatName(state, who)}`;
  return h("div", { class: "nw-controls nw-waiting" }, prompt(text));
}

const BY_PHASE = { needle: needlePicker, draw: drawControls, sets: setsControls, discard: discardControls };

/** The request a letter key asks for (ACTION_KEYS): the one its button would send now, or null (no such
 * button in this phase, or it is disabled: the button says why). */
export function actionKeyRequest(letter, state, ui) {
  const t = state.table;
  if (!t || state.cover || !canAct(state)) return null;
  const offered = offers(state, ui);
  const key = Object.keys(offered).find((k) => ACTION_KEYS[k] === String(letter).toUpperCase());
  return key && offered[key] ? actRequest(offered[key]) : null;
}

/** The keys of each phase, in words under its controls (docs/ACCESSIBILITY.md lists them all). */
export const KEY_HINTS = {
  needle: "Keys: the arrows move through the cards, Enter picks one.",
  draw: "Keys: the letter on a button presses it.",
  sets: "Keys: the number on a card selects it, the letter on a button presses it, ← → move in the hand.",
  discard: "Keys: the number on a card selects it, the letter on a button presses it, ← → move in the hand.",
};

/** The controls block, or null when there is nothing to show. */
export function renderControls(state, ui) {
  const t = state.table;
  if (!t || t.phase === "over" || state.cover) return null;
  if (!canAct(state) || !BY_PHASE[t.phase]) return waiting(state);
  return h(
    "div",
    { class: ["nw-controls", `nw-controls-${t.phase}`], role: "group", "aria-label": "Your move" },
    BY_PHASE[t.phase](state, ui),
    h("p", { class: "nw-keys-hint" }, KEY_HINTS[t.phase]),
  );
}
