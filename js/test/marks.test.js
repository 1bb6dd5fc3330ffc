// Marks for the turn (issue 20): a card that entered the hand this turn carries a "new" tag and is
// "just drawn" to screen readers.

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
