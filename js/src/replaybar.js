// The replay bar: first/previous/next/last, a slider, play/pause and speed,
// the live narration line and the list of events (click one to jump to it). The replay feature
// keeps the current event in sight in the list as the step changes.

import { h, memo } from "./dom.js";
import { icon } from "./icons.js";
import { isClassScreen } from "./names.js";
import { noteMark, noteSteps, noteTicks } from "./notes.js";
import { eventMarks, marksByStep, reviewTicks } from "./review.js";
import { AUTOPLAY_MODES, SPEEDS } from "./shared.js";
import { currentLine, lineBar, linesOf, moveRow, variationsAt } from "./variations.js";

export { SPEEDS };

/** Modes where autoplay makes sense (the others are played by people): Python's AUTOPLAY_MODES; never on a
 * class's screen (the teacher leads it). */
export function hasAutoplay(state) {
  return AUTOPLAY_MODES.includes(state.mode) && !isClassScreen(state);
}

/**
 * Spoiler-free review (`spoilers` false): Python sends the replay as if it ended at the current
 * step, so "next" may exist at step === steps: true there until the round is over at that step
 * (Python refuses a step past the real end with "The replay ends at step N"). In a quiz, never.
 */
export function mayStepOn(state) {
  const { step, steps } = state;
  if (step < steps) return true;
  // A quiz shows the record up to the question asked (`steps`), never beyond: Python refuses more.
  if (state.mode === "quiz") return false;
  return state.spoilers === false && step === steps && !(state.table && state.table.phase === "over");
}

/** How far the view may move on at once for the live line to name every event on the way (a move and the
 * opponent's answer while playing); a longer jump names only the event of the step shown. */
export const LIVE_SPAN = 8;

/** "Step 12 of 40: Player 1 drew a card from the pile." ("Step 12: ..." in spoiler-free review). `since`, the
 * step shown before when the view moved on by at most LIVE_SPAN steps, names the events after it too:
 * "Step 4 of 4: You discarded 5♠. Player 2 drew from the pile." */
export function liveText(state, since = null) {
  const { step, steps } = state;
  const events = state.events || [];
  let text;
  if (step === 0) text = "The cards are dealt.";
  else {
    const from = Number.isInteger(since) && since < step && step - since <= LIVE_SPAN ? since : step - 1;
    text = events.filter((e) => e.step > from && e.step <= step).map((e) => e.text).join(" ");
  }
  const r = state.table && state.table.result;
  if (r && r.text && step === steps && !text.includes(r.text)) text = `${text} ${r.text}`.trim();
  return state.spoilers === false ? `Step ${step}: ${text}` : `Step ${step} of ${steps}: ${text}`;
}

function stepButton(key, label, iconName, to, disabled) {
  return h(
    "button",
    {
      type: "button",
      class: "nw-btn nw-icon-btn",
      "data-key": key,
      "aria-label": label,
      title: label,
      "data-request": disabled ? null : { kind: "step", to },
      disabled,
    },
    icon(iconName),
  );
}

/** What a move's review marks show, as one string (a `memo` dependency). */
function marksKey(marks) {
  return marks ? marks.map((m) => `${m.label} ${m.seat} ${m.mark} ${m.words}`).join("|") : "";
}

function eventList(state) {
  const { step } = state;
  const current = currentLine(state);
  const inLine = current !== null;
  const lines = linesOf(state);
  const main = inLine ? lines.main || [] : state.events || [];
  const items = [{ step: 0, turn: null, player: null, text: "Start: the cards are dealt." }, ...main];
  let lastTurn = null;
  const noted = new Set(inLine ? [] : noteSteps(state));
  const marked = inLine ? new Map() : marksByStep(state);
  const rows = [];
  for (const ev of items) {
    const newTurn = ev.turn !== lastTurn;
    lastTurn = ev.turn;
    const current = ev.step === step && (!inLine || step <= lines.from_step);
    const marks = marked.get(ev.step);
    const noteHere = noted.has(ev.step);
    rows.push(memo(`ev-${ev.step}`, [ev, inLine, current, newTurn, marksKey(marks), noteHere], () => moveRow(ev, {
      key: `ev-${ev.step}`,
      request: inLine ? { kind: "line", variation: null, to: ev.step } : { kind: "step", to: ev.step },
      current,
      newTurn,
      extra: [marks ? eventMarks(marks) : null, noteHere ? noteMark() : null],
    })));
    rows.push(...variationsAt(state, ev.step));
  }
  return h("ol", { class: "nw-events", "aria-label": "Moves" }, rows);
}

/**
 * Scrolls the list of moves so that `item` (the current move's row) sits in its middle, as near as the
 * list's own scrolling allows. Only the list's scrollTop changes: never the page's or the notebook's
 * (scrollIntoView would scroll them too). Returns the scrollTop set.
 */
export function centreInList(list, item) {
  const a = item.getBoundingClientRect();
  const b = list.getBoundingClientRect();
  // The row's top within the list's scrolled content, whatever the list's offsetParent.
  const top = a.top - b.top - (list.clientTop || 0) + list.scrollTop;
  const max = Math.max(0, list.scrollHeight - list.clientHeight);
  const want = Math.round(top + a.height / 2 - list.clientHeight / 2);
  const scrollTop = Math.min(max, Math.max(0, want));
  if (list.scrollTop !== scrollTop) list.scrollTop = scrollTop;
  return scrollTop;
}

