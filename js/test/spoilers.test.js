import { describe, expect, it } from "vitest";
import { keyRequest } from "../src/keys.js";
import { liveText, mayStepOn } from "../src/replaybar.js";
import { FIXTURES, button, key, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

// Spoiler-free review: Python sends the replay as if it ended at the current step (steps === step),
// with `spoilers: false`, so Next and → stay on until the round is over at that step.
const open = mountsCleanedAfterEach();
const MID = FIXTURES.sets_p1.events.length;
const END = FIXTURES.over_0.events.length;
const review = (name, over = {}) => stateFrom(name, { mode: "replay", spoilers: false, ...over });

describe("spoiler-free review", () => {
  it("keeps Next and → on at the end of the replay as shown, and asks for the next step", () => {
    const { root, model } = open(review("sets_p1"));
    const next = button(root, "Next step");
    expect(next.disabled).toBe(false);
    const right = key(root, "ArrowRight");
    expect(right.defaultPrevented).toBe(true);
    expect(model.sent).toEqual([{ kind: "step", to: MID + 1 }]);
  });

  it("Next sends the next step too; Last and End stay at the current end", () => {
    const { root, model } = open(review("sets_p1"));
    button(root, "Next step").click();
    expect(model.sent).toEqual([{ kind: "step", to: MID + 1 }]);
    expect(button(root, "Last step").disabled).toBe(true);
    expect(keyRequest({ key: "End", target: root }, review("sets_p1"))).toBe(null);
  });

  it("turns Next and → off once the round is over at the step shown", () => {
    const { root, model } = open(review("over_0"));
    expect(button(root, "Next step").disabled).toBe(true);
    key(root, "ArrowRight");
    expect(model.sent).toEqual([]);
    expect(mayStepOn(review("over_0"))).toBe(false);
  });

  it("is off by default: Next and → stop at the last step", () => {
    const state = stateFrom("sets_p1", { mode: "replay" });
    expect(mayStepOn(state)).toBe(false);
    expect(keyRequest({ key: "ArrowRight", target: null }, state)).toBe(null);
    const { root } = open(state);
    expect(button(root, "Next step").disabled).toBe(true);
  });

  it("does not name a number of steps in the live line", () => {
    expect(liveText(review("sets_p1"))).toMatch(new RegExp(`^Step ${MID}: `));
    expect(liveText(stateFrom("over_0", { mode: "replay" }))).toMatch(new RegExp(`^Step ${END} of ${END}: `));
  });
});
