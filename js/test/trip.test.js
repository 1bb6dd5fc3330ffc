// What a class tripped on (issue 13, item 7): the heat map's scale in both themes, why the own cards
// lead "Most likely", one set of column widths for every perspective, the end of a round, "New deal" and "Same deal again".

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { heatShade, likeliest } from "../src/info.js";
import { FIXTURES, MODES, button, buttons, click, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const open = mountsCleanedAfterEach();
const CSS = readFileSync(resolve(__dirname, "../src/style.css"), "utf8");

/** A 4x13 grid, every card `p`, with `cells` ({"AC": 0.5}) set. */
function grid(p, cells = {}) {
  const ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  return ["C", "D", "H", "S"].map((s) => ranks.map((r) => cells[`${r}${s}`] ?? p));
}

describe("the heat map's scale reads the same in every theme", () => {
  it("blends from the panel's own background to one strong colour, never from a theme's grey", () => {
    const rule = /\.nw-heat-cell,\s*\.nw-heat-swatch\s*\{([^}]*)\}/.exec(CSS)[1];
    expect(rule).toMatch(/color-mix\(in oklch, var\(--nw-heat-strong\) calc\(var\(--nw-p, 0\) \* 100%\), var\(--nw-bg\)\)/);
    // the strong end leans toward the text colour: darker than a light background, lighter than a dark one
    expect(CSS).toMatch(/--nw-heat-strong: color-mix\(in oklch, var\(--nw-heat\) \d+%, var\(--nw-fg\)\);/);
  });

  it("shades likelier cards stronger, and any possible card visibly more than an impossible one", () => {
    expect(heatShade(0, 0.5)).toBe(0);
    expect(heatShade(0.001, 0.5)).toBeGreaterThan(0.1);
    const ps = [0.001, 0.01, 0.0188, 0.0222, 0.1, 0.5, 1];
    for (let i = 1; i < ps.length; i += 1) expect(heatShade(ps[i], 1)).toBeGreaterThan(heatShade(ps[i - 1], 1));
    expect(heatShade(1, 1)).toBeCloseTo(1);
  });

  it("shows a ramp from 0% to the likeliest figure instead of words that depend on the theme", () => {
    const { root } = open("draw_p1");
    const info = root.querySelector(".nw-info");
    expect(info.textContent).not.toMatch(/darker|lighter/i);
    const legend = info.querySelector(".nw-heat-legend");
    const scale = legend.querySelector(".nw-heat-scale");
    expect(scale.getAttribute("aria-hidden")).toBe("true");
    expect(scale.textContent).toBe("0%2.2%");
    const swatches = [...scale.querySelectorAll(".nw-heat-swatch")];
    expect(swatches).toHaveLength(5);
    expect(swatches[0].classList.contains("nw-heat-zero")).toBe(true);
    const shades = swatches.map((s) => Number(s.style.getPropertyValue("--nw-p")));
    for (let i = 1; i < shades.length; i += 1) expect(shades[i]).toBeGreaterThan(shades[i - 1]);
    // the ramp ends at the likeliest cell's own shade
    const cell = info.querySelector("td.nw-heat-top");
    expect(Number(cell.style.getPropertyValue("--nw-p"))).toBe(shades[4]);
    expect(legend.querySelector(".nw-sr").textContent).toContain("the stronger the colour, the likelier");
  });

  it("marks the likeliest cards with a dot (not colour alone), named for screen readers", () => {
    const { root } = open("draw_p1");
    const on = FIXTURES.draw_p1.info.opponent_needle;
    const max = Math.max(...on.grid.flat());
    const expected = on.grid.flat().filter((p) => p === max).length;
    const marked = root.querySelectorAll(".nw-info td.nw-heat-top");
    expect(marked).toHaveLength(expected);
    expect(marked[0].textContent).toBe("2.2%, likeliest");
    expect(marked[0].title).toBe("A♣: 2.2%, likeliest");
    expect(root.querySelector(".nw-heat-key").textContent).toBe(` the likeliest cards (${expected})`);
    expect(CSS).toMatch(/\.nw-heat-top::after\s*\{[^}]*border-radius: 50%/);
  });

  it("marks nothing when every possible card is as likely, and shows no scale once the needle is revealed", () => {
    expect(likeliest(grid(1 / 52), null)).toEqual([]);
    expect(likeliest(grid(0, { "7H": 0.5, "2C": 0.5 }), null)).toEqual([]);
    expect(likeliest(grid(0.01, { "7H": 0.3, "2C": 0.3 }), null)).toEqual(["2C", "7H"]);
    expect(likeliest(grid(0, { "7H": 1 }), "7H")).toEqual([]);
    const state = stateFrom("draw_p1");
    state.info.opponent_needle = { ...state.info.opponent_needle, grid: grid(0, { "9D": 1 }), revealed: "9D" };
    const { root } = open(state);
    expect(root.querySelector(".nw-heat-legend")).toBeNull();
    expect(root.querySelector("td.nw-heat-revealed")).not.toBeNull();
  });
});

