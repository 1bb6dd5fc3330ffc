import { afterEach, describe, expect, it, vi } from "vitest";
import widget, { mount } from "../src/index.js";
import { FIXTURES, button, fakeModel, flush, mountState, stateFrom } from "./helpers.js";

const LAST = FIXTURES.over_0.events.length;

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
  document.body.innerHTML = "";
});

describe("re-rendering", () => {
  it("renders once per batch of trait changes", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    const spy = vi.spyOn(m.root, "querySelector");
    m.model.update({ step: 6, table: m.model.get("table"), info: m.model.get("info") });
    m.model.update({ events: m.model.get("events") });
    expect(m.root.querySelector('.nw-live').textContent).toMatch(/^Step 5 of/);
    await flush();
    // one render: one lookup of the event list by the scroller
    expect(spy.mock.calls.filter(([sel]) => sel === ".nw-events")).toHaveLength(1);
    expect(m.root.querySelector('.nw-live').textContent).toMatch(/^Step 6 of/);
    m.cleanup();
  });

  it("keeps the same live line element, so screen readers hear each step", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    const live = m.root.querySelector(".nw-live");
    m.model.update({ step: 6 });
    await flush();
    expect(m.root.querySelector(".nw-live")).toBe(live);
    expect(live.textContent).toBe(`Step 6 of ${LAST}: ${FIXTURES.over_0.events[5].text}`);
    m.cleanup();
  });

  it("keeps keyboard focus on the same control across a re-render", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    button(m.root, "Next step").focus();
    m.model.update({ step: 6 });
    await flush();
    expect(document.activeElement).toBe(button(m.root, "Next step"));
    expect(document.activeElement.getAttribute("data-key")).toBe("next");
    m.cleanup();
  });

  it("re-focuses the same data-key even if the element was replaced", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    button(m.root, "Teacher").focus();
    // Python re-renders a different perspective: the header is rebuilt.
    m.model.update({ mode: "watch", perspective: "teacher", table: FIXTURES.over_teacher.table, info: FIXTURES.over_teacher.info });
    await flush();
    expect(document.activeElement.getAttribute("data-key")).toBe("persp-teacher");
    m.cleanup();
  });

  it("moves focus to the root when the focused control goes away", async () => {
    const m = mountState(stateFrom("draw_p1"));
    button(m.root, "Draw from pile").focus();
    m.model.update({ table: FIXTURES.sets_p1.table, events: FIXTURES.sets_p1.events, step: 3, steps: 3 });
    await flush();
    expect(document.activeElement).toBe(m.root);
    m.cleanup();
  });

  it("follows the current event when stepping from the event list", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    m.root.querySelector('[data-key="ev-5"]').focus();
    m.model.update({ step: 6 });
    await flush();
    expect(document.activeElement.getAttribute("data-key")).toBe("ev-6");
    expect(document.activeElement.getAttribute("aria-current")).toBe("step");
    m.cleanup();
  });

  it("does not steal focus from outside the widget", async () => {
    const m = mountState(stateFrom("over_0", { mode: "replay", step: 5 }));
    const outside = document.createElement("button");
    document.body.appendChild(outside);
    outside.focus();
    m.model.update({ step: 6 });
    await flush();
    expect(document.activeElement).toBe(outside);
    m.cleanup();
  });

  it("never writes a trait", async () => {
    const m = mountState(stateFrom("discard_p1"));
    m.root.querySelector(".nw-zone-bottom .nw-hand button").click();
    button(m.root, "Discard").click();
    button(m.root, "Previous step").click();
    expect(m.model.sets).toBe(0);
    expect(m.model.saves).toBe(0);
    m.cleanup();
  });
});

describe("cleanup", () => {
  it("removes every model and DOM listener it added, and renders nothing after", async () => {
    const added = [];
    const removed = [];
    // happy-dom may define the methods below EventTarget: spy where they really live.
    const owner = (name) => {
      let proto = Object.getPrototypeOf(document.createElement("div"));
      while (proto && !Object.prototype.hasOwnProperty.call(proto, name)) proto = Object.getPrototypeOf(proto);
      return proto;
    };
    const addOwner = owner("addEventListener");
    const removeOwner = owner("removeEventListener");
    const realAdd = addOwner.addEventListener;
    const realRemove = removeOwner.removeEventListener;
    const addSpy = vi.spyOn(addOwner, "addEventListener").mockImplementation(function (type, fn, opts) {
      added.push([this, type, fn]);
      return realAdd.call(this, type, fn, opts);
    });
    const removeSpy = vi.spyOn(removeOwner, "removeEventListener").mockImplementation(function (type, fn, opts) {
      removed.push([this, type, fn]);
      return realRemove.call(this, type, fn, opts);
    });
    const setTimeoutSpy = vi.spyOn(globalThis, "setTimeout");
    const setIntervalSpy = vi.spyOn(globalThis, "setInterval");
    const rafSpy = globalThis.requestAnimationFrame ? vi.spyOn(globalThis, "requestAnimationFrame") : null;

    const model = fakeModel(stateFrom("over_0", { mode: "replay", step: 4 }));
    const on = vi.spyOn(model, "on");
    const off = vi.spyOn(model, "off");
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = widget.render({ model, el });
    expect(typeof cleanup).toBe("function");
    expect(model.listenerCount()).toBeGreaterThan(0);
    expect(on.mock.calls.length).toBeGreaterThan(0);
    expect(added.length).toBeGreaterThan(0);
    // use it a little
    model.update({ step: 5 });
    button(el, "Show all discards").click();
    cleanup();
    addSpy.mockRestore();
    removeSpy.mockRestore();

    expect(model.listenerCount()).toBe(0);
    expect(off.mock.calls.length).toBe(on.mock.calls.length);
    const live = added.filter(
      ([target, type, fn]) => !removed.some(([t2, ty2, fn2]) => t2 === target && ty2 === type && fn2 === fn),
    );
    expect(live).toEqual([]);
    expect(setTimeoutSpy).not.toHaveBeenCalled();
    expect(setIntervalSpy).not.toHaveBeenCalled();
    if (rafSpy) expect(rafSpy).not.toHaveBeenCalled();
    expect(el.children).toHaveLength(0);
    // a batch already queued before cleanup renders nothing
    await flush();
    expect(el.children).toHaveLength(0);
  });

  it("two widgets on one page keep separate state and ids", () => {
    const a = mountState(stateFrom("discard_p1"));
    const b = mountState(stateFrom("discard_p1"));
    a.root.querySelector(".nw-zone-bottom .nw-hand button").click();
    expect(a.root.querySelectorAll('[aria-pressed="true"].nw-card')).toHaveLength(1);
    expect(b.root.querySelectorAll('[aria-pressed="true"].nw-card')).toHaveLength(0);
    const ids = Array.from(document.querySelectorAll("[id]")).map((n) => n.id);
    expect(new Set(ids).size).toBe(ids.length);
    a.cleanup();
    b.cleanup();
  });

  it("mount works with a model missing optional traits", () => {
    const model = fakeModel({ table: FIXTURES.draw_p1.table });
    const el = document.createElement("div");
    const cleanup = mount(model, el);
    expect(el.querySelector(".nw-table")).not.toBeNull();
    cleanup();
  });
});
