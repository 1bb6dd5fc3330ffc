import { describe, expect, it } from "vitest";
import { button, click, flush, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { percent } from "../src/dom.js";
import {
  OFFERS_PLAYER, OFFERS_SPECTATOR, OFFERS_TEACHER, WORLDS_COMPUTING, WORLDS_GREEDY, WORLDS_PLAYOUT,
  WORLDS_PLAYOUT_COMPUTING, WORLDS_READY,
} from "./whatif_fixtures.js";

const open = mountsCleanedAfterEach();

const replay = (worlds, overrides = {}) =>
  stateFrom("over_teacher", { mode: "replay", step: 12, offers: OFFERS_TEACHER, worlds, graph: null, ...overrides });

const byKey = (root, key) => root.querySelector(`[data-key="${key}"]`);
const panel = (root) => root.querySelector(".nw-analysis section.nw-worlds");

function change(el, value) {
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("the possible-worlds panel", () => {
  it("is absent while closed", () => {
    const { root } = open(replay(null));
    expect(panel(root)).toBeNull();
  });

  it("names whose worlds at which step, with the toggle pressed", () => {
    const { root } = open(replay(WORLDS_READY));
    expect(panel(root).getAttribute("aria-label")).toBe("Possible worlds");
    expect(panel(root).querySelector("h3").textContent).toBe("Possible worlds for Player 1 at step 12");
    expect(button(root, "Possible worlds").getAttribute("aria-pressed")).toBe("true");
    expect(panel(root).getAttribute("aria-busy")).toBe("false");
    expect(panel(root).textContent).toContain(WORLDS_READY.note);
  });

  it("lists the worlds as a table, the real row first and marked", () => {
    const { root } = open(replay(WORLDS_READY));
    const table = panel(root).querySelector("table.nw-worlds-table");
    const heads = Array.from(table.querySelectorAll("thead th")).map((th) => th.textContent);
    expect(heads).toEqual(["World", "Player 2's hand", "Player 2's needle", "Next cards of the pile (23 in all)"]);
    const rows = Array.from(table.querySelectorAll("tbody tr"));
    expect(rows).toHaveLength(3);
    expect(rows[0].classList.contains("nw-world-real")).toBe(true);
    expect(rows[0].querySelector("th .nw-real-badge").textContent).toBe("Real");
    expect(rows[1].classList.contains("nw-world-real")).toBe(false);
    expect(rows[1].querySelector("th").textContent).toBe("World 1");
    expect(rows[0].querySelector('[data-card="2C"]').getAttribute("aria-label")).toBe("2 of clubs");
    expect(rows[2].textContent).toContain("not picked");
    // the third pile card is the same in every world: a placeholder naming it
    const slot = rows[1].querySelectorAll(".nw-wpile li")[2].querySelector(".nw-wslot");
    expect(slot.getAttribute("aria-label")).toBe("pile card 3: 8♦, as in every world");
  });

  it("says what is the same in every world", () => {
    const { root } = open(replay(WORLDS_READY));
    const same = panel(root).querySelector(".nw-same");
    expect(same.textContent).toContain("Same in every world:");
    expect(same.textContent).toContain("Player 2 holds");
    expect(same.querySelector('[data-card="7H"]')).not.toBeNull();
    expect(same.textContent).toContain("Pile card 3");
    expect(same.querySelector('[data-card="8D"]')).not.toBeNull();
  });

  it("a needle the same in every world goes to the same line, and the posterior's size is said", () => {
    const { root } = open(replay(WORLDS_GREEDY));
    const heads = Array.from(panel(root).querySelectorAll("thead th")).map((th) => th.textContent);
    expect(heads).not.toContain("Player 2's needle");
    expect(panel(root).querySelector(".nw-same").textContent).toContain("Player 2's needle");
    expect(panel(root).textContent).toContain("Effective sample size 37 of 200 particles.");
  });

  it("the teacher chooses the seat; a change asks Python at once", () => {
    const { root, model } = open(replay(WORLDS_READY));
    const seat = byKey(root, "worlds-seat");
    expect(seat.getAttribute("aria-label")).toBe("Whose worlds");
    expect(Array.from(seat.options).map((o) => o.textContent)).toEqual(["Player 1", "Player 2", "Spectator"]);
    change(seat, "spectator");
    change(seat, "1");
    expect(model.sent).toEqual([
      { kind: "worlds", open: true, seat: "spectator", model: "random" },
      { kind: "worlds", open: true, seat: 1, model: "random" },
    ]);
  });

  it("a player has no seat select; the model select asks for the model", () => {
    const { root, model } = open(replay(WORLDS_READY, { perspective: 0, offers: OFFERS_PLAYER }));
    expect(byKey(root, "worlds-seat")).toBeNull();
    const select = byKey(root, "worlds-model");
    expect(select.getAttribute("aria-label")).toBe("Opponent in the worlds");
    expect(select.disabled).toBe(false);
    change(select, "greedy");
    expect(model.sent).toEqual([{ kind: "worlds", open: true, seat: 0, model: "greedy" }]);
  });

  it("the spectator's single model cannot be changed", () => {
    const spectator = { ...WORLDS_READY, seat: "spectator", hidden: [0, 1] };
    const { root } = open(replay(spectator, { perspective: "spectator", offers: OFFERS_SPECTATOR }));
    expect(byKey(root, "worlds-model").disabled).toBe(true);
    expect(panel(root).querySelector("h3").textContent).toBe("Possible worlds for the spectator at step 12");
  });

  it("Resample and Play them out send their requests", () => {
    const { root, model } = open(replay(WORLDS_READY));
    click(button(root, "Resample"));
    click(button(root, "Play them out"));
    expect(model.sent).toEqual([{ kind: "resample" }, { kind: "playout" }]);
  });

  it("shows computing politely", async () => {
    const { root, model } = open(replay(WORLDS_COMPUTING));
    expect(panel(root).getAttribute("aria-busy")).toBe("true");
    const status = panel(root).querySelector('[aria-live="polite"]');
    expect(status.textContent).toBe("Drawing worlds…");
    expect(panel(root).querySelector("table")).toBeNull();
    model.update({ worlds: WORLDS_READY });
    await flush();
    expect(panel(root).getAttribute("aria-busy")).toBe("false");
    expect(panel(root).querySelector('[aria-live="polite"]').textContent).toBe("");
  });

  it("keeps older rows, dimmed, while the next step's are drawn", () => {
    const { root } = open(replay({ ...WORLDS_READY, status: "computing" }, { step: 13 }));
    expect(panel(root).querySelector(".nw-worlds-body.nw-stale")).not.toBeNull();
    expect(panel(root).querySelector("h3").textContent).toContain("at step 12");
  });

  it("a reason closes the controls and is shown", () => {
    const offers = { ...OFFERS_TEACHER, worlds: { ...OFFERS_TEACHER.worlds, reason: "Not now" } };
    const { root } = open(replay(WORLDS_READY, { offers }));
    expect(button(root, "Resample").disabled).toBe(true);
    expect(panel(root).textContent).toContain("Not now");
  });

  it("a failed panel says so", () => {
    const { root } = open(replay({ ...WORLDS_COMPUTING, status: "failed", error: "No world fits" }));
    expect(panel(root).querySelector(".nw-whatif-error").textContent).toBe("No world fits");
  });
});

describe("the play-out", () => {
  it("says it is playing while computing", () => {
    const { root } = open(replay(WORLDS_PLAYOUT_COMPUTING));
    expect(panel(root).querySelector('[aria-live="polite"]').textContent).toBe("Playing the worlds to the end…");
    expect(panel(root).querySelector(".nw-outcome")).toBeNull();
  });

  it("draws win / draw / loss as a stacked bar with the win interval", () => {
    const { root } = open(replay(WORLDS_PLAYOUT));
    const bar = panel(root).querySelector(".nw-outcome-bar");
    expect(bar.getAttribute("role")).toBe("img");
    expect(bar.getAttribute("aria-label"))
      .toBe("Player 1 wins 58% (51%–65%), draws 3.0% (1.4%–6.4%), loses 39% (33%–46%) of 200 worlds");
    expect(bar.querySelector(".nw-out-win").getAttribute("style")).toBe("width: 58.00%");
    expect(bar.querySelector(".nw-out-loss").getAttribute("style")).toBe("width: 39.00%");
    expect(bar.querySelector(".nw-out-whisker").getAttribute("style")).toBe("left: 51.07%; width: 13.52%");
    const legend = Array.from(panel(root).querySelectorAll(".nw-outcome-legend > span")).map((x) => x.textContent);
    expect(legend).toEqual(["Player 1 wins 58% (51%–65%)", "draws 3.0% (1.4%–6.4%)", "loses 39% (33%–46%)"]);
    expect(panel(root).querySelector(".nw-playout-text").textContent).toBe("In brackets: 95% intervals of each share.");
  });

  it("says each figure one way (dom.js's percent) and each ending in the words used everywhere, not Python's text", () => {
    // Python's `text` rounds its own way ("draws 24%" where the bar says 25%) and says "melded".
    const playout = { ...WORLDS_PLAYOUT.playout, draw: 0.245, text: "Player 1 wins 58%; draws 24%; loses 17% (ends: melded 9)." };
    const { root } = open(replay({ ...WORLDS_PLAYOUT, playout }));
    const shown = panel(root).querySelector(".nw-playout");
    expect(shown.textContent).not.toContain(playout.text);
    expect(shown.textContent).not.toMatch(/meld/i);
    expect(shown.textContent).toContain("a needle was laid in a set: 9");
    expect(shown.querySelector(".nw-out-draw").textContent).toBe(percent(0.245));
    expect(shown.querySelector(".nw-outcome-legend").textContent).toContain(`draws ${percent(0.245)} (`);
    expect(shown.querySelector(".nw-outcome-bar").getAttribute("aria-label")).toContain(`draws ${percent(0.245)} (`);
  });

  it("a certain play-out (the round is over) shows shares without intervals", () => {
    const playout = { ...WORLDS_PLAYOUT.playout, certain: true, win: 1, draw: 0, loss: 0, reasons: { found: 200 } };
    const { root } = open(replay({ ...WORLDS_PLAYOUT, playout }));
    const shown = panel(root).querySelector(".nw-playout");
    expect(shown.querySelector(".nw-outcome-bar").getAttribute("aria-label")).toBe("Player 1 wins 100%, draws 0%, loses 0% of 200 worlds");
    expect(shown.querySelector(".nw-out-whisker")).toBeNull();
    expect(shown.querySelector(".nw-playout-text").textContent).toBe("The round is over here: every world ends the same way.");
  });

  it("counts how the games end, leaving out the endings that did not happen", () => {
    const { root } = open(replay(WORLDS_PLAYOUT));
    const items = Array.from(panel(root).querySelectorAll(".nw-endings li")).map((li) => li.textContent);
    expect(items).toEqual([
      "a needle was found: 120", "a needle was discarded: 41", "a needle was laid in a set: 9",
      "the turn limit was reached: 30",
    ]);
  });
});