describe("why the viewer's own cards lead 'Most likely'", () => {
  const WHY = "Your own cards lead: a card in your hand cannot have been in their hand when they picked, so each is a little likelier.";

  it("says why when every card listed is in the viewer's hand", () => {
    const { root } = open("draw_p1");
    const fact = [...root.querySelectorAll(".nw-info .nw-fact")].find((f) => f.querySelector("dt").textContent === "Most likely");
    expect(fact.querySelector("dd.nw-fact-note").textContent).toBe(WHY);
  });

  it("says nothing when a card listed is not in the viewer's hand", () => {
    const state = stateFrom("draw_p1");
    state.info.opponent_needle.top = [["AC", 0.0222], ["KD", 0.0222], ["3S", 0.0222]];
    const { root } = open(state);
    expect(root.querySelector(".nw-fact-note")).toBeNull();
  });

  it("names the players in the teacher's view", () => {
    const { root } = open("draw_teacher");
    const notes = [...root.querySelectorAll(".nw-fact-note")].map((n) => n.textContent);
    expect(notes[0]).toBe("Player 1's own cards lead: a card in Player 1's hand cannot have been in Player 2's hand " +
      "when Player 2 picked, so each is a little likelier.");
  });
});

describe("the board keeps its width for every perspective", () => {
  it("gives the teacher the same columns as everyone else", () => {
    expect(CSS).not.toMatch(/\.nw-main-teacher\s*\{[^}]*grid-template-columns/);
  });

  it("puts the teacher's view and the two players' knowledge in rows under both columns, not in the side column", () => {
    const { root } = open("draw_teacher");
    const row = root.querySelector(".nw-knowledge-row");
    expect(row.parentElement.classList.contains("nw-main")).toBe(true);
    expect(row.getAttribute("aria-label")).toBe("What each player knows");
    expect(row.querySelectorAll(".nw-knows table.nw-heat")).toHaveLength(2);
    expect(root.querySelector(".nw-side .nw-knows")).toBeNull();
    expect(root.querySelector(".nw-side .nw-info")).toBeNull();
    const teacher = root.querySelector(".nw-main > .nw-info-row.nw-info-teacher");
    expect(teacher.textContent).toContain("Next cards of the draw pile");
    expect(teacher.nextElementSibling).toBe(row);
    expect(root.querySelector(".nw-left .nw-board")).not.toBeNull();
    expect(CSS).toMatch(/\.nw-knowledge-row\s*\{[^}]*grid-column: 1 \/ -1;/);
  });

  it("has no such row for a player or a spectator", () => {
    for (const name of ["draw_p1", "discard_spectator"]) {
      expect(open(name).root.querySelector(".nw-knowledge-row")).toBeNull();
    }
  });
});

describe("the end of a round", () => {
  it("says 'Round over' in the header once the round is over, the mode before", () => {
    for (const mode of MODES) {
      expect(open("over_0", { mode }).root.querySelector(".nw-mode").textContent).toBe("Round over");
    }
    expect(open("draw_p1").root.querySelector(".nw-mode").textContent).toBe("Playing");
    expect(open("draw_p1", { mode: "replay" }).root.querySelector(".nw-mode").textContent).toBe("Replay");
  });

  it("shows the player both needles instead of live odds", () => {
    for (const name of ["over_0", "over_1"]) {
      const { root } = open(name);
      const info = root.querySelector(".nw-info");
      const t = FIXTURES[name].table;
      const me = FIXTURES[name].info.player;
      expect(info.textContent).toContain("The round is over");
      for (const p of [0, 1]) {
        expect(info.querySelector(`[data-card="${t.players[p].needle}"]`)).not.toBeNull();
      }
      expect(info.textContent).toContain(`Player ${me + 1}'s needle (yours) was`);
      const other = 1 - me;
      expect(info.textContent).toContain(`Player ${other + 1}'s needle was ${other === 1 ? "2♦" : "A♠"}.`);
      expect(info.textContent).not.toContain("Next draw finds it");
      expect(info.textContent).not.toContain("In the pile");
      expect(info.querySelector(".nw-heat")).toBeNull();
    }
  });

  it("shows the spectator and the teacher the needles too, and the teacher no live beliefs", () => {
    const spectator = open("over_spectator").root.querySelector(".nw-info");
    expect(spectator.textContent).toContain("Player 1's needle was A♠.");
    expect(spectator.textContent).toContain("Player 2's needle was 2♦.");
    const { root } = open("over_teacher");
    const info = root.querySelector(".nw-info");
    expect(info.textContent).toContain("The round is over");
    expect(info.textContent).not.toContain("gives it");
    expect(root.querySelector(".nw-knowledge-row")).toBeNull();
  });

  it("keeps the odds while the round is live", () => {
    const info = open("discard_p1").root.querySelector(".nw-info");
    expect(info.textContent).toContain("Next draw finds it");
    expect(info.textContent).not.toContain("The round is over");
  });
});

