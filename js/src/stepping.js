// Stepping without losing a key: while a step request waits for Python's answer, the view
// shows the state nearest the step asked for among what it holds, and never moves away from it.

function own(state) {
  return { step: state.step, table: state.table, info: state.info, perspective: state.perspective };
}

/**
 * What to show while the step `target` is asked for and not yet answered: Python's own state once
 * it is at the target; else whichever is nearest the target of what is on screen (`held`), Python's
 * step and the steps it prepared (`nearby`). A candidate no nearer never replaces the one shown,
 * so answers to earlier requests never move the view back.
 */
export function nearestShown(state, held, target) {
  const mine = own(state);
  if (state.step === target) return mine;
  let best = held && held.perspective === state.perspective ? held : mine;
  const distance = (c) => Math.abs(c.step - target);
  const nearby = Object.entries(state.nearby || {}).map(([k, near]) => ({
    step: Number(k), table: near.table, info: near.info, perspective: state.perspective,
  }));
  for (const candidate of [mine, ...nearby]) {
    if (Number.isInteger(candidate.step) && candidate.table && distance(candidate) < distance(best)) best = candidate;
  }
  return best;
}
