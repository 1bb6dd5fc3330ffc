// Test helpers: a fake anywidget model and states built from the Python fixtures.

import { afterEach } from "vitest";
import fixtures from "./fixtures.json";
import { TRAITS, VIEW_NAMES, mount } from "../src/index.js";

export const FIXTURES = fixtures;
export const FIXTURE_NAMES = Object.keys(FIXTURES);
export const MODES = ["play", "hotseat", "watch", "replay", "live"];

/** The full synced state for a fixture, with the traits the fixtures lack filled in. */
export function stateFrom(name, overrides = {}) {
  const fx = structuredClone(FIXTURES[name]);
  const steps = fx.events.length;
  return {
    mode: "play",
    perspective: fx.perspective,
    perspectives: [0, 1, "spectator", "teacher"],
    step: steps,
    steps,
    table: fx.table,
    events: fx.events,
    info: fx.info,
    seats: ["You", "greedy"],
    bots: [],
    cover: null,
    error: null,
    playing: false,
    speed: 1,
    scale: 1,
    busy: false,
    can_act: fx.table.legal_actions.length > 0 && fx.perspective !== "teacher",
    ...overrides,
  };
}

/** A state as the model holds it: `notes` / `quiz` under the trait names Python syncs them as. */
export function synced(state) {
  const out = { ...state };
  for (const [trait, name] of Object.entries(VIEW_NAMES)) {
    if (TRAITS.includes(trait) && name in out) {
      out[trait] = out[name];
      delete out[name];
    }
  }
  return out;
}

/** A fake anywidget model: records sent messages (`requests` as sent, `sent` without their
 * ids) and live listeners. */
export function fakeModel(initial) {
  const data = { ...initial };
  const listeners = new Map();
  const model = {
    sent: [],
    requests: [],
    saves: 0,
    sets: 0,
    get: (name) => data[name],
    set(name, value) {
      model.sets += 1;
      data[name] = value;
    },
    save_changes() {
      model.saves += 1;
    },
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
    },
    off(event, fn) {
      if (listeners.has(event)) listeners.get(event).delete(fn);
    },
    send(msg) {
      model.requests.push(structuredClone(msg));
      const { id: _id, ...rest } = msg;
      model.sent.push(structuredClone(rest));
    },
    listenerCount() {
      let n = 0;
      for (const set of listeners.values()) n += set.size;
      return n;
    },
    /** What Python does for the last request sent: apply `patch` and answer its id. */
    answer(patch = {}, { ok = true, error = null } = {}) {
      const last = model.requests[model.requests.length - 1];
      model.update({ ...patch, answer: { id: last.id, ok, error } });
    },
    /** What Python does: change traits, then fire change events. */
    update(patch) {
      Object.assign(data, patch);
      for (const name of Object.keys(patch)) {
        for (const fn of [...(listeners.get(`change:${name}`) || [])]) fn({ name, new: patch[name] });
      }
    },
  };
  return model;
}

export function mountState(state) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel(state);
  const cleanup = mount(model, el);
  const root = el.querySelector(".nw-root");
  return {
    el,
    model,
    root,
    cleanup() {
      cleanup();
      el.remove();
    },
  };
}

export function mountFixture(name, overrides = {}) {
  return mountState(stateFrom(name, overrides));
}

/** Let the coalesced re-render (queueMicrotask) run. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The text of `el` a screen reader reads: without what is aria-hidden (a key shown on a button). */
export function spokenText(el) {
  let text = "";
  for (const child of el.childNodes) {
    if (child.nodeType === 3) text += child.textContent;
    else if (child.nodeType === 1 && child.getAttribute("aria-hidden") !== "true") text += spokenText(child);
  }
  return text;
}

export function accessibleName(el) {
  return (el.getAttribute("aria-label") || spokenText(el) || "").trim().replace(/\s+/g, " ");
}

/** All buttons with exactly this accessible name. */
export function buttons(root, name) {
  return Array.from(root.querySelectorAll("button")).filter((b) => accessibleName(b) === name);
}

export function button(root, name) {
  const found = buttons(root, name);
  if (found.length !== 1) throw new Error(`expected one button named ${JSON.stringify(name)}, found ${found.length}`);
  return found[0];
}

export function click(el) {
  el.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
}

export function key(target, keyName) {
  const event = new KeyboardEvent("keydown", { key: keyName, bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event;
}

/** An `open(fixtureName | state, overrides?)` that mounts, and cleans up after each test. */
export function mountsCleanedAfterEach() {
  let mounted = [];
  afterEach(() => {
    mounted.forEach((m) => m.cleanup());
    mounted = [];
  });
  return (...args) => {
    const m = typeof args[0] === "string" ? mountFixture(...args) : mountState(...args);
    mounted.push(m);
    return m;
  };
}
