// The quiz panel (mode "quiz"): the question, the answer form while it is open, the reveal once
// answered, and the way between questions. Pure (state, ui) -> DOM; the draft (cards chosen,
// slider, choice) is the quiz feature's UI slice, `ui.quiz`. Python holds the truth: `reveal` is null until answered.
// In a class (`class: true`, a student's screen) the teacher asks and reveals: no list of questions, no way
// to the next one, and `waiting` ("Sent: the teacher reveals ...") between the answer and the reveal.

import { h, percent, srOnly } from "./dom.js";
import { cardFace, cardText } from "./cards.js";
import { playerName } from "./names.js";

export const CHOICE_LABELS = { pile: "Draw from the pile", steal: "Steal" };
/** The probability slider (0..100) moves in steps of 5 percentage points, with a tick every 10: finer
 * than a student's judgement of such odds can be, coarse enough that a click lands on a round figure. */
export const PROB_STEP = 5;
export const PROB_TICK = 10;
/** Where the unset slider's hidden thumb waits: the arrow keys start from the middle. */
const PROB_REST = 50;
/** The slider's words while no probability is chosen (its value text, and the figure beside it). */
export const PROB_NOT_SET = "not set";
const CHOICE_WORDS = { pile: "pile", steal: "steal" };

/** The quiz trait, or null outside a quiz. */
export function quizOf(state) {
  const q = state.quiz;
  return q && typeof q === "object" && q.question ? q : null;
}

/** A fresh draft for the question `index`: nothing chosen yet (no card, no probability, no choice). */
export function quizDraft(index = null) {
  return { index, cards: [], prob: null, choice: null };
}

/** A slider value (0..100, any number or numeric text) on the slider's step, or null if not a number. */
export function snapProb(value) {
  if (value === null || value === undefined || value === "") return null;
  const n = Number(value);
  if (!Number.isFinite(n)) return null;
  return Math.min(100, Math.max(0, Math.round(n / PROB_STEP) * PROB_STEP));
}

/** The answer the draft gives (card codes | 0..1 | "pile"/"steal"), or null while incomplete. */
export function quizAnswer(question, draft) {
  const form = (question && question.form) || {};
  const d = draft || quizDraft();
  if (form.type === "cards") {
    const min = Number.isInteger(form.min) ? form.min : 1;
    return d.cards.length >= Math.max(1, min) ? [...d.cards] : null;
  }
  if (form.type === "probability") return Number.isFinite(d.prob) ? d.prob / 100 : null;
  if (form.type === "choice" || form.type === "action") return (form.options || []).includes(d.choice) ? d.choice : null;
  return null;
}

/** "70%" for the slider's 0..100 (the one rule of dom.js's `percent`), "not set" before a choice. */
function probText(value) {
  return Number.isFinite(value) ? percent(value / 100) : PROB_NOT_SET;
}

/** "1 to 3" (or "3") cards of a cards form, and its bounds. */
function cardCount(form) {
  const max = Number.isInteger(form.max) ? form.max : 3;
  const min = Math.max(1, Number.isInteger(form.min) ? form.min : 1);
  return { min, max, how: min === max ? `${max}` : `${min} to ${max}` };
}

/** Why "Commit answer" waits: what the student has still to choose ("Choose 1 to 3 cards first"),
 * or null once the draft is an answer. */
export function quizMissing(question, draft) {
  if (quizAnswer(question, draft) !== null) return null;
  const form = (question && question.form) || {};
  if (form.type === "cards") {
    const { min, max, how } = cardCount(form);
    return `Choose ${how} ${min === max && max === 1 ? "card" : "cards"} first`;
  }
  if (form.type === "probability") return "Set a probability on the slider first";
  if (form.type === "choice") {
    const options = (form.options || []).map((o) => CHOICE_WORDS[o] || o);
    return `Choose ${options.join(" or ")} first`;
  }
  if (form.type === "action") return "Choose your move first";
  return "This question cannot be answered here";
}

function cardsForm(question, draft) {
  const form = question.form;
  const chosen = draft.cards;
  const { max, how } = cardCount(form);
  return [
    h(
      "div",
      { class: "nw-quiz-cards", role: "group", "aria-label": `Candidates: choose ${how} cards` },
      (form.candidates || []).map((code) => cardFace(code, {
        size: "sm",
        button: {
          key: `quiz-card-${code}`, ui: { ui: "quiz-card", card: code },
          pressed: chosen.some((c) => String(c).toUpperCase() === String(code).toUpperCase()),
        },
      })),
    ),
    h("p", { class: "nw-quiz-chosen" },
      chosen.length
        ? [`Chosen (${chosen.length} of ${max}): `, h("span", { class: "nw-quiz-chosen-cards" }, chosen.map(cardText).join(" "))]
        : `Chosen: none yet. Choose ${how} cards; a further one replaces the first chosen.`),
  ];
}

