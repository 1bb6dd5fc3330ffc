import { describe, expect, it } from "vitest";
import { h } from "../src/dom.js";
import { morph } from "../src/morph.js";

const list = (keys, extra = {}) =>
  h("ul", extra, keys.map((k) => h("li", { "data-key": k, class: `item-${k}` }, `text ${k}`)));

describe("morph", () => {
  it("keeps keyed elements across reorder, insert and removal", () => {
    const live = list(["a", "b", "c"]);
    const [a, b, c] = live.children;
    morph(live, list(["c", "a", "d"], { class: "changed" }));
    expect(Array.from(live.children).map((n) => n.getAttribute("data-key"))).toEqual(["c", "a", "d"]);
    expect(live.children[0]).toBe(c);
    expect(live.children[1]).toBe(a);
    expect(b.isConnected).toBe(false);
    expect(live.getAttribute("class")).toBe("changed");
  });

  it("updates text and attributes in place and removes stale attributes", () => {
    const live = h("div", { title: "old", "aria-pressed": "true" }, h("span", null, "one"));
    const span = live.firstChild;
    morph(live, h("div", { title: "new" }, h("span", null, "two")));
    expect(live.firstChild).toBe(span);
    expect(span.textContent).toBe("two");
    expect(live.getAttribute("title")).toBe("new");
    expect(live.hasAttribute("aria-pressed")).toBe(false);
  });

  it("replaces nodes whose tag changed and drops extra children", () => {
    const live = h("div", null, h("span", null, "x"), h("b", null, "y"), h("i", null, "z"));
    morph(live, h("div", null, h("em", null, "x")));
    expect(live.innerHTML).toBe("<em>x</em>");
  });

  it("syncs input and select values", () => {
    const live = h("div", null,
      h("input", { type: "range", min: "0", max: "10", value: "3" }),
      h("select", { value: "1" }, h("option", { value: "1", selected: true }, "1"), h("option", { value: "2" }, "2")));
    const [input, select] = live.children;
    input.value = "7"; // the user moved it
    morph(live, h("div", null,
      h("input", { type: "range", min: "0", max: "20", value: "12" }),
      h("select", { value: "2" }, h("option", { value: "1" }, "1"), h("option", { value: "2", selected: true }, "2"))));
    expect(input.value).toBe("12");
    expect(input.max).toBe("20");
    expect(select.value).toBe("2");
  });
});
