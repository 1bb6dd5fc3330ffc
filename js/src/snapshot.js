// The widget's DOM copied into one self-contained SVG (an XHTML copy in a <foreignObject>) for
// "Save picture". The copy keeps no style rule of the page: each element carries its computed style
// inline, but only the properties whose value differs from what the copy would get anyway (its parent's
// value for an inherited property, the browser's own default for that element otherwise). SVG elements
// (the graph, the suit icons) get the same treatment as HTML ones, so they keep their colours.
//
// Fast on a large page: a property no style rule of the page could set on an element (none of the
// rules whose last compound selector names its tag, id or classes, or names none of them) has the
// browser's own value there, which the copy gets by itself: it is not even read. The page's custom
// properties are never copied (their values are in the computed ones), nor is anything fetched: no web
// font, no image.

import { rootNodeOf } from "./host.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** Properties a child takes from its parent when nothing sets them (CSS "Inherited: yes"). A property
 * missing here is treated as not inherited: only written more often than needed, never lost. */
export const INHERITED = new Set([
  "accent-color", "border-collapse", "caption-side", "caret-color", "clip-rule", "color", "color-interpolation",
  "color-interpolation-filters", "color-rendering", "color-scheme", "cursor", "direction", "dominant-baseline",
  "empty-cells", "fill", "fill-opacity", "fill-rule", "font-family", "font-feature-settings", "font-kerning",
  "font-language-override", "font-optical-sizing", "font-palette", "font-size", "font-size-adjust", "font-stretch",
  "font-style", "font-synthesis-small-caps", "font-synthesis-style", "font-synthesis-weight", "font-variant",
  "font-variant-alternates", "font-variant-caps", "font-variant-east-asian", "font-variant-emoji",
  "font-variant-ligatures", "font-variant-numeric", "font-variant-position", "font-variation-settings", "font-weight",
  "forced-color-adjust", "hyphenate-character", "hyphenate-limit-chars", "hyphens", "image-orientation",
  "image-rendering", "letter-spacing", "line-break", "line-height", "list-style-image", "list-style-position",
  "list-style-type", "marker-end", "marker-mid", "marker-start", "math-depth", "math-shift", "math-style", "orphans",
  "overflow-wrap", "paint-order", "pointer-events", "print-color-adjust", "quotes", "ruby-align", "ruby-position",
  "shape-rendering", "speak", "stroke", "stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin",
  "stroke-miterlimit", "stroke-opacity", "stroke-width", "tab-size", "text-align", "text-align-last", "text-anchor",
  "text-autospace", "text-decoration-skip-ink", "text-emphasis-color", "text-emphasis-position",
  "text-emphasis-style", "text-indent", "text-justify", "text-orientation", "text-rendering", "text-shadow",
  "text-size-adjust", "text-spacing-trim", "text-transform", "text-underline-offset", "text-underline-position",
  "text-wrap-mode", "text-wrap-style", "visibility", "white-space", "white-space-collapse", "widows", "word-break",
  "word-spacing", "writing-mode", "-webkit-border-horizontal-spacing", "-webkit-border-vertical-spacing",
  "-webkit-font-smoothing", "-webkit-line-break", "-webkit-locale", "-webkit-rtl-ordering", "-webkit-ruby-position",
  "-webkit-text-combine", "-webkit-text-decorations-in-effect", "-webkit-text-fill-color", "-webkit-text-orientation",
  "-webkit-text-security", "-webkit-text-stroke-color", "-webkit-text-stroke-width", "-webkit-writing-mode",
]);

/** Inherited properties whose default is the element's own colour (`currentcolor`, which children
 * inherit as such): a value equal to the element's colour is that default and is left to it, or every
 * child would draw its text in its parent's colour. */
export const FOLLOWS_COLOR = new Set(["-webkit-text-fill-color", "-webkit-text-stroke-color", "text-emphasis-color",
  "caret-color"]);

