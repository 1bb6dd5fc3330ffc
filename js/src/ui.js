// Local UI state (selected cards, discard history open, dismissed error, the "Play from here"
// form, the graph's table, the teacher's note form and the quiz's draft answer): a pure reducer.

import { choiceFrom, noteOffer, notesEditable, notesOf } from "./notes.js";
import { quizDraft, quizOf, snapProb } from "./quiz.js";
import { canAct, selectionScope } from "./selectors.js";

const BRANCH_FIELDS = ["seat", "opponent", "world"];

function closedBranch() {
  return { open: false, seat: null, opponent: null, world: null };
}

function closedNote() {
  return { open: false, index: null, text: "", perspective: null, question: null, saving: false };
}

export function initialUi(uid = "nw") {
  return {
    uid, selected: [], scope: null, discardsOpen: false, dismissedError: null,
    branch: closedBranch(), branchFrom: null, graphTable: false,
    note: closedNote(), quiz: quizDraft(),
  };
}

/** The quiz question's index shown now, or null outside a quiz. */
function quizIndex(state) {
  const quiz = quizOf(state);
  return quiz ? quiz.question.index : null;
}

/** Drops the selection when the position changes or the cards left the hand; closes the
 * branch form once a branch opens or closes (Python answered "Play"). */
export function syncUi(ui, state) {
  let next = ui;
  const scope = selectionScope(state);
  if (scope !== ui.scope) next = { ...next, scope, selected: [] };
  const from = state.branch_info ? JSON.stringify(state.branch_info) : null;
  if (from !== ui.branchFrom) next = { ...next, branchFrom: from, branch: closedBranch() };
  // The quiz draft belongs to one question: a new question starts afresh.
  const index = quizIndex(state);
  if (!next.quiz || next.quiz.index !== index) next = { ...next, quiz: quizDraft(index) };
  // The note form closes when this screen may no longer edit, or the note edited is gone.
  const note = next.note;
  if (note && note.open) {
    const gone = note.index !== null && !notesOf(state).some((n) => n.index === note.index);
    if (!notesEditable(state) || gone) next = { ...next, note: closedNote() };
  }
  return next;
}

function quizCard(ui, card, state) {
  const quiz = quizOf(state);
  const form = quiz && quiz.question.form;
  if (!form || form.type !== "cards" || quiz.question.answered) return ui;
  const code = (form.candidates || []).find((c) => String(c).toUpperCase() === String(card).toUpperCase());
  if (code === undefined) return ui;
  const draft = ui.quiz && ui.quiz.index === quiz.question.index ? ui.quiz : quizDraft(quiz.question.index);
  const max = Number.isInteger(form.max) && form.max > 0 ? form.max : 3;
  const has = draft.cards.includes(code);
  // A press past the maximum replaces the first card chosen (as the hand's set selection does).
  const cards = has ? draft.cards.filter((c) => c !== code) : [...draft.cards, code].slice(-max);
  return { ...ui, quiz: { ...draft, cards } };
}

function quizSet(ui, field, value, state) {
  const quiz = quizOf(state);
  if (!quiz || quiz.question.answered) return ui;
  const draft = ui.quiz && ui.quiz.index === quiz.question.index ? ui.quiz : quizDraft(quiz.question.index);
  if (field === "prob") {
    // On the slider's step (a click between two ticks gives the nearer one), within 0..100.
    const prob = snapProb(value);
    if (prob === null) return ui;
    return prob === draft.prob && draft === ui.quiz ? ui : { ...ui, quiz: { ...draft, prob } };
  }
  const options = (quiz.question.form && quiz.question.form.options) || [];
  if (!options.includes(value)) return ui;
  return { ...ui, quiz: { ...draft, choice: value } };
}

const NOTE_FIELDS = { text: null, perspective: "perspectives", question: "kinds" };

function noteSet(ui, field, value, state) {
  if (!ui.note || !ui.note.open || !(field in NOTE_FIELDS)) return ui;
  let v = value;
  if (field === "text") v = String(value ?? "");
  else if (typeof value === "string") v = choiceFrom((noteOffer(state) || {})[NOTE_FIELDS[field]], value);
  if (ui.note[field] === v) return ui;
  return { ...ui, note: { ...ui.note, [field]: v } };
}

function noteEdit(ui, index, state) {
  if (!notesEditable(state)) return ui;
  const note = notesOf(state).find((n) => n.index === index);
  if (!note) return ui;
  return {
    ...ui,
    note: {
      ...closedNote(), open: true, index, text: note.text || "",
      perspective: note.perspective ?? null, question: note.question ? note.question.kind : null,
    },
  };
}

/** Applies one data-ui action ({ui: "select", card} etc.) to the UI state. */
export function reduceUi(ui, action, state) {
  switch (action.ui) {
    case "select": {
      if (!canAct(state)) return ui;
      const phase = state.table.phase;
      const has = ui.selected.includes(action.card);
      let selected;
      if (has) selected = ui.selected.filter((c) => c !== action.card);
      else if (phase === "discard") selected = [action.card];
      else selected = [...ui.selected, action.card].slice(-3);
      return { ...ui, selected };
    }
    case "discards":
      return { ...ui, discardsOpen: !ui.discardsOpen };
    case "dismiss-error":
      return { ...ui, dismissedError: action.id };
    case "branch-form":
      return { ...ui, branch: ui.branch.open ? closedBranch() : { ...closedBranch(), open: true } };
    case "branch-set":
      if (!BRANCH_FIELDS.includes(action.field)) return ui;
      return { ...ui, branch: { ...ui.branch, [action.field]: action.value } };
    case "graph-table":
      return { ...ui, graphTable: !ui.graphTable };
    case "note-open":
      return notesEditable(state) ? { ...ui, note: { ...closedNote(), open: true } } : ui;
    case "note-edit":
      return noteEdit(ui, action.index, state);
    case "note-close":
      return ui.note && ui.note.open ? { ...ui, note: closedNote() } : ui;
    case "note-set":
      return noteSet(ui, action.field, action.value, state);
    case "note-saving":
      return ui.note && ui.note.open ? { ...ui, note: { ...ui.note, saving: Boolean(action.saving) } } : ui;
    case "quiz-card":
      return quizCard(ui, action.card, state);
    case "quiz-prob":
      return quizSet(ui, "prob", action.value, state);
    case "quiz-choice":
      return quizSet(ui, "choice", action.choice, state);
    default:
      return ui;
  }
}
