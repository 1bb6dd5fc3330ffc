// Names of players and perspectives as shown on screen.

export const PERSPECTIVES = [0, 1, "spectator", "teacher"];

const PERSPECTIVE_LABELS = { 0: "Player 1", 1: "Player 2", spectator: "Spectator", teacher: "Teacher" };

export function perspectiveLabel(p) {
  return PERSPECTIVE_LABELS[p] ?? String(p);
}

/** "Player 1" / "Player 2". */
export function playerName(p) {
  return p === 0 || p === 1 ? `Player ${p + 1}` : "Nobody";
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