function probTicks() {
  const ticks = [];
  for (let v = 0; v <= 100; v += PROB_TICK) {
    ticks.push(h("span", { class: "nw-quiz-prob-tick", style: { "--nw-at": String(v / 100) } },
      h("span", { class: "nw-quiz-prob-tick-label" }, String(v))));
  }
  return h("div", { class: "nw-quiz-prob-ticks", "aria-hidden": "true" }, ticks);
}

function probabilityForm(question, draft) {
  const form = question.form;
  const set = Number.isFinite(draft.prob);
  return h(
    "div",
    { class: "nw-quiz-prob-row" },
    h("span", { class: "nw-field-label", "aria-hidden": "true" }, form.label || "Probability"),
    h("div", { class: "nw-quiz-prob-track" },
      h("input", {
        type: "range", class: ["nw-quiz-prob", set ? null : "nw-quiz-prob-unset"],
        "data-key": "quiz-prob", "data-input": "quiz-prob",
        // Lumino's shortcuts stop looking at this element: JupyterLab's command mode would take the arrow keys.
        "data-lm-suppress-shortcuts": "true",
        min: "0", max: "100", step: String(PROB_STEP), value: String(set ? draft.prob : PROB_REST),
        "aria-label": form.label || "Probability", "aria-valuetext": probText(draft.prob),
      }),
      probTicks()),
    h("span", { class: ["nw-quiz-prob-value", set ? null : "nw-quiz-prob-none"], "aria-hidden": "true" },
      probText(draft.prob)),
  );
}

function choiceForm(question, draft) {
  const options = question.form.options || [];
  return h(
    "div",
    { class: "nw-actions nw-quiz-choices", role: "group", "aria-label": "Your choice" },
    options.map((o) => h("button", {
      type: "button", class: ["nw-btn", "nw-toggle", draft.choice === o ? "nw-toggle-on" : null],
      "data-key": `quiz-choice-${o}`, "aria-pressed": String(draft.choice === o), "data-ui": { ui: "quiz-choice", choice: o },
    }, CHOICE_LABELS[o] || o)),
  );
}

/** A "your move" question: the seat's legal moves, in its words, one to choose. */
function actionForm(question, draft) {
  const options = question.form.options || [];
  return h(
    "div",
    { class: "nw-actions nw-quiz-choices nw-quiz-moves", role: "group", "aria-label": "Your move" },
    options.map((o, k) => h("button", {
      type: "button", class: ["nw-btn", "nw-toggle", draft.choice === o ? "nw-toggle-on" : null],
      "data-key": `quiz-move-${k}`, "aria-pressed": String(draft.choice === o), "data-ui": { ui: "quiz-choice", choice: o },
    }, o)),
  );
}

const FORMS = { cards: cardsForm, probability: probabilityForm, choice: choiceForm, action: actionForm };

function answerForm(quiz, ui) {
  const question = quiz.question;
  const form = question.form || {};
  const draft = draftFor(ui.quiz, quiz);
  const answer = quizAnswer(question, draft);
  const missing = quizMissing(question, draft);
  const whyId = `${ui.uid || "nw"}-quiz-why`;
  return h(
    "div",
    { class: "nw-quiz-form" },
    FORMS[form.type] ? FORMS[form.type](question, draft) : null,
    h("div", { class: "nw-actions nw-quiz-commit-row" },
      h("button", {
        type: "button", class: "nw-btn nw-btn-primary", "data-key": "quiz-commit", disabled: answer === null,
        "data-request": answer === null ? null : { kind: "quiz_answer", index: question.index, answer },
        "aria-describedby": missing ? whyId : null, title: missing,
      }, "Commit answer"),
      missing ? h("span", { class: "nw-quiz-why", id: whyId }, missing) : null),
  );
}

function reveal(r) {
  const rows = r.rows || [];
  return h(
    "div",
    { class: "nw-quiz-reveal" },
    h("p", { class: "nw-quiz-verdict", "data-key": "quiz-verdict", tabindex: "-1" }, r.verdict),
    r.answer_text ? h("p", { class: "nw-quiz-answer" }, r.answer_text) : null,
    rows.length
      ? h("table", { class: "nw-quiz-rows" },
          h("tbody", null, rows.map((row) => h("tr", null, h("th", { scope: "row" }, row.label), h("td", null, row.value)))))
      : null,
    r.note ? h("p", { class: "nw-note" }, r.note) : null,
  );
}

/** The columns of the summary's table: the student beside the two models, and the calibration table's. */
export const SUMMARY_COLUMNS = [["you", "You"], ["free", "Model-free"], ["greedy", "GreedyBot model"]];
export const CALIBRATION_COLUMNS = ["You said", "How many", "Your average", "It happened"];

