// An exported file's variations (staticmodel.js `lines`): the page opens a variation the file holds, steps
// along it, goes back to the game below its first step, and refuses what the file does not hold.

import { describe, expect, it } from "vitest";
import { staticModel } from "../src/staticmodel.js";

// Game steps 0..6, then a variation from step 3 to 5 (states 7..9) and one from step 6 to 6 (state 10).
function file(spoilers = true) {
  const game = Array.from({ length: 7 }, (_, k) => ({ step: k, steps: 6, line: null, spoilers }));
  const first = Array.from({ length: 3 }, (_, j) => ({ step: 3 + j, steps: 5, line: 0, spoilers: true }));
  const second = [{ step: 6, steps: 6, line: 2, spoilers: true }];
  const lines = [{ index: 0, from: 3, end: 5, first: 7 }, { index: 2, from: 6, end: 6, first: 10 }];
  return { states: [...game, ...first, ...second], lines };
}

describe("an exported file's variations", () => {
  it("opens one at its first move, steps along it, and goes back to the game below its start", () => {
    const { states, lines } = file();
    const model = staticModel(states, 4, globalThis, lines);
    model.send({ kind: "line", variation: 0, id: 1 });
    expect([model.line, model.step, model.get("line"), model.get("steps")]).toEqual([0, 4, 0, 5]);
    model.send({ kind: "step", to: 5, id: 2 });
    expect([model.step, model.get("step")]).toEqual([5, 5]);
    model.send({ kind: "step", to: 6, id: 3 });
    expect(model.get("answer").ok).toBe(false);
    expect(model.get("error").text).toBe("Cannot show step 6 of this variation: it has steps 3 to 5");
    model.send({ kind: "step", to: 2, id: 4 });
    expect([model.line, model.step, model.get("line")]).toEqual([null, 2, null]);
    model.send({ kind: "line", variation: 2, to: 6, id: 5 });
    expect([model.line, model.step, model.get("line")]).toEqual([2, 6, 2]);
    model.send({ kind: "line", variation: null, id: 6 });
    expect([model.line, model.step]).toEqual([null, 2]);
  });

  it("refuses a variation the file does not hold, and a step outside a variation", () => {
    const { states, lines } = file();
    const model = staticModel(states, 0, globalThis, lines);
    model.send({ kind: "line", variation: 1, id: 1 });
    expect(model.get("error").text).toBe("There is no variation 1 on this screen");
    model.send({ kind: "line", variation: 0, to: 9, id: 2 });
    expect(model.get("error").text).toBe("Cannot show step 9 of this variation: it has steps 3 to 5");
    expect([model.line, model.step]).toEqual([null, 0]);
    model.send({ kind: "step", to: 7, id: 3 });
    expect(model.get("error").text).toBe("Cannot go to step 7: steps run from 0 to 6");
  });

  it("spoiler-free, opens only a variation from a step the reader has reached", () => {
    const { states, lines } = file(false);
    const model = staticModel(states, 2, globalThis, lines);
    model.send({ kind: "line", variation: 0, id: 1 });
    expect(model.get("error").text).toBe("There is no variation 0 on this screen");
    model.send({ kind: "step", to: 3, id: 2 });
    model.send({ kind: "line", variation: 0, id: 3 });
    expect([model.line, model.step]).toEqual([0, 4]);
    model.send({ kind: "line", variation: null, to: 5, id: 4 });
    expect(model.get("error").text).toMatch(/^Cannot go to step 5: spoiler-free review goes back/);
    model.send({ kind: "line", variation: null, to: 4, id: 5 });
    expect([model.line, model.step]).toEqual([null, 4]);
  });
});
