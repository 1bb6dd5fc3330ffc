// One playing card: a face (rank, suit symbol and suit letter), a back, or a needle slot.
// Suits differ by shape, letter and colour (Okabe-Ito colours: safe for colour blindness).

import { h, memo, s } from "./dom.js";

export const SUITS = {
  C: { name: "clubs", symbol: "♣" },
  D: { name: "diamonds", symbol: "♦" },
  H: { name: "hearts", symbol: "♥" },
  S: { name: "spades", symbol: "♠" },
};
export const SUIT_ORDER = ["C", "D", "H", "S"];
export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
const RANK_NAMES = { A: "ace", J: "jack", Q: "queen", K: "king" };

// Suit shapes in a 100x100 box.
const SUIT_PATHS = {
  H: ["M50 90C22 68 6 50 6 31 6 16 17 6 30 6c9 0 16 5 20 13 4-8 11-13 20-13 13 0 24 10 24 25 0 19-16 37-44 59z"],
  D: ["M50 4 86 50 50 96 14 50z"],
  S: [
    "M50 4C64 24 94 38 94 60c0 14-11 24-23 24-8 0-14-4-18-10 1 10 5 17 13 22H34c8-5 12-12 13-22-4 6-10 10-18 10C17 84 6 74 6 60 6 38 36 24 50 4z",
  ],
  C: [
    "M50 8a20 20 0 1 1 0 40 20 20 0 1 1 0-40z",
    "M27 40a20 20 0 1 1 0 40 20 20 0 1 1 0-40z",
    "M73 40a20 20 0 1 1 0 40 20 20 0 1 1 0-40z",
    "M44 50h12c0 20 4 34 12 46H32c8-12 12-26 12-46z",
  ],
};

/** "7H" -> {rank: "7", suit: "H"}; "10S" -> {rank: "10", suit: "S"}. */
export function parseCode(code) {
  const text = String(code).toUpperCase();
  return { rank: text.slice(0, -1), suit: text.slice(-1) };
}

/** "7H" -> "7 of hearts", "QS" -> "queen of spades", "AC" -> "ace of clubs". */
export function cardName(code) {
  const { rank, suit } = parseCode(code);
  const suitName = SUITS[suit] ? SUITS[suit].name : suit;
  return `${RANK_NAMES[rank] || rank} of ${suitName}`;
}

/** "7H" -> "7♥". */
export function cardText(code) {
  const { rank, suit } = parseCode(code);
  return `${rank}${SUITS[suit] ? SUITS[suit].symbol : suit}`;
}

/** "10H" <-> "10H" (codes compared case-insensitively). */
export function sameCard(a, b) {
  return String(a).toUpperCase() === String(b).toUpperCase();
}

export function suitIcon(suit, cls = "nw-suit-icon") {
  return memo(`suit ${suit} ${cls}`, [], () => s(
    "svg",
    { class: cls, viewBox: "0 0 100 100", "aria-hidden": "true", focusable: "false" },
    (SUIT_PATHS[suit] || []).map((d) => s("path", { d })),
  ));
}

function faceContent(code) {
  const { rank, suit } = parseCode(code);
  const symbol = SUITS[suit] ? SUITS[suit].symbol : "";
  return [
    memo(`corner ${rank} ${suit}`, [], () => h("span", { class: "nw-corner", "aria-hidden": "true" },
      h("span", { class: "nw-rank" }, rank), h("span", { class: "nw-pip" }, symbol))),
    memo(`centre ${suit}`, [], () => h("span", { class: "nw-center", "aria-hidden": "true" }, suitIcon(suit))),
    h("span", { class: "nw-letter", "aria-hidden": "true" }, suit),
  ];
}

function tagMark(tag) {
  return tag ? h("span", { class: "nw-card-tag", "aria-hidden": "true" }, tag) : null;
}

/**
 * A card face. options:
 *   size: "sm" | "md" (default) | "lg"; note: extra words for the accessible name;
 *   button: {key, request?, ui?, pressed?, disabled?, inert?, tabindex?, shortcut?, title?, describedby?} makes it a
 *   <button> (`inert`: aria-disabled, still focusable, as a grid's cell that may not be pressed; `shortcut`: its
 *   key, shown on the card and in aria-keyshortcuts);
 *   class: extra classes; tag: a short visible word on the card ("new"), hidden from screen readers
 *   (say it in `note`).
 */
export function cardFace(code, options = {}) {
  const { size = "md", note, button, title, tag } = options;
  const { suit } = parseCode(code);
  const label = note ? `${cardName(code)}, ${note}` : cardName(code);
  const classes = ["nw-card", "nw-face", `nw-suit-${suit}`, `nw-card-${size}`, options.class];
  if (button) {
    return h(
      "button",
      {
        type: "button",
        class: [...classes, button.pressed ? "nw-selected" : null],
        "aria-label": label,
        "aria-pressed": button.pressed === undefined ? null : String(Boolean(button.pressed)),
        "aria-disabled": button.inert ? "true" : null,
        "aria-keyshortcuts": button.shortcut || null,
        "aria-describedby": button.describedby,
        "data-key": button.key,
        "data-request": button.request,
        "data-ui": button.ui,
        "data-card": code,
        disabled: Boolean(button.disabled),
        tabindex: button.tabindex,
        title: button.title || title,
      },
      faceContent(code),
      tagMark(tag),
      button.shortcut ? h("kbd", { class: "nw-card-key", "aria-hidden": "true" }, button.shortcut) : null,
    );
  }
  return h("span", { class: classes, role: "img", "aria-label": label, "data-card": code, title },
    faceContent(code), tagMark(tag));
}

/** A face-down card. */
export function cardBack(options = {}) {
  const { size = "md", label = "face-down card" } = options;
  return h("span", { class: ["nw-card", "nw-back", `nw-card-${size}`, options.class], role: "img", "aria-label": label });
}

/** A needle that exists but is hidden: a back with "?". */
export function hiddenNeedle(label, size = "md") {
  return h(
    "span",
    { class: ["nw-card", "nw-back", "nw-needle-hidden", `nw-card-${size}`], role: "img", "aria-label": label },
    h("span", { class: "nw-question", "aria-hidden": "true" }, "?"),
  );
}

/** An empty place for a card (no needle picked yet, empty pile). */
export function emptySlot(label, size = "md", text = "") {
  return h("span", { class: ["nw-card", "nw-slot", `nw-card-${size}`], role: "img", "aria-label": label },
    text ? h("span", { class: "nw-slot-text", "aria-hidden": "true" }, text) : null);
}
