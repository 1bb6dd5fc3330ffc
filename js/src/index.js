// anywidget entry: reads the synced traits, renders, sends numbered requests. Never sets a trait.

import "./style.css";
import { renderApp } from "./app.js";
import { activeElementOf, followTheme, nextInstance } from "./host.js";
import { isStepKey, keyRequest, passesThrough } from "./keys.js";
import { expand, withMemo } from "./dom.js";
import { morph } from "./morph.js";
import { requestIds } from "./requests.js";
import { DEFAULTS, FOLLOW_TRAITS, TRAITS, VIEW_NAMES } from "./shared.js";
import { nearestShown } from "./stepping.js";
import { FEATURES, focusFallbacks, inputHandler, keyAction } from "./features.js";
import { initialUi, reduceUi, syncUi } from "./ui.js";

export { TRAITS };

/** Every trait a view reads: a screen's (`TRAITS`), and a class screen's own (`follow`: FollowWidget). */
const READ = [...TRAITS, ...FOLLOW_TRAITS];

/** What to assume for a trait the model lacks (Python always sends them all), and the traits the views
 * read under another name (widget.py keeps `notes` and `quiz` for its Python API): both from the screen
 * contract (shared.js). */
export { DEFAULTS, VIEW_NAMES };

/** The synced traits as one plain object, with defaults for anything missing. */
export function readState(model) {
  const state = {};
  for (const name of READ) {
    const value = model.get(name);
    state[VIEW_NAMES[name] || name] = value === undefined || (value === null && name in DEFAULTS && DEFAULTS[name] !== null)
      ? DEFAULTS[name]
      : value;
  }
  return state;
}


function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** Render the widget for `model` into `el`; returns the cleanup. The features (features.js) do the
 * rest: their views, UI slices, inputs and hooks; this is only the plumbing between them. */
