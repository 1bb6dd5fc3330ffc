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

/** "Player 2 (greedy)", or just "Player 2" for an anonymous human seat. */
export function seatName(state, p) {
  const seat = state.seats && state.seats[p];
  if (!seat || seat === "human") return playerName(p);
  return `${playerName(p)} (${seat})`;
}

/** Key of a perspective usable in data-key / class names. */
export function perspectiveKey(p) {
  return p === 0 || p === 1 ? `p${p}` : String(p);
}