// Nothing a still picture shows: motion, scrolling, pointer and selection behaviour, timelines.
const BEHAVIOUR = new RegExp("^(animation|transition|view-transition|view-timeline|scroll-|overscroll|timeline|anchor"
  + "|position-anchor|position-try|position-visibility|interest|caret|will-change|touch-action|user-select"
  + "|pointer-events|cursor|app-region|window-drag|interactivity|trigger|speak|reading-|-webkit-user-"
  + "|-webkit-tap-highlight)");
// Logical properties: the physical ones, always compared, say the same in a horizontal writing mode.
const LOGICAL = /(^|-)(block|inline)(-|$)|^border-(start|end)-(start|end)-radius$|^corner-(start|end)-(start|end)-shape$/;
/** An SVG shape's geometry: its attributes, copied with the element, say it. */
const GEOMETRY = new Set(["x", "y", "cx", "cy", "r", "rx", "ry", "d", "width", "height"]);
/** What a shape or a text inside an <svg> draws with (the rest is none of its business). */
const SVG_DRAWS = new RegExp("^(fill|stroke|opacity|visibility|display|transform|rotate|scale|translate|font|text-"
  + "|letter-spacing|word-spacing|clip|mask|filter|marker|paint-order|vector-effect|color|mix-blend-mode|isolation"
  + "|shape-rendering|dominant-baseline|alignment-baseline|baseline-shift|direction|writing-mode|stop-|flood-"
  + "|lighting-color|overflow|image-rendering|white-space|unicode-bidi)");

/** Whether computed property `name` is worth writing into the copy: never a custom property (the
 * computed values have them resolved already), a logical twin, or a behaviour nothing still shows. */
export function copied(name) {
  return !name.startsWith("--") && !LOGICAL.test(name) && !BEHAVIOUR.test(name);
}

/** `text` split at each top-level `sep` (not inside brackets, parentheses or quotes). */
export function splitTop(text, sep) {
  const parts = [];
  let depth = 0;
  let quote = null;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (quote) { if (c === quote) quote = null; }
    else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0 && sep.includes(c)) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

/** `compound` without what is inside its brackets and parentheses. */
const flatten = (compound) => {
  let flat = "";
  let depth = 0;
  for (const c of compound) {
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (depth === 0) flat += c;
  }
  return flat;
};

/** The key of a selector's last compound: what an element must be for the rule to style it. "#id",
 * ".class" (the first), a tag, "*" when the compound names none of them (`:hover`, `[hidden]`,
 * `:is(…)`), or null when the rule styles a pseudo-element (`::before`, `:after`) and not the element. */
export function selectorKey(selector) {
  const compound = splitTop(selector.trim(), " >+~\n\t").filter(Boolean).pop() || "";
  if (/::|:(before|after|first-letter|first-line)\b/i.test(compound)) return null;
  if (!compound || compound.includes("\\") || compound.includes("|")) return "*";
  // What is inside brackets or parentheses names other elements or attributes: leave it out.
  const flat = flatten(compound);
  const id = /#(-?[_a-zA-Z][\w-]*)/.exec(flat);
  if (id) return `#${id[1]}`;
  const cls = /\.(-?[_a-zA-Z][\w-]*)/.exec(flat);
  if (cls) return `.${cls[1]}`;
  const tag = /^([a-zA-Z][\w-]*)/.exec(flat);
  if (tag) return tag[1].toLowerCase();
  const attr = /^\[\s*([a-zA-Z_][\w-]*)/.exec(compound.slice(compound.indexOf("[")));
  return compound.startsWith("[") && attr ? `[${attr[1].toLowerCase()}]` : "*";
}


/** Whether `selector` may match anything when only the classes in `classes` are on the page around
 * (every class its compounds ask for, outside parentheses and brackets, must be there). */
export function mayMatch(selector, classes) {
  for (const compound of splitTop(selector.trim(), " >+~\n\t")) {
    if (!compound || compound.includes("\\")) continue;
    for (const m of flatten(compound).matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)) if (!classes.has(m[1])) return false;
  }
  return true;
}

/** The classes a rule styling an element under `root` can ask for: those under it, on it, on its
 * ancestors and on their siblings. */
