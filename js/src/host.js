// The page around a view, read from the view's own node: its root node (the document, or the shadow
// root marimo renders a widget into), the focused element there, and the host's theme. Nothing here
// reads `document` itself: inside a shadow root, `document.activeElement` is the shadow's host and
// `document.styleSheets` holds none of the view's styles.

/** The document or shadow root `node` is in (the document when detached or unknown). */
export function rootNodeOf(node) {
  const rn = node && typeof node.getRootNode === "function" ? node.getRootNode() : null;
  return rn && rn.nodeType === 11 ? rn : (node && node.ownerDocument) || rn || globalThis.document;
}

/** The focused element in `node`'s root node (inside a shadow root, the element there; across nested
 * shadow roots, the innermost), or null. */
export function activeElementOf(node) {
  let active = rootNodeOf(node).activeElement || null;
  while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
  return active;
}

// What a host page says about its theme, on an element around the view (JupyterLab's body attribute,
// marimo's body: class "dark dark-theme", data-theme="dark"; VS Code's body class).
const DARK = new Set(["dark", "dark-theme", "theme-dark", "vscode-dark", "vscode-high-contrast"]);
const LIGHT = new Set(["light", "light-theme", "theme-light", "vscode-light", "vscode-high-contrast-light"]);

/** The element around `el`, crossing out of shadow roots (to the host). */
function around(el) {
  if (el.parentElement) return el.parentElement;
  const rn = el.getRootNode ? el.getRootNode() : null;
  return rn && rn.host ? rn.host : null;
}

/** "dark" | "light" as the nearest element around `el` that says so (itself included), or null
 * when none does (then the widget's light fallbacks apply, as before). */
export function hostTheme(el) {
  for (let n = el; n && n.nodeType === 1; n = around(n)) {
    const jp = n.getAttribute("data-jp-theme-light");
    if (jp === "true" || jp === "false") return jp === "true" ? "light" : "dark";
    const named = (n.getAttribute("data-theme") || n.getAttribute("data-mode") || "").toLowerCase();
    if (named === "dark" || named === "light") return named;
    const classes = n.classList ? Array.from(n.classList) : [];
    if (classes.some((c) => LIGHT.has(c))) return "light";
    if (classes.some((c) => DARK.has(c))) return "dark";
  }
  return null;
}

const WATCHED = ["class", "data-theme", "data-mode", "data-jp-theme-light"];

/**
 * Keeps `root`'s `data-nw-theme` at the host's theme (hostTheme; no attribute when the host says
 * nothing): the stylesheet maps it to the theme's fallbacks where there are no JupyterLab variables.
 * Watches the page's <html> and <body> (where marimo, JupyterLab and VS Code say it) and the elements
 * around the view; `check()` looks again (after a render: the view may have been attached since).
 * Returns {check, disconnect}.
 */
export function followTheme(root) {
  let observer = null;
  let watched = new Set();
  const check = () => {
    const theme = hostTheme(root);
    if (theme === null) root.removeAttribute("data-nw-theme");
    else if (root.getAttribute("data-nw-theme") !== theme) root.setAttribute("data-nw-theme", theme);
    if (typeof MutationObserver === "undefined") return;
    const doc = root.ownerDocument;
    const targets = new Set([doc && doc.documentElement, doc && doc.body].filter(Boolean));
    for (let n = around(root); n && n.nodeType === 1; n = around(n)) targets.add(n);
    if (targets.size === watched.size && [...targets].every((t) => watched.has(t))) return;
    if (observer) observer.disconnect();
    observer = new MutationObserver(check);
    for (const t of targets) observer.observe(t, { attributes: true, attributeFilter: WATCHED });
    watched = targets;
  };
  check();
  return {
    check,
    disconnect() {
      if (observer) observer.disconnect();
      observer = null;
      watched = new Set();
    },
  };
}

/** The widgets mounted in this page so far, counted on the page (`globalThis`), not in this module: a host may
 * load the module once for each widget (JupyterLab does), and the ids made from the count must differ between the
 * widgets of one page (two "nw1-discards" would point every aria-controls at the first). */
export function nextInstance() {
  const key = "__needleWidgetMounts";
  globalThis[key] = (globalThis[key] || 0) + 1;
  return globalThis[key];
}
