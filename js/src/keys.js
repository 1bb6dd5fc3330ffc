// Keyboard: ←/→ previous/next step, Home/End first/last, Space play/pause.

import { hasAutoplay, mayStepOn } from "./replaybar.js";

const NATIVE_KEYS_TAGS = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** The request a key press asks for, or null (then the key is left alone). */
export function keyRequest(event, state) {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return null;
  const target = event.target;
  const tag = target && target.tagName;
  // Inputs and selects use these keys themselves (the slider sends its own step).
  if (NATIVE_KEYS_TAGS.has(tag) || (target && target.isContentEditable)) return null;
  if (state.cover || !state.table) return null;
  const { step, steps } = state;
  switch (event.key) {
    case "ArrowLeft":
      return step > 0 ? { kind: "step", to: step - 1 } : null;
    case "ArrowRight":
      return mayStepOn(state) ? { kind: "step", to: step + 1 } : null;
    case "Home":
      return step !== 0 ? { kind: "step", to: 0 } : null;
    case "End":
      return step !== steps ? { kind: "step", to: steps } : null;
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