export function classesAround(root) {
  const classes = new Set();
  const add = (el) => { if (el.classList) for (const c of el.classList) classes.add(c); };
  add(root);
  for (const el of root.querySelectorAll("[class]")) add(el);
  for (let up = root; up && up.parentElement; up = up.parentElement) {
    for (const sibling of up.parentElement.children) add(sibling);
    add(up.parentElement);
  }
  return classes;
}

/** The page's style rules by what they can style: key (see selectorKey) -> the properties their rules
 * declare; keyframes under "@keyframes" (for animated elements), other rules with no selector under
 * "*", font faces nowhere (they style no element). With `classes` (see classesAround), a selector
 * asking for a class not there is left out. Null when a style sheet cannot be read (another origin):
 * then every property of every element is compared. */
export function styleIndex(doc, classes = null) {
  const byKey = new Map();
  const add = (key, style) => {
    let set = byKey.get(key);
    if (!set) byKey.set(key, (set = new Set()));
    for (let i = 0; i < style.length; i++) set.add(style[i]);
  };
  const walk = (rules) => {
    for (const rule of rules) {
      if (rule.style) {
        if (rule.type === 1 && typeof rule.selectorText === "string") {
          for (const selector of splitTop(rule.selectorText, ",")) {
            if (classes && !mayMatch(selector, classes)) continue;
            const key = selectorKey(selector);
            if (key !== null) add(key, rule.style);
          }
        } else if (rule.type === 8) {
          add("@keyframes", rule.style);
        } else if (rule.type !== 5) {
          add("*", rule.style);
        }
      }
      if (rule.cssRules) walk(rule.cssRules);
      if (rule.styleSheet) walk(rule.styleSheet.cssRules);
    }
  };
  try {
    for (const sheet of [...Array.from(doc.styleSheets || []), ...Array.from(doc.adoptedStyleSheets || [])]) {
      walk(sheet.cssRules);
    }
  } catch {
    return null;
  }
  return byKey;
}

/** The keys (see selectorKey) of the rules that may style `el`; "@keyframes" too when it is `animated`. */
export function keysOf(el, animated = false) {
  const keys = ["*", el.localName.toLowerCase()];
  if (el.id) keys.push(`#${el.id}`);
  const cls = el.getAttribute("class");
  if (cls) for (const c of cls.split(/\s+/)) if (c) keys.push(`.${c}`);
  for (const name of el.getAttributeNames()) keys.push(`[${name.toLowerCase()}]`);
  if (animated) keys.push("@keyframes");
  return keys;
}

/** The inline style declarations ("name:value") for an element. `names[0]` is "color"; `values` are the
 * element's computed values (one per name); `parent` its parent's (null for the copy's root, where every
 * inherited property is written); `base` what the browser gives that element by default in its place;
 * `uaSets[i]` whether the browser's own style sets inherited property i on it (a button's font, a th's
 * weight); `skip(i)` for properties the caller writes otherwise; `only`, the indices to look at (the
 * others known to be as the copy makes them). A value equal to the element's colour where the default
 * is the colour (`currentcolor`: borders, outlines, text fill) is left to that default. */
export function declarations(names, values, parent, base, uaSets, skip = () => false, only = null) {
  const out = [];
  const color = values[0];
  for (let k = 0, n = only ? only.length : names.length; k < n; k++) {
    const i = only ? only[k] : k;
    const v = values[i];
    if (v === "" || v === undefined || skip(i)) continue;
    const name = names[i];
    const fromParent = INHERITED.has(name) && !uaSets[i];
    let same;
    if (fromParent && !parent) same = i > 0 && FOLLOWS_COLOR.has(name) && v === color;
    else {
      const ref = fromParent ? parent[i] : base[i];
      const refColor = fromParent ? parent[0] : base[0];
      same = v === ref || (i > 0 && v === color && ref === refColor);
    }
    if (!same) out.push(`${name}:${v}`);
  }
  return out;
}

