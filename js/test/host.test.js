// The widget inside a shadow root, as marimo renders it (mo.ui.anywidget): the focus kept across a
// re-render, keys kept from the page, the host's theme (marimo's body.dark) followed, the picture's
// styles read from the shadow root.

import { afterEach, describe, expect, it } from "vitest";
import { mount } from "../src/index.js";
import { activeElementOf, followTheme, hostTheme, rootNodeOf } from "../src/host.js";
import { styleIndex, withWidths } from "../src/snapshot.js";
import { FIXTURES, button, fakeModel, flush, stateFrom } from "./helpers.js";

afterEach(() => {
  document.body.innerHTML = "";
  document.body.removeAttribute("class");
  document.body.removeAttribute("data-theme");
  document.body.removeAttribute("data-jp-theme-light");
});

/** The widget mounted in an open shadow root under a host element (marimo's <marimo-anywidget>). */
function inShadow(state) {
  const host = document.createElement("div");
  document.body.appendChild(host);
  const shadow = host.attachShadow({ mode: "open" });
  const el = document.createElement("div");
  shadow.appendChild(el);
  const model = fakeModel(state);
  const cleanup = mount(model, el);
  return { host, shadow, model, root: shadow.querySelector(".nw-root"), cleanup };
}

describe("the page around the view", () => {
  it("reads the focus and the root node from the view's shadow root, not the document", () => {
    const { shadow, root, cleanup } = inShadow(stateFrom("over_0", { mode: "replay", step: 5 }));
    const next = button(root, "Next step");
    next.focus();
    expect(document.activeElement).not.toBe(next); // the document sees the shadow's host
    expect(rootNodeOf(root)).toBe(shadow);
    expect(activeElementOf(root)).toBe(next);
    expect(rootNodeOf(document.createElement("div"))).toBe(document);
    cleanup();
  });

  it("keeps the focus on the same control across a re-render inside a shadow root", async () => {
    const { shadow, model, root, cleanup } = inShadow(stateFrom("over_0", { mode: "replay", step: 5 }));
    button(root, "Teacher").focus();
    model.update({ mode: "watch", perspective: "teacher", table: FIXTURES.over_teacher.table, info: FIXTURES.over_teacher.info });
    await flush();
    expect(shadow.activeElement.getAttribute("data-key")).toBe("persp-teacher");
    cleanup();
  });

  it("keeps the keys it handles from the page's shortcuts inside a shadow root", () => {
    const { root, cleanup } = inShadow(stateFrom("over_0", { mode: "replay", step: 5 }));
    const seen = [];
    const listen = (e) => seen.push(e.key);
    document.addEventListener("keydown", listen);
    for (const k of ["ArrowDown", "a", "b", "Escape"]) {
      button(root, "Next step").dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, composed: true, cancelable: true }));
    }
    document.removeEventListener("keydown", listen);
    expect(seen).toEqual([]);
    cleanup();
  });

  it("finds the host's theme on the elements around it, out of shadow roots", () => {
    const { host, root, cleanup } = inShadow(stateFrom("over_0"));
    expect(hostTheme(root)).toBe(null);
    expect(root.hasAttribute("data-nw-theme")).toBe(false); // nothing said: the light fallbacks, as before
    document.body.className = "dark dark-theme"; // marimo's dark theme
    expect(hostTheme(root)).toBe("dark");
    document.body.className = "";
    document.body.setAttribute("data-theme", "light");
    expect(hostTheme(root)).toBe("light");
    host.setAttribute("data-jp-theme-light", "false"); // the nearest says it
    expect(hostTheme(root)).toBe("dark");
    cleanup();
  });

  it("follows the host's theme as it changes (data-nw-theme)", async () => {
    const { root, cleanup } = inShadow(stateFrom("over_0"));
    document.body.className = "dark";
    await flush();
    expect(root.getAttribute("data-nw-theme")).toBe("dark");
    document.body.className = "light";
    await flush();
    expect(root.getAttribute("data-nw-theme")).toBe("light");
    cleanup();
  });

  it("stops following once disconnected", async () => {
    const el = document.createElement("div");
    document.body.appendChild(el);
    const theme = followTheme(el);
    theme.disconnect();
    document.body.className = "dark";
    await flush();
    expect(el.hasAttribute("data-nw-theme")).toBe(false);
  });

  it("indexes the style rules of the view's shadow root (the picture reads them there)", () => {
    const host = document.createElement("div");
    document.body.appendChild(host);
    const shadow = host.attachShadow({ mode: "open" });
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(".nw-card { background-color: rgb(1, 2, 3); }");
    shadow.adoptedStyleSheets = [sheet]; // marimo adopts the widget's CSS into the shadow root
    const el = document.createElement("div");
    shadow.appendChild(el);
    const index = styleIndex(rootNodeOf(el));
    expect(index && index.get(".nw-card") && index.get(".nw-card").has("background-color")).toBe(true);
  });

  it("copies a border's width with its style (a page's `* { border: 0 solid }` draws no frame)", () => {
    const style = { getPropertyValue: (n) => (n.endsWith("-width") ? "0px" : "") };
    expect(withWidths(["border-top-style:solid", "outline-style:none", "color:red"], style))
      .toEqual(["border-top-style:solid", "outline-style:none", "color:red", "border-top-width:0px"]);
    expect(withWidths(["border-left-style:dashed", "border-left-width:2px"], style))
      .toEqual(["border-left-style:dashed", "border-left-width:2px"]);
  });
});
