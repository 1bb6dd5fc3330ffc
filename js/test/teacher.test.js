// What a teacher tripped on (issue 29, items 6 and 7): a finished game stepped back, a student's seat
// named for the replay's bot, the review summary's table text on a projector.

import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { modeLabel } from "../src/app.js";
import { seatName } from "../src/names.js";
import { endedAfter, roundEndStep } from "../src/selectors.js";
import { FIXTURES, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const open = mountsCleanedAfterEach();
const CSS = readFileSync(resolve(__dirname, "../src/style.css"), "utf8");
const real = (name, overrides = {}) => ({ ...structuredClone(states[name]), answer: null, error: null, scale: 1, ...overrides });

/** A play-mode screen of a round that ended at step 92, stepped back to step 2 (Player 1 to move there),
 * with what Python sends then: the whole event list (its last event `over`), can_act false and its reason. */
function steppedBack(overrides = {}) {
  const events = structuredClone(FIXTURES.over_0.events);
  return stateFrom("draw_p1", {
    events, step: 2, steps: events.length, can_act: false, act_reason: "Go to the latest step (92) to play", ...overrides,
  });
}

describe("a finished game stepped back", () => {
  it("knows where the round ended from Python's event list", () => {
    expect(FIXTURES.over_0.events.at(-1).over).toBe(true);
    expect(FIXTURES.over_0.events.slice(0, -1).some((e) => "over" in e)).toBe(false);
    expect(roundEndStep(steppedBack())).toBe(92);
    expect(endedAfter(steppedBack())).toBe(92);
    expect(roundEndStep(stateFrom("draw_p1"))).toBeNull();
    expect(endedAfter(stateFrom("over_0"))).toBeNull(); // at the end itself: the table says it
    expect(endedAfter(steppedBack({ mode: "replay" }))).toBeNull();
  });

  it("shows 'Round over' at every step, no 'to move' and no invitation to play", () => {
    const { root } = open(steppedBack());
    expect(root.querySelector(".nw-mode").textContent).toBe("Round over");
    expect(root.querySelector(".nw-mode").classList.contains("nw-mode-over")).toBe(true);
    expect(root.textContent).not.toContain("Playing");
    expect(root.textContent).not.toContain("to move");
    expect(root.textContent).not.toContain("Go to the latest step");
    expect(root.querySelector(".nw-waiting").textContent).toBe("The round ended at step 92");
    // the seat that acted at the step shown is still marked, in words that invite nothing
    expect(root.querySelector(".nw-zone-bottom .nw-tag-move").textContent).toBe("moved next");
    for (const step of [0, 1, 50, 91]) expect(modeLabel(steppedBack({ step }))).toBe("Round over");
    expect(modeLabel(steppedBack({ mode: "watch" }))).toBe("Round over");
    expect(modeLabel(steppedBack({ mode: "hotseat" }))).toBe("Round over");
  });

  it("keeps a round that goes on as it was: 'Playing', 'to move' and the way back to play", () => {
    const going = steppedBack({ events: FIXTURES.over_0.events.slice(0, 50), steps: 50, act_reason: "Go to the latest step (50) to play" });
    const { root } = open(going);
    expect(root.querySelector(".nw-mode").textContent).toBe("Playing");
    expect(root.querySelector(".nw-zone-bottom .nw-tag-move").textContent).toBe("to move");
    expect(root.querySelector(".nw-waiting").textContent).toBe("Go to the latest step (50) to play");
    // a replay stays a replay while it is stepped through, "Round over" at its end; a quiz stays a quiz
    expect(modeLabel(steppedBack({ mode: "replay" }))).toBe("Replay");
    expect(modeLabel(stateFrom("over_0", { mode: "replay" }))).toBe("Round over");
    expect(modeLabel(steppedBack({ mode: "quiz" }))).toBe("Quiz");
    expect(modeLabel(stateFrom("over_0"))).toBe("Round over");
  });
});

describe("the viewer's seat in a replay, a quiz or a class", () => {
  it("reads as the viewer's, never as the bot that played the replay", () => {
    const classScreen = { status: "live", text: "Following the teacher at step 6", name: "Ann", room: "monday" };
    for (const overrides of [{ mode: "replay" }, { mode: "quiz" }, { mode: "replay", follow: classScreen },
      { mode: "play", follow: classScreen }]) {
      const state = real("worlds_graph_0", overrides); // a replay of greedy against odds, from Player 1's seat
      expect(state.seats).toEqual(["greedy", "odds"]);
      const { root } = open(state);
      const own = root.querySelector(".nw-zone-bottom");
      expect(own.querySelector(".nw-name").textContent).toBe("Player 1 (You)");
      expect(own.getAttribute("aria-label")).toBe("Player 1 (You)");
      expect(own.textContent).toContain("Your needle");
      expect(own.textContent).not.toContain("greedy");
      expect(root.querySelector(".nw-zone-top .nw-name").textContent).toBe("Player 2 (odds)");
    }
  });

  it("keeps who played each seat for a spectator or the teacher, and a play-mode screen's 'You'", () => {
    const spectator = real("worlds_graph_spectator");
    expect([seatName(spectator, 0), seatName(spectator, 1)]).toEqual(["Player 1 (greedy)", "Player 2 (odds)"]);
    const teacher = real("worlds_graph_teacher");
    expect([seatName(teacher, 0), seatName(teacher, 1)]).toEqual(["Player 1 (greedy)", "Player 2 (odds)"]);
    const play = real("branch_player");
    expect([seatName(play, 0), seatName(play, 1)]).toEqual(["Player 1 (You)", "Player 2 (greedy)"]);
    // a live game watched from a seat names its bots as before
    expect(seatName(stateFrom("draw_p1", { mode: "watch", seats: ["greedy", "odds"] }), 0)).toBe("Player 1 (greedy)");
  });
});

/** A selector's specificity [ids, classes, elements] (enough for style.css: :not() counts its argument). */
function specificity(selector) {
  let sel = selector.replace(/:not\(([^)]*)\)/g, " $1");
  const ids = (sel.match(/#[\w-]+/g) || []).length;
  sel = sel.replace(/#[\w-]+/g, "");
  const classes = (sel.match(/\.[\w-]+|\[[^\]]*\]|(?<!:):[\w-]+/g) || []).length;
  sel = sel.replace(/\.[\w-]+|\[[^\]]*\]|::?[\w-]+(\([^)]*\))?/g, "");
  const elements = (sel.match(/[a-z][\w-]*/gi) || []).length;
  return [ids, classes, elements];
}

