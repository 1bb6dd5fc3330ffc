// The possible-worlds panel: worlds a seat cannot tell from the real one (what is the same in
// every world, then one row per world with only what differs) and their play-out.

import { h, percent } from "./dom.js";
import { cardFace, cardText } from "./cards.js";
import { perspectiveLabel, playerName } from "./names.js";
import { offer, offerReason, panelRequest } from "./whatif.js";

/** How a round ended (outcomes' reasons), in words. */
export const ENDINGS = {
  found: "a needle was found",
  discarded: "a needle was discarded",
  melded: "a needle was laid in a set",
  exhausted: "no card was left to draw",
  turn_limit: "the turn limit was reached",
};

const seatWords = (seat) => (seat === 0 || seat === 1 ? playerName(seat) : `the ${perspectiveLabel(seat).toLowerCase()}`);

function select({ key, label, visible, options, value, disabled }) {
  return h("label", { class: "nw-field" },
    h("span", { class: "nw-field-label", "aria-hidden": "true" }, visible),
    h("select", {
      class: "nw-select", "data-key": key, "data-input": key, "aria-label": label, value: String(value), disabled,
    }, options.map((o) => h("option", { value: String(o.id), selected: String(o.id) === String(value) }, o.label))));
}

function cards(codes, note) {
  return h("span", { class: "nw-wcards" }, codes.map((c) => cardFace(c, { size: "sm", note })));
}

function needleCell(code) {
  return code ? cards([code]) : h("span", { class: "nw-muted-inline" }, "not picked");
}

function sameLine(w) {
  const same = w.same || {};
  const items = [];
  for (const q of w.hidden || []) {
    const hand = (same.hands || {})[String(q)] || [];
    if (hand.length) items.push(h("li", null, `${playerName(q)} holds `, cards(hand)));
    const needles = same.needles || {};
    if (String(q) in needles) {
      items.push(h("li", null, `${playerName(q)}'s needle `, needleCell(needles[String(q)])));
    }
  }
  (same.pile || []).forEach((c, i) => {
    if (c) items.push(h("li", null, `Pile card ${i + 1} `, cards([c])));
  });
  return h("div", { class: "nw-same" },
    h("span", { class: "nw-same-label" }, "Same in every world:"),
    items.length ? h("ul", { class: "nw-same-list" }, items) : h("span", { class: "nw-muted-inline" }, " nothing."));
}

function pileCell(row, same) {
  const known = same.pile || [];
  const pile = row.pile || [];
  return h("ol", { class: "nw-wpile" }, pile.map((c, i) => h("li", null, c
    ? cardFace(c, { size: "sm", note: `pile card ${i + 1}` })
    : h("span", { class: "nw-wslot", role: "img", "aria-label": `pile card ${i + 1}: ${known[i] ? cardText(known[i]) : "none"}, as in every world` },
      h("span", { "aria-hidden": "true" }, "=")))));
}

function worldsTable(w) {
  const same = w.same || {};
  const hidden = w.hidden || [];
  const needleCols = hidden.filter((q) => !(String(q) in (same.needles || {})));
  const showPile = (w.rows || []).some((r) => (r.pile || []).some(Boolean));
  return h(
    "table",
    { class: "nw-worlds-table" },
    h("caption", { class: "nw-sr" }, "The worlds: only what differs between them"),
    h("thead", null, h("tr", null,
      h("th", { scope: "col" }, "World"),
      hidden.map((q) => h("th", { scope: "col" }, `${playerName(q)}'s hand`)),
      needleCols.map((q) => h("th", { scope: "col" }, `${playerName(q)}'s needle`)),
      showPile ? h("th", { scope: "col" }, `Next cards of the pile (${w.pile_size ?? "?"} in all)`) : null)),
    h("tbody", null, (w.rows || []).map((r) => h(
      "tr",
      { class: r.real ? "nw-world-real" : null },
      h("th", { scope: "row" }, r.real ? h("span", { class: "nw-real-badge" }, r.label || "Real") : r.label),
      hidden.map((q) => {
        const hand = (r.hands || {})[String(q)] || [];
        return h("td", null, hand.length ? cards(hand) : h("span", { class: "nw-muted-inline" }, "–"));
      }),
      needleCols.map((q) => h("td", null, needleCell((r.needles || {})[String(q)]))),
      showPile ? h("td", null, pileCell(r, same)) : null,
    ))),
  );
}

/** "73% (66%–79%)": a share and, unless certain, its 95% interval, every figure by dom.js's `percent`. */
function shareText(p, kind) {
  const share = p[kind];
  const interval = p.intervals && p.intervals[kind];
  if (p.certain || !Array.isArray(interval)) return percent(share);
  return `${percent(share)} (${percent(interval[0])}–${percent(interval[1])})`;
}

/** How a game ended, in the words used everywhere else ("a needle was laid in a set"). */
export function endingText(reason) {
  return ENDINGS[reason] || String(reason).replace(/_/g, " ");
}