/** Python's summary once every question is answered (`quiz.summary`), or null. */
export function quizSummary(quiz) {
  const s = quiz && quiz.done ? quiz.summary : null;
  return s && typeof s === "object" ? s : null;
}

/** The end of the quiz: the title as a heading, the text, the student beside the models, how well
 * calibrated the forecasts were, and the note. Every figure is Python's words. */
function summaryPanel(s, ui) {
  const uid = (ui && ui.uid) || "nw";
  const titleId = `${uid}-quiz-summary-title`;
  const rows = Array.isArray(s.rows) ? s.rows : [];
  const bands = Array.isArray(s.calibration) ? s.calibration : [];
  return h(
    "section",
    { class: "nw-quiz-summary", "data-key": "quiz-summary", "aria-labelledby": titleId },
    h("h3", { class: "nw-quiz-summary-title", id: titleId, "data-key": "quiz-summary-title", tabindex: "-1" },
      s.title || "Quiz finished"),
    s.text ? h("p", { class: "nw-quiz-summary-text" }, s.text) : null,
    rows.length
      ? h("table", { class: "nw-quiz-summary-table nw-quiz-vs" },
          h("caption", null, "You and the models, on the same questions"),
          h("thead", null, h("tr", null,
            h("th", { scope: "col" }, "Question"),
            SUMMARY_COLUMNS.map(([k, label]) => h("th", { scope: "col", class: `nw-col-${k}` }, label)))),
          h("tbody", null, rows.map((row) => h("tr", null,
            h("th", { scope: "row" }, row.label),
            SUMMARY_COLUMNS.map(([k]) => h("td", { class: `nw-col-${k}` }, row[k] ?? "–"))))))
      : null,
    bands.length
      ? h("table", { class: "nw-quiz-summary-table nw-quiz-calibration" },
          h("caption", null, "Calibration: your forecasts, grouped by what you said"),
          h("thead", null, h("tr", null, CALIBRATION_COLUMNS.map((label) => h("th", { scope: "col" }, label)))),
          h("tbody", null, bands.map((b) => h("tr", null,
            h("th", { scope: "row" }, b.band),
            h("td", null, String(b.count ?? "–")),
            h("td", null, b.said ?? "–"),
            h("td", null, b.happened ?? "–")))))
      : null,
    s.note ? h("p", { class: "nw-note nw-quiz-summary-note" }, s.note) : null,
  );
}

/** The first question not answered yet, or null. */
function firstOpen(quiz) {
  const open = (quiz.items || []).find((it) => !it.answered);
  return open ? open.index : null;
}

function itemList(quiz) {
  const items = quiz.items || [];
  if (!items.length || (quiz.total || items.length) < 2) return null; // Python lists the questions reached
  const open = firstOpen(quiz);
  return h(
    "ol",
    { class: "nw-quiz-items", "aria-label": "Questions" },
    items.map((it) => {
      const current = it.index === quiz.question.index;
      const reachable = it.answered || it.index === open;
      const status = current ? "current" : it.answered ? "answered" : "not answered yet";
      return h("li", null, h("button", {
        type: "button",
        class: ["nw-quiz-item", current ? "nw-current" : null, it.answered ? "nw-quiz-item-done" : null],
        "data-key": `quiz-item-${it.index}`,
        "aria-label": `Question ${it.index + 1}: ${it.label}, ${status}${it.answered && current ? ", answered" : ""}`,
        "aria-current": current ? "step" : null,
        title: it.verdict || null,
        disabled: !reachable && !current,
        "data-request": reachable && !current ? { kind: "quiz_go", index: it.index } : null,
      },
      h("span", { class: "nw-quiz-item-n", "aria-hidden": "true" }, String(it.index + 1)),
      h("span", { class: "nw-quiz-item-label", "aria-hidden": "true" }, it.label),
      it.answered ? h("span", { class: "nw-quiz-tick", "aria-hidden": "true" }, "✓") : null));
    }),
  );
}

/** Is this a class's question (the teacher asks and reveals), not a quiz of one's own? */
export function isClassQuiz(quiz) {
  return Boolean(quiz && quiz.class === true);
}

/** The line shown once a class's question is answered and until the teacher reveals it, or null. */
function waitingLine(quiz) {
  if (!isClassQuiz(quiz) || !quiz.question.answered || quiz.reveal || !quiz.waiting) return null;
  return h("p", { class: "nw-quiz-waiting", role: "status", "data-key": "quiz-waiting", tabindex: "-1" }, quiz.waiting);
}

