// "What if": the analysis toolbar (Possible worlds / Graph / Play from here…), the branch form
// and the banner shown while a branch is played. Pure (state, ui) -> DOM; index.js dispatches.
// The branch feature: its UI slice `ui.branch` is the "Play from here" form's draft.

import { h } from "./dom.js";
import { playerName } from "./names.js";
import { DRILL_MODES } from "./shared.js";

export const WORLD_LABELS = { real: "the real cards", sampled: "a possible world" };

/** A seat as an <option> value gives it back: "0" / "1" are the players, "spectator" stays a word. */
export const seatValue = (v) => (v === "0" || v === "1" ? Number(v) : v);

/** What a panel's select (worlds-seat, graph-model...) asks Python at once: the panel as shown, with
 * that one field changed. */
export function panelRequest(state, panel, field, value) {
  const shown = state[panel] || {};
  const request = { kind: panel, open: true, seat: shown.seat ?? null, model: shown.model ?? null };
  request[field] = field === "seat" ? seatValue(value) : value;
  return request;
}

/** The offer of `kind` ("branch" | "worlds" | "graph" | "review"), or null when Python offers nothing. */
export function offer(state, kind) {
  const o = state.offers && state.offers[kind];
  return o && typeof o === "object" ? o : null;
}

/** Python's public reason why `kind` is closed now, or null. */
export function offerReason(state, kind) {
  const o = offer(state, kind);
  return o && typeof o.reason === "string" && o.reason ? o.reason : null;
}

/** One tool: its toggle, and the line saying why it is closed (null when open). The lines go under the
 * row of toggles, so a long reason never pushes the next toggle away from the others. */
function toggle({ key, label, name, pressed, request, ui, reason, reasonId, controls }) {
  const disabled = Boolean(reason) && !pressed;
  const button = h(
    "button",
    {
      type: "button",
      class: ["nw-btn", "nw-toggle", pressed ? "nw-toggle-on" : null],
      "data-key": key,
      "aria-pressed": String(Boolean(pressed)),
      "aria-controls": pressed ? controls : null,
      "aria-describedby": reason ? reasonId : null,
      "data-request": disabled ? null : request,
      "data-ui": disabled ? null : ui,
      disabled,
      title: reason || null,
    },
    label,
  );
  const why = reason
    ? h("li", { class: "nw-tool-reason" },
        h("span", { class: "nw-tool-reason-for", "aria-hidden": "true" }, `${name}: `),
        h("span", { id: reasonId }, reason))
    : null;
  return { button, why };
}

/** The toolbar of the analysis area, or null when Python offers none of it: the toggles side by side
 * at its start, then why any of them is closed. */
export function renderToolbar(state, ui) {
  // A drill (a quiz, practice) reveals the figures itself, after each answer: only the review, once a
  // quiz is done (practice offers none).
  const drill = DRILL_MODES.includes(state.mode);
  const uid = ui.uid || "nw";
  const tools = [];
  if (!drill && offer(state, "worlds")) {
    const open = Boolean(state.worlds);
    tools.push(toggle({
      key: "tool-worlds", label: "Possible worlds", name: "Possible worlds", pressed: open, controls: `${uid}-worlds`,
      request: { kind: "worlds", open: !open, seat: null, model: null },
      reason: offerReason(state, "worlds"), reasonId: `${uid}-worlds-why`,
    }));
  }
  if (!drill && offer(state, "graph")) {
    const open = Boolean(state.graph);
    tools.push(toggle({
      key: "tool-graph", label: "Graph", name: "Graph", pressed: open, controls: `${uid}-graph`,
      request: { kind: "graph", open: !open, seat: null, model: null },
      reason: offerReason(state, "graph"), reasonId: `${uid}-graph-why`,
    }));
  }
  if (!drill && offer(state, "branch")) {
    const reason = offerReason(state, "branch");
    tools.push(toggle({
      key: "tool-branch", label: "Play from here…", name: "Play from here",
      pressed: Boolean(ui.branch && ui.branch.open) && !reason,
      controls: `${uid}-branch-form`, ui: { ui: "branch-form" }, reason, reasonId: `${uid}-branch-why`,
    }));
  }
  if (offer(state, "review")) {
    const open = Boolean(state.review);
    tools.push(toggle({
      key: "tool-review", label: "Review", name: "Review", pressed: open, controls: `${uid}-review`,
      request: { kind: "review", open: !open }, reason: offerReason(state, "review"), reasonId: `${uid}-review-why`,
    }));
  }
  if (!tools.length) return null;
  const reasons = tools.map((t) => t.why).filter(Boolean);
  return h(
    "div",
    { class: "nw-toolbar", role: "group", "aria-label": "What if" },
    h("div", { class: "nw-tool-buttons" }, tools.map((t) => t.button)),
    reasons.length ? h("ul", { class: "nw-tool-reasons" }, reasons) : null,
  );
}

/** The form's choices: the UI's where still offered, else the defaults. */
export function branchChoice(state, ui) {
  const o = offer(state, "branch") || {};
  const seats = o.seats || [];
  const opponents = (o.opponents || []).map((x) => x.id);
  const worlds = o.worlds || [];
  const b = (ui && ui.branch) || {};
  const pick = (value, allowed, fallback) => (allowed.includes(value) ? value : fallback);
  const own = seats.includes(state.perspective) ? state.perspective : seats[0];
  return {
    seat: pick(b.seat, seats, own ?? null),
    opponent: pick(b.opponent, opponents, opponents[0] ?? null),
    world: pick(b.world, worlds, worlds.includes("real") ? "real" : worlds[0] ?? null),
  };
}

