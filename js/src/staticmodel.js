// A model with the anywidget model's surface (get, on, off, send) over the steps' states that an
// exported HTML file holds (needle_widget/export.py): the widget runs on it with no kernel.
// It answers requests at once, as Python does: step, autoplay; anything else is refused in words.

import { heldRefusal, pyQuote, spoilerFreeRefusal, wholeRefusal } from "./steprules.js";

/** The values `pack` stored in Python: a pool of distinct values, referred to as {"$r": index}. */
export function unpack(packed) {
  const pool = packed.pool || [];
  const done = new Map();
  const expand = (value) => {
    if (Array.isArray(value)) return value.map(expand);
    if (value && typeof value === "object") {
      const keys = Object.keys(value);
      if (keys.length === 1 && keys[0] === "$r") return entry(value.$r);
      const out = {};
      for (const key of keys) out[key] = expand(value[key]);
      return out;
    }
    return value;
  };
  const entry = (i) => {
    if (!done.has(i)) done.set(i, expand(pool[i]));
    return done.get(i);
  };
  return (packed.items || []).map(expand);
}

const SOURCE = "this file holds one view of a finished replay";

/** Steps `from` to `end`. */
const steps = (from, end) => Array.from({ length: Math.max(0, end - from + 1) }, (_, i) => from + i);

/** The step a page's address names: "#step=12" -> 12; null for any other address (no fragment,
 * "#step=abc", "#step=-3", "#step=1e3", another fragment). */
export function stepFromHash(hash) {
  const m = /^#step=(\d+)$/.exec(String(hash || ""));
  return m ? Number(m[1]) : null;
}

/**
 * The step to show when the address asks for `wanted` (null: nothing asked) and the page would
 * otherwise show `own`. With spoilers, the step asked for, clamped to the replay. Spoiler-free, the
 * step asked for if the file has it, else `own`: clamping would show where the replay ends (the
 * model's own refusals never tell its length either), and any step the file has is one the reader
 * may reach by stepping on.
 */
export function openingStep(states, own, wanted) {
  const last = states.length - 1;
  const here = Math.min(Math.max(0, own | 0), last);
  if (typeof wanted !== "number" || Number.isNaN(wanted)) return here;
  if (states[here] && states[here].spoilers === false) {
    return Number.isInteger(wanted) && wanted >= 0 && wanted <= last ? wanted : here;
  }
  return Math.min(Math.max(0, Math.floor(wanted)), last);
}

/**
 * The model of an exported file: `states` are the steps' synced states (index = step: the game's, then the
 * variations'), `start` the step shown first, `lines` the variations the file holds ({index, from, end,
 * first}: the states of its steps from..end start at states[first]). `timers` stands in for
 * setInterval/clearInterval in tests.
 */
