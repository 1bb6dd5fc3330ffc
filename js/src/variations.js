// Variations kept beside the game (the `variations` trait): the move list's lines indented under their
// step, lichess style, the bar of the variation shown (back to the game; the teacher's promote, demote,
// remove and rename), and the keys that switch lines ([ and ]). Pure: state in, nodes or requests out.

import { h, memo } from "./dom.js";
import { playerName, playerShort } from "./names.js";

/** The `variations` trait, or null. */
export function linesOf(state) {
  return state && state.variations ? state.variations : null;
}

/** The index of the variation shown, or null (the game). */
export function currentLine(state) {
  const v = linesOf(state);
  return v && Number.isInteger(v.current) ? v.current : null;
}

/** The lines the keys go through, in order: the game (null), then each variation listed. */
export function lineOrder(state) {
  const v = linesOf(state);
  return [null, ...((v && v.list) || []).map((item) => item.index)];
}

/** The step to show when switching to `target` (null: the game) from `step`: the same step where that
 * line has it, else the nearest of its own moves. */
export function stepOnLine(state, target, step) {
  const v = linesOf(state);
  if (target === null) {
    const events = currentLine(state) === null ? state.events || [] : (v && v.main) || [];
    return Math.min(step, events.length);
  }
  const item = ((v && v.list) || []).find((x) => x.index === target);
  if (!item) return null;
  const first = item.end > item.step ? item.step + 1 : item.step;
  return Math.min(Math.max(step, first), item.end);
}

/** The request "[" (by -1) or "]" (by +1) asks: the previous or next line, or null. */
export function switchLine(state, by) {
  const v = linesOf(state);
  if (!v || !(v.list || []).length || v.open_reason) return null;
  const order = lineOrder(state);
  const at = order.indexOf(currentLine(state));
  const target = order[(at + by + order.length) % order.length];
  const to = stepOnLine(state, target, state.step);
  return to === null ? null : { kind: "line", variation: target, to };
}

/** One move of a line as a row of the move list (the same row as the game's moves). */
export function moveRow(ev, { key, request, current, newTurn, extra = [] }) {
  const seat = ev.player === 0 || ev.player === 1;
  return h(
    "li",
    { class: ["nw-event", seat ? `nw-ev-p${ev.player}` : null] },
    h(
      "button",
      {
        type: "button",
        class: ["nw-event-btn", current ? "nw-current" : null],
        "data-key": key,
        "data-request": request,
        "aria-current": current ? "step" : null,
        tabindex: current ? "0" : "-1",
      },
      h("span", { class: "nw-ev-turn", "aria-hidden": "true" }, newTurn && ev.turn ? String(ev.turn) : ""),
      h("span", { class: "nw-ev-who", "aria-hidden": "true" }, seat ? playerShort(ev.player) : ""),
      h("span", { class: "nw-ev-text" }, ev.text),
      ...extra,
      seat ? h("span", { class: "nw-sr" }, ` (${playerName(ev.player)})`) : null,
    ),
  );
}

/** The variations from `step`, each as an indented list of its moves (an <li> holding an <ol>). */
export function variationsAt(state, step) {
  const v = linesOf(state);
  if (!v) return [];
  const current = currentLine(state);
  return (v.list || []).filter((item) => item.step === step).map((item) => {
    const shown = current === item.index;
    let lastTurn = null;
    const moves = item.events.map((ev) => {
      const newTurn = ev.turn !== lastTurn;
      lastTurn = ev.turn;
      const key = `line-${item.index}-${ev.step}`;
      const current = shown && ev.step === state.step && state.step > item.step;
      return memo(key, [ev, shown, current, newTurn], () => moveRow(ev, {
        key,
        request: shown ? { kind: "step", to: ev.step } : { kind: "line", variation: item.index, to: ev.step },
        current,
        newTurn,
      }));
    });
    const label = `${item.label}: ${item.source}`;
    return h(
      "li",
      { class: ["nw-variation", shown ? "nw-variation-shown" : null, item.real ? "nw-variation-real" : null] },
      h(
        "button",
        {
          type: "button", class: "nw-event-btn nw-variation-head", "data-key": `line-${item.index}`,
          "data-request": shown ? { kind: "step", to: item.step } : { kind: "line", variation: item.index },
          tabindex: "-1", title: label,
        },
        h("span", { class: "nw-variation-name" }, item.label),
        h("span", { class: "nw-variation-source" }, item.source),
      ),
      moves.length
        ? h("ol", { class: "nw-variation-moves", "aria-label": label }, moves)
        : h("p", { class: "nw-variation-empty" }, "No moves yet."),
    );
  });
}

/** The bar of the variation shown: where it starts and whose cards it plays, back to the game, and the
 * teacher's promote, demote, remove and rename. Null on the game. */
export function lineBar(state) {
  const v = linesOf(state);
  const current = currentLine(state);
  if (!v || current === null || state.branch_info) return null;
  const back = { kind: "line", variation: null, to: v.from_step };
  const shown = (v.list || []).find((x) => x.index === current);
  const siblings = (v.list || []).filter((x) => shown && x.step === shown.step).map((x) => x.index);
  const at = siblings.indexOf(current);
  // Promote / Demote move it among the variations from its step: closed at either end.
  const edit = (how, label, key, disabled = false) => h("button", {
    type: "button", class: "nw-btn", "data-key": key, disabled,
    "data-request": disabled ? null : { kind: "line_edit", variation: current, how },
  }, label);
  // Keyed: morph.js then drops it alone when it goes, instead of matching the move list after it by
  // position and making a new list (its scroll and focused row lost).
  return h(
    "div",
    { class: "nw-line-bar", "data-key": "line-bar", role: "group", "aria-label": "Variation shown" },
    h("p", { class: "nw-line-text" }, h("strong", {}, v.label), ` from step ${v.from_step}: ${v.source}.`),
    h(
      "div",
      { class: "nw-line-actions" },
      h("button", { type: "button", class: "nw-btn", "data-key": "line-back", "data-request": back },
        "Back to the game"),
      v.editable ? edit("promote", "Promote", "line-promote", at <= 0) : null,
      v.editable ? edit("demote", "Demote", "line-demote", at < 0 || at === siblings.length - 1) : null,
      v.editable ? edit("remove", "Delete", "line-remove") : null,
      v.editable
        ? h("input", {
          type: "text", class: "nw-line-name", "data-key": "line-name", "data-input": "line-name",
          "aria-label": "Variation name (Enter to rename)", placeholder: "Name", maxlength: "100",
          value: (v.list.find((x) => x.index === current) || {}).label || "",
        })
        : null,
    ),
  );
}

export const linesFeature = {
  name: "line",
  // The name field renames on change (Enter, or leaving the field); an empty name gives back "Variation N".
  changes: {
    "line-name"(el, { state }) {
      const current = currentLine(state);
      if (current === null) return null;
      const name = String(el.value || "").trim();
      return { kind: "line_edit", variation: current, how: "rename", name: name || null };
    },
  },
};
