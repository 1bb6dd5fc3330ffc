// Hand-written "what if" traits in the shapes of docs/WHATIF_CONTRACT.md sections 2 and 3.

const MODELS = [{ id: "random", label: "plays at random" }, { id: "greedy", label: "plays like GreedyBot" }];

export const OFFERS_TEACHER = {
  branch: {
    seats: [0, 1], worlds: ["real", "sampled"],
    opponents: [
      { id: "greedy", label: "GreedyBot" }, { id: "random", label: "RandomBot" }, { id: "odds", label: "OddsBot" },
      { id: "search", label: "SearchBot" }, { id: "hotseat", label: "Two people (hotseat)" },
    ],
    reason: null,
  },
  worlds: { seats: [0, 1, "spectator"], models: MODELS, reason: null },
  graph: { seats: [0, 1], models: MODELS, reason: null },
};

export const OFFERS_PLAYER = {
  branch: { seats: [0], worlds: ["sampled"], opponents: OFFERS_TEACHER.branch.opponents, reason: null },
  worlds: { seats: [0], models: MODELS, reason: null },
  graph: { seats: [0], models: MODELS, reason: null },
};

export const OFFERS_SPECTATOR = {
  branch: { seats: [], worlds: ["sampled"], opponents: OFFERS_TEACHER.branch.opponents, reason: "This screen may not play a seat" },
  worlds: { seats: ["spectator"], models: [MODELS[0]], reason: null },
  graph: {
    seats: [], models: [],
    reason: "The graph follows a player: switch to Player 1, Player 2 or the teacher",
  },
};

export const OFFERS_LIVE = {
  ...OFFERS_PLAYER,
  branch: { ...OFFERS_PLAYER.branch, reason: "Play from here opens once the round is over" },
};

export const BRANCH_INFO = {
  from_step: 34, world: "real", seat: 0, opponent: "GreedyBot", back: "Back to the replay",
  text: "Branch from step 34 of seed 4: the real cards",
};

export const BRANCH_HOTSEAT = {
  from_step: 12, world: "sampled", seat: 1, opponent: "hotseat", back: "Back to the game",
  text: "Branch from step 12: a possible world, drawn from Player 2's view",
};

export const PLAYOUT = {
  status: "ready", seat: 0, player: 0, n: 200, step: 12, seed: 3, bots: ["GreedyBot", "GreedyBot"], certain: false,
  wins: 116, draws: 6, losses: 78, win: 0.58, draw: 0.03, loss: 0.39,
  intervals: { win: [0.5107, 0.6459], draw: [0.0138, 0.0639], loss: [0.3251, 0.4593] },
  reasons: { found: 120, discarded: 41, melded: 9, exhausted: 0, turn_limit: 30 },
  text: "Player 1 wins 58% (51-65%) of 200 worlds; draws 3% (1-6%); loses 39% (33-46%) at step 12 "
    + "(GreedyBot vs GreedyBot, 95% intervals; ends: found 120, discarded 41, melded 9, turn_limit 30).",
  model: "random", who: "Player 1",
};

/** The teacher's panel for Player 1 at step 12, with the real row first. */
export const WORLDS_READY = {
  seat: 0, step: 12, model: "random", model_label: "plays at random", seed: 3, n: 3,
  hidden: [1],
  pile_size: 23,
  same: { hands: { 1: ["7H"] }, needles: {}, pile: [null, null, "8D", null, null] },
  rows: [
    { label: "Real", real: true, hands: { 1: ["2C", "9D"] }, needles: { 1: "QS" }, pile: ["3C", "KD", null, "5S", "AH"] },
    { label: "World 1", real: false, hands: { 1: ["4C", "9S"] }, needles: { 1: "JD" }, pile: ["QH", "2D", null, "6S", "8C"] },
    { label: "World 2", real: false, hands: { 1: ["10C", "KS"] }, needles: { 1: null }, pile: ["AD", "3S", null, "9H", "4D"] },
  ],
  ess: null, particles: null,
  note: "3 worlds Player 1 cannot tell from the real one, as if Player 2 plays at random.",
  status: "ready",
  playout: null,
};

export const WORLDS_COMPUTING = {
  seat: 0, step: 12, model: "random", model_label: "plays at random", seed: 3, n: 6, hidden: [], rows: [],
  same: { hands: {}, needles: {}, pile: [] }, status: "computing", playout: null,
};

export const WORLDS_GREEDY = {
  ...WORLDS_READY, model: "greedy", model_label: "plays like GreedyBot", ess: 37.4, particles: 200,
  note: "3 worlds Player 1 cannot tell from the real one, as if Player 2 plays like GreedyBot.",
  same: { hands: { 1: [] }, needles: { 1: "QS" }, pile: [null, null, null, null, null] },
  rows: WORLDS_READY.rows.slice(1).map((r) => ({ ...r, needles: {} })),
};

export const WORLDS_PLAYOUT = { ...WORLDS_READY, playout: PLAYOUT };
export const WORLDS_PLAYOUT_COMPUTING = { ...WORLDS_READY, playout: { status: "computing", step: 12 } };

function point(step, needle) {
  const win = Math.round(10000 * (0.5 + 0.35 * Math.sin(step / 9) * (step / 60))) / 10000;
  const spread = step === 60 ? 0 : 0.07;
  return {
    step, win, lo: Math.max(0, win - spread), hi: Math.min(1, win + spread), draw: 0.02, certain: step === 60,
    belief: needle && step > 2 ? Math.min(1, Math.round(10000 * (0.03 + step / 70)) / 10000) : null,
  };
}

export const MARKERS = [
  { step: 9, kind: "steal", player: 0, text: "Player 1 steals" },
  { step: 21, kind: "set", player: 1, text: "Player 2 lays a set" },
  { step: 40, kind: "reshuffle", player: null, text: "The discards are reshuffled into the pile" },
  { step: 47, kind: "steal", player: 1, text: "Player 2 steals" },
];

const ORDER = [0, 8, 16, 24, 32, 40, 48, 56, 60, 4, 12, 20, 28];

export const GRAPH_COMPUTING = {
  status: "computing", seat: 0, model: "random", model_label: "plays at random", n: 100, done: 13, total: 61,
  steps: 60, needle: "QS", points: ORDER.map((k) => point(k, "QS")).sort((a, b) => a.step - b.step), markers: MARKERS,
};

export const GRAPH_READY = {
  ...GRAPH_COMPUTING, status: "ready", done: 61,
  points: Array.from({ length: 61 }, (_, k) => point(k, "QS")),
};

export const GRAPH_NO_NEEDLE = { ...GRAPH_READY, needle: null, points: GRAPH_READY.points.map((p) => ({ ...p, belief: null })) };

export const THOUGHT = {
  chosen: "Discard 7♥", worlds: 16, rollouts: 96, legal: 5, kept: false,
  values: [
    { action: "Discard 7♥", value: 0.5625, count: 16 },
    { action: "Discard K♣", value: 0.5, count: 16 },
    { action: "Discard 2♦", value: 0.4375, count: 16 },
  ],
};
