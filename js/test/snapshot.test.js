// snapshot.js's pure parts: which rules may style an element, which properties are written. The copy
// itself is drawn in a real browser (tests/browser/test_keys_and_picture.py compares it with the screen).
import { afterEach, describe, expect, it } from "vitest";
import {
  apart, classesAround, copied, declarations, FOLLOWS_COLOR, INHERITED, keysOf, mayMatch, selectorKey, splitTop,
  styleIndex,
} from "../src/snapshot.js";

const made = [];
afterEach(() => {
  for (const el of made.splice(0)) el.remove();
});

function html(markup, into = document.body) {
  const box = document.createElement("div");
  box.innerHTML = markup;
  const el = box.firstElementChild;
  into.appendChild(el);
  made.push(el);
  return el;
}

describe("selectors", () => {
  it("split at top-level commas and combinators only", () => {
    expect(splitTop("a, b:is(c, d), [x=','] e", ",")).toEqual(["a", " b:is(c, d)", " [x=','] e"]);
    expect(splitTop(".a > .b:nth-child(2n+1) ~ c", " >+~").filter(Boolean)).toEqual([".a", ".b:nth-child(2n+1)", "c"]);
  });

  it("key a rule by what its last compound asks of the element", () => {
    expect(selectorKey(".jp-Notebook .nw-card")).toBe(".nw-card");
    expect(selectorKey("div > span.nw-rank:hover")).toBe(".nw-rank");
    expect(selectorKey(".a #main.b")).toBe("#main");
    expect(selectorKey(".jp-RenderedHTMLCommon td")).toBe("td");
    expect(selectorKey("[data-jp-theme-light='true'] .x [hidden]")).toBe("[hidden]");
    expect(selectorKey(".nw-root :focus-visible")).toBe("*");
    expect(selectorKey(".a :is(.b, .c)")).toBe("*");
    expect(selectorKey(".a .b:not(.c)")).toBe(".b");
    expect(selectorKey("svg|rect")).toBe("*");
  });

  it("a rule for a pseudo-element styles no element itself", () => {
    expect(selectorKey(".nw-heat-top::after")).toBeNull();
    expect(selectorKey(".nw-x:before")).toBeNull();
    expect(selectorKey("::-webkit-scrollbar")).toBeNull();
  });

  it("a selector asking for a class that is nowhere around cannot match", () => {
    const around = new Set(["nw-root", "nw-card", "jp-OutputArea"]);
    expect(mayMatch(".jp-RenderedJSON :not(mark)", around)).toBe(false);
    expect(mayMatch(".jp-OutputArea .nw-root > .nw-card", around)).toBe(true);
    expect(mayMatch(".nw-card:not(.jp-elsewhere)", around)).toBe(true); // inside :not(), not asked for
    expect(mayMatch("td", around)).toBe(true);
  });

  it("the classes around an element: under it, on it, its ancestors and their siblings", () => {
    const page = html('<main class="page"><aside class="prompt"></aside><section class="out">'
      + '<div class="nw-root"><span class="nw-a"><b class="nw-b"></b></span></div></section></main>');
    const around = classesAround(page.querySelector(".nw-root"));
    for (const c of ["page", "prompt", "out", "nw-root", "nw-a", "nw-b"]) expect(around.has(c)).toBe(true);
  });

  it("an element's keys: any, its tag, id, classes and attributes", () => {
    const el = html('<span id="i" class="a b" data-k="1"></span>');
    expect(keysOf(el)).toEqual(["*", "span", "#i", ".a", ".b", "[id]", "[class]", "[data-k]"]);
    expect(keysOf(el, true)).toContain("@keyframes");
  });

  it("indexes the page's rules by key, leaving out those that cannot match around the root", () => {
    const style = html("<style>.nw-x { color: red } .nw-x .nw-line { stroke: blue } .jp-far .nw-line { fill: green }"
      + " .nw-x::after { content: 'x' }</style>", document.head);
    const root = html('<div class="nw-x"><svg><line class="nw-line"></line></svg></div>');
    const index = styleIndex(document, classesAround(root));
    expect([...index.get(".nw-x")]).toEqual(["color"]);
    expect([...index.get(".nw-line")]).toEqual(["stroke"]); // .jp-far is not around: its fill is not
    style.remove();
  });
});

