// The entry of an exported replay (needle_widget/export.py): the widget on a static model of the
// states embedded in the page, with no kernel and no network. The page's address names the step
// shown ("game.html#step=12"): it opens there, and follows the steps (history.replaceState, so
// stepping adds no history entry and asks for nothing).

import { mount } from "./index.js";
import { openingStep, staticModel, stepFromHash, unpack } from "./staticmodel.js";

/** "#step=12" for step 12. */
export const stepHash = (step) => `#step=${step}`;

/**
 * Keeps `win`'s address at the step `model` shows, and shows the step of a fragment the reader
 * changes (a link to another step of the same page, an address edited by hand). A page opened
 * with no fragment keeps its address until the step changes. Returns the cleanup.
 */
export function followAddress(win, model, states) {
  let written = win.location.hash ? null : model.step;
  const write = () => {
    if (model.step === written || (model.line !== null && model.line !== undefined)) return; // a variation's step is not the game's
    written = model.step;
    try {
      win.history.replaceState(win.history.state, "", stepHash(model.step));
    } catch {
      // an address that may not change (a sandboxed frame): the page steps all the same
    }
  };
  const onHash = () => {
    const to = openingStep(states, model.step, stepFromHash(win.location.hash));
    if (to !== model.step) model.show(to);
    written = null; // the address names the step shown, also after a malformed or refused one
    write();
  };
  model.on("change:step", write);
  win.addEventListener("hashchange", onHash);
  write();
  return () => {
    model.off("change:step", write);
    win.removeEventListener("hashchange", onHash);
  };
}

export function boot(doc = document) {
  const el = doc.getElementById("needle-widget");
  const data = doc.getElementById("needle-data");
  if (!el || !data) return null;
  const packed = JSON.parse(data.textContent);
  const states = unpack(packed);
  const win = doc.defaultView;
  const lines = Array.isArray(packed.lines) ? packed.lines : [];
  const game = lines.length ? states.slice(0, lines[0].first) : states;
  const start = openingStep(game, packed.step || 0, win ? stepFromHash(win.location.hash) : null);
  const model = staticModel(states, start, globalThis, lines);
  const unmount = mount(model, el);
  const unfollow = win ? followAddress(win, model, game) : () => {};
  return {
    model,
    cleanup() {
      unfollow();
      unmount();
    },
  };
}

boot();