// Values no browser style gives an element: a child that differs from such a parent has a default of
// its own (a button's font, a th's weight), and a default in em is unlike any size the page uses.
const PROBE = "color:rgb(1, 2, 3);font-size:7.37px;font-family:nw-probe;font-weight:300;font-style:italic;"
  + "line-height:3.3px;text-align:right;letter-spacing:0.71px;word-spacing:0.77px;text-transform:lowercase;"
  + "text-indent:0.73px;white-space:pre-line;list-style-type:square;list-style-position:inside;"
  + "border-collapse:collapse;border-spacing:0.79px;fill:rgb(4, 5, 6);stroke:rgb(7, 8, 9);stroke-width:0.83px;"
  + "font-variant-numeric:tabular-nums;text-decoration-skip-ink:none;caption-side:bottom;empty-cells:hide;"
  + "text-anchor:middle;quotes:'<' '>';tab-size:3;font-kerning:none;text-shadow:rgb(1, 1, 1) 1px 1px 0px;";

// The attributes the browser's own style looks at (a type, disabled, open, hidden…).
const KEYED = ["type", "disabled", "open", "hidden", "multiple", "size", "dir"];

/** A shadow root with no author style, off screen: what the browser gives each element by default. */
function sandbox(doc) {
  const host = doc.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.style.cssText = "all:initial;position:fixed;left:-30000px;top:0;width:600px;height:10px;overflow:hidden;";
  (doc.body || doc.documentElement).appendChild(host);
  const probe = doc.createElement("div");
  probe.style.cssText = PROBE;
  host.attachShadow({ mode: "open" }).appendChild(probe);
  return { host, probe, cache: new Map() };
}

function bare(el) {
  const doc = el.ownerDocument;
  const copy = el.namespaceURI === SVG_NS ? doc.createElementNS(SVG_NS, el.localName) : doc.createElement(el.localName);
  for (const name of KEYED) if (el.hasAttribute(name)) copy.setAttribute(name, el.getAttribute(name));
  return copy;
}

function kind(el) {
  let key = `${el.namespaceURI === SVG_NS ? "svg:" : ""}${el.localName}`;
  for (const name of KEYED) if (el.hasAttribute(name)) key += `[${name}=${el.getAttribute(name)}]`;
  return key;
}

/** What the browser gives `el` by default in its parent's place (`base`, one value per name), and
 * which inherited properties its own style sets there (`uaSets`). */
function defaults(box, el, names) {
  const parent = el.parentElement;
  const key = `${parent ? kind(parent) : "-"}>${kind(el)}`;
  let found = box.cache.get(key);
  if (found) return found;
  const p = parent ? bare(parent) : box.probe.ownerDocument.createElement("div");
  p.style.cssText = PROBE;
  const c = bare(el);
  p.appendChild(c);
  box.probe.appendChild(p);
  const ps = getComputedStyle(p);
  const cs = getComputedStyle(c);
  const base = names.map((n) => cs.getPropertyValue(n));
  const uaSets = names.map((n, i) => INHERITED.has(n) && base[i] !== ps.getPropertyValue(n));
  const inherits = names.map((n, i) => INHERITED.has(n) && !uaSets[i]);
  found = { base, uaSets, inherits, uaRead: names.map((_, i) => i).filter((i) => uaSets[i]) };
  box.cache.set(key, found);
  return found;
}

/** What to compare, for the elements under `root`: `names` (colour first), the indices of the names
 * to read on an element (`readsOf(el)`), and the inherited properties no rule declares (`rest`), which
 * only the copy's root needs (inside, the browser gives them as it does on the page). */
