// Patch a live DOM tree to match a freshly rendered one, keeping the elements that
// stay (focus, scroll position, a slider being dragged, the aria-live line).
// Children are matched by data-key when they have one, else by position and tag.

import { expand } from "./dom.js";

const keyOf = (node) => (node.nodeType === 1 ? node.getAttribute("data-key") : null);

function syncAttributes(from, to) {
  for (const attr of Array.from(from.attributes)) {
    if (!to.hasAttribute(attr.name)) from.removeAttribute(attr.name);
  }
  for (const attr of Array.from(to.attributes)) {
    if (from.getAttribute(attr.name) !== attr.value) from.setAttribute(attr.name, attr.value);
  }
}

function syncValue(from, to) {
  if (from.tagName === "INPUT") {
    const value = to.getAttribute("value") ?? "";
    if (from.value !== value) from.value = value;
  } else if (from.tagName === "TEXTAREA") {
    // The text typed is the UI state's (index.js reads every input event), so this only changes
    // it when the state says otherwise (a form filled in for editing): the caret stays put.
    if (from.value !== to.value) from.value = to.value;
  } else if (from.tagName === "SELECT") {
    const chosen = Array.from(to.querySelectorAll("option")).find((o) => o.hasAttribute("selected"));
    if (chosen && from.value !== chosen.value) from.value = chosen.value;
  }
}

function syncChildren(from, to) {
  const wanted = Array.from(to.childNodes);
  const newKeys = new Set(wanted.map(keyOf).filter(Boolean));
  const keyed = new Map();
  for (const child of from.childNodes) {
    const k = keyOf(child);
    if (k) keyed.set(k, child);
  }
  let cursor = from.firstChild;
  const dropStale = () => {
    while (cursor && keyOf(cursor) && !newKeys.has(keyOf(cursor))) {
      const next = cursor.nextSibling;
      from.removeChild(cursor);
      cursor = next;
    }
  };
  for (const node of wanted) {
    dropStale();
    const k = keyOf(node);
    let match = null;
    if (k) {
      const old = keyed.get(k);
      if (old && old.nodeName === node.nodeName) {
        match = old;
        keyed.delete(k);
      }
    } else if (cursor && !keyOf(cursor) && cursor.nodeType === node.nodeType && cursor.nodeName === node.nodeName) {
      match = cursor;
    }
    if (match) {
      if (match === cursor) cursor = cursor.nextSibling;
      else from.insertBefore(match, cursor);
      morph(match, node);
    } else {
      from.insertBefore(expand(node), cursor);
    }
  }
  while (cursor) {
    const next = cursor.nextSibling;
    from.removeChild(cursor);
    cursor = next;
  }
}

/** Make `from` (live) look like `to` (new, same tag). `to` may be consumed. A stand-in of `memo`
 * (dom.js) leaves alone the live element built from the same memo, and is filled from it elsewhere. */
export function morph(from, to) {
  if (from.nodeType !== 1) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return from;
  }
  if (to.__nwMemo !== undefined && from.__nwMemo === to.__nwMemo) return from;
  if (to.__nwFull) to = to.__nwFull();
  syncAttributes(from, to);
  syncChildren(from, to);
  syncValue(from, to);
  from.__nwMemo = to.__nwMemo;
  return from;
}