export function renderReplayBar(state, ui) {
  const { step, steps, playing } = state;
  // The slider follows the step asked for (index.js sets `asked` while Python has not answered it).
  const asked = Number.isInteger(state.asked) ? state.asked : step;
  const speed = state.speed || 1;
  const speeds = SPEEDS.includes(speed) ? SPEEDS : [...SPEEDS, speed].sort((a, b) => a - b);
  const autoplay = hasAutoplay(state);
  return h(
    "div",
    { class: "nw-replay", role: "group", "aria-label": "Replay" },
    h(
      "div",
      { class: "nw-replay-bar" },
      stepButton("first", "First step", "first", 0, step <= 0),
      stepButton("prev", "Previous step", "prev", step - 1, step <= 0),
      autoplay
        ? h(
            "button",
            {
              type: "button",
              class: ["nw-btn", "nw-icon-btn", "nw-play", playing ? "nw-playing" : null],
              "data-key": "play",
              "aria-label": playing ? "Pause" : "Play",
              title: playing ? "Pause (space)" : "Play (space)",
              "data-request": { kind: "autoplay", playing: !playing, speed },
            },
            icon(playing ? "pause" : "play"),
          )
        : null,
      stepButton("next", "Next step", "next", step + 1, !mayStepOn(state)),
      stepButton("last", "Last step", "last", steps, step >= steps),
      autoplay
        ? h(
            "select",
            { class: "nw-speed", "data-key": "speed", "data-input": "speed", "aria-label": "Speed", title: "Actions per second", value: String(speed) },
            speeds.map((v) => h("option", { value: String(v), selected: v === speed }, `${v}/s`)),
          )
        : null,
    ),
    h(
      "div",
      { class: "nw-slider-row" },
      h("div", { class: "nw-slider-track" }, h("input", {
        type: "range",
        class: "nw-slider",
        "data-key": "slider",
        "data-input": "step",
        "data-lm-suppress-shortcuts": "true", // the arrow keys are the slider's, not JupyterLab's
        min: "0",
        max: String(steps),
        step: "1",
        value: String(asked),
        "aria-label": "Step",
        "aria-valuetext": `Step ${asked} of ${steps}`,
        disabled: steps === 0,
      }), noteTicks(state), reviewTicks(state)),
      h("span", { class: "nw-step-count", "aria-hidden": "true" }, `${asked} / ${steps}`),
    ),
    h("p", { class: "nw-live", "aria-live": "polite", "aria-atomic": "true" },
      liveText(state, ui && ui.replay ? ui.replay.since : null)),
    lineBar(state),
    eventList(state),
    h("p", { class: "nw-hint" }, "Keys: ← → step, Home / End first / last", autoplay ? ", Space play / pause" : "",
      (linesOf(state) && (linesOf(state).list || []).length) ? ", [ ] switch line" : "", ", R read the table aloud."),
  );
}

export const replayFeature = {
  name: "replay",
  // The step shown and the one before it (the live line names the events in between).
  initial: () => ({ shown: null, since: null }),
  sync: (slice, state) => (state.step === slice.shown ? slice : { shown: state.step, since: slice.shown }),
  views: { side: renderReplayBar },
  // The slider asks for its step (from the one asked for, while Python has not answered).
  inputs: {
    step(el, { stepFrom }) {
      const to = Number(el.value);
      return Number.isInteger(to) && to !== stepFrom ? { kind: "step", to } : null;
    },
  },
  changes: {
    speed(el, { state }) {
      const speed = Number(el.value);
      return speed > 0 ? { kind: "autoplay", playing: Boolean(state.playing), speed } : null;
    },
  },
  connect({ root }) {
    // A widget rendered before it is laid out (JupyterLab attaches outputs below the fold later)
    // scrolls its event list once it gets a size. The current move is another row at the same step
    // when another line is shown ([ / ], a variation's move clicked) or its line moved (promote):
    // the list follows it too (`centred`: the data-key of the row it last centred).
    let pending = false;
    let centred = null;
    const currentRow = () => root.querySelector('.nw-events [aria-current="step"]');
    function scrollCurrentEvent() {
      const list = root.querySelector(".nw-events");
      const current = list && list.querySelector('[aria-current="step"]');
      pending = Boolean(current) && list.clientHeight === 0;
      if (!current || pending) return;
      centred = current.getAttribute("data-key");
      centreInList(list, current.parentElement);
    }
    const resizes = typeof ResizeObserver === "function"
      ? new ResizeObserver(() => { if (pending) scrollCurrentEvent(); })
      : null;
    if (resizes) resizes.observe(root);
    return {
      rendered({ stepChanged }) {
        const current = currentRow();
        if (stepChanged || (current && current.getAttribute("data-key") !== centred)) scrollCurrentEvent();
      },
      disconnect() {
        if (resizes) resizes.disconnect();
      },
    };
  },
};
