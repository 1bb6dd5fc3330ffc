// anywidget entry: reads the synced traits, renders, sends requests. Never sets a trait.

import "./style.css";
import { renderApp } from "./app.js";
import { isStepKey, keyRequest } from "./keys.js";
import { morph } from "./morph.js";
import { initialUi, reduceUi, syncUi } from "./ui.js";

export const TRAITS = [
  "mode", "perspective", "perspectives", "step", "steps", "table", "events", "info", "seats",
  "bots", "cover", "error", "playing", "speed", "scale", "busy", "can_act", "nearby", "paused",
];

const DEFAULTS = {
  perspectives: [], step: 0, steps: 0, table: null, events: [], info: { kind: "spectator" }, seats: [],
  bots: [], cover: null, error: null, playing: false, speed: 1, scale: 1, busy: false, can_act: false,
  nearby: {}, paused: null,
};

/** The synced traits as one plain object, with defaults for anything missing. */
export function readState(model) {
  const state = {};
  for (const name of TRAITS) {
    const value = model.get(name);
    state[name] = value === undefined || (value === null && name in DEFAULTS && DEFAULTS[name] !== null)
      ? DEFAULTS[name]
      : value;
  }
  return state;
}

let instances = 0;

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Render the widget for `model` into `el`; returns the cleanup. */
export function mount(model, el) {
  const root = document.createElement("div");
  root.className = "nw-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "");
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "Needle in a Card Stack");
  el.appendChild(root);

  let ui = initialUi(`nw${++instances}`);
  let state = readState(model);
  let scheduled = false;
  let disposed = false;
  let shownStep = null;
  let sentStep = null;

  // A step Python has already prepared (`nearby`) is shown at once, before its answer
  // arrives; the preview lasts until the model's step or error changes.
  let preview = null;

  const send = (msg) => {
    if (msg.kind === "step") showPreview(msg.to);
    model.send(msg);
  };

  function showPreview(to) {
    const near = state.nearby && state.nearby[String(to)];
    if (!near || to === state.step) return;
    preview = { base: model.get("step"), error: model.get("error"), state: { step: to, table: near.table, info: near.info } };
    render();
  }

  function focusedKey() {
    const active = document.activeElement;
    if (!active || !root.contains(active)) return null;
    if (active === root) return "";
    const keyed = active.closest("[data-key]");
    return keyed && root.contains(keyed) ? keyed.getAttribute("data-key") : "";
  }

  function restoreFocus(key, previousStep) {
    if (key === null) return; // focus was elsewhere on the page: leave it there
    // Following the current event when stepping from the event list.
    if (key === `ev-${previousStep}`) key = `ev-${state.step}`;
    const active = document.activeElement;
    if (active && root.contains(active) && (key === "" || active.getAttribute("data-key") === key)) return;
    const target = key
      ? Array.from(root.querySelectorAll("[data-key]")).find((n) => n.getAttribute("data-key") === key)
      : null;
    if (target && !target.disabled) target.focus({ preventScroll: true });
    else root.focus({ preventScroll: true });
  }

  function scrollCurrentEvent() {
    const list = root.querySelector(".nw-events");
    const current = list && list.querySelector('[aria-current="step"]');
    if (!current) return;
    const item = current.parentElement;
    const top = item.offsetTop;
    const bottom = top + item.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  }

  function render() {
    if (disposed) return;
    const previousStep = shownStep;
    if (preview && (model.get("step") !== preview.base || model.get("error") !== preview.error)) preview = null;
    state = readState(model);
    if (preview) state = { ...state, ...preview.state };
    ui = syncUi(ui, state);
    const key = focusedKey();
    root.style.setProperty("--nw-scale", String(Number(state.scale) > 0 ? state.scale : 1));
    const next = renderApp(state, ui);
    if (root.firstChild) morph(root.firstChild, next);
    else root.appendChild(next);
    restoreFocus(key, previousStep);
    if (state.step !== shownStep) {
      shownStep = state.step;
      sentStep = null;
      scrollCurrentEvent();
    }
  }

  // One re-render per batch of trait changes.
  function onModelChange() {
    if (scheduled || disposed) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      render();
    });
  }

  function onClick(event) {
    const target = event.target.closest && event.target.closest("[data-request], [data-ui]");
    if (!target || !root.contains(target) || target.disabled) return;
    if (target.hasAttribute("data-ui")) {
      const action = parseJson(target.getAttribute("data-ui"));
      if (action) {
        ui = reduceUi(ui, action, state);
        render();
      }
    } else {
      const request = parseJson(target.getAttribute("data-request"));
      if (request) send(request);
    }
  }

  function sendStepFrom(input) {
    const to = Number(input.value);
    if (!Number.isInteger(to) || to === state.step || to === sentStep) return;
    sentStep = to;
    send({ kind: "step", to });
  }

  function onInput(event) {
    const t = event.target;
    if (t && t.getAttribute && t.getAttribute("data-input") === "step") sendStepFrom(t);
  }

  function onChange(event) {
    const t = event.target;
    const kind = t && t.getAttribute && t.getAttribute("data-input");
    if (kind === "step") sendStepFrom(t);
    else if (kind === "speed") {
      const speed = Number(t.value);
      if (speed > 0) send({ kind: "autoplay", playing: Boolean(state.playing), speed });
    }
  }

  function onKeydown(event) {
    if (event.key === "Escape" && ui.selected.length) {
      ui = { ...ui, selected: [] };
      event.preventDefault();
      render();
      return;
    }
    const request = keyRequest(event, state);
    if (request) {
      event.preventDefault();
      send(request);
    } else if (event.target === root && isStepKey(event)) {
      event.preventDefault(); // no page scroll at either end of the game
    }
  }

  for (const name of TRAITS) model.on(`change:${name}`, onModelChange);
  root.addEventListener("click", onClick);
  root.addEventListener("input", onInput);
  root.addEventListener("change", onChange);
  root.addEventListener("keydown", onKeydown);
  render();

  return function cleanup() {
    disposed = true;
    for (const name of TRAITS) model.off(`change:${name}`, onModelChange);
    root.removeEventListener("click", onClick);
    root.removeEventListener("input", onInput);
    root.removeEventListener("change", onChange);
    root.removeEventListener("keydown", onKeydown);
    root.remove();
  };
}

export default {
  render({ model, el }) {
    return mount(model, el);
  },
};
