// Tiny DOM builders for the pure view layer. No listeners are ever attached here:
// controls carry data-request / data-ui attributes and index.js dispatches them.

const SVG_NS = "http://www.w3.org/2000/svg";

function setProps(el, props) {
  for (const [name, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") {
      const cls = Array.isArray(value) ? value.filter(Boolean).join(" ") : value;
      if (cls) el.setAttribute("class", cls);
    } else if (name === "style") {
      const parts = Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => `${k}: ${v}`);
      if (parts.length) el.setAttribute("style", parts.join("; "));
    } else if (name === "data-request" || name === "data-ui") {
      el.setAttribute(name, typeof value === "string" ? value : JSON.stringify(value));
    } else {
      el.setAttribute(name, value === true ? "" : String(value));
    }
  }
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else if (typeof child === "object" && "nodeType" in child) el.appendChild(child);
    else el.appendChild(document.createTextNode(String(child)));
  }
}

/** h("button", {class: "nw-x", "aria-label": "Next step"}, "Next") -> HTMLElement */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  // A textarea's value is a property only (morph.js compares it), never an attribute or child text.
  const textarea = tag === "textarea" && props && props.value !== undefined;
  setProps(el, textarea ? { ...props, value: undefined } : props);
  append(el, children);
  if ((tag === "input" || tag === "select" || textarea) && props && props.value !== undefined) {
    el.value = String(props.value);
  }
  return el;
}

/** The same for SVG elements. */
export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props);
  append(el, children);
  return el;
}

/**
 * Parts of a view that stay the same from one render to the next (a move of the list, a card's face) are
 * built once while a mount renders (`withMemo`): `memo(key, deps, build)` builds the element the first time,
 * and after that, while every one of `deps` is the same (===), hands back a stand-in that `morph` leaves
 * alone where the live DOM already holds that element, and fills from the element built where it does not.
 * Outside `withMemo` (the views called on their own, as the tests do) it only builds: the views stay pure.
 */
let memos = null;

export function memo(key, deps, build) {
  if (memos === null) return build();
  const hit = memos.entries.get(key);
  memos.used.add(key);
  if (hit && hit.deps.length === deps.length && hit.deps.every((d, i) => d === deps[i])) {
    const stand = document.createElementNS(hit.node.namespaceURI, hit.node.localName);
    const k = hit.node.getAttribute("data-key");
    if (k !== null) stand.setAttribute("data-key", k);
    stand.setAttribute("data-nw-memo", "");
    stand.__nwMemo = hit.token;
    stand.__nwFull = hit.full;
    return stand;
  }
  const node = expand(build());
  const token = {};
  node.__nwMemo = token;
  const built = node.cloneNode(true);
  memos.entries.set(key, {
    deps, node: built, token, full() {
      const copy = built.cloneNode(true);
      copy.__nwMemo = token;
      return copy;
    },
  });
  return node;
}

/** `node` with every stand-in of `memo` in it (or itself one) replaced by the element it stands for: what
 * goes into the live DOM whole, not through `morph`. */
export function expand(node) {
  if (node.nodeType !== 1) return node;
  if (node.__nwFull) return node.__nwFull();
  for (const stand of node.querySelectorAll("[data-nw-memo]")) stand.replaceWith(stand.__nwFull());
  return node;
}

/** `render()` with `memo` keeping its parts in `cache` (a Map of one mount's): what this render did not use
 * is dropped, so the cache holds one screen's parts at most. */
export function withMemo(cache, render) {
  const outer = memos;
  memos = { entries: cache, used: new Set() };
  try {
    return render();
  } finally {
    for (const key of cache.keys()) if (!memos.used.has(key)) cache.delete(key);
    memos = outer;
  }
}

/** Text only screen readers read. */
export function srOnly(text) {
  return h("span", { class: "nw-sr" }, text);
}

/** 0.8444 -> "84%", 0.0222 -> "2.2%", 0.0996 -> "10%", 0 -> "0%", null -> "–": Python's rule
 * (needle_widget/figures.py `percent`); js/test/figures.test.js checks both write PERCENT_EXAMPLES alike. */
export function percent(p) {
  if (p === null || p === undefined || typeof p !== "number" || !Number.isFinite(p)) return "–";
  const x = p * 100;
  if (x === 0) return "0%";
  if (x >= 99.95) return "100%";
  if (x < 0.1) return "<0.1%";
  if (x < 9.95) return `${x.toFixed(1)}%`;
  return `${Math.round(x)}%`;
}