function outcomeBar(p) {
  const who = p.who || playerName(p.player);
  const [lo, hi] = (p.intervals && p.intervals.win) || [p.win, p.win];
  // CSS widths only: the figures shown all come from `percent`.
  const width = (x) => `${(100 * Math.max(0, Math.min(1, x || 0))).toFixed(2)}%`;
  const seg = (kind, share) => h("span", { class: `nw-out-${kind}`, style: { width: width(share) } },
    share >= 0.1 ? percent(share) : "");
  const texts = { win: `${who} wins ${shareText(p, "win")}`, draw: `draws ${shareText(p, "draw")}`, loss: `loses ${shareText(p, "loss")}` };
  return h(
    "div",
    { class: "nw-outcome" },
    h("div", {
      class: "nw-outcome-bar", role: "img",
      "aria-label": `${texts.win}, ${texts.draw}, ${texts.loss} of ${p.n} worlds`,
    },
    seg("win", p.win), seg("draw", p.draw), seg("loss", p.loss),
    p.certain ? null : h("span", { class: "nw-out-whisker", style: { left: width(lo), width: width(hi - lo) } })),
    h("div", { class: "nw-outcome-legend", "aria-hidden": "true" },
      h("span", null, h("i", { class: "nw-swatch nw-out-win" }), texts.win),
      h("span", null, h("i", { class: "nw-swatch nw-out-draw" }), texts.draw),
      h("span", null, h("i", { class: "nw-swatch nw-out-loss" }), texts.loss)),
  );
}

/** The play-out: its bar, legend and endings are the front end's own words and figures (Python's
 * `text` says the same for Python's own printing, and is not shown). */
function renderPlayout(p) {
  if (!p) return null;
  if (p.status === "computing") return null; // said by the panel's status line
  if (p.status === "failed") return h("p", { class: "nw-whatif-error" }, p.error || "The play-out failed.");
  const order = Object.keys(ENDINGS);
  const rank = (r) => (order.includes(r) ? order.indexOf(r) : order.length);
  const ends = Object.entries(p.reasons || {}).filter(([, n]) => n > 0).sort(([a], [b]) => rank(a) - rank(b));
  const bots = (p.bots || []).join(" vs ");
  return h(
    "div",
    { class: "nw-playout" },
    h("span", { class: "nw-caption" }, `Played out ${p.n} times${bots ? ` (${bots})` : ""}`),
    outcomeBar(p),
    h("p", { class: "nw-playout-text" }, p.certain
      ? "The round is over here: every world ends the same way."
      : "In brackets: 95% intervals of each share."),
    ends.length
      ? h("div", { class: "nw-endings" }, h("span", null, "How the games end: "),
          h("ul", { class: "nw-endings-list" }, ends.map(([r, n]) => h("li", null, `${endingText(r)}: ${n}`))))
      : null,
  );
}

function busyText(w) {
  if (w.status === "computing") return "Drawing worlds…";
  if (w.playout && w.playout.status === "computing") return "Playing the worlds to the end…";
  return "";
}

/** The possible-worlds panel, or null while closed. */
export function renderWorlds(state, ui) {
  const w = state.worlds;
  if (!w) return null;
  const o = offer(state, "worlds") || {};
  const reason = offerReason(state, "worlds");
  const computing = w.status === "computing";
  const seats = o.seats || [];
  const models = o.models && o.models.length ? o.models : [{ id: w.model, label: w.model_label || w.model }];
  const stale = computing && w.step !== state.step;
  return h(
    "section",
    { class: "nw-worlds nw-panel", id: `${ui.uid || "nw"}-worlds`, "aria-label": "Possible worlds", "aria-busy": String(computing) },
    h("h3", { class: "nw-panel-title" }, `Possible worlds for ${seatWords(w.seat)} at step ${w.step}`),
    h(
      "div",
      { class: "nw-panel-controls" },
      seats.length > 1
        ? select({ key: "worlds-seat", label: "Whose worlds", visible: "Worlds of", value: w.seat, disabled: Boolean(reason),
            options: seats.map((p) => ({ id: p, label: perspectiveLabel(p) })) })
        : null,
      select({ key: "worlds-model", label: "Opponent in the worlds", visible: "Opponent", value: w.model,
        options: models, disabled: Boolean(reason) || models.length < 2 }),
      h("button", { type: "button", class: "nw-btn", "data-key": "worlds-resample", "data-request": reason ? null : { kind: "resample" }, disabled: Boolean(reason) }, "Resample"),
      h("button", { type: "button", class: "nw-btn", "data-key": "worlds-playout", "data-request": reason ? null : { kind: "playout" }, disabled: Boolean(reason) }, "Play them out"),
    ),
    reason ? h("p", { class: "nw-tool-reason" }, reason) : null,
    h("p", { class: "nw-busy-text", "aria-live": "polite" }, busyText(w)),
    w.status === "failed" ? h("p", { class: "nw-whatif-error" }, w.error || "Drawing the worlds failed.") : null,
    (w.rows || []).length
      ? h("div", { class: ["nw-worlds-body", stale ? "nw-stale" : null] },
          w.note ? h("p", { class: "nw-note" }, w.note) : null,
          w.ess !== null && w.ess !== undefined
            ? h("p", { class: "nw-note" }, `Effective sample size ${Math.round(w.ess)} of ${w.particles} particles.`)
            : null,
          sameLine(w),
          h("div", { class: "nw-table-scroll" }, worldsTable(w)))
      : null,
    renderPlayout(w.playout),
  );
}

export const worldsFeature = {
  name: "worlds",
  views: { analysis: renderWorlds },
  // Its selects ask Python at once.
  changes: {
    "worlds-seat": (el, { state }) => panelRequest(state, "worlds", "seat", el.value),
    "worlds-model": (el, { state }) => panelRequest(state, "worlds", "model", el.value),
  },
  focus: ["tool-worlds"],
};
