// The exported page's step rules are Python's: every case Python's `step_cases()` lists (js/test/step_rules.json,
// generated from needle_widget/screen/stepping.py and checked by tests/test_js.py) gets Python's answer here.
import { describe, expect, it } from "vitest";
import { STEP_RULES, pyQuote } from "../src/steprules.js";
import CASES from "./step_rules.json";

describe("the step rules are Python's, word for word", () => {
  it("has a case for every rule, and every rule Python has", () => {
    expect(new Set(CASES.map((c) => c.rule))).toEqual(new Set(Object.keys(STEP_RULES)));
  });

  for (const [n, c] of CASES.entries()) {
    it(`case ${n}: ${c.rule} ${JSON.stringify(c.args)}`, () => {
      expect(STEP_RULES[c.rule](c.args)).toBe(c.refusal);
    });
  }

  it("quotes a request's value as Python's quote does", () => {
    expect(pyQuote("it's")).toBe('"it\'s"');
    expect(pyQuote([1, "a", null, true, 2.5])).toBe("[1, 'a', None, True, 2.5]");
    expect(pyQuote({ a: [] })).toBe("{'a': []}");
  });
});