const later = (a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** The font-size rules of a sheet, in order, those inside @media / @container included (as if they applied). */
function fontRules(sheet) {
  const out = [];
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.cssRules && !rule.selectorText) walk(rule.cssRules);
      else if (rule.selectorText && rule.style && rule.style.fontSize) out.push(rule);
    }
  };
  walk(sheet.cssRules);
  return out;
}

/** `el`'s font size as a multiple of the root's (the widget's body size), by the cascade of `rules`
 * (happy-dom's own getComputedStyle resolves em against 16px, not the parent). */
function sizeInBody(el, root, rules) {
  let factor = 1;
  const path = [];
  for (let e = el; e && e !== root; e = e.parentElement) path.unshift(e);
  for (const e of path) {
    let best = null;
    rules.forEach((rule, order) => {
      const parts = rule.selectorText.split(",").map((x) => x.trim()).filter((x) => e.matches(x));
      if (!parts.length) return;
      const spec = [...parts.map(specificity).sort(later).at(-1), order];
      if (!best || later(spec, best.spec) > 0 || (later(spec, best.spec) === 0 && order > best.spec[3])) best = { spec, rule };
    });
    if (!best) continue;
    const value = best.rule.style.fontSize;
    const m = /^([\d.]+)(em|%|rem)$/.exec(value);
    expect(m, `${best.rule.selectorText}: font-size ${value}`).not.toBeNull();
    factor = m[2] === "%" ? factor * Number(m[1]) / 100 : m[2] === "rem" ? Number(m[1]) : factor * Number(m[1]);
  }
  return factor;
}

describe("the review summary on a projector", () => {
  it("writes its table (caption, headings, figures) no smaller than the widget's body text", () => {
    const style = document.createElement("style");
    style.textContent = CSS;
    document.head.appendChild(style);
    try {
      const rules = fontRules(style.sheet);
      expect(rules.length).toBeGreaterThan(50);
      const { root } = open(real("review_player"));
      const table = root.querySelector(".nw-review-summary");
      expect(table).not.toBeNull();
      const cells = [table.querySelector("caption"), ...table.querySelectorAll("th, td, th span")];
      expect(cells.length).toBeGreaterThan(10);
      for (const el of cells) expect(sizeInBody(el, root, rules), el.textContent).toBeGreaterThanOrEqual(1);
      // the check itself sees the smaller data tables: the decision's values stay smaller
      expect(sizeInBody(root.querySelector(".nw-review-values td"), root, rules)).toBeLessThan(1);
      // the body size scales with `scale` (--nw-scale) on the root, and nothing below it is in pixels
      expect(CSS).toMatch(/\.nw-root \{[^}]*font-size: calc\(var\(--jp-ui-font-size1, 13px\) \* var\(--nw-scale\)\);/);
    } finally {
      style.remove();
    }
  });
});
