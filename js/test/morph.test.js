import { describe, expect, it } from "vitest";
import { expand, h, memo, withMemo } from "../src/dom.js";
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

describe("memo", () => {
  const row = (key, text, built) => memo(key, [text], () => {
    built.push(key);
    return h("li", { "data-key": key }, h("span", null, text));
  });
  const list = (items, built) => h("ol", null, items.map(([k, t]) => row(k, t, built)));

  it("only builds outside withMemo: the views stay pure", () => {
    const built = [];
    const a = list([["a", "one"]], built);
    const b = list([["a", "one"]], built);
    expect(built).toEqual(["a", "a"]);
    expect(a.outerHTML).toBe(b.outerHTML);
    expect(a.querySelector("[data-nw-memo]")).toBe(null);
  });

  it("builds a part once while its deps stay, and morph leaves the live part alone", () => {
    const cache = new Map();
    const built = [];
    const live = withMemo(cache, () => list([["a", "one"], ["b", "two"]], built));
    const a = live.children[0];
    a.setAttribute("data-touched", "yes"); // a change morph would undo if it looked
    morph(live, withMemo(cache, () => list([["a", "one"], ["b", "three"]], built)));
    expect(built).toEqual(["a", "b", "b"]);
    expect(live.children[0]).toBe(a);
    expect(a.getAttribute("data-touched")).toBe("yes");
    expect(live.children[1].textContent).toBe("three");
  });

  it("fills a stand-in from the part it stands for wherever the live DOM lacks that part", () => {
    const cache = new Map();
    const built = [];
    const live = withMemo(cache, () => list([["a", "one"]], built));
    const next = withMemo(cache, () => h("div", null, list([["a", "one"]], built), h("p", null, row("a", "one", built))));
    expect(next.querySelectorAll("[data-nw-memo]").length).toBe(2); // stand-ins, empty
    const host = h("div", null, live);
    morph(host, next);
    expect(built).toEqual(["a"]);
    expect(host.innerHTML).toBe('<ol><li data-key="a"><span>one</span></li></ol><p><li data-key="a"><span>one</span></li></p>');
    expect(host.querySelector("[data-nw-memo]")).toBe(null);
    // a new root from stand-ins only (a widget mounted again with the same cache): whole
    const whole = expand(withMemo(cache, () => list([["a", "one"]], built)));
    expect(whole.outerHTML).toBe('<ol><li data-key="a"><span>one</span></li></ol>');
  });

  it("keeps only what the last render used", () => {
    const cache = new Map();
    const built = [];
    withMemo(cache, () => list([["a", "one"], ["b", "two"]], built));
    withMemo(cache, () => list([["b", "two"]], built));
    expect([...cache.keys()]).toEqual(["b"]);
    withMemo(cache, () => list([["a", "one"]], built));
    expect(built).toEqual(["a", "b", "a"]);
  });
});
