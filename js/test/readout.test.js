import { describe, expect, it } from "vitest";
import { FIXTURES, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { cardName } from "../src/cards.js";
import { tableWords } from "../src/readout.js";

const open = mountsCleanedAfterEach();

const readout = (root) => root.querySelector('[data-key="readout"]');

describe("R reads the table aloud", () => {
  it("speaks the viewer's hand, the opponent's count, the piles, the turn and what the viewer may do", () => {
    const state = stateFrom("draw_p1");
    const t = state.table;
    const words = tableWords(state);
    expect(words.startsWith("You: ")).toBe(true);
    expect(words).toContain(`your hand: ${t.players[0].hand.length ? "" : "none"}`);
    expect(words).toContain("needle: 7 of hearts");
    expect(words).toContain(`${t.players[1].hand_size} cards in hand`);
    expect(words).toContain("needle hidden");
    expect(words).toContain(`Draw pile: ${t.pile_size} cards.`);
    expect(words).toContain("your move");
    expect(words).toContain(`You may: ${t.legal_actions.map((a) => a.label).join("; ")}.`);
  });

  it("names no card the screen does not show (every card it names is in the synced state)", () => {
    const codes = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"].flatMap((r) => ["C", "D", "H", "S"]
      .map((s) => r + s));
    const byName = new Map(codes.map((c) => [cardName(c), c]));
    const pattern = new RegExp([...byName.keys()].sort((a, b) => b.length - a.length).join("|"), "g");
    let total = 0;
    for (const name of Object.keys(FIXTURES)) {
      const state = stateFrom(name);
      const t = state.table;
      const shown = new Set([
        ...t.players.flatMap((x) => [...(x.hand || []), ...(x.needle ? [x.needle] : []), ...(x.sets || []).flatMap((s) => s.cards)]),
        ...(t.discard_pile || []), ...(t.known_opponent_cards || []),
      ]);
      const words = tableWords(state).replace(/You may: .*$/, "");  // the choices: Python's labels of legal moves
      const named = [...words.matchAll(pattern)].map((m) => byName.get(m[0]));
      expect(named.filter((c) => !shown.has(c)), name).toEqual([]);
      expect(words).not.toContain("undefined");
      total += named.length;
    }
    expect(total).toBeGreaterThan(50); // the words do name cards: the check above is not empty
  });

  it("is said for the seat the screen shows: a waiting player hears whose move it is, and no choices", () => {
    const words = tableWords(stateFrom("draw_p2_waiting"));
    expect(words.startsWith("You: ")).toBe(true);
    expect(words).toContain("Player 1 to move");
    expect(words).not.toContain("You may");
  });

  it("speaks on R in a live region, again on a second R, and falls silent once the step changes", async () => {
    const { root, model } = open(stateFrom("over_0", { mode: "replay", step: 12 }));
    expect(readout(root).textContent).toBe("");
    const pressed = key(root, "r");
    expect(pressed.defaultPrevented).toBe(true);
    expect(readout(root).getAttribute("aria-live")).toBe("polite");
    expect(readout(root).textContent).toBe(tableWords(stateFrom("over_0", { mode: "replay", step: 12 })));
    key(root, "R");
    expect(readout(root).getAttribute("data-count")).toBe("2");
    model.update({ step: 13, table: FIXTURES.over_0.table });
    await flush();
    expect(readout(root).textContent).toBe("");
    expect(model.sent).toEqual([]);
  });

  it("leaves R to a text field", () => {
    const { root } = open(stateFrom("discard_p1"));
    const field = document.createElement("textarea");
    root.appendChild(field);
    const typed = key(field, "r");
    expect(typed.defaultPrevented).toBe(false);
    expect(readout(root).textContent).toBe("");
  });
});
