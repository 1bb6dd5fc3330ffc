// The info panel: what a player can infer (needle odds, heat map), the teacher's
// omniscient summary, and the bots' reasons.

import { h, percent, srOnly } from "./dom.js";
import { RANKS, SUITS, SUIT_ORDER, cardFace, cardName, cardText, sameCard } from "./cards.js";
import { perspectiveLabel, playedBy, playerName } from "./names.js";

/** How strong a cell's colour is (0 = the panel's background, 1 = the full heat colour): half relative
 * to the likeliest card, half absolute, so an even spread looks pale and a sure card full; a possible
 * card always shows a little colour, so it never looks like an impossible (0%) one. */
export function heatShade(p, max) {
  if (!(p > 0)) return 0;
  const m = Math.max(1e-9, max);
  return 0.15 + 0.85 * (0.5 * Math.min(1, p / m) + 0.5 * Math.min(1, Math.sqrt(p)));
}

/** The codes of the likeliest cards, or [] when the marks would say nothing (every possible card
 * equally likely, or the needle revealed). */
export function likeliest(grid, revealed) {
  if (revealed) return [];
  const cells = [];
  grid.forEach((row, i) => row.forEach((p, j) => { if (p > 0) cells.push([`${RANKS[j]}${SUIT_ORDER[i]}`, p]); }));
  if (!cells.length) return [];
  const max = Math.max(...cells.map(([, p]) => p));
  const min = Math.min(...cells.map(([, p]) => p));
  if (max - min < 1e-9) return [];
  return cells.filter(([, p]) => max - p < 1e-9).map(([code]) => code);
}

/** The scale under a heat map: 0% (an empty cell), the ramp, the likeliest figure, and the dot. */
function heatLegend(max, marked) {
  const steps = [0, 0.25, 0.5, 0.75, 1].map((f) => f * max);
  return h(
    "div",
    { class: "nw-heat-legend" },
    srOnly(`Scale: the stronger the colour, the likelier; from 0% (no colour) to ${percent(max)} (the strongest).`),
    h("span", { "aria-hidden": "true", class: "nw-heat-scale" },
      h("span", null, "0%"),
      h("span", { class: "nw-heat-ramp" },
        steps.map((p) => h("span", {
          class: ["nw-heat-swatch", p === 0 ? "nw-heat-zero" : null],
          style: { "--nw-p": heatShade(p, max).toFixed(3) },
        }))),
      h("span", null, percent(max))),
    marked.length
      ? h("span", { class: "nw-heat-key" },
          h("span", { class: "nw-heat-swatch nw-heat-top", "aria-hidden": "true",
            style: { "--nw-p": heatShade(max, max).toFixed(3) } }),
          marked.length === 1 ? " the likeliest card" : ` the likeliest cards (${marked.length})`)
      : null,
  );
}

/** A 4x13 heat map of where the opponent's needle may be, as an accessible table, with its scale. */
export function heatMap(grid, { caption, revealed, compact } = {}) {
  const max = Math.max(0, ...grid.flat());
  const marked = new Set(likeliest(grid, revealed).map((c) => c.toUpperCase()));
  const table = h(
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
            const top = marked.has(code);
            const text = top ? `${percent(p)}, likeliest` : percent(p);
            return h(
              "td",
              {
                class: ["nw-heat-cell", p === 0 ? "nw-heat-zero" : null, isRevealed ? "nw-heat-revealed" : null,
                  top ? "nw-heat-top" : null],
                style: { "--nw-p": heatShade(p, max).toFixed(3) },
                title: `${cardText(code)}: ${text}`,
              },
              srOnly(percent(p)),
              top ? srOnly(", likeliest") : null,
            );
          }),
        );
      }),
    ),
  );
  if (revealed || !grid.length) return table;
  return h("div", { class: "nw-heat-block" }, table, heatLegend(max, [...marked]));
}

function fact(label, value, note = null) {
  return h("div", { class: "nw-fact" }, h("dt", null, label), h("dd", null, value), note);
}

/** Why the viewer's own cards lead "Most likely" (at the deal, typically), or null when they do not. */
function ownCardsLine(state, info, shown, compact) {
  const on = info.opponent_needle || {};
  const me = info.player;
  const player = state.table && state.table.players && state.table.players[me];
  const hand = player && Array.isArray(player.hand) ? player.hand : null;
  if (!hand || !shown.length || on.revealed) return null;
  if (!shown.every(([code]) => hand.some((c) => sameCard(c, code)))) return null;
  const possible = (on.grid || []).flat().filter((p) => p > 0);
  if (!possible.length || Math.max(...possible) - Math.min(...possible) < 1e-9) return null;
  const opp = playerName(1 - me);
  const text = compact
    ? `${playerName(me)}'s own cards lead: a card in ${playerName(me)}'s hand cannot have been in ${opp}'s hand ` +
      `when ${opp} picked, so each is a little likelier.`
    : "Your own cards lead: a card in your hand cannot have been in their hand when they picked, " +
      "so each is a little likelier.";
  return h("dd", { class: "nw-fact-note" }, text);
}

/** Both needles, public once the round is over; null while it is live. */
export function roundOverNeedles(state, { viewer = null } = {}) {
  const t = state.table;
  if (!t || !t.result) return null;
  const players = t.players || [];
  return h(
    "div",
    { class: "nw-round-over" },
    h("p", { class: "nw-round-over-text" }, "The round is over: both needles are public."),
    h("ul", { class: "nw-needles", "aria-label": "The needles" },
      [0, 1].map((p) => {
        const needle = players[p] && players[p].needle;
        const who = viewer === p ? `${playerName(p)}'s needle (yours)` : `${playerName(p)}'s needle`;
        return h("li", { class: "nw-needle-line" },
          needle ? cardFace(needle, { size: "sm" }) : null,
          h("span", null, needle ? `${who} was ${cardText(needle)}.` : `${playerName(p)} had no needle.`));
      })),
  );
}

