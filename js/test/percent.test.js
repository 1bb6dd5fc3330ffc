// One figure, one way: every percentage the front end shows comes from dom.js's `percent` (the rule
// Python's texts follow too: half-up rounding of the binary value, one decimal below 10%, "<0.1%",
// "100%" from 99.95%). A source check: no other module rounds a share and puts "%" after it.

import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { percent } from "../src/dom.js";

const SRC = resolve(__dirname, "../src");

describe("percent", () => {
  it("rounds half up on the binary value, one decimal below 10%", () => {
    expect(percent(0.245)).toBe("25%"); // 24.5: Python's "{:.0%}" says 24% (half to even)
    expect(percent(0.125)).toBe("13%");
    expect(percent(0.05)).toBe("5.0%");
    expect(percent(0.0005)).toBe("<0.1%");
    expect(percent(0.9995)).toBe("100%");
    expect(percent(0.9994)).toBe("100%");
    expect(percent(0.9949)).toBe("99%");
  });
});

describe("percentages in js/src", () => {
  it("are formatted by percent() alone (toFixed / Math.round next to a % only for CSS lengths)", () => {
    const offenders = [];
    for (const name of readdirSync(SRC).filter((f) => f.endsWith(".js") && f !== "dom.js" && f !== "shared.js")) {
      readFileSync(resolve(SRC, name), "utf8").split("\n").forEach((line, i) => {
        const rounds = /toFixed\(|Math\.round\(/.test(line);
        const percentSign = /%[`"']|%\$\{|\* ?100|100 ?\*/.test(line);
        const cssLength = /width|left|CSS/.test(line);
        if (rounds && percentSign && !cssLength) offenders.push(`${name}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offenders).toEqual([]);
  });
});