function field(label, control) {
  return h("label", { class: "nw-field" }, h("span", { class: "nw-field-label" }, label), control);
}

/** The "Play from here" form, or null while closed (or not offered now). */
export function renderBranchForm(state, ui) {
  const o = offer(state, "branch");
  if (!o || !ui.branch || !ui.branch.open || offerReason(state, "branch")) return null;
  const uid = ui.uid || "nw";
  const choice = branchChoice(state, ui);
  const complete = choice.seat !== null && choice.opponent !== null && choice.world !== null;
  const seatSelect = h(
    "select",
    { class: "nw-select", "data-key": "branch-seat", "data-input": "branch-seat", value: String(choice.seat) },
    (o.seats || []).map((p) => h("option", { value: String(p), selected: p === choice.seat }, playerName(p))),
  );
  const opponentSelect = h(
    "select",
    { class: "nw-select", "data-key": "branch-opponent", "data-input": "branch-opponent", value: String(choice.opponent) },
    (o.opponents || []).map((x) => h("option", { value: x.id, selected: x.id === choice.opponent }, x.label)),
  );
  const worlds = h(
    "fieldset",
    { class: "nw-field nw-radios" },
    h("legend", { class: "nw-field-label" }, "Cards"),
    h("div", { class: "nw-radio-row" },
      (o.worlds || []).map((w) =>
        h("label", { class: "nw-radio" },
          h("input", {
            type: "radio", name: `${uid}-branch-world`, value: w, "data-key": `branch-world-${w}`,
            "data-input": "branch-world", checked: w === choice.world,
          }),
          WORLD_LABELS[w] || w))),
  );
  const who = choice.seat === null ? "" : playerName(choice.seat);
  const hint = choice.world === "sampled"
    ? `The cards ${who} cannot see are dealt anew, as they might have been.`
    : "The game goes on with the cards as they really are.";
  return h(
    "div",
    { class: "nw-branch-form", id: `${uid}-branch-form`, role: "group", "aria-label": "Play from here" },
    h("p", { class: "nw-branch-lead" }, `Play on from step ${state.step} in a new game. ${hint}`),
    h("div", { class: "nw-fields" },
      field("Play as", seatSelect), field("Against", opponentSelect), worlds),
    h(
      "div",
      { class: "nw-actions" },
      h("button", {
        type: "button", class: "nw-btn nw-btn-primary", "data-key": "branch-play", disabled: !complete,
        "data-request": complete ? { kind: "branch", ...choice } : null,
      }, `Play from step ${state.step}`),
      h("button", { type: "button", class: "nw-btn", "data-key": "branch-cancel", "data-ui": { ui: "branch-form" } },
        "Cancel"),
    ),
  );
}

/** "Branch from step 34 …" with the way back, or null outside a branch. */
export function renderBranchBanner(state) {
  const b = state.branch_info;
  if (!b) return null;
  const against = b.opponent === "hotseat"
    ? "Two people play at this screen."
    : `${playerName(b.seat)} plays against ${b.opponent}.`;
  return h(
    "div",
    { class: "nw-branch-banner", "data-key": "branch-banner", role: "group", "aria-label": "Branch" },
    h("p", { class: "nw-branch-text" }, h("strong", null, b.text), " ", h("span", { class: "nw-branch-who" }, against)),
    h("button", {
      type: "button", class: "nw-btn", "data-key": "branch-back", "data-request": { kind: "back" },
    }, b.back || "Back to the replay"),
  );
}

const BRANCH_FIELDS = ["seat", "opponent", "world"];

/** The closed form; `from` is the branch shown when it was made (Python's branch_info, as JSON). */
function closedBranch(from = null) {
  return { open: false, seat: null, opponent: null, world: null, from };
}

export const branchFeature = {
  name: "branch",
  initial: () => closedBranch(),
  reduce(slice, action) {
    switch (action.ui) {
      case "branch-form":
        return slice.open ? closedBranch(slice.from) : { ...closedBranch(slice.from), open: true };
      case "branch-set":
        return BRANCH_FIELDS.includes(action.field) ? { ...slice, [action.field]: action.value } : slice;
      default:
        return slice;
    }
  },
  /** The form closes once a branch opens or closes (Python answered "Play", or "Back"). */
  sync(slice, state) {
    const from = state.branch_info ? JSON.stringify(state.branch_info) : null;
    return from === slice.from ? slice : closedBranch(from);
  },
  // The form's selects stay local until "Play".
  changes: Object.fromEntries(BRANCH_FIELDS.map((field) => [
    `branch-${field}`, (el) => ({ ui: "branch-set", field, value: field === "seat" ? seatValue(el.value) : el.value }),
  ])),
  focus: ["tool-branch", "branch-back"],
  views: {
    tabletop: renderBranchBanner,
    analysis: (state, ui) => [renderToolbar(state, ui), renderBranchForm(state, ui)],
  },
};
