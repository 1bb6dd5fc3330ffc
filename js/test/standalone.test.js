// The exported file's model (staticmodel.js) and entry (standalone.js): the widget steps with no kernel.

import { afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../src/index.js";
import { staticModel, unpack } from "../src/staticmodel.js";
import { boot } from "../src/standalone.js";
import { button, click, flush, stateFrom, synced } from "./helpers.js";

function steps(n) {
  const base = stateFrom("needle_p1", { mode: "replay", perspectives: [0], offers: {}, nearby: {} });
  return Array.from({ length: n + 1 }, (_, k) => synced({ ...base, step: k, steps: n, events: base.events }));
}

afterEach(() => {
  document.body.innerHTML = "";
  vi.useRealTimers();
});

describe("unpack", () => {
  it("rebuilds values that share pool entries", () => {
    const packed = { pool: [["AC", "2C", "3C"], { hand: { $r: 0 }, n: 3 }], items: [{ $r: 1 }, { $r: 1 }, 7, { x: { $r: 0 } }] };
    expect(unpack(packed)).toEqual([{ hand: ["AC", "2C", "3C"], n: 3 }, { hand: ["AC", "2C", "3C"], n: 3 }, 7, { x: ["AC", "2C", "3C"] }]);
  });

  it("keeps an object with other keys beside $r as data", () => {
    expect(unpack({ pool: [], items: [{ $r: 0, y: 1 }] })).toEqual([{ $r: 0, y: 1 }]);
  });
});

describe("staticModel", () => {
  it("answers a step request at once and tells the listeners", () => {
    const model = staticModel(steps(3), 1);
    const seen = [];
    model.on("change:step", () => seen.push(model.get("step")));
    model.send({ kind: "step", to: 3, id: 5 });
    expect(model.get("step")).toBe(3);
    expect(model.get("answer")).toEqual({ id: 5, ok: true, error: null });
    expect(seen).toEqual([3]);
  });

  it("refuses a step outside the replay, and any request that needs Python, in words, changing nothing", () => {
    const model = staticModel(steps(3), 2);
    model.send({ kind: "step", to: 9, id: 1 });
    expect(model.get("step")).toBe(2);
    expect(model.get("answer")).toMatchObject({ id: 1, ok: false });
    expect(model.get("error").text).toBe("Cannot go to step 9: the replay has steps 0 to 3");
    model.send({ kind: "perspective", to: 1, id: 2 });
    expect(model.get("error").text).toMatch(/^Not available here: this file holds one view/);
    expect(model.get("perspective")).toBe(0);
    model.send({ kind: "__proto__", id: 3 });
    expect(model.get("answer")).toMatchObject({ id: 3, ok: false });
  });

  it("in spoiler-free review steps back anywhere or on by one, and refuses without telling the length", () => {
    const free = steps(5).map((s, k) => ({ ...s, spoilers: false, steps: k }));
    const model = staticModel(free, 2);
    model.send({ kind: "step", to: 4, id: 1 });
    expect(model.get("step")).toBe(2);
    expect(model.get("error").text).toBe("Cannot go to step 4: spoiler-free review goes back to any step from 0 to 2, or on to the next one (3)");
    model.send({ kind: "step", to: 3, id: 2 });
    model.send({ kind: "step", to: 0, id: 3 });
    expect(model.get("step")).toBe(0);
    const end = staticModel(free, 5);
    end.send({ kind: "step", to: 6, id: 1 });
    expect(end.get("error").text).toBe("The replay ends at step 5");
    end.send({ kind: "step", to: 60, id: 2 });
    expect(end.get("error").text).not.toMatch(/replay has steps/);
  });

  it("refuses an autoplay speed Python would refuse", () => {
    const model = staticModel(steps(3), 0);
    model.send({ kind: "autoplay", playing: true, speed: 1e-9, id: 1 });
    expect(model.get("playing")).toBe(false);
    expect(model.get("error").text).toBe("speed must be between 0.1 and 20 actions per second, not 1e-9");
  });

  it("starts at the step asked for, within the replay", () => {
    expect(staticModel(steps(3), 2).get("step")).toBe(2);
    expect(staticModel(steps(3), 99).get("step")).toBe(3);
    expect(staticModel(steps(3), -4).get("step")).toBe(0);
  });

  it("autoplays at the speed asked for and stops at the end or on a step", () => {
    vi.useFakeTimers();
    const model = staticModel(steps(4), 0, globalThis);
    model.send({ kind: "autoplay", playing: true, speed: 2, id: 1 });
    expect(model.get("playing")).toBe(true);
    expect(model.get("speed")).toBe(2);
    vi.advanceTimersByTime(1000);
    expect(model.get("step")).toBe(2);
    model.send({ kind: "step", to: 1, id: 2 });
    expect(model.get("playing")).toBe(false);
    vi.advanceTimersByTime(5000);
    expect(model.get("step")).toBe(1);
    model.send({ kind: "autoplay", playing: true, speed: 8, id: 3 });
    vi.advanceTimersByTime(5000);
    expect(model.get("step")).toBe(4);
    expect(model.get("playing")).toBe(false);
  });
});

describe("the widget on the static model", () => {
  it("steps with the buttons and the keys", async () => {
    const el = document.createElement("div");
    document.body.appendChild(el);
    const model = staticModel(steps(3), 0);
    mount(model, el);
    const root = el.querySelector(".nw-root");
    click(button(root, "Next step"));
    await flush();
    expect(root.querySelector('input[data-input="step"]').value).toBe("1");
    root.focus();
    root.dispatchEvent(new KeyboardEvent("keydown", { key: "End", bubbles: true, cancelable: true }));
    await flush();
    expect(model.get("step")).toBe(3);
    expect(root.querySelector('input[data-input="step"]').value).toBe("3");
  });

  it("boots from the page's embedded data", async () => {
    document.body.innerHTML = '<div id="needle-widget"></div><script type="application/json" id="needle-data"></script>';
    const all = steps(2);
    document.getElementById("needle-data").textContent = JSON.stringify({ format: "needle-html-1", pool: [], items: all, step: 1 });
    const booted = boot(document);
    await flush();
    expect(booted.model.get("step")).toBe(1);
    expect(document.querySelector("#needle-widget .nw-root")).not.toBeNull();
    booted.cleanup();
  });

  it("does nothing on a page without the data", () => {
    document.body.innerHTML = "<p>nothing</p>";
    expect(boot(document)).toBeNull();
  });
});