/** The quiz panel, or null outside a quiz. */
export function renderQuiz(state, ui) {
  const quiz = quizOf(state);
  if (!quiz) return null;
  const inClass = isClassQuiz(quiz);
  const q = quiz.question;
  const answered = Boolean(q.answered);
  const total = quiz.total || (quiz.items || []).length;
  const nextIndex = q.index + 1;
  const who = [playerName(quiz.seat), quiz.student].filter(Boolean).join(" · ");
  const summary = quizSummary(quiz);
  return h(
    "section",
    { class: "nw-quiz", "data-key": "quiz", "aria-label": "Quiz" },
    h("span", { class: "nw-caption" }, `${inClass ? "Class question" : "Quiz"} · ${who}`),
    h("p", { class: "nw-quiz-count" },
      inClass ? `Question ${q.index + 1} · step ${q.step}` : `Question ${q.index + 1} of ${total} · step ${q.step}`),
    h("p", { class: "nw-quiz-prompt", "data-key": "quiz-prompt", tabindex: "-1" },
      srOnly(`Question ${q.index + 1}: `), q.prompt),
    state.step !== q.step
      ? h("div", { class: "nw-quiz-away" },
          h("p", null, `You are looking at step ${state.step}; the question is about step ${q.step}.`),
          h("button", {
            type: "button", class: "nw-btn", "data-key": "quiz-to-step", "data-request": { kind: "step", to: q.step },
          }, `Back to step ${q.step}`))
      : null,
    answered ? null : answerForm(quiz, ui),
    waitingLine(quiz),
    answered && quiz.reveal ? reveal(quiz.reveal) : null,
    // Right after the verdict, so that reading on from it (where the focus goes after the last
    // "Commit answer") reaches it; kept while earlier questions are reviewed.
    summary ? summaryPanel(summary, ui) : null,
    // Once the quiz is done, a question reviewed leads nowhere new: no "Next question" beside "Quiz finished".
    answered && !inClass && !quiz.done && nextIndex < total
      ? h("div", { class: "nw-actions" },
          h("button", {
            type: "button", class: "nw-btn nw-btn-primary", "data-key": "quiz-next",
            "data-request": { kind: "quiz_go", index: nextIndex },
          }, "Next question"))
      : null,
    quiz.done && !inClass
      ? h("p", { class: "nw-quiz-done", "data-key": "quiz-done" }, "Quiz finished: step on to see how the game ended.")
      : null,
    inClass ? null : itemList(quiz),
  );
}

/** The draft of the question asked now (a fresh one if `draft` is another question's). */
function draftFor(draft, quiz) {
  return draft && draft.index === quiz.question.index ? draft : quizDraft(quiz.question.index);
}

function quizCard(draft, card, state) {
  const quiz = quizOf(state);
  const form = quiz && quiz.question.form;
  if (!form || form.type !== "cards" || quiz.question.answered) return draft;
  const code = (form.candidates || []).find((c) => String(c).toUpperCase() === String(card).toUpperCase());
  if (code === undefined) return draft;
  const d = draftFor(draft, quiz);
  const max = Number.isInteger(form.max) && form.max > 0 ? form.max : 3;
  const has = d.cards.includes(code);
  // A press past the maximum replaces the first card chosen (as the hand's set selection does).
  const cards = has ? d.cards.filter((c) => c !== code) : [...d.cards, code].slice(-max);
  return { ...d, cards };
}

function quizSet(draft, field, value, state) {
  const quiz = quizOf(state);
  if (!quiz || quiz.question.answered) return draft;
  const d = draftFor(draft, quiz);
  if (field === "prob") {
    // On the slider's step (a click between two ticks gives the nearer one), within 0..100.
    const prob = snapProb(value);
    if (prob === null) return draft;
    return prob === d.prob && d === draft ? draft : { ...d, prob };
  }
  const options = (quiz.question.form && quiz.question.form.options) || [];
  if (!options.includes(value)) return draft;
  return { ...d, choice: value };
}

export const quizFeature = {
  name: "quiz",
  initial: () => quizDraft(),
  reduce(draft, action, state) {
    switch (action.ui) {
      case "quiz-card":
        return quizCard(draft, action.card, state);
      case "quiz-prob":
        return quizSet(draft, "prob", action.value, state);
      case "quiz-choice":
        return quizSet(draft, "choice", action.choice, state);
      default:
        return draft;
    }
  },
  /** The draft belongs to one question: a new question starts afresh. */
  sync(draft, state) {
    const quiz = quizOf(state);
    const index = quiz ? quiz.question.index : null;
    return draft && draft.index === index ? draft : quizDraft(index);
  },
  views: { left: renderQuiz },
  inputs: { "quiz-prob": (el) => ({ ui: "quiz-prob", value: el.value }) },
  // A click sets the slider's value even where the unset slider rests (no input event fires then).
  clicks: { "quiz-prob": (el) => ({ ui: "quiz-prob", value: el.value }) },
  // After "Commit answer" the verdict (in a class: the line that waits for it), after "Next question" or
  // "Back to step s" the question.
  focus: ["quiz-verdict", "quiz-waiting", "quiz-prompt"],
};