function plan(doc, root) {
  // The rules that can style the view are its root node's: a shadow root's own (marimo's) sheets,
  // not the document's, which never reach inside it.
  const index = styleIndex(rootNodeOf(root), classesAround(root));
  const all = Array.from(getComputedStyle(doc.documentElement)).filter(copied);
  const inline = new Set();
  for (const el of [root, ...root.querySelectorAll("[style]")]) {
    for (let i = 0; i < el.style.length; i++) inline.add(el.style[i]);
  }
  const known = new Set(all);
  // A rule declares longhands; the browser lists a few shorthands among its computed properties
  // (background-position for background-position-x, text-decoration for text-decoration-line…).
  const seen = new Map();
  const computedNames = (n) => {
    let out = seen.get(n);
    if (!out) {
      out = [n];
      for (let at = n.lastIndexOf("-"); at > 0; at = n.lastIndexOf("-", at - 1)) {
        if (known.has(n.slice(0, at))) out.push(n.slice(0, at));
      }
      seen.set(n, out);
    }
    return out;
  };
  const declared = new Set();
  for (const n of inline) for (const c of computedNames(n)) declared.add(c);
  if (index) for (const set of index.values()) for (const n of set) for (const c of computedNames(n)) declared.add(c);
  const wanted = (n) => !index || declared.has(n) || n === "width" || n === "height";
  const names = ["color", ...all.filter((n) => n !== "color" && wanted(n))];
  const rest = all.filter((n) => !wanted(n) && INHERITED.has(n));
  const at = new Map(names.map((n, i) => [n, i]));
  const everything = names.map((_, i) => i);
  const cache = new Map();
  const svgOnly = (list) => list.filter((i) => SVG_DRAWS.test(names[i]) && !GEOMETRY.has(names[i]));
  const readsOf = (el, animated) => {
    const svgChild = el.namespaceURI === SVG_NS && el.localName !== "svg";
    if (!index) return svgChild ? svgOnly(everything) : everything;
    const own = el.style && el.style.length ? Array.from(el.style) : [];
    const key = `${svgChild ? "svg:" : ""}${el.localName}#${el.id}.${el.getAttribute("class") || ""}`
      + `[${el.getAttributeNames().join(",")}]${animated ? "@" : ""}`;
    let list = cache.get(key);
    if (!list) {
      const picked = new Set();
      for (const k of keysOf(el, animated)) {
        const set = index.get(k);
        if (set) for (const n of set) for (const c of computedNames(n)) if (at.has(c)) picked.add(at.get(c));
      }
      list = [...picked].sort((a, b) => a - b);
      if (svgChild) list = svgOnly(list);
      cache.set(key, list);
    }
    if (!own.length) return list;
    const inlined = own.flatMap(computedNames).filter((n) => at.has(n)).map((n) => at.get(n));
    return [...new Set([...list, ...inlined])];
  };
  return { names, at, rest, readsOf };
}

const DROPPED = /^(class|style|title|role|tabindex|focusable|for|data-.*|aria-.*)$/;

/** An element left out: an empty, undisplayed one of the same kind, so every other keeps its place. */
function hidden(live) {
  const doc = live.ownerDocument;
  const el = live.namespaceURI === SVG_NS ? doc.createElementNS(SVG_NS, "g") : doc.createElement("span");
  el.setAttribute("style", "display:none");
  return el;
}

const NO_CONTENT = new Set(["", "none", "normal"]);
const SIZED = new Set(["min-width", "min-height"]);
const IN_FLOW = new Set(["static", "relative", "sticky"]);

/** Whether two boxes (DOMRect-like) do not meet. */
export function apart(a, b) {
  return a.bottom <= b.top || a.top >= b.bottom || a.right <= b.left || a.left >= b.right;
}

function meet(a, b) {
  if (!a) return b;
  return {
    top: Math.max(a.top, b.top), bottom: Math.min(a.bottom, b.bottom),
    left: Math.max(a.left, b.left), right: Math.min(a.right, b.right),
  };
}

const LINES = ["border-top", "border-right", "border-bottom", "border-left", "outline"];

/** `decl` with the width of each border (and the outline) whose style it writes: a computed width of 0
 * equals the browser's default where the default style is none, so it is not written, and the copy
 * would draw the style at its default width (medium). A page that sets every element's style and a
 * width of 0 (Tailwind's preflight `* { border: 0 solid }`, in marimo's shadow root) would get a frame
 * around every box. `style`: the element's computed style. */
