// Keyboard: ←/→ previous/next step, Home/End first/last, Space play/pause; ↑/↓ step too in the
// list of moves (↓ next) and on a slider of steps (the graph: ↑ next, as ARIA sliders do); [ / ] the
// previous / next line (the game and its variations).

import { hasAutoplay, mayStepOn } from "./replaybar.js";
import { switchLine } from "./variations.js";

const NATIVE_KEYS_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** True when the focused element uses the arrow keys itself (a range input, a select, a radio,
 * a text field): its own value changes, visibly (the step slider then sends its own step). */
export function keepsArrowKeys(target) {
  return Boolean(target && (NATIVE_KEYS_TAGS.has(target.tagName) || target.isContentEditable));
}

/** +1 / -1 for ↓ / ↑ where they step (the list of moves, a slider of steps), else 0. */
function verticalStep(target, key) {
  if (!target || typeof target.closest !== "function") return 0;
  if (target.closest(".nw-events")) return key === "ArrowDown" ? 1 : -1;
  if (target.getAttribute("role") === "slider") return key === "ArrowUp" ? 1 : -1;
  return 0;
}

function stepBy(state, delta) {
  if (delta < 0) return state.step > 0 ? { kind: "step", to: state.step - 1 } : null;
  if (delta > 0) return mayStepOn(state) ? { kind: "step", to: state.step + 1 } : null;
  return null;
}

/** The request a key press asks for, or null (then the key is left alone). */
export function keyRequest(event, state) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target;
  const tag = target && target.tagName;
  // Inputs and selects use these keys themselves (the slider sends its own step).
  if (keepsArrowKeys(target)) return null;
  if (state.cover || !state.table) return null;
  const { step, steps } = state;
  switch (event.key) {
    case "ArrowLeft":
      return stepBy(state, -1);
    case "ArrowRight":
      return stepBy(state, 1);
    case "ArrowUp":
    case "ArrowDown":
      return stepBy(state, verticalStep(target, event.key));
    case "Home":
      return step !== 0 ? { kind: "step", to: 0 } : null;
    case "End":
      return step !== steps ? { kind: "step", to: steps } : null;
    case "[":
      return switchLine(state, -1);
    case "]":
      return switchLine(state, 1);
    case " ":
    case "Spacebar":
      // A focused button already acts on Space.
      if (tag === "BUTTON" || tag === "A" || tag === "SUMMARY") return null;
      return hasAutoplay(state) ? { kind: "autoplay", playing: !state.playing, speed: state.speed || 1 } : null;
    default:
      return null;
  }
}

/** Keys we own, so the page does not scroll on them. */
export function isStepKey(event) {
  return ["ArrowLeft", "ArrowRight", "Home", "End", " ", "Spacebar"].includes(event.key);
}

/** Keys the widget leaves to the page (JupyterLab's save and run): Ctrl/⌘/Alt combinations, Shift+Enter. */
export function passesThrough(event) {
  return Boolean(event.ctrlKey || event.metaKey || event.altKey || (event.shiftKey && event.key === "Enter"));
}
