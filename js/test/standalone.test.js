// The exported file's model (staticmodel.js) and entry (standalone.js): the widget steps with no kernel.

import { afterEach, describe, expect, it, vi } from "vitest";
import { mount } from "../src/index.js";
import { openingStep, staticModel, stepFromHash, unpack } from "../src/staticmodel.js";
import { boot, followAddress } from "../src/standalone.js";
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
    expect(model.get("error").text).toBe("Cannot go to step 9: steps run from 0 to 3");
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

describe("the page's address (#step=N)", () => {
  const free = (n) => steps(n).map((st, k) => ({ ...st, spoilers: false, steps: k }));

  /** A window with an address and a history that records replaceState, and hashchange by hand. */
  function fakeWindow(hash = "") {
    const listeners = new Set();
    const win = {
      location: { hash },
      replaced: [],
      history: {
        state: null,
        replaceState(state, title, url) {
          win.replaced.push(url);
          win.location.hash = url;
        },
      },
      addEventListener: (name, fn) => listeners.add(fn),
      removeEventListener: (name, fn) => listeners.delete(fn),
      go(to) {
        win.location.hash = to;
        for (const fn of [...listeners]) fn();
      },
      listeners,
    };
    return win;
  }

  it("reads only #step=<digits>", () => {
    expect(stepFromHash("#step=12")).toBe(12);
    expect(stepFromHash("#step=0")).toBe(0);
    for (const bad of ["", "#", "#step=", "#step=-3", "#step=1e3", "#step=abc", "#step=12x", "#Step=1", "step=4", null, undefined]) {
      expect(stepFromHash(bad)).toBe(null);
    }
  });

  it("opens at the step asked for, clamped to the replay; the file's own step when nothing (valid) is asked", () => {
    const all = steps(60);
    expect(openingStep(all, 0, 12)).toBe(12);
    expect(openingStep(all, 0, 999)).toBe(60);
    expect(openingStep(all, 5, null)).toBe(5);
    expect(openingStep(all, 5, Number.NaN)).toBe(5);
  });

  it("spoiler-free, opens at a step the file has, and ignores one past its end (clamping would tell the length)", () => {
    const all = free(60);
    expect(openingStep(all, 0, 12)).toBe(12);
    expect(openingStep(all, 0, 60)).toBe(60);
    expect(openingStep(all, 3, 61)).toBe(3);
    expect(openingStep(all, 3, 999)).toBe(3);
  });

  it("show(step) goes there at once with no answer or error, and refuses a step the file lacks", () => {
    const model = staticModel(free(5), 1);
    expect(model.show(4)).toBe(true);
    expect(model.get("step")).toBe(4);
    expect(model.get("error")).toBe(null);
    expect(model.get("answer")).toBe(null);
    expect(model.show(6)).toBe(false);
    expect(model.show(-1)).toBe(false);
    expect(model.get("step")).toBe(4);
  });

  it("follows the steps with replaceState, and leaves an address with no fragment alone until a step", () => {
    const win = fakeWindow("");
    const model = staticModel(steps(5), 0);
    const stop = followAddress(win, model, steps(5));
    expect(win.replaced).toEqual([]);
    model.send({ kind: "step", to: 3, id: 1 });
    model.send({ kind: "perspective", to: 1, id: 2 }); // refused: same step, the address stays
    model.send({ kind: "step", to: 4, id: 3 });
    expect(win.replaced).toEqual(["#step=3", "#step=4"]);
    stop();
    model.send({ kind: "step", to: 0, id: 4 });
    expect(win.replaced).toEqual(["#step=3", "#step=4"]);
    expect(win.listeners.size).toBe(0);
  });

  it("goes to the step of a changed fragment; a malformed or refused one is put back to the step shown", () => {
    const all = free(10);
    const win = fakeWindow("#step=4");
    const model = staticModel(all, 4);
    followAddress(win, model, all);
    expect(win.replaced).toEqual(["#step=4"]);
    win.go("#step=7");
    expect(model.get("step")).toBe(7);
    expect(win.location.hash).toBe("#step=7");
    win.go("#step=99"); // past the end, spoiler-free: ignored, nothing told
    expect(model.get("step")).toBe(7);
    expect(win.location.hash).toBe("#step=7");
    win.go("#step=x");
    expect(win.location.hash).toBe("#step=7");
  });

  it("boots at the address's step and writes the step shown", async () => {
    document.body.innerHTML = '<div id="needle-widget"></div><script type="application/json" id="needle-data"></script>';
    document.getElementById("needle-data").textContent = JSON.stringify({ format: "needle-html-1", pool: [], items: steps(20), step: 1 });
    window.history.replaceState(null, "", "#step=12");
    const booted = boot(document);
    await flush();
    expect(booted.model.get("step")).toBe(12);
    expect(document.querySelector('#needle-widget input[data-input="step"]').value).toBe("12");
    click(button(document.querySelector("#needle-widget .nw-root"), "Next step"));
    await flush();
    expect(window.location.hash).toBe("#step=13");
    booted.cleanup();
    window.history.replaceState(null, "", "#");
  });
});
