// The info panel: what a player can infer (needle odds, heat map), the teacher's
// omniscient summary, and the bots' reasons.

import { h, percent, srOnly } from "./dom.js";
import { RANKS, SUITS, SUIT_ORDER, cardFace, cardName, cardText } from "./cards.js";
import { perspectiveLabel, playerName, seatName } from "./names.js";

/** A 4x13 heat map of where the opponent's needle may be, as an accessible table. */
export function heatMap(grid, { caption, revealed, compact } = {}) {
  const max = Math.max(1e-9, ...grid.flat());
  // Half relative to the likeliest card, half absolute: an even spread looks pale, a sure card full.
  const shade = (p) => (p <= 0 ? 0 : 0.5 * (p / max) + 0.5 * Math.min(1, Math.sqrt(p)));
  return h(
    "table",
    { class: ["nw-heat", compact ? "nw-heat-compact" : null] },
    h("caption", null, caption),
    h("thead", null,
      h("tr", null, h("td", { class: "nw-heat-corner" }),
        RANKS.map((r) => h("th", { scope: "col", abbr: cardName(`${r}S`).split(" ")[0] }, r)))),
    h(
      "tbody",
      null,
      grid.map((row, i) => {
        const suit = SUIT_ORDER[i];
        return h(
          "tr",
          null,
          h("th", { scope: "row", class: `nw-suit-${suit}` },
            h("span", { "aria-hidden": "true" }, `${SUITS[suit].symbol}${suit}`), srOnly(SUITS[suit].name)),
          row.map((p, j) => {
            const code = `${RANKS[j]}${suit}`;
            const isRevealed = revealed && revealed.toUpperCase() === code;
            return h(
              "td",
              {
                class: ["nw-heat-cell", p === 0 ? "nw-heat-zero" : null, isRevealed ? "nw-heat-revealed" : null],
                style: { "--nw-p": shade(p).toFixed(3) },
                title: `${cardText(code)}: ${percent(p)}`,
              },
              srOnly(percent(p)),
            );
          }),
        );
      }),
    ),
  );
}

function max0(grid) {
  return Math.max(0, ...grid.flat());
}

function fact(label, value) {
  return h("div", { class: "nw-fact" }, h("dt", null, label), h("dd", null, value));
}

/** A player's knowledge: opponent-needle heat map and own-needle figures. */
export function playerKnowledge(state, info, { compact = false } = {}) {
  const me = info.player;
  const opp = 1 - me;
  const on = info.opponent_needle || {};
  const own = info.own_needle || {};
  const top = (on.top || []).slice(0, 3).map(([code, p]) => `${cardText(code)} ${percent(p)}`).join(", ");
  const ownFacts = own.card
    ? [
        fact(`${compact ? "Own" : "Your"} needle`, cardText(own.card)),
        fact("In the pile", percent(own.in_pile)),
        fact(`In ${playerName(opp)}'s hand`, percent(own.in_opponent_hand)),
        fact("Next draw finds it", percent(own.next_draw)),
      ]
    : [fact(`${compact ? "Own" : "Your"} needle`, "not picked yet")];
  return h(
    "div",
    { class: "nw-knowledge" },
    heatMap(on.grid || [], {
      caption: on.revealed
        ? `${playerName(opp)}'s needle: ${cardText(on.revealed)}`
        : `Where ${playerName(opp)}'s needle may be`,
      revealed: on.revealed,
      compact,
    }),
    on.revealed || !on.grid ? null : h("p", { class: "nw-legend" }, `Darker is likelier; the likeliest card has ${percent(max0(on.grid))}.`),
    h(
      "dl",
      { class: "nw-facts" },
      on.revealed
        ? null
        : fact(`Chance the opponent's needle is in ${compact ? "this" : "your"} hand`, percent(on.in_my_hand)),
      on.revealed ? null : fact("Most likely", top || "–"),
      on.revealed ? null : fact("Cards still possible", String(on.possible ?? "–")),
      ownFacts,
    ),
  );
}

const WHERE = {
  pile: "in the draw pile",
  hand: "in its owner's hand",
  opponent_hand: "in the opponent's hand",
  discards: "on the discard pile",
  sets: "in a set",
};