export function mount(model, el) {
  const root = document.createElement("div");
  root.className = "nw-root";
  root.tabIndex = 0;
  root.setAttribute("data-lm-suppress-shortcuts", "");
  root.setAttribute("role", "group");
  root.setAttribute("aria-label", "Needle in a Card Stack");
  el.appendChild(root);
  // The host's theme (marimo's dark one has no JupyterLab variables): data-nw-theme, for style.css.
  const theme = followTheme(root);

  let ui = initialUi(`nw${nextInstance()}`);
  let state = readState(model);
  let scheduled = false;
  let disposed = false;
  let shownStep = null;
  const parts = new Map(); // what `memo` keeps between renders (dom.js)

  // Every request carries an id; Python's `answer` names it. The latest step asked for (`asked`)
  // is what keys step from until Python has answered it; meanwhile the view shows the state
  // nearest to it (`held`: a step Python prepared in `nearby` at once, never one further away).
  const ids = requestIds(model.get("answer"));
  let asked = null;
  let held = null;

  /** The step the next key press steps from: the one asked for, or the one shown. */
  const stepFrom = () => (asked ? asked.to : state.step);

  // What a feature's `connect` gets, and the hooks it gave back (`sent`, `rendered`, `message`, `disconnect`).
  const ctx = { root, model, send, dispatch, state: () => state, ui: () => ui, stepFrom, disposed: () => disposed };
  const hooks = FEATURES.filter((f) => f.connect).map((f) => f.connect(ctx));
  const each = (hook, ...args) => {
    for (const h of hooks) if (h[hook]) h[hook](...args);
  };

  function send(msg) {
    const id = ids.next();
    if (msg.kind === "step") asked = { id, to: msg.to };
    model.send({ ...msg, id });
    each("sent", msg, id);
    if (msg.kind === "step") render();
  }

  /** A local UI action: applied, and rendered if it changed anything (or `always`). */
  function dispatch(action, always = false) {
    const next = reduceUi(ui, action, state);
    if (next === ui && !always) return;
    ui = next;
    render();
  }

  function onAnswer() {
    ids.note(model.get("answer"));
  }

  // The focus as the view's root node holds it: in marimo's shadow root, `document.activeElement`
  // is the shadow's host, never the focused button.
  function focusedKey() {
    const active = activeElementOf(root);
    if (!active || !root.contains(active)) return null;
    if (active === root) return "";
    const keyed = active.closest("[data-key]");
    return keyed && root.contains(keyed) ? keyed.getAttribute("data-key") : "";
  }

  function restoreFocus(key, previousStep) {
    if (key === null) return; // focus was elsewhere on the page: leave it there
    // Following the current event when stepping from the event list.
    if (key === `ev-${previousStep}`) key = `ev-${state.step}`;
    const active = activeElementOf(root);
    // (A control disabled by this render still holds the focus until the browser takes it away: not kept.)
    if (active && root.contains(active) && !active.disabled && (key === "" || active.getAttribute("data-key") === key)) return;
    const find = (k) => Array.from(root.querySelectorAll("[data-key]")).find((n) => n.getAttribute("data-key") === k && !n.disabled);
    // A control of a closed form or panel hands the focus to what opens it again (or the way back):
    // the first still there of its feature's `focus` list.
    const target = key ? [key, ...focusFallbacks(key)].map(find).find(Boolean) : null;
    if (target) target.focus({ preventScroll: true });
    else root.focus({ preventScroll: true });
  }

  function render() {
    if (disposed) return;
    const previousStep = shownStep;
    onAnswer();
    if (asked && ids.answered(asked.id)) asked = null;
    state = readState(model);
    if (asked) {
      held = nearestShown(state, held, asked.to);
      state = { ...state, step: held.step, table: held.table, info: held.info, asked: asked.to };
    } else {
      held = null;
    }
    ui = syncUi(ui, state, { answered: ids.answered, answer: model.get("answer") });
    const key = focusedKey();
    root.style.setProperty("--nw-scale", String(Number(state.scale) > 0 ? state.scale : 1));
    const next = withMemo(parts, () => renderApp(state, ui));
    if (root.firstChild) morph(root.firstChild, next);
    else root.appendChild(expand(next));
    restoreFocus(key, previousStep);
    const stepChanged = state.step !== shownStep;
    shownStep = state.step;
    theme.check();
    each("rendered", { stepChanged });
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

  /** A custom message from Python (`save_png` asks for a picture), to the features. */
  function onCustom(msg) {
    if (!disposed) each("message", msg);
  }

  /** What a feature's input handler asked: a UI action ({ui}), a request ({kind}), or nothing. */
  function apply(result) {
    if (result && result.ui) dispatch(result);
    else if (result && result.kind) send(result);
  }

  /** A `data-input` element's event, to the feature that handles it (features.js `inputHandler`). */
  function onInputEvent(event, input = event.target) {
    const kind = input && input.getAttribute && input.getAttribute("data-input");
    const handler = kind ? inputHandler(event.type, kind) : null;
    if (handler) apply(handler(input, { state, stepFrom: stepFrom() }));
    return Boolean(handler);
  }

  function onClick(event) {
    const input = event.target.closest && event.target.closest("[data-input]");
    if (input && root.contains(input) && onInputEvent(event, input)) return;
    const target = event.target.closest && event.target.closest("[data-request], [data-ui]");
    if (!target || !root.contains(target) || target.disabled) return;
    if (target.hasAttribute("data-ui")) {
      if (target.tagName === "SUMMARY") event.preventDefault(); // the UI state opens its <details>
      const action = parseJson(target.getAttribute("data-ui"));
      if (action) dispatch(action, true);
    } else {
      const request = parseJson(target.getAttribute("data-request"));
      if (request) send(request);
    }
  }

  function onKeydown(event) {
    // Every key pressed inside the widget is the widget's (or its native control's), never
    // JupyterLab's: its command-mode shortcuts match a focused button through `:focus` before
    // they reach the root's data-lm-suppress-shortcuts, so ↑/↓ would move the cell selection,
    // ←/→ on a select fold headings, A/B/D D add or delete cells. Ctrl/⌘/Alt combinations and
    // Shift+Enter (save, run the cell) are not the widget's: they go on to JupyterLab.
    if (!passesThrough(event)) event.stopPropagation();
    const action = keyAction(event, ui, state);
    if (action) {
      event.preventDefault();
      if (action.kind) send(action); // a key that presses a button (the table's action keys)
      else dispatch(action, true);
      return;
    }
    const request = keyRequest(event, { ...state, step: stepFrom() });
    if (request) {
      event.preventDefault();
      send(request);
    } else if (event.target === root && isStepKey(event)) {
      event.preventDefault(); // no page scroll at either end of the game
    }
  }

  const listeners = { click: onClick, input: onInputEvent, change: onInputEvent, keydown: onKeydown };
  model.on("change:answer", onAnswer);
  model.on("msg:custom", onCustom); // a model without custom messages (a static export) never calls it
  for (const name of READ) model.on(`change:${name}`, onModelChange);
  for (const [type, fn] of Object.entries(listeners)) root.addEventListener(type, fn);
  render();

  return function cleanup() {
    disposed = true;
    theme.disconnect();
    each("disconnect");
    model.off("change:answer", onAnswer);
    model.off("msg:custom", onCustom);
    for (const name of READ) model.off(`change:${name}`, onModelChange);
    for (const [type, fn] of Object.entries(listeners)) root.removeEventListener(type, fn);
    root.remove();
  };
}

export default {
  render({ model, el }) {
    return mount(model, el);
  },
};