describe("what is written", () => {
  const names = ["color", "font-weight", "margin-top", "border-top-color", "fill", "-webkit-text-fill-color"];
  const none = names.map(() => false);
  const parent = ["rgb(0, 0, 0)", "400", "0px", "rgb(0, 0, 0)", "rgb(0, 0, 0)", "rgb(0, 0, 0)"];
  const base = ["rgb(1, 2, 3)", "300", "0px", "rgb(1, 2, 3)", "rgb(4, 5, 6)", "rgb(1, 2, 3)"];

  it("only what differs from what the copy gets anyway", () => {
    expect(names.every((n) => copied(n))).toBe(true);
    // Inherited and as the parent's: nothing. A margin as the default, a border in its own colour
    // (the default, currentcolor): nothing.
    expect(declarations(names, parent, parent, base, none)).toEqual([]);
    const mine = ["rgb(255, 0, 0)", "700", "4px", "rgb(255, 0, 0)", "rgb(0, 0, 255)", "rgb(255, 0, 0)"];
    // A border whose colour is the element's own (currentcolor) and text fill that follows it: left alone.
    expect(declarations(names, mine, parent, base, none))
      .toEqual(["color:rgb(255, 0, 0)", "font-weight:700", "margin-top:4px", "fill:rgb(0, 0, 255)"]);
  });

  it("a property the browser sets on that element is compared with the browser's value, not the parent's", () => {
    const uaSets = names.map((n) => n === "font-weight");
    const th = [...parent];
    th[1] = "700";
    expect(declarations(names, th, parent, [...base.slice(0, 1), "700", ...base.slice(2)], uaSets)).toEqual([]);
    th[1] = "400"; // a th made normal again: written, or the browser's bold would show
    expect(declarations(names, th, parent, [...base.slice(0, 1), "700", ...base.slice(2)], uaSets))
      .toContain("font-weight:400");
  });

  it("the root gets every inherited property but those that follow its colour", () => {
    expect(FOLLOWS_COLOR.has("-webkit-text-fill-color") && INHERITED.has("-webkit-text-fill-color")).toBe(true);
    expect(declarations(names, parent, null, base, none))
      .toEqual(["color:rgb(0, 0, 0)", "font-weight:400", "fill:rgb(0, 0, 0)"]);
  });

  it("looks only where told, and skips what the caller writes", () => {
    const mine = ["rgb(255, 0, 0)", "700", "4px", "rgb(0, 0, 0)", "rgb(0, 0, 0)", "rgb(255, 0, 0)"];
    expect(declarations(names, mine, parent, base, none, (i) => i === 1, [0, 1])).toEqual(["color:rgb(255, 0, 0)"]);
  });

  it("custom properties, logical twins and behaviour are never written", () => {
    for (const name of ["--jp-layout-color1", "margin-inline-start", "inset-block-end", "transition-duration",
      "animation-name", "cursor", "scroll-margin-top", "border-start-start-radius"]) {
      expect(copied(name)).toBe(false);
    }
    for (const name of ["margin-left", "stroke-dasharray", "fill-opacity", "font-size", "box-shadow"]) {
      expect(copied(name)).toBe(true);
    }
  });

  it("boxes apart or meeting", () => {
    const box = { top: 0, bottom: 10, left: 0, right: 10 };
    expect(apart({ top: 10, bottom: 20, left: 0, right: 10 }, box)).toBe(true);
    expect(apart({ top: 9, bottom: 20, left: 0, right: 10 }, box)).toBe(false);
    expect(apart({ top: 0, bottom: 10, left: -5, right: 0 }, box)).toBe(true);
  });
});
