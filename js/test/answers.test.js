// Numbered requests, Python's answers, and stepping that never loses a key.

import { describe, expect, it } from "vitest";
import { requestIds } from "../src/requests.js";
import { MAX_REQUEST_ID, REQUESTS } from "../src/shared.js";
import { nearestShown } from "../src/stepping.js";
import { FIXTURES, button, click, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const LAST = FIXTURES.over_0.events.length;

const open = mountsCleanedAfterEach();

/** A replay at `step`; `nearby` holds fake tables (turn 100 + k) for the steps given. */
function replayAt(step, near = []) {
  const base = stateFrom("over_0", { mode: "replay", step });
  return { ...base, nearby: prepared(base, near) };
}

function prepared(base, steps) {
  return Object.fromEntries(steps.map((k) => [String(k), { table: { ...base.table, turn: 100 + k }, info: base.info }]));
}

const shownStep = (root) => Number(/^Step (\d+) of/.exec(root.querySelector(".nw-live").textContent)[1]);
const shownTurn = (root) => /after turn (\d+)/.exec(root.querySelector(".nw-status-line").textContent)?.[1];

/** What Python does for the request with `id`: show `step` (with its `nearby`) and answer it. */
function pythonAnswers(model, id, step, near = []) {
  const base = stateFrom("over_0", { mode: "replay", step });
  model.update({ step, table: base.table, nearby: prepared(base, near), answer: { id, ok: true, error: null } });
}

describe("every request carries an id", () => {
  it("ids are whole numbers below MAX_REQUEST_ID, one tag per view, counting up", () => {
    const { root, model } = open(replayAt(12));
    click(button(root, "Next step"));
    key(root, "ArrowRight");
    click(button(root, "Teacher"));
    click(button(root, "Play"));
    const ids = model.requests.map((r) => r.id);
    expect(ids.every((id) => Number.isInteger(id) && id > 0 && id <= MAX_REQUEST_ID)).toBe(true);
    expect(new Set(ids.map((id) => Math.floor(id / 2 ** 20))).size).toBe(1);
    expect(ids.map((id) => id - ids[0])).toEqual([0, 1, 2, 3]);
  });

  it("every request is one Python knows, with only its fields", () => {
    const { root, model } = open(replayAt(12));
    click(button(root, "Next step"));
    click(button(root, "Teacher"));
    click(button(root, "Play"));
    const { root: play, model: played } = open("draw_p1");
    click(button(play, "Draw from pile"));
    for (const request of [...model.requests, ...played.requests]) {
      const { kind, id, ...fields } = request;
      expect(Object.keys(REQUESTS)).toContain(kind);
      expect(Number.isInteger(id)).toBe(true);
      for (const field of Object.keys(fields)) expect(REQUESTS[kind]).toContain(field);
    }
  });

  it("two views never share a tag, even when the model holds an answer of the same tag", () => {
    const a = requestIds(null, () => 0.5);
    const first = a.next();
    const b = requestIds({ id: first, ok: true, error: null }, () => 0.5);
    expect(Math.floor(b.next() / 2 ** 20)).not.toBe(Math.floor(first / 2 ** 20));
  });

  it("an answer answers its id and every earlier one of the same view, never another view's", () => {
    const ids = requestIds(null, () => 0.25);
    const [one, two, three] = [ids.next(), ids.next(), ids.next()];
    expect(ids.note({ id: two + 2 ** 20, ok: true })).toBe(false);
    expect(ids.answered(one)).toBe(false);
    expect(ids.note({ id: two, ok: false, error: "No." })).toBe(true);
    expect([ids.answered(one), ids.answered(two), ids.answered(three)]).toEqual([true, true, false]);
    ids.note({ id: one, ok: true }); // a late, older answer changes nothing
    expect(ids.answered(two)).toBe(true);
  });
});

describe("stepping never loses a key", () => {
  it("→ three times before any answer asks for steps 1, 2 and 3 and shows the prepared step at once", () => {
    const { root, model } = open(replayAt(0, [1]));
    for (let i = 0; i < 3; i++) key(root, "ArrowRight");
    expect(model.sent).toEqual([1, 2, 3].map((to) => ({ kind: "step", to })));
    expect(shownStep(root)).toBe(1);
    expect(root.querySelector(".nw-slider").value).toBe("3");
  });

  it("answers arriving late move the view only towards the step asked for", async () => {
    const { root, model } = open(replayAt(0, [1]));
    for (let i = 0; i < 3; i++) key(root, "ArrowRight");
    const [a, b, c] = model.requests.map((r) => r.id);
    const seen = [shownStep(root)];
    pythonAnswers(model, a, 1, [0, 2]);
    await flush();
    seen.push(shownStep(root));
    pythonAnswers(model, b, 2, [1, 3]);
    await flush();
    seen.push(shownStep(root));
    expect(shownTurn(root)).toBe("103"); // step 3, prepared by Python, before its answer
    pythonAnswers(model, c, 3, [2, 4]);
    await flush();
    seen.push(shownStep(root));
    expect(seen).toEqual([1, 2, 3, 3]);
    expect(shownTurn(root)).not.toBe("103"); // Python's own state at step 3
  });

  it("an answer further from the step asked for is not shown while a newer request waits", async () => {
    const { root, model } = open(replayAt(5, [6]));
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    expect(shownStep(root)).toBe(6);
    pythonAnswers(model, model.requests[0].id, 6, [5]); // Python's nearby for step 6 lacks 7
    await flush();
    expect(shownStep(root)).toBe(6);
    model.update({ step: 4, nearby: {} }); // anything older, e.g. a timer, while step 7 waits
    await flush();
    expect(shownStep(root)).toBe(6);
    pythonAnswers(model, model.requests[1].id, 7);
    await flush();
    expect(shownStep(root)).toBe(7);
  });

  it("← after → steps from the step asked for, not the one shown", () => {
    const { root, model } = open(replayAt(10));
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    key(root, "ArrowLeft");
    expect(model.sent.map((m) => m.to)).toEqual([11, 12, 11]);
    expect(shownStep(root)).toBe(10); // nothing prepared: Python's answer shows it
  });

  it("keys stop at the last step counted from the step asked for", () => {
    const { root, model } = open(replayAt(LAST - 2));
    for (let i = 0; i < 5; i++) key(root, "ArrowRight");
    expect(model.sent.map((m) => m.to)).toEqual([LAST - 1, LAST]);
  });

  it("once every request is answered, Python's state is shown, wherever Python went", async () => {
    const { root, model } = open(replayAt(10, [11]));
    key(root, "ArrowRight");
    pythonAnswers(model, model.requests[0].id, 11);
    await flush();
    model.update({ step: 3 }); // w.step = 3 from Python
    await flush();
    expect(shownStep(root)).toBe(3);
    key(root, "ArrowRight");
    expect(model.sent.map((m) => m.to)).toEqual([11, 4]);
  });

  it("another view's answer does not end the wait", async () => {
    const { root, model } = open(replayAt(10, [11]));
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    model.update({ step: 2, answer: { id: model.requests[1].id + 2 ** 20, ok: true, error: null } });
    await flush();
    expect(shownStep(root)).toBe(11);
  });

  it("a refused step request ends the wait and shows Python's step and error", async () => {
    const { root, model } = open(replayAt(10, [11]));
    key(root, "ArrowRight");
    expect(shownStep(root)).toBe(11);
    model.answer({ error: { id: 4, text: "Cannot go to step 11" } }, { ok: false, error: "Cannot go to step 11" });
    await flush();
    expect(shownStep(root)).toBe(10);
    expect(root.querySelector('[role="alert"]').textContent).toContain("Cannot go to step 11");
  });

  it("a step shown for another perspective is dropped when Python switches perspective", async () => {
    const { root, model } = open(replayAt(10, [11]));
    key(root, "ArrowRight");
    key(root, "ArrowRight");
    expect(shownTurn(root)).toBe("111");
    model.update({ perspective: "teacher", table: FIXTURES.over_teacher.table, info: FIXTURES.over_teacher.info, nearby: {} });
    await flush();
    expect(shownStep(root)).toBe(10);
    expect(shownTurn(root)).not.toBe("111");
  });

  it("the slider asks for each new value once, and keeps it while Python answers", () => {
    const { root, model } = open(replayAt(12));
    const slider = root.querySelector(".nw-slider");
    for (const value of ["20", "21", "21"]) {
      slider.value = value;
      slider.dispatchEvent(new Event("input", { bubbles: true }));
    }
    slider.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.sent.map((m) => m.to)).toEqual([20, 21]);
    expect(root.querySelector(".nw-slider").value).toBe("21");
  });
});

describe("nearestShown", () => {
  const at = (step, perspective = 0) => ({ step, table: { turn: step }, info: {}, perspective });

  it("takes Python's own state at the target, else the nearest, never a farther one", () => {
    const state = { ...at(4), nearby: { 3: { table: { turn: 3 }, info: {} }, 5: { table: { turn: 5 }, info: {} } } };
    expect(nearestShown(state, at(6), 4).table.turn).toBe(4);
    expect(nearestShown(state, at(7), 9).step).toBe(7);
    expect(nearestShown(state, at(1), 9).step).toBe(5);
    expect(nearestShown(state, at(7), 0).step).toBe(3);
    expect(nearestShown(state, at(7, "teacher"), 9).step).toBe(5);
  });
});
