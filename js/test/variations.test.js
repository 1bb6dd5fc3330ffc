// Variations in the move list (variations.js, replaybar.js): each line indented under its step, [ and ]
// through the game and its lines, the bar of the line shown, and the list keeping the current move in
// sight when another line is shown at the same step (the browser test
// tests/browser/test_whatif_in_jupyterlab.py does all this in JupyterLab).

import { afterEach, describe, expect, it, vi } from "vitest";
import { click, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { lineBar, switchLine } from "../src/variations.js";

const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

const FROM = 40;
const GAME = stateFrom("over_teacher").events; // 92 steps
const WORLD = "a possible world drawn from Player 1's view";
const move = (step, text) => ({ step, turn: 9, player: 0, text });
const LIST = [
  { index: 0, label: "Variation 1", step: FROM, end: FROM + 2, source: "the real cards", real: true,
    events: [move(FROM + 1, "Player 1 drew A♥ from the pile."), move(FROM + 2, "Player 1 discarded A♥.")] },
  { index: 1, label: "Variation 2", step: FROM, end: FROM + 1, source: WORLD, real: false,
    events: [move(FROM + 1, "Player 1 drew 8♦ from the pile.")] },
];

/** The teacher's replay at `step`: of the game (`current` null) or of the variation `current`. */
function shown(current, step, extra = {}) {
  const item = LIST.find((x) => x.index === current);
  const variations = {
    current, from_step: item ? item.step : null, label: item ? item.label : null, source: item ? item.source : null,
    list: LIST, main: item ? GAME : [], editable: true, reason: null, open_reason: null, ...extra,
  };
  return stateFrom("over_teacher", {
    mode: "replay", step, steps: item ? item.end : GAME.length,
    events: item ? [...GAME.slice(0, item.step), ...item.events] : GAME, variations,
  });
}

describe("variations in the move list", () => {
  it("lists each variation indented under its step, its moves asking to show that line", () => {
    const { root } = open(shown(null, FROM + 1));
    const rows = [...byKey(root, `ev-${FROM}`).closest("li").parentElement.children];
    const at = rows.indexOf(byKey(root, `ev-${FROM}`).closest("li"));
    expect(rows.slice(at + 1, at + 4).map((li) => li.querySelector("button").getAttribute("data-key")))
      .toEqual(["line-0", "line-1", `ev-${FROM + 1}`]);
    expect(byKey(root, "line-1").title).toBe(`Variation 2: ${WORLD}`);
    expect(JSON.parse(byKey(root, `line-1-${FROM + 1}`).getAttribute("data-request")))
      .toEqual({ kind: "line", variation: 1, to: FROM + 1 });
    expect(byKey(root, `ev-${FROM + 1}`).getAttribute("aria-current")).toBe("step");
    expect(root.querySelector(".nw-line-bar")).toBeNull();
    expect(root.querySelector(".nw-hint").textContent).toContain("[ ] switch line");
  });

  it("[ and ] go through the game and each variation, keeping the step where the line has it", () => {
    expect(switchLine(shown(null, FROM + 2), 1)).toEqual({ kind: "line", variation: 0, to: FROM + 2 });
    expect(switchLine(shown(0, FROM + 2), 1)).toEqual({ kind: "line", variation: 1, to: FROM + 1 });
    expect(switchLine(shown(1, FROM + 1), 1)).toEqual({ kind: "line", variation: null, to: FROM + 1 });
    expect(switchLine(shown(null, FROM + 1), -1)).toEqual({ kind: "line", variation: 1, to: FROM + 1 });
    expect(switchLine(shown(null, 3), 1)).toEqual({ kind: "line", variation: 0, to: FROM + 1 }); // its first move
    expect(switchLine(shown(null, 3, { open_reason: "This is a branch" }), 1)).toBeNull();
    const { root, model } = open(shown(1, FROM + 1));
    key(root, "[");
    key(root, "]");
    expect(model.sent).toEqual([
      { kind: "line", variation: 0, to: FROM + 1 },
      { kind: "line", variation: null, to: FROM + 1 },
    ]);
  });

  it("shows the bar of the variation shown: back to the game, and the teacher's edits", () => {
    const { root, model } = open(shown(1, FROM + 1));
    const bar = root.querySelector(".nw-line-bar");
    expect(bar.textContent).toContain(`Variation 2 from step ${FROM}: ${WORLD}.`);
    expect(byKey(root, `line-1-${FROM + 1}`).getAttribute("aria-current")).toBe("step");
    click(byKey(root, "line-promote"));
    click(byKey(root, "line-back"));
    expect(model.sent).toEqual([
      { kind: "line_edit", variation: 1, how: "promote" },
      { kind: "line", variation: null, to: FROM },
    ]);
    expect(lineBar(shown(1, FROM + 1, { editable: false })).querySelector('[data-key="line-promote"]')).toBeNull();
    // among the variations from its step: the last cannot go down, the first cannot go up
    expect(byKey(root, "line-demote").disabled).toBe(true);
    const first = lineBar(shown(0, FROM + 1));
    expect(first.querySelector('[data-key="line-promote"]').disabled).toBe(true);
    expect(first.querySelector('[data-key="line-demote"]').disabled).toBe(false);
  });
});

describe("the move list keeps the current move in sight", () => {
  afterEach(() => vi.restoreAllMocks());

  /** A list 100 px high of rows 20 px high each (every <li>, in document order). */
  function layOut(list) {
    let scrollTop = 0;
    Object.defineProperties(list, {
      clientHeight: { configurable: true, get: () => 100 },
      scrollHeight: { configurable: true, get: () => list.querySelectorAll("li").length * 20 },
      scrollTop: { configurable: true, get: () => scrollTop, set: (v) => { scrollTop = v; } },
    });
    vi.spyOn(Element.prototype, "getBoundingClientRect").mockImplementation(function rect() {
      if (this === list) return { top: 0, bottom: 100, height: 100 };
      const top = [...list.querySelectorAll("li")].indexOf(this) * 20 - scrollTop;
      return { top, bottom: top + 20, height: 20 };
    });
  }

  const centreOf = (list, k) => {
    const li = list.querySelector(`[data-key="${k}"]`).parentElement;
    return [...list.querySelectorAll("li")].indexOf(li) * 20 + 10 - list.scrollTop;
  };

  it("to another line at the same step ([ / ], a move clicked, a line promoted)", async () => {
    const { root, model } = open(shown(1, FROM + 1));
    const list = root.querySelector(".nw-events");
    layOut(list);
    model.update({ step: FROM + 2, steps: FROM + 2 }); // a step: the list centres it
    await flush();
    model.update({ step: FROM + 1, steps: FROM + 1 });
    await flush();
    expect(centreOf(list, `line-1-${FROM + 1}`)).toBe(50);
    // the game at the same step: its row is some rows down, out of this list's 100 px
    model.update(shown(null, FROM + 1));
    await flush();
    expect(root.querySelector(".nw-events")).toBe(list);
    expect(byKey(root, `ev-${FROM + 1}`).getAttribute("aria-current")).toBe("step");
    expect(centreOf(list, `ev-${FROM + 1}`)).toBe(50);
    // the first variation at the same step, some rows up
    model.update(shown(0, FROM + 1));
    await flush();
    expect(centreOf(list, `line-0-${FROM + 1}`)).toBe(50);
    // a re-render with the same current move leaves the list where the reader scrolled it
    list.scrollTop = 0;
    model.update({ busy: true });
    await flush();
    expect(list.scrollTop).toBe(0);
  });
});
