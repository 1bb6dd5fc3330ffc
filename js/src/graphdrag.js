// Clicking or dragging on the evaluation graph (the element with data-graph = its number of
// steps) asks for the step under the pointer: at once, then only when a drag reaches another step.

import { pointerStep } from "./graph.js";

function stepUnder(box, event) {
  const svg = box.querySelector("svg");
  return pointerStep(event.clientX, svg && svg.getBoundingClientRect(), Number(box.getAttribute("data-graph")));
}

/** Listens on `root`; `send(request)` sends a step, `stepFrom()` is the step shown or asked for. Returns the cleanup. */
export function graphDrag(root, { send, stepFrom }) {
  let drag = null;

  function onPointerDown(event) {
    const box = event.target.closest && event.target.closest("[data-graph]");
    if (!box || !root.contains(box) || event.button !== 0) return;
    if (box.setPointerCapture) {
      try {
        box.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic pointer has nothing to capture
      }
    }
    const to = stepUnder(box, event);
    drag = { pointerId: event.pointerId, last: to };
    if (to !== stepFrom()) send({ kind: "step", to });
  }

  function onPointerMove(event) {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const box = root.querySelector("[data-graph]");
    if (!box) return;
    const to = stepUnder(box, event);
    if (to === drag.last) return;
    drag.last = to;
    send({ kind: "step", to });
  }

  function onPointerUp(event) {
    if (drag && event.pointerId === drag.pointerId) drag = null;
  }

  const handlers = { pointerdown: onPointerDown, pointermove: onPointerMove, pointerup: onPointerUp, pointercancel: onPointerUp };
  for (const [type, fn] of Object.entries(handlers)) root.addEventListener(type, fn);
  return function cleanup() {
    for (const [type, fn] of Object.entries(handlers)) root.removeEventListener(type, fn);
  };
}
