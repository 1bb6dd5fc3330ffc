// The features list (features.js): every control a view renders reaches a feature that handles it.

import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { renderApp } from "../src/app.js";
import { FEATURES, featureOf, focusFallbacks, inputHandler } from "../src/features.js";
import { VIEW_NAMES } from "../src/index.js";
import { initialUi, reduceUi, syncUi } from "../src/ui.js";
import { FIXTURE_NAMES, MODES, stateFrom } from "./helpers.js";

const PARTS = ["header", "tabletop", "left", "side", "rows", "analysis", "cover"];

function views() {
  const out = [];
  for (const name of FIXTURE_NAMES) for (const mode of MODES) out.push(stateFrom(name, { mode, error: { id: 1, text: "No" } }));
  for (const s of Object.values(states)) {
    const v = { ...s, answer: null, error: null, scale: 1 };
    for (const [trait, name] of Object.entries(VIEW_NAMES)) if (trait in v) v[name] = v[trait];
    out.push(v);
  }
  return out;
}

/** Every view of `views()` rendered (once: two tests read them). */
let rendered = null;
function renderedViews() {
  if (rendered === null) {
    const ui = initialUi();
    rendered = views().map((state) => renderApp(state, ui));
  }
  return rendered;
}

describe("the features list", () => {
  it("names each feature once, in one word, with a slice only where it reduces or syncs one", () => {
    const names = FEATURES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FEATURES) {
      expect(f.name).toMatch(/^[a-z][a-z0-9]*$/);
      expect(Boolean(f.initial)).toBe(Boolean(f.reduce || f.sync));
      for (const part of Object.keys(f.views || {})) expect(PARTS).toContain(part);
    }
    expect(Object.keys(initialUi("nw7")).sort()).toEqual(["uid", ...FEATURES.filter((f) => f.initial).map((f) => f.name)].sort());
  });

  it("routes every data-ui action a view renders to the feature named before its first dash", () => {
    let seen = 0;
    for (const view of renderedViews()) {
      for (const el of view.querySelectorAll("[data-ui]")) {
        const action = JSON.parse(el.getAttribute("data-ui"));
        const f = featureOf(action.ui);
        expect(f && f.reduce, action.ui).toBeTruthy();
        expect(action.ui === f.name || action.ui.startsWith(`${f.name}-`)).toBe(true);
        seen += 1;
      }
    }
    expect(seen).toBeGreaterThan(0);
  });

  it("has a handler for every data-input a view renders", () => {
    const kinds = new Set();
    for (const view of renderedViews()) {
      for (const el of view.querySelectorAll("[data-input]")) kinds.add(el.getAttribute("data-input"));
    }
    expect(kinds.size).toBeGreaterThan(3);
    for (const kind of kinds) expect(inputHandler("change", kind), kind).toBeTypeOf("function");
  });

  it("leaves the UI state alone for an action nobody owns, and when nothing changes", () => {
    const ui = syncUi(initialUi(), stateFrom(FIXTURE_NAMES[0]));
    expect(reduceUi(ui, { ui: "nobody-here" }, stateFrom(FIXTURE_NAMES[0]))).toBe(ui);
    expect(reduceUi(ui, { ui: "table-clear" }, stateFrom(FIXTURE_NAMES[0]))).toBe(ui);
    expect(syncUi(ui, stateFrom(FIXTURE_NAMES[0]))).toBe(ui);
  });

  it("hands the focus of a feature's control to its fallbacks, and no other", () => {
    expect(focusFallbacks("note-save")).toEqual(["note-text", "note-add"]);
    expect(focusFallbacks("notes")).toEqual([]);
    expect(focusFallbacks("hand-7H")).toEqual([]);
  });
});
