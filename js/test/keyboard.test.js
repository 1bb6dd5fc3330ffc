import { describe, expect, it } from "vitest";
import { FIXTURES, button, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const LAST = FIXTURES.over_0.events.length;

const open = mountsCleanedAfterEach();

const replay = (over = {}) => stateFrom("over_0", { mode: "replay", step: 12, ...over });

describe("keyboard", () => {
  it("ArrowRight / ArrowLeft step forward and back", async () => {
    const { root, model } = open(replay());
    const right = key(root, "ArrowRight");
    model.answer({ step: 13 }); // Python answers, then Python itself shows step 12 again
    model.update({ step: 12 });
    await flush();
    key(root, "ArrowLeft");
    expect(right.defaultPrevented).toBe(true);
    expect(model.sent).toEqual([{ kind: "step", to: 13 }, { kind: "step", to: 11 }]);
  });

  it("Home goes to 0 and End to the last step", () => {
    const { root, model } = open(replay());
    key(root, "Home");
    key(root, "End");
    expect(model.sent).toEqual([{ kind: "step", to: 0 }, { kind: "step", to: LAST }]);
  });

  it("does not step past either end", () => {
    const { root, model } = open(replay({ step: LAST }));
    key(root, "ArrowRight");
    key(root, "End");
    expect(model.sent).toEqual([]);
  });

  it("Space toggles autoplay", async () => {
    const { root, model } = open(replay());
    const ev = key(root, " ");
    expect(ev.defaultPrevented).toBe(true);
    model.update({ playing: true, speed: 2 });
    await flush();
    key(root, " ");
    expect(model.sent).toEqual([
      { kind: "autoplay", playing: true, speed: 1 },
      { kind: "autoplay", playing: false, speed: 2 },
    ]);
  });

  it("leaves Space to a focused button and keys to the slider and the speed select", () => {
    const { root, model } = open(replay());
    key(button(root, "Next step"), " ");
    key(root.querySelector("select.nw-speed"), " ");
    key(root.querySelector("select.nw-speed"), "ArrowRight");
    key(root.querySelector('input[type="range"]'), "ArrowLeft");
    expect(model.sent).toEqual([]);
  });

  it("arrow keys work from a card or a button inside the widget", () => {
    const { root, model } = open(replay());
    key(button(root, "Teacher"), "ArrowRight");
    expect(model.sent).toEqual([{ kind: "step", to: 13 }]);
  });

  it("ignores keys with modifiers", () => {
    const { root, model } = open(replay());
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", ctrlKey: true, bubbles: true }));
    expect(model.sent).toEqual([]);
  });

  it("Escape clears the card selection", () => {
    const { root } = open(stateFrom("discard_p1"));
    const card = root.querySelector(".nw-zone-bottom .nw-hand button");
    card.click();
    expect(root.querySelector('.nw-hand [aria-pressed="true"]')).not.toBeNull();
    key(root, "Escape");
    expect(root.querySelector('.nw-hand [aria-pressed="true"]')).toBeNull();
  });
});

describe("prefetched neighbouring steps", () => {
  const near = (state, step) => ({
    [String(step)]: { table: { ...state.table, turn: 99 }, info: state.info },
  });

  it("shows a step Python prepared at once, then follows Python's answer", async () => {
    const base = replay();
    const { root, model } = open({ ...base, nearby: near(base, 13) });
    key(root, "ArrowRight");
    expect(model.sent).toEqual([{ kind: "step", to: 13 }]);
    expect(root.querySelector(".nw-live").textContent).toMatch(new RegExp(`^Step 13 of ${LAST}`));
    expect(root.textContent).toContain("after turn 99");
    model.update({ step: 13, nearby: {} });
    await flush();
    expect(root.querySelector(".nw-live").textContent).toMatch(new RegExp(`^Step 13 of ${LAST}`));
    expect(root.textContent).not.toContain("after turn 99");
  });

  it("drops the preview when Python answers with an error", async () => {
    const base = replay();
    const { root, model } = open({ ...base, nearby: near(base, 11) });
    key(root, "ArrowLeft");
    expect(root.querySelector(".nw-live").textContent).toMatch(new RegExp(`^Step 11 of ${LAST}`));
    model.answer({ error: { id: 1, text: "Cannot go to step 11" } }, { ok: false, error: "Cannot go to step 11" });
    await flush();
    expect(root.querySelector(".nw-live").textContent).toMatch(new RegExp(`^Step 12 of ${LAST}`));
  });

  it("waits for Python when the step was not prepared", () => {
    const { root, model } = open(replay());
    key(root, "ArrowRight");
    expect(model.sent).toEqual([{ kind: "step", to: 13 }]);
    expect(root.querySelector(".nw-live").textContent).toMatch(new RegExp(`^Step 12 of ${LAST}`));
  });
});