export function withWidths(decl, style) {
  for (const line of LINES) {
    const written = decl.find((d) => d.startsWith(`${line}-style:`));
    if (!written || /:(none|hidden)$/.test(written) || decl.some((d) => d.startsWith(`${line}-width:`))) continue;
    decl.push(`${line}-width:${style.getPropertyValue(`${line}-width`)}`);
  }
  return decl;
}

/** `live` (and everything below it) copied with its computed style inline. `clip`: the box a
 * positioned, clipping ancestor (a scrolled list) shows; an element wholly outside it keeps its own box
 * in the copy, but not its insides. */
function copyTree(live, box, ctx, parentValues, clip) {
  const { names, at } = ctx;
  const svg = live.namespaceURI === SVG_NS;
  const svgChild = svg && live.localName !== "svg";
  const style = getComputedStyle(live);
  if (ctx.leaveOut(live)) return hidden(live);
  const copy = live.cloneNode(false);
  // Only what draws: no class or id (no style rule is left to match them; an SVG keeps its ids, which
  // its own parts may name), no data, tooltip or accessibility attribute. The style is written below.
  for (const name of copy.getAttributeNames()) {
    if (DROPPED.test(name) || (name === "id" && !svg)) copy.removeAttribute(name);
  }
  if (style.display === "none") {
    copy.setAttribute("style", "display:none");
    return copy;
  }
  const { base, uaSets, inherits, uaRead } = defaults(box, live, names);
  // What is not read is as the copy makes it: inherited from the parent, or the browser's default.
  // Read: all on the root; below it, what a rule may set on this element, and what the browser sets.
  const values = base.slice();
  if (parentValues) for (let i = 0; i < values.length; i++) if (inherits[i]) values[i] = parentValues[i];
  const reads = parentValues ? ctx.readsOf(live, style.animationName !== "none") : names.map((_, i) => i);
  for (const i of reads) values[i] = style.getPropertyValue(names[i]);
  if (parentValues) for (const i of uaRead) values[i] = style.getPropertyValue(names[i]);
  // A line height given as a number follows the font size: it is written in px, so where the size
  // changes, it is read again.
  const [fs, lh] = [at.get("font-size"), at.get("line-height")];
  const sized = parentValues && lh !== undefined && values[fs] !== parentValues[fs];
  if (sized) values[lh] = style.getPropertyValue("line-height");
  const value = (n) => (at.has(n) ? values[at.get(n)] : "none");
  const transformed = ["transform", "rotate", "scale", "translate"].some((n) => value(n) !== "none");
  const w = at.get("width");
  const h = at.get("height");
  const skip = (i) => (svgChild && GEOMETRY.has(names[i])) || (i === at.get("transform-origin") && !transformed)
    || (i === at.get("perspective-origin") && value("perspective") === "none") || (!svgChild && (i === w || i === h))
    || SIZED.has(names[i]);
  const changed = parentValues ? [...new Set([...reads, ...uaRead, ...(sized ? [lh] : [])])] : null;
  const decl = declarations(names, values, parentValues, base, uaSets, skip, changed);
  // A minimum size's "auto" depends on the parent's layout (a grid's or flex item's is not 0): as read.
  for (const n of SIZED) {
    const i = at.get(n);
    if (i !== undefined && !svgChild && (reads.includes(i) || !parentValues)) decl.push(`${n}:${values[i]}`);
  }
  // Wholly outside what a scrolled list shows: its box only, at its size.
  const outside = clip && IN_FLOW.has(style.position) && apart(live.getBoundingClientRect(), clip);
  if (outside) [values[w], values[h]] = [style.width, style.height];
  if (!svgChild) {
    // A size that a rule or the page gave: the rule is not in the copy, its laid-out result is.
    if ((outside || values[w] !== base[w]) && values[w] !== "auto") decl.push(`width:${values[w]}`);
    if ((outside || values[h] !== base[h]) && values[h] !== "auto") decl.push(`height:${values[h]}`);
  }
  if (!parentValues) decl.push("margin:0");
  withWidths(decl, style);
  if (decl.length) copy.setAttribute("style", decl.join(";"));
  // What the element shows that is state, not markup.
  if (live.localName === "input") {
    if (live.type === "checkbox" || live.type === "radio") {
      if (live.checked) copy.setAttribute("checked", "");
      else copy.removeAttribute("checked");
    } else {
      copy.setAttribute("value", live.value);
    }
  } else if (live.localName === "textarea") {
    copy.textContent = live.value;
  }
  if (!svg) {
    for (const pseudo of ["::before", "::after"]) {
      const ps = getComputedStyle(live, pseudo);
      const content = ps.getPropertyValue("content");
      if (NO_CONTENT.has(content)) continue;
      const cls = `nw-pic-${ctx.rules.length}`;
      copy.setAttribute("class", `${copy.getAttribute("class") || ""} ${cls}`.trim());
      const pv = names.map((n) => ps.getPropertyValue(n));
      const { base: pb, uaSets: pu } = ctx.pseudoBase;
      const rule = withWidths(declarations(names, pv, values, pb, pu, (i) => names[i] === "content"), ps);
      ctx.rules.push(`.${cls}${pseudo}{${[...rule, `content:${content}`].join(";")}}`);
    }
  }
  if (outside) return copy;
  // A positioned box that clips (a scrolled list) clips all that is inside it and in its flow.
  const clips = style.position !== "static" && (style.overflowX !== "visible" || style.overflowY !== "visible");
  const inner = clips ? meet(clip, live.getBoundingClientRect()) : clip;
  for (let child = live.firstChild; child; child = child.nextSibling) {
    if (child.nodeType === 1) copy.appendChild(copyTree(child, box, ctx, values, inner));
    else if (child.nodeType === 3) copy.appendChild(live.ownerDocument.createTextNode(child.data));
  }
  if (live.localName === "select") {
    Array.from(copy.querySelectorAll("option")).forEach((o, i) => {
      if (live.options[i] && live.options[i].selected) o.setAttribute("selected", "");
      else o.removeAttribute("selected");
    });
  }
  return copy;
}