export function staticModel(states, start = 0, timers = globalThis, lines = []) {
  const last = (lines.length ? lines[0].first : states.length) - 1;
  let step = Math.min(Math.max(0, start | 0), last);
  let line = null; // the variation shown, or null: the game
  let mainStep = step; // the game's step, kept while a variation is shown
  let extra = { answer: null, error: null, playing: false, speed: 1 };
  let timer = null;
  let errors = 0;
  const listeners = new Map();
  const current = () => (line ? states[line.first + step - line.from] : states[step]);
  const end = () => (line ? line.end : last);

  const emit = () => {
    for (const [name, fns] of listeners) {
      if (name.startsWith("change:")) for (const fn of [...fns]) fn();
    }
  };
  const stop = () => {
    if (timer !== null) timers.clearInterval(timer);
    timer = null;
    extra = { ...extra, playing: false };
  };
  const answer = (id, ok, text = null) => {
    const error = ok ? null : { id: ++errors, text };
    extra = { ...extra, answer: Number.isInteger(id) ? { id, ok, error: ok ? null : text } : extra.answer, error };
  };
  const autoplay = (playing, speed) => {
    stop();
    const rate = Number(speed) > 0 ? Number(speed) : extra.speed;
    extra = { ...extra, speed: rate };
    if (!playing || step >= end()) return;
    extra = { ...extra, playing: true };
    timer = timers.setInterval(() => {
      step = Math.min(step + 1, end());
      if (step >= end()) stop();
      emit();
    }, 1000 / rate);
  };
  // The game's step rule, Python's (steprules.js, pinned to screen/stepping.py): with spoilers any step;
  // spoiler-free back to any step or on by one, and a refusal tells nothing of the replay's length.
  const mainRefusal = (to, from) => (states[from].spoilers === false
    ? spoilerFreeRefusal({ to, step: from, end: last }) : wholeRefusal({ to, end: last }));
  // A variation's steps are the ones the file holds of it.
  const lineRefusal = (to, shown) => heldRefusal({ to, held: steps(shown.from, shown.end), label: "this variation" });
  const toMain = (to) => {
    stop();
    line = null;
    step = to;
    mainStep = to;
  };

  const requests = {
    step(msg) {
      const to = msg.to;
      if (line) {
        if (Number.isInteger(to) && to >= 0 && to < line.from) {
          toMain(to);
          return null;
        }
        const refusal = lineRefusal(to, line);
        if (refusal) return refusal;
        stop();
        step = to;
        return null;
      }
      const refusal = mainRefusal(to, step);
      if (refusal) return refusal;
      toMain(to);
      return null;
    },
    line(msg) {
      const to = msg.to;
      if (msg.variation === null || msg.variation === undefined) {
        const target = to === undefined || to === null ? mainStep : to;
        if (!line) return requests.step({ to: target });
        const refusal = Number.isInteger(target) && target >= 0 && target <= mainStep ? null
          : mainRefusal(target, mainStep);
        if (refusal) return refusal;
        toMain(target);
        return null;
      }
      const found = lines.find((l) => l.index === msg.variation);
      const shown = line ? mainStep : step;
      if (!found || (states[shown].spoilers === false && found.from > shown)) {
        return `There is no variation ${pyQuote(msg.variation)} on this screen`;
      }
      const first = found.end > found.from ? found.from + 1 : found.from;
      const target = to === undefined || to === null ? first : to;
      const refusal = lineRefusal(target, found);
      if (refusal) return refusal;
      stop();
      if (!line) mainStep = step;
      line = found;
      step = target;
      return null;
    },
    autoplay(msg) {
      const speed = msg.speed === undefined || msg.speed === null ? extra.speed : Number(msg.speed);
      // As Python's check_speed.
      if (!(speed >= 0.1 && speed <= 20)) return `speed must be between 0.1 and 20 actions per second, not ${pyQuote(msg.speed)}`;
      autoplay(Boolean(msg.playing), speed);
      return null;
    },
  };

  return {
    get(name) {
      return name in extra ? extra[name] : current()[name];
    },
    set() {},
    save_changes() {},
    on(event, fn) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(fn);
    },
    off(event, fn) {
      if (listeners.has(event)) listeners.get(event).delete(fn);
    },
    send(msg) {
      const kind = msg && msg.kind;
      const handle = Object.prototype.hasOwnProperty.call(requests, kind) ? requests[kind] : null;
      const refusal = handle ? handle(msg) : `Not available here: ${SOURCE}, with no Python behind it`;
      answer(msg && msg.id, refusal === null, refusal);
      emit();
    },
    /** Shows the game's step `to` at once, as the page's address asks (openingStep decides which): no
     * answer, no error. Stops autoplay. False (nothing changes) for a step the file does not have. */
    show(to) {
      if (!Number.isInteger(to) || to < 0 || to > last) return false;
      toMain(to);
      emit();
      return true;
    },
    /** The step shown (for tests). */
    get step() {
      return step;
    },
    /** The index of the variation shown, or null (for tests). */
    get line() {
      return line ? line.index : null;
    },
  };
}
