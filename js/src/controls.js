// Play controls for the player to move: the needle picker, draw/steal, sets, discard.
// Only what Python lists in table.legal_actions is offered; JS never decides legality.
// A disabled button carries Python's reason (table.refusals) as its description and tooltip;
// the card-selection hints ("Select three cards…") are the only texts made here.

import { h } from "./dom.js";
import { RANKS, SUITS, SUIT_ORDER, cardFace, cardText, sameCard } from "./cards.js";
import { isClassScreen, playerName, seatName } from "./names.js";
import { actRequest, actor, canAct, endedAfter, findDiscard, findLaySet, legalActions } from "./selectors.js";

/** The cards selected in the hand (`ui.table`, the table feature's slice: table.js). */
export function selectedCards(ui) {
  return (ui && ui.table && ui.table.selected) || [];
}

function prompt(text) {
  return h("p", { class: "nw-prompt" }, text);
}

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
        title: reason || null,
      },
      text || label,
    ),
    reason ? h("span", { class: "nw-reason", id: reasonId }, reason) : null,
  );
}

function needlePicker(state) {
  const t = state.table;
  const me = actor(state);
  const hand = (t.players[me] && t.players[me].hand) || [];
  const legal = new Map(
    legalActions(state)
      .filter((a) => a.type === "choose_needle")
      .map((a) => [String(a.card).toUpperCase(), a]),
  );
  const rows = SUIT_ORDER.map((suit) =>
    h(
      "div",
      { class: "nw-picker-row", role: "group", "aria-label": SUITS[suit].name },
      RANKS.map((rank) => {
        const code = `${rank}${suit}`;
        const action = legal.get(code);
        const inHand = hand.some((c) => sameCard(c, code));
        const why = inHand ? "in your hand" : "not allowed";
        return cardFace(code, {
          size: "sm",
          note: action ? undefined : why,
          button: {
            key: `needle-${code}`,
            request: action ? actRequest(action) : null,
            disabled: !action,
            title: action ? `Choose ${cardText(code)} as your needle` : `${cardText(code)}: ${why}`,
          },
        });
      }),
    ),
  );
  return [
    prompt(`${playerName(me)}: pick your needle, a card you hope to find. Cards in your hand cannot be picked.`),
    h("div", { class: "nw-picker", role: "group", "aria-label": "Pick your needle" }, rows),
  ];
}

function drawControls(state, ui) {
  const me = actor(state);
  const opp = 1 - me;
  const legal = legalActions(state);
  const draw = legal.find((a) => a.type === "draw_pile");
  const steal = legal.find((a) => a.type === "steal");
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
  const lay = findLaySet(state, selected);
  const end = legal.find((a) => a.type === "end_sets");
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
  const action = findDiscard(state, card);
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

/** The controls block, or null when there is nothing to show. */
export function renderControls(state, ui) {
  const t = state.table;
  if (!t || t.phase === "over" || state.cover) return null;
  if (!canAct(state) || !BY_PHASE[t.phase]) return waiting(state);
  return h(
    "div",
    { class: ["nw-controls", `nw-controls-${t.phase}`], role: "group", "aria-label": "Your move" },
    BY_PHASE[t.phase](state, ui),
  );
}