/** `root` as an SVG data URL of its laid-out size: the copy described at the top of this file.
 * `options.backgroundColor` paints the copy's root; `options.leaveOut(element)` leaves an element out
 * (an undisplayed, empty one of the same kind takes its place). */
export function snapshotSvg(root, options = {}) {
  const doc = root.ownerDocument;
  const { names, at, rest, readsOf } = plan(doc, root);
  const box = sandbox(doc);
  try {
    const leaveOut = options.leaveOut || (() => false);
    const ctx = { names, at, readsOf, leaveOut, rules: [], pseudoBase: defaults(box, doc.createElement("span"), names) };
    const rect = root.getBoundingClientRect();
    const width = Math.ceil(rect.width);
    const height = Math.ceil(rect.height);
    const copy = copyTree(root, box, ctx, null, null);
    // The inherited properties no rule declares, as the page gives them to the root.
    const rootStyle = getComputedStyle(root);
    const rootColor = rootStyle.getPropertyValue("color");
    const inherited = rest.map((n) => [n, rootStyle.getPropertyValue(n)])
      .filter(([n, v]) => v !== "" && !(FOLLOWS_COLOR.has(n) && v === rootColor)).map(([n, v]) => `${n}:${v}`);
    const background = options.backgroundColor ? [`background-color:${options.backgroundColor}`] : [];
    copy.setAttribute("style", [...inherited, copy.getAttribute("style") || "", ...background].filter(Boolean).join(";"));
    if (ctx.rules.length) {
      const sheet = doc.createElement("style");
      sheet.textContent = ctx.rules.join("\n");
      copy.appendChild(sheet);
    }
    const svg = doc.createElementNS(SVG_NS, "svg");
    svg.setAttribute("width", String(width));
    svg.setAttribute("height", String(height));
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const fo = doc.createElementNS(SVG_NS, "foreignObject");
    for (const [k, v] of [["x", "0"], ["y", "0"], ["width", "100%"], ["height", "100%"]]) fo.setAttribute(k, v);
    svg.appendChild(fo);
    fo.appendChild(copy);
    return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
  } finally {
    box.host.remove();
  }
}
