import { describe, expect, it } from "vitest";
import { percent } from "../src/dom.js";
import { PERCENT_EXAMPLES } from "../src/shared.js";

describe("percent", () => {
  it("writes every shared example as Python's figures.percent does", () => {
    expect(PERCENT_EXAMPLES.length).toBeGreaterThan(20);
    for (const [p, text] of PERCENT_EXAMPLES) expect([p, percent(p)]).toEqual([p, text]);
  });

  it("writes a missing figure as a dash", () => {
    for (const p of [null, undefined, Number.NaN, Infinity, "0.5"]) expect(percent(p)).toBe("–");
  });
});