/** A player's knowledge: opponent-needle heat map and own-needle figures; once the round is over, the needles. */
export function playerKnowledge(state, info, { compact = false } = {}) {
  const over = roundOverNeedles(state, { viewer: compact ? null : info.player });
  if (over) return h("div", { class: "nw-knowledge" }, over);
  const opp = 1 - info.player;
  const on = info.opponent_needle || {};
  const own = info.own_needle || {};
  const shown = (on.top || []).slice(0, 3);
  const top = shown.map(([code, p]) => `${cardText(code)} ${percent(p)}`).join(", ");
  const ownFacts = own.card
    ? [
        fact(`${compact ? "Own" : "Your"} needle`, cardText(own.card)),
        fact("In the pile", percent(own.in_pile)),
        fact(`In ${playerName(opp)}'s hand`, percent(own.in_opponent_hand)),
        fact("Next draw finds it", percent(own.next_draw)),
      ]
    : [fact(`${compact ? "Own" : "Your"} needle`, "not picked yet")];
  if (on.waiting) {
    return h("div", { class: "nw-knowledge" },
      h("p", { class: "nw-odds-waiting" }, on.waiting),
      h("div", { class: "nw-knowledge-facts" }, h("dl", { class: "nw-facts" }, ownFacts)));
  }
  return h(
    "div",
    { class: "nw-knowledge" },
    heatMap(on.grid || [], {
      caption: on.revealed
        ? `${playerName(opp)}'s needle: ${cardText(on.revealed)}`
        : `Where ${playerName(opp)}'s needle may be`,
      revealed: on.revealed,
    }),
    h(
      "div",
      { class: "nw-knowledge-facts" },
      h(
        "dl",
        { class: "nw-facts" },
        on.revealed
          ? null
          : fact(`Chance the opponent's needle is in ${compact ? "this" : "your"} hand`, percent(on.in_my_hand)),
        on.revealed ? null : fact("Most likely", top || "–", ownCardsLine(state, info, shown, compact)),
        on.revealed ? null : fact("Cards still possible", String(on.possible ?? "–")),
        ownFacts,
      ),
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

function needleLine(n, pileSize, over) {
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
      over
        ? `${playerName(n.player)}'s needle was ${cardText(n.card)}, ${where}.`
        : [`${playerName(n.player)}'s needle ${cardText(n.card)} is ${where}. `,
          `${playerName(1 - n.player)} gives it ${percent(n.opponent_belief)}.`]),
  );
}

function teacherInfo(state, info) {
  const t = state.table;
  const over = Boolean(t.result);
  const needleCodes = new Set((info.needles || []).map((n) => n.card && n.card.toUpperCase()));
  const pileTop = info.pile_top || [];
  return [
    over ? h("p", { class: "nw-round-over-text" }, "The round is over: both needles are public.") : null,
    h("ul", { class: "nw-needles", "aria-label": "Where the needles are" },
      (info.needles || []).map((n) => needleLine(n, t.pile_size, over))),
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
  ];
}

/** The teacher's "what each player knows", side by side across the whole width under the tabletop and
 * the side column (so the side column keeps the width it has for every perspective); null for any other
 * perspective, and once the round is over (both needles are public then: the teacher's panel says where). */
export function renderTeacherKnowledge(state) {
  const info = state.info;
  if (!info || info.kind !== "teacher" || !state.table || state.table.result) return null;
  return h(
    "section",
    { class: "nw-knowledge-row", "aria-label": "What each player knows", "data-key": "teacher-knowledge" },
    (info.players || []).map((pi) =>
      h("div", { class: "nw-knows" }, h("span", { class: "nw-caption" }, `What ${playerName(pi.player)} knows`),
        playerKnowledge(state, pi, { compact: true }))),
  );
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
    bots.map((b) => h("li", null, h("span", { class: "nw-bot-name" }, `${playedBy(state, b.player)}: `), b.text,
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

/** The knowledge panel of the perspective shown; `row`: laid out across the widget's width. */
export function renderInfo(state, { row = false } = {}) {
  const info = state.info || { kind: "spectator" };
  let body;
  if (info.kind === "player") body = playerKnowledge(state, info);
  else if (info.kind === "teacher") body = teacherInfo(state, info);
  else if (info.kind === "quiz") body = h("p", { class: "nw-muted" }, info.text || "");
  else {
    body = roundOverNeedles(state)
      || h("p", { class: "nw-muted" }, "A spectator sees what is public: discards, sets, scores and hand sizes.");
  }
  return h(
    "section",
    { class: ["nw-info", `nw-info-${info.kind}`, row ? "nw-info-row" : null], "aria-label": "What is known" },
    h("span", { class: "nw-caption" },
      caption(state, info)),
    body,
    botReasons(state),
  );
}

/** Is the knowledge panel a row across both columns (a player's knowledge, the teacher's view), the
 * side column then holding the replay bar alone? A quiz keeps its panel beside the tabletop, where the
 * odds appear once the answer is revealed. */
export function infoAsRow(state) {
  return state.mode !== "quiz" && Boolean(state.info && (state.info.kind === "player" || state.info.kind === "teacher"));
}

export const infoFeature = {
  name: "info",
  views: {
    side: (state) => (infoAsRow(state) ? null : renderInfo(state)),
    rows: (state) => [infoAsRow(state) ? renderInfo(state, { row: true }) : null, renderTeacherKnowledge(state)],
  },
};
