// anywidget entry of the class board (BoardWidget: board.js + board.css): reads `board`, `view`,
// `error` and `answer`, renders (boardview.js), sends numbered requests. Never sets a trait.

import "./board.css";
import { renderBoard } from "./boardview.js";
import { activeElementOf, followTheme, nextInstance } from "./host.js";
import { passesThrough } from "./keys.js";
import { morph } from "./morph.js";
import { requestIds } from "./requests.js";
import { BOARD_TRAITS } from "./shared.js";

/** The traits the board reads (the screen contract's BOARD, generated into shared.js). */
export { BOARD_TRAITS };

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}


/** Render the board for `model` into `el`; returns the cleanup. */
export function mountBoard(model, el) {
  const root = document.createElement("div");
  root.className = "nb-root";
  root.tabIndex = -1;
  root.setAttribute("data-lm-suppress-shortcuts", "");
  root.setAttribute("role", "region");
  root.setAttribute("aria-label", "Class board");
  el.appendChild(root);
  const theme = followTheme(root);

  const uid = `nb${nextInstance()}`;
  const ids = requestIds(model.get("answer"));
  let dismissed = null;
  let scheduled = false;
  let disposed = false;

  function render() {
    if (disposed) return;
    ids.note(model.get("answer"));
    const error = model.get("error");
    const ui = { uid, error: error ? { ...error, dismissed: error.id === dismissed } : null };
    const active = activeElementOf(root);
    const key = active && root.contains(active) ? active.getAttribute("data-key") : null;
    const next = renderBoard(model.get("board") || null, model.get("view"), ui);
    if (root.firstChild) morph(root.firstChild, next);
    else root.appendChild(next);
    theme.check();
    if (key && !root.contains(activeElementOf(root))) {
      const again = Array.from(root.querySelectorAll("[data-key]")).find((n) => n.getAttribute("data-key") === key);
      (again && !again.disabled ? again : root).focus({ preventScroll: true });
    }
  }

  function onChange() {
    if (scheduled || disposed) return;
    scheduled = true;
    queueMicrotask(() => {
      scheduled = false;
      render();
    });
  }

  function send(msg) {
    model.send({ ...msg, id: ids.next() });
  }

  function onClick(event) {
    const target = event.target.closest && event.target.closest("[data-request], [data-ui]");
    if (!target || !root.contains(target) || target.disabled) return;
    if (target.hasAttribute("data-ui")) {
      const action = parseJson(target.getAttribute("data-ui"));
      if (action && action.ui === "dismiss") {
        dismissed = action.id;
        render();
        root.focus({ preventScroll: true });
      }
      return;
    }
    const request = parseJson(target.getAttribute("data-request"));
    if (request) send(request);
  }

  function onKeydown(event) {
    // Keys typed on the board are the board's (a button's Enter and Space), never JupyterLab's
    // command-mode shortcuts; Ctrl/⌘/Alt combinations and Shift+Enter go on to JupyterLab.
    if (!passesThrough(event)) event.stopPropagation();
  }

  for (const name of BOARD_TRAITS) model.on(`change:${name}`, onChange);
  root.addEventListener("click", onClick);
  root.addEventListener("keydown", onKeydown);
  render();

  return function cleanup() {
    disposed = true;
    theme.disconnect();
    for (const name of BOARD_TRAITS) model.off(`change:${name}`, onChange);
    root.removeEventListener("click", onClick);
    root.removeEventListener("keydown", onKeydown);
    root.remove();
  };
}

export default {
  render({ model, el }) {
    return mountBoard(model, el);
  },
};
