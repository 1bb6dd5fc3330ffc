// The hand and the needle picker as arrow-key grids (issue 33; the layout grid of WAI-ARIA's practices): one
// card of a grid is in the tab order (its cursor); ←/→ (and ↑/↓ where there are rows) move the cursor,
// Home/End go to the ends of its row, Enter or Space press the card. Every cell is focusable, a card that
// may not be picked too ("ace of clubs, in your hand"), so that moving through the grid reads each one.
// Pure: which card a key goes to, and the markup; the table feature keeps the cursor and moves the focus.

import { h } from "./dom.js";
import { sameCard } from "./cards.js";

const MOVES = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };

/** The grid a card's control belongs to, from its data-key ("hand-7H" -> "hand", "needle-KS" -> "needle"). */
export function gridOf(key) {
  const m = /^(hand|needle)-/.exec(typeof key === "string" ? key : "");
  return m ? m[1] : null;
}

function where(rows, code) {
  for (let r = 0; r < rows.length; r++) {
    const c = rows[r].findIndex((x) => sameCard(x, code));
    if (c >= 0) return [r, c];
  }
  return null;
}

/** The card `key` moves the cursor to from `code` in `rows` (arrays of card codes); the same card at an edge
 * (the key is the grid's, nothing steps), null for a key that does not move in this grid (↑/↓ in one row).
 *
 *   gridTarget([["2C", "3C"], ["2D", "3D"]], "2C", "ArrowDown") === "2D"
 */
export function gridTarget(rows, code, key) {
  const at = where(rows, code);
  if (!at) return null;
  const [r, c] = at;
  if (key === "Home") return rows[r][0];
  if (key === "End") return rows[r][rows[r].length - 1];
  const move = MOVES[key];
  if (!move || (move[0] !== 0 && rows.length < 2)) return null;
  const nr = Math.min(rows.length - 1, Math.max(0, r + move[0]));
  const nc = Math.min(rows[nr].length - 1, Math.max(0, c + move[1]));
  return rows[nr][nc];
}

/** The card that holds the grid's tab stop: the cursor while it is in the grid, else the first card `pick`
 * accepts, else the first card. */
export function tabStop(rows, cursor, pick = () => true) {
  const all = rows.flat();
  if (cursor && all.some((c) => sameCard(c, cursor))) return all.find((c) => sameCard(c, cursor));
  return all.find(pick) || all[0] || null;
}

/** A grid of cells: `rows` are [{label?, cells: [node]}]; each cell wraps one card control. */
export function cardGrid(attrs, rows) {
  return h("div", { ...attrs, role: "grid" }, rows.map((row) =>
    h("div", { class: ["nw-grid-row", row.class], role: "row", "aria-label": row.label || null },
      row.cells.map((cell) => h("span", { class: "nw-cell", role: "gridcell" }, cell)))));
}
