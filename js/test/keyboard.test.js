import { describe, expect, it } from "vitest";
import { FIXTURES, button, flush, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { keepsArrowKeys, keyRequest } from "../src/keys.js";

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

describe("keys inside the widget stay in the widget (JupyterLab)", () => {
  const leaked = () => {
    const seen = [];
    const listen = (e) => seen.push(e.key);
    document.addEventListener("keydown", listen);
    return { seen, stop: () => document.removeEventListener("keydown", listen) };
  };

  it("no key pressed inside reaches the notebook's shortcuts, whatever has the focus", () => {
    const { root, model } = open(replay());
    const spy = leaked();
    for (const target of [root, button(root, "Teacher"), button(root, "Next step"), root.querySelector("select.nw-speed"),
      root.querySelector('input[type="range"]'), root.querySelector(".nw-event-btn.nw-current")]) {
      for (const k of ["ArrowDown", "ArrowUp", "a", "Enter"]) key(target, k);
    }
    spy.stop();
    expect(spy.seen).toEqual([]);
    expect(model.sent.every((r) => r.kind === "step")).toBe(true);
  });

  it("lets Ctrl/⌘/Alt combinations and Shift+Enter (save, run the cell) go on to JupyterLab", () => {
    const { root, model } = open(replay());
    const spy = leaked();
    const combos = [{ key: "s", ctrlKey: true }, { key: "Enter", metaKey: true }, { key: "Enter", altKey: true },
      { key: "Enter", shiftKey: true }];
    for (const target of [root, button(root, "Next step")]) {
      for (const combo of combos) target.dispatchEvent(new KeyboardEvent("keydown", { ...combo, bubbles: true, cancelable: true }));
    }
    spy.stop();
    expect(spy.seen).toEqual(["s", "Enter", "Enter", "Enter", "s", "Enter", "Enter", "Enter"]);
    expect(model.sent).toEqual([]);
  });

  it("←/→ step from every focusable part but those that use the arrows themselves", () => {
    const { root, model } = open(replay());
    key(root.querySelector(".nw-event-btn.nw-current"), "ArrowRight");
    key(button(root, "Play"), "ArrowRight");
    key(root.querySelector("select.nw-speed"), "ArrowRight"); // the select changes its own value
    key(root.querySelector('input[type="range"]'), "ArrowRight"); // the slider sends its own step
    expect(model.sent).toEqual([{ kind: "step", to: 13 }, { kind: "step", to: 14 }]);
  });

  it("↓/↑ step in the list of moves, and not on a plain button (left to the page)", () => {
    const { root, model } = open(replay());
    const current = root.querySelector(".nw-event-btn.nw-current");
    const down = key(current, "ArrowDown");
    expect(down.defaultPrevented).toBe(true);
    const plain = key(button(root, "Teacher"), "ArrowDown");
    expect(plain.defaultPrevented).toBe(false);
    key(current, "ArrowUp");
    expect(model.sent).toEqual([{ kind: "step", to: 13 }, { kind: "step", to: 12 }]);
  });

  it("↑ is the next step on a slider of steps (the graph), ↓ the previous", () => {
    const box = document.createElement("div");
    box.setAttribute("role", "slider");
    const state = replay();
    const press = (k) => keyRequest({ key: k, target: box }, state);
    expect(press("ArrowUp")).toEqual({ kind: "step", to: 13 });
    expect(press("ArrowDown")).toEqual({ kind: "step", to: 11 });
    expect(keyRequest({ key: "ArrowDown", target: document.createElement("button") }, state)).toBeNull();
  });

  it("selects, text fields and range inputs keep their arrows", () => {
    for (const tag of ["select", "textarea", "input"]) expect(keepsArrowKeys(document.createElement(tag))).toBe(true);
    expect(keepsArrowKeys(document.createElement("button"))).toBe(false);
    expect(keepsArrowKeys(null)).toBe(false);
  });
});
