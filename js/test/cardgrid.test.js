import { describe, expect, it } from "vitest";
import { FIXTURES, accessibleName, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { gridTarget, tabStop } from "../src/cardgrid.js";
import { LIVE_SPAN, liveText } from "../src/replaybar.js";
import { ACTION_KEYS } from "../src/controls.js";

const open = mountsCleanedAfterEach();

const ROWS = [["AC", "2C", "3C"], ["AD", "2D", "3D"]];
const card = (root, code, grid) => root.querySelector(`[data-key="${grid}-${code}"]`);
const focused = (root) => root.ownerDocument.activeElement.getAttribute("data-card");
const tabStops = (el) => Array.from(el.querySelectorAll('[tabindex="0"]')).map((b) => b.getAttribute("data-card"));

describe("a card grid's keys (pure)", () => {
  it("moves by the arrows, stays at an edge, and goes to a row's ends by Home and End", () => {
    expect(gridTarget(ROWS, "AC", "ArrowRight")).toBe("2C");
    expect(gridTarget(ROWS, "AC", "ArrowLeft")).toBe("AC");
    expect(gridTarget(ROWS, "2C", "ArrowDown")).toBe("2D");
    expect(gridTarget(ROWS, "2D", "ArrowDown")).toBe("2D");
    expect(gridTarget(ROWS, "2D", "ArrowUp")).toBe("2C");
    expect(gridTarget(ROWS, "2D", "Home")).toBe("AD");
    expect(gridTarget(ROWS, "AD", "End")).toBe("3D");
    expect(gridTarget(ROWS, "AD", "Enter")).toBeNull();
    expect(gridTarget(ROWS, "KS", "ArrowRight")).toBeNull();
  });

  it("leaves ↑ and ↓ alone in a grid of one row (the hand)", () => {
    expect(gridTarget([ROWS[0]], "2C", "ArrowDown")).toBeNull();
    expect(gridTarget([ROWS[0]], "2C", "ArrowUp")).toBeNull();
  });

  it("keeps the tab stop on the cursor while it is in the grid, else on the first card it may press", () => {
    expect(tabStop(ROWS, "3D")).toBe("3D");
    expect(tabStop(ROWS, "KS", (c) => c !== "AC")).toBe("2C");
    expect(tabStop(ROWS, null)).toBe("AC");
  });
});

describe("the needle picker by keys", () => {
  it("moves the focus and the tab stop across and down the grid, through the cards that may not be picked", async () => {
    const { root, model } = open(stateFrom("needle_p1"));
    const picker = root.querySelector(".nw-picker");
    const start = tabStops(picker)[0];
    card(root, start, "needle").focus();
    key(card(root, start, "needle"), "ArrowDown");
    await flush();
    const below = start.replace(/C$/, "D");
    expect(focused(root)).toBe(below);
    expect(tabStops(picker)).toEqual([below]);
    key(card(root, below, "needle"), "Home");
    await flush();
    expect(focused(root)).toBe("AD");
    expect(model.sent).toEqual([]); // the keys moved in the grid: no step was asked
    // A card of the hand is reached and says why it may not be picked.
    const hand = FIXTURES.needle_p1.table.players[0].hand;
    const inHand = hand[0];
    expect(accessibleName(card(root, inHand, "needle"))).toMatch(/, in your hand$/);
  });
});

describe("the hand by keys", () => {
  it("is a grid of one row: ←/→ move between its cards, and never step the game", async () => {
    const { root, model } = open(stateFrom("sets_p1"));
    const hand = FIXTURES.sets_p1.table.players[0].hand;
    const grid = root.querySelector('.nw-zone-bottom [role="grid"]');
    expect(grid.getAttribute("aria-label")).toMatch(/hand: 8 cards$/);
    expect(tabStops(grid)).toEqual([hand[0]]);
    card(root, hand[0], "hand").focus();
    key(card(root, hand[0], "hand"), "ArrowRight");
    await flush();
    expect(focused(root)).toBe(hand[1]);
    key(card(root, hand[1], "hand"), "End");
    await flush();
    expect(focused(root)).toBe(hand[hand.length - 1]);
    expect(tabStops(grid)).toEqual([hand[hand.length - 1]]);
    expect(model.sent).toEqual([]);
  });

  it("shows each card's number key, and 1–9 select the cards: three of a set, then L lays it", async () => {
    const { root, model } = open(stateFrom("sets_p1"));
    const hand = FIXTURES.sets_p1.table.players[0].hand;
    hand.forEach((code, i) => {
      const b = card(root, code, "hand");
      expect(b.getAttribute("aria-keyshortcuts")).toBe(String(i + 1));
      expect(b.querySelector("kbd").textContent).toBe(String(i + 1));
    });
    const set = ["8S", "9D", "10S"];
    for (const code of set) key(root, String(hand.indexOf(code) + 1));
    await flush();
    expect(set.map((c) => card(root, c, "hand").getAttribute("aria-pressed"))).toEqual(["true", "true", "true"]);
    key(root, "l");
    expect(model.sent).toEqual([{ kind: "act", action: { type: "lay_set", cards: set } }]);
  });

  it("F ends the sets; a letter whose button is disabled sends nothing", () => {
    const { root, model } = open(stateFrom("sets_p1"));
    key(root, "l"); // no cards selected: Lay set is disabled
    key(root, "d"); // no Draw nor Discard in this phase
    key(root, "f");
    expect(model.sent).toEqual([{ kind: "act", action: { type: "end_sets" } }]);
  });

  it("D discards the selected card", async () => {
    const { root, model } = open(stateFrom("discard_p1"));
    const hand = FIXTURES.discard_p1.table.players[0].hand;
    key(root, "d");
    key(root, "3");
    await flush();
    key(root, "d");
    expect(model.sent).toEqual([{ kind: "act", action: { type: "discard", card: hand[2] } }]);
  });
});

describe("the action keys", () => {
  it("D draws and S steals, as the buttons show; nothing for a screen that may not act", () => {
    const { root, model } = open(stateFrom("draw_p1"));
    for (const name of ["Draw from pile", "Steal from opponent"]) {
      const b = Array.from(root.querySelectorAll("button")).find((x) => accessibleName(x) === name);
      const letter = ACTION_KEYS[b.getAttribute("data-key")];
      expect(b.getAttribute("aria-keyshortcuts")).toBe(letter);
      expect(b.querySelector("kbd").getAttribute("aria-hidden")).toBe("true");
    }
    key(root, "d");
    key(root, "s");
    expect(model.sent.map((m) => m.action.type)).toEqual(["draw_pile", "steal"]);
    const waiting = open(stateFrom("draw_p2_waiting"));
    key(waiting.root, "d");
    expect(waiting.model.sent).toEqual([]);
  });

  it("ask once for a key held down: its repeats send nothing, a number's repeats toggle nothing", async () => {
    const { root, model } = open(stateFrom("draw_p1"));
    key(root, "d");
    for (let k = 0; k < 3; k++) {
      root.dispatchEvent(new KeyboardEvent("keydown", { key: "d", repeat: true, bubbles: true, cancelable: true }));
    }
    expect(model.sent).toEqual([{ kind: "act", action: { type: "draw_pile" } }]);
    const discard = open(stateFrom("discard_p1"));
    const hand = FIXTURES.discard_p1.table.players[0].hand;
    key(discard.root, "3");
    discard.root.dispatchEvent(new KeyboardEvent("keydown", { key: "3", repeat: true, bubbles: true, cancelable: true }));
    await flush();
    key(discard.root, "d");
    expect(discard.model.sent).toEqual([{ kind: "act", action: { type: "discard", card: hand[2] } }]);
  });

  it("leave a letter typed in a text field alone", () => {
    const { root, model } = open(stateFrom("draw_p1"));
    const input = root.ownerDocument.createElement("input");
    root.appendChild(input);
    key(input, "d");
    expect(model.sent).toEqual([]);
  });
});

describe("the live line", () => {
  const state = stateFrom("sets_p1");
  it("names every event since the step shown before, when the view moved on by a few steps", () => {
    const texts = state.events.filter((e) => e.step > state.step - 2 && e.step <= state.step).map((e) => e.text);
    expect(liveText(state, state.step - 2)).toBe(`Step ${state.step} of ${state.steps}: ${texts.join(" ")}`);
  });

  it("names only the step's own event after a jump, or a step back", () => {
    const own = state.events.find((e) => e.step === state.step).text;
    expect(liveText(state, state.step - LIVE_SPAN - 1)).toBe(`Step ${state.step} of ${state.steps}: ${own}`);
    expect(liveText(state, state.step + 1)).toBe(`Step ${state.step} of ${state.steps}: ${own}`);
    expect(liveText(state)).toBe(`Step ${state.step} of ${state.steps}: ${own}`);
  });

  it("in a mounted widget, names the opponent's moves that came in one update", async () => {
    const before = stateFrom("draw_p1");
    const { root, model } = open(before);
    const after = stateFrom("sets_p1");
    model.update({ step: after.step, steps: after.steps, events: after.events, table: after.table });
    await flush();
    const live = root.querySelector(".nw-live").textContent;
    const texts = after.events.filter((e) => e.step > before.step && e.step <= after.step).map((e) => e.text);
    expect(texts.length).toBeGreaterThan(0);
    expect(live).toBe(`Step ${after.step} of ${after.steps}: ${texts.join(" ")}`);
  });
});