function needleLine(n, pileSize) {
  if (!n.card) return h("li", null, `${playerName(n.player)} has not picked a needle.`);
  let where = WHERE[n.where] || "somewhere";
  if (n.where === "pile" && n.pile_position !== null && n.pile_position !== undefined) {
    where = `in the draw pile, card ${n.pile_position + 1} of ${pileSize} from the top`;
  }
  return h(
    "li",
    { class: "nw-needle-line" },
    cardFace(n.card, { size: "sm" }),
    h("span", null,
      `${playerName(n.player)}'s needle ${cardText(n.card)} is ${where}. `,
      `${playerName(1 - n.player)} gives it ${percent(n.opponent_belief)}.`),
  );
}

function teacherInfo(state, info) {
  const t = state.table;
  const needleCodes = new Set((info.needles || []).map((n) => n.card && n.card.toUpperCase()));
  const pileTop = info.pile_top || [];
  return [
    h("ul", { class: "nw-needles", "aria-label": "Where the needles are" },
      (info.needles || []).map((n) => needleLine(n, t.pile_size))),
    h(
      "div",
      { class: "nw-pile-top" },
      h("span", { class: "nw-caption" }, "Next cards of the draw pile"),
      pileTop.length
        ? h("ol", { class: "nw-card-row" },
            pileTop.map((c) => h("li", null, cardFace(c, {
              size: "sm",
              class: needleCodes.has(c.toUpperCase()) ? "nw-is-needle" : undefined,
              note: needleCodes.has(c.toUpperCase()) ? "a needle" : undefined,
            }))))
        : h("span", { class: "nw-empty-text" }, "The pile is empty"),
    ),
    h(
      "div",
      { class: "nw-side-by-side" },
      (info.players || []).map((pi) =>
        h("div", { class: "nw-knows" }, h("span", { class: "nw-caption" }, `What ${playerName(pi.player)} knows`),
          playerKnowledge(state, pi, { compact: true }))),
    ),
  ];
}

/** What a SearchBot weighed for its last move: the candidates, value and games each, the chosen marked. */
export function thoughtTable(t) {
  if (!t || !Array.isArray(t.values) || !t.values.length) return null;
  const games = t.rollouts === 1 ? "1 game" : `${t.rollouts} games`;
  return h(
    "div",
    { class: "nw-thought" },
    h("table", { class: "nw-data-table" },
      h("caption", null, `Moves weighed over ${t.worlds} worlds (${games}; ${t.legal} legal moves)`),
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, "Move"), h("th", { scope: "col" }, "Value"), h("th", { scope: "col" }, "Games"))),
      h("tbody", null, t.values.map((v) => {
        const chosen = v.action === t.chosen;
        return h("tr", { class: chosen ? "nw-chosen" : null },
          h("th", { scope: "row" }, chosen ? h("span", { "aria-hidden": "true" }, "✓ ") : null, v.action,
            chosen ? srOnly(" (chosen)") : null),
          h("td", null, percent(v.value)), h("td", null, String(v.count)));
      }))),
    t.kept ? h("p", { class: "nw-legend" }, "Kept GreedyBot's move: no other was clearly better.") : null,
  );
}

function botReasons(state) {
  const bots = state.bots || [];
  if (!bots.length) return null;
  return h(
    "ul",
    { class: "nw-bots", "aria-label": "Why the bots did it" },
    bots.map((b) => h("li", null, h("span", { class: "nw-bot-name" }, `${seatName(state, b.player)}: `), b.text,
      thoughtTable(b.thought))),
  );
}

function caption(state, info) {
  if (info.kind === "player") return `What ${playerName(info.player)} knows`;
  if (info.kind === "teacher") return `${perspectiveLabel("teacher")}'s view`;
  if (info.kind === "quiz") {
    const seat = state.quiz && state.quiz.seat;
    return seat === 0 || seat === 1 ? `What ${playerName(seat)} knows` : "Quiz";
  }
  return perspectiveLabel("spectator");
}

export function renderInfo(state) {
  const info = state.info || { kind: "spectator" };
  let body;
  if (info.kind === "player") body = playerKnowledge(state, info);
  else if (info.kind === "teacher") body = teacherInfo(state, info);
  else if (info.kind === "quiz") body = h("p", { class: "nw-muted" }, info.text || "");
  else body = h("p", { class: "nw-muted" }, "A spectator sees what is public: discards, sets, scores and hand sizes.");
  return h(
    "section",
    { class: ["nw-info", `nw-info-${info.kind}`], "aria-label": "What is known" },
    h("span", { class: "nw-caption" },
      caption(state, info)),
    body,
    botReasons(state),
  );
}
