// Marks for the turn (issue 20): a card that entered the hand this turn carries a "new" tag and is
// "just drawn" to screen readers; while a needle is not picked yet, the odds panel says so in words.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { NEW_CARD_NOTE, NEW_CARD_TAG, isNewCard } from "../src/table.js";
import { FIXTURES, click, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const open = mountsCleanedAfterEach();
const CSS = readFileSync(resolve(__dirname, "../src/style.css"), "utf8");
const own = (root) => root.querySelector(".nw-zone-bottom .nw-hand");
const card = (root, code) => own(root).querySelector(`[data-card="${code}"]`);

describe("a card that entered the hand this turn", () => {
  it("is marked with a visible tag and 'just drawn' in its name; no other card is", () => {
    for (const name of ["sets_p1", "discard_p1", "sets_with_set_p1"]) {
      const { root } = open(name);
      const pl = FIXTURES[name].table.players[0];
      expect(pl.new_cards).toHaveLength(1);
      const [fresh] = pl.new_cards;
      const el = card(root, fresh);
      expect(el.tagName).toBe("BUTTON"); // still a card to select
      expect(el.classList.contains("nw-new-card")).toBe(true);
      expect(el.getAttribute("aria-label")).toMatch(new RegExp(`, ${NEW_CARD_NOTE}$`));
      const tag = el.querySelector(".nw-card-tag");
      expect(tag.textContent).toBe(NEW_CARD_TAG);
      expect(tag.getAttribute("aria-hidden")).toBe("true");
      expect(root.querySelectorAll(".nw-card-tag")).toHaveLength(1);
      for (const code of pl.hand.filter((c) => c !== fresh)) {
        expect(card(root, code).getAttribute("aria-label")).not.toContain(NEW_CARD_NOTE);
      }
    }
    expect(NEW_CARD_TAG).toBe("new");
    expect(NEW_CARD_NOTE).toBe("just drawn");
  });

  it("keeps its mark while selected, and on a hand that is not a button row", () => {
    const { root } = open("discard_p1");
    click(card(root, "9D"));
    expect(card(root, "9D").getAttribute("aria-pressed")).toBe("true");
    expect(card(root, "9D").querySelector(".nw-card-tag")).not.toBeNull();
    const state = stateFrom("discard_p1", { can_act: false });
    const shown = card(open(state).root, "9D");
    expect(shown.tagName).toBe("SPAN");
    expect(shown.getAttribute("aria-label")).toBe("9 of diamonds, just drawn");
    expect(shown.querySelector(".nw-card-tag").textContent).toBe("new");
  });

  it("marks nothing before the draw, for a spectator, or in a hidden hand", () => {
    for (const name of ["draw_p1", "discard_spectator", "over_0", "needle_p1"]) {
      expect(open(name).root.querySelectorAll(".nw-card-tag, .nw-new-card")).toHaveLength(0);
    }
    expect(isNewCard({ new_cards: ["9d"] }, "9D")).toBe(true);
    expect(isNewCard({ new_cards: [] }, "9D")).toBe(false);
    expect(isNewCard({}, "9D")).toBe(false);
  });

  it("draws the tag in fixed colours on the light card face: the same in light, dark and greyscale", () => {
    const rule = /\.nw-card-tag\s*\{([^}]*)\}/.exec(CSS)[1];
    expect(rule).toMatch(/background: #1c1c1c;/);
    expect(rule).toMatch(/color: #fdfdf8;/);
    expect(rule).not.toMatch(/var\(--/); // no theme colour: the card face is light in every theme
    expect(rule).toMatch(/position: absolute;/);
  });
});

describe("the odds while a needle is not picked yet", () => {
  const WAITING = /^Player [12] has not picked a needle yet: the odds of where it is appear once it has\.$/;

  it("shows a player Python's words in the heat map's place, and its own needle's line", () => {
    const { root } = open("needle_p1");
    const info = root.querySelector(".nw-info");
    const words = FIXTURES.needle_p1.info.opponent_needle.waiting;
    expect(words).toMatch(WAITING);
    const note = info.querySelector(".nw-odds-waiting");
    expect(note.textContent).toBe(words);
    expect(note.tagName).toBe("P");
    expect(note.classList.contains("nw-note")).toBe(false); // the panel's news, not small print
    expect(info.querySelector(".nw-heat")).toBeNull();
    expect(info.textContent).not.toMatch(/Most likely|Cards still possible|%/);
    expect(info.querySelector(".nw-facts").textContent).toBe("Your needlenot picked yet");
    // laid out across the width, the words first (where the heat map goes)
    expect(info.classList.contains("nw-info-row")).toBe(true);
    expect(info.querySelector(".nw-knowledge").firstElementChild).toBe(note);
  });

  it("shows the teacher each player's wait in that player's compact panel", () => {
    const both = open("needle_teacher").root.querySelector('[data-key="teacher-knowledge"]');
    const panels = both.querySelectorAll(".nw-knows");
    expect(panels).toHaveLength(2);
    FIXTURES.needle_teacher.info.players.forEach((pi, i) => {
      expect(panels[i].querySelector(".nw-odds-waiting").textContent).toBe(pi.opponent_needle.waiting);
      expect(panels[i].querySelector(".nw-facts").textContent).toBe("Own needlenot picked yet");
    });
    expect(both.querySelector(".nw-heat")).toBeNull();

    // Player 1 has picked: Player 2's odds of it are figures, Player 1's of Player 2's still words.
    const one = open("needle_teacher_one_picked").root.querySelector('[data-key="teacher-knowledge"]');
    const [p1, p2] = one.querySelectorAll(".nw-knows");
    expect(p1.querySelector(".nw-odds-waiting").textContent).toMatch(/^Player 2 has not picked/);
    expect(p1.querySelector(".nw-heat")).toBeNull();
    expect(p1.textContent).toContain("Own needle");
    expect(p2.querySelector(".nw-odds-waiting")).toBeNull();
    expect(p2.querySelector(".nw-heat")).not.toBeNull();
  });

  it("frames the words like an empty slot in the panel's own text colour, as wide as the heat map in a row", () => {
    const rule = /\n\.nw-odds-waiting\s*\{([^}]*)\}/.exec(CSS)[1];
    expect(rule).toMatch(/border: 1px dashed var\(--nw-fg2\);/);
    expect(rule).toMatch(/color: var\(--nw-fg\);/);
    expect(rule).toMatch(/margin: 0;/);
    expect(CSS).toMatch(/\.nw-knowledge-row \.nw-odds-waiting,\s*\.nw-info-row \.nw-odds-waiting\s*\{\s*flex: 0 1 19em;/);
  });
});