describe("New game: a new deal, or the same deal again", () => {
  const OFFER = { new_game: { reason: null, deals: ["new", "same"] } };
  const DESCRIPTIONS = {
    "New deal": "Deal new cards",
    "Same deal again": "Play the same cards again: same hands, same pile",
  };
  const describedBy = (root, b) => (b.getAttribute("aria-describedby") || "").split(" ").filter(Boolean)
    .map((id) => root.querySelector(`#${id}`).textContent);

  it("offers both in the end banner when Python offers them, each with its words and what it does", () => {
    const { root } = open("over_0", { offers: OFFER });
    const banner = root.querySelector(".nw-banner");
    const both = [button(root, "New deal"), button(root, "Same deal again")];
    expect(both.map((b) => b.getAttribute("data-key"))).toEqual(["new-game-new", "new-game-same"]);
    for (const b of both) {
      expect(b.type).toBe("button");
      expect(b.disabled).toBe(false);
      expect(banner.contains(b)).toBe(true);
      const text = DESCRIPTIONS[b.textContent];
      expect(describedBy(root, b)).toEqual([text]);
      expect(b.title).toBe(text);
    }
    // New deal leads; the same deal is the second choice.
    expect(both[0].classList.contains("nw-btn-primary")).toBe(true);
    expect(both[1].classList.contains("nw-btn-primary")).toBe(false);
    expect(buttons(root, "New game")).toHaveLength(0);
  });

  it("sends new_game with the deal chosen", () => {
    const { root, model } = open("over_0", { offers: OFFER });
    click(button(root, "New deal"));
    click(button(root, "Same deal again"));
    expect(model.sent).toEqual([{ kind: "new_game", deal: "new" }, { kind: "new_game", deal: "same" }]);
    expect(model.requests.every((r) => Number.isInteger(r.id))).toBe(true);
  });

  it("shows only the deals Python offers (a new deal when it names none)", () => {
    const only = (offer) => {
      const { root } = open("over_0", { offers: { new_game: offer } });
      return ["New deal", "Same deal again"].filter((name) => buttons(root, name).length);
    };
    expect(only({ reason: null, deals: ["same"] })).toEqual(["Same deal again"]);
    expect(only({ reason: null })).toEqual(["New deal"]);
    expect(only({ reason: null, deals: [] })).toEqual([]);
  });

  it("is absent without Python's offer, or while the round is live", () => {
    for (const name of ["New deal", "Same deal again"]) {
      expect(buttons(open("over_0").root, name)).toHaveLength(0);
      expect(buttons(open("over_0", { offers: { branch: { reason: null } } }).root, name)).toHaveLength(0);
      expect(buttons(open("over_0", { offers: { new_game: null } }).root, name)).toHaveLength(0);
      expect(buttons(open("draw_p1", { offers: OFFER }).root, name)).toHaveLength(0);
    }
  });

  it("disables both with Python's reason as their description when Python gives one", () => {
    const reason = "Only the teacher's screen starts a new game";
    const { root, model } = open("over_0", { offers: { new_game: { reason, deals: ["new", "same"] } } });
    for (const name of ["New deal", "Same deal again"]) {
      const b = button(root, name);
      expect(b.disabled).toBe(true);
      expect(b.title).toBe(reason);
      expect(describedBy(root, b)).toEqual([reason, DESCRIPTIONS[name]]);
      click(b);
    }
    expect(root.querySelectorAll(".nw-banner-why")).toHaveLength(1); // the reason said once, for both
    expect(model.sent).toEqual([]);
  });

  it("keeps the result a live status of its own, the buttons out of it", () => {
    const { root } = open("over_0", { offers: OFFER });
    const status = root.querySelector('.nw-banner [role="status"]');
    expect(status.textContent).toContain(FIXTURES.over_0.table.result.text);
    expect(status.querySelector("button")).toBeNull();
    expect(status.textContent).not.toContain("Deal new cards");
  });
});
