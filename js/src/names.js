// Names of players and perspectives as shown on screen, from Python's one source (shared.js).

import { PERSPECTIVES, PERSPECTIVE_LABELS, PLAYER_NAMES } from "./shared.js";

export { PERSPECTIVES };

export function perspectiveLabel(p) {
  return PERSPECTIVE_LABELS[String(p)] ?? String(p);
}

/** "Player 1" / "Player 2" (seats.py `player_name`). */
export function playerName(p) {
  return p === 0 || p === 1 ? PLAYER_NAMES[p] : "Nobody";
}

/** "P1" / "P2": the initial and number of `playerName`, for narrow columns. */
export function playerShort(p) {
  const name = playerName(p);
  return name.charAt(0) + name.replace(/\D/g, "");
}

/** "Player 2 (greedy)": the seat with the name of whoever played it (Python's `seats`), or just "Player 2"
 * for an anonymous human seat. */
export function playedBy(state, p) {
  const seat = state.seats && state.seats[p];
  if (!seat || seat === "human") return playerName(p);
  return `${playerName(p)} (${seat})`;
}

/** A class's screen (a student's, following the room): it has the `follow` bar; its mode is its frame's. */
export function isClassScreen(state) {
  return Boolean(state && state.follow);
}

/** Modes where a viewer follows a record from a seat: a replay, a quiz (and a class's screen). */
const FOLLOWED = ["replay", "quiz"];

/** The name a seat goes by on screen: `playedBy`, except that in a replay, a quiz or a class followed from a
 * seat, the viewer's own seat reads as theirs, "Player 1 (You)" (as a play-mode screen's seat, Python's
 * "You"), never the name of the bot that played the record. */
export function seatName(state, p) {
  const shown = state.table && state.table.perspective !== undefined ? state.table.perspective : state.perspective;
  if ((FOLLOWED.includes(state.mode) || isClassScreen(state)) && (p === 0 || p === 1) && p === shown) return `${playerName(p)} (You)`;
  return playedBy(state, p);
}

/** Key of a perspective usable in data-key / class names. */
export function perspectiveKey(p) {
  return p === 0 || p === 1 ? `p${p}` : String(p);
}
