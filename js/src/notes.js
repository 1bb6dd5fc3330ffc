// The teacher's notes: the Notes section of the side column (the notes at the step shown, the
// way to the others), the teacher's note form, and the marks in the event list and under the slider.
// Pure (state, ui) -> DOM. The note feature: its UI slice `ui.note` is the form's draft.

import { h, srOnly } from "./dom.js";

export const NOTE_MAX = 2000;

/** The notes Python sent (the shown perspective's, never past `steps`). */
export function notesOf(state) {
  return Array.isArray(state.notes) ? state.notes : [];
}

/** The notes at `step`, in Python's order. */
export function notesAt(state, step) {
  return notesOf(state).filter((n) => n.step === step);
}

/** The steps that have a note, ascending, each once. */
export function noteSteps(state) {
  return [...new Set(notesOf(state).map((n) => n.step).filter(Number.isInteger))].sort((a, b) => a - b);
}

/** Python's offers.notes, or null. */
export function noteOffer(state) {
  const o = state.offers && state.offers.notes;
  return o && typeof o === "object" ? o : null;
}

/** May this screen add, edit and remove notes now? */
export function notesEditable(state) {
  const o = noteOffer(state);
  return Boolean(o && o.editable);
}

/** A choice id (null | 0 | 1 | "spectator" | ...) as an <option> value, and back by lookup. */
export function choiceValue(id) {
  return id === null || id === undefined ? "" : String(id);
}

export function choiceFrom(choices, value) {
  const found = (choices || []).find((c) => choiceValue(c.id) === value);
  return found ? found.id : null;
}

/** The form's For / Question choices: the draft's when still offered, else the first offered. */
export function noteChoice(state, ui) {
  const o = noteOffer(state) || {};
  const draft = ui.note || {};
  const pick = (value, choices) => {
    const ids = (choices || []).map((c) => c.id);
    if (ids.includes(value)) return value;
    return ids.includes(null) || !ids.length ? null : ids[0];
  };
  return { perspective: pick(draft.perspective, o.perspectives), question: pick(draft.question, o.kinds) };
}

/** The request Save sends, or null when there is nothing to save. */
export function noteRequest(state, ui) {
  const draft = ui.note;
  if (!draft || !draft.open) return null;
  const text = String(draft.text || "");
  const { perspective, question } = noteChoice(state, ui);
  if (!text.trim() && question === null) return null;
  if (draft.index === null || draft.index === undefined) {
    return { kind: "note_add", step: state.step, text, perspective, question };
  }
  return { kind: "note_edit", index: draft.index, text, perspective, question };
}

/** "note 2": a note by its number (`index`, as Python's messages number them). */
export function noteNumber(index) {
  return `note ${index}`;
}

function select({ key, label, choices, value }) {
  return h("label", { class: "nw-field" },
    h("span", { class: "nw-field-label", "aria-hidden": "true" }, label),
    h("select", {
      class: "nw-select", "data-key": key, "data-input": key, "aria-label": label, value: choiceValue(value),
    }, (choices || []).map((c) =>
      h("option", { value: choiceValue(c.id), selected: choiceValue(c.id) === choiceValue(value) }, c.label))));
}

/** The add / edit form, or null while closed. */
export function renderNoteForm(state, ui) {
  const draft = ui.note;
  if (!draft || !draft.open || !notesEditable(state)) return null;
  const o = noteOffer(state);
  const uid = ui.uid || "nw";
  const editing = draft.index !== null && draft.index !== undefined;
  const choice = noteChoice(state, ui);
  const request = noteRequest(state, ui);
  const saving = Boolean(draft.saving);
  const title = editing ? `Edit ${noteNumber(draft.index)}` : `New note at step ${state.step}`;
  const count = String(draft.text || "").length;
  return h(
    "div",
    { class: "nw-note-form", "data-key": "note-form", role: "group", "aria-label": title },
    h("p", { class: "nw-note-form-title" }, title),
    h("textarea", {
      class: "nw-textarea", "data-key": "note-text", "data-input": "note-text", "aria-label": "Note text",
      "aria-describedby": `${uid}-note-count`, rows: "4", maxlength: String(NOTE_MAX), value: draft.text || "",
    }),
    h("span", { class: "nw-note-count", id: `${uid}-note-count` }, `${count} of ${NOTE_MAX} characters`),
    h("div", { class: "nw-fields" },
      select({ key: "note-for", label: "For", choices: o.perspectives, value: choice.perspective }),
      select({ key: "note-question", label: "Question", choices: o.kinds, value: choice.question })),
    h(
      "div",
      { class: "nw-actions" },
      h("button", {
        type: "button", class: "nw-btn nw-btn-primary", "data-key": "note-save",
        "data-request": saving ? null : request, disabled: !request,
        "aria-disabled": saving ? "true" : null,
      }, saving ? "Saving…" : "Save"),
      h("button", { type: "button", class: "nw-btn", "data-key": "note-cancel", "data-ui": { ui: "note-close" } },
        "Cancel"),
    ),
  );
}

function noteItem(state, ui, note, i) {
  const editable = notesEditable(state) && Number.isInteger(note.index);
  const editingThis = editable && ui.note && ui.note.open && ui.note.index === note.index;
  const key = Number.isInteger(note.index) ? `note-${note.index}` : `note-at-${note.step}-${i}`;
  if (editingThis) return h("li", { class: "nw-note-item", "data-key": key }, renderNoteForm(state, ui));
  const q = note.question;
  return h(
    "li",
    { class: "nw-note-item", "data-key": key },
    note.perspective === null || note.perspective === undefined
      ? null
      : h("span", { class: "nw-note-for" }, `for ${note.for_label || note.perspective}`),
    note.text ? h("p", { class: "nw-note-text" }, note.text) : null,
    q && q.text
      ? h("p", { class: "nw-note-question" }, h("span", { class: "nw-note-q-mark" }, "Question: "), q.text)
      : null,
    editable
      ? h("div", { class: "nw-note-tools" },
          h("button", {
            type: "button", class: "nw-link", "data-key": `note-edit-${note.index}`,
            "aria-label": `Edit ${noteNumber(note.index)}`, "data-ui": { ui: "note-edit", index: note.index },
          }, "Edit"),
          h("button", {
            type: "button", class: "nw-link", "data-key": `note-remove-${note.index}`,
            "aria-label": `Remove ${noteNumber(note.index)}`,
            "data-request": { kind: "note_remove", index: note.index },
          }, "Remove"))
      : null,
  );
}

/** "Notes at steps 2, 15, 29", each step a button. */
function elsewhere(steps) {
  return h(
    "p",
    { class: "nw-note-elsewhere" },
    steps.length === 1 ? "Note at step " : "Notes at steps ",
    steps.map((k, i) => [
      i ? ", " : null,
      h("button", {
        type: "button", class: "nw-link", "data-key": `note-goto-${k}`, "aria-label": `Go to the note at step ${k}`,
        "data-request": { kind: "step", to: k },
      }, String(k)),
    ]),
  );
}

/** The Notes section, or null when there is nothing to show or do. */
export function renderNotes(state, ui) {
  const editable = notesEditable(state);
  const here = notesAt(state, state.step);
  const steps = noteSteps(state);
  if (!here.length && !steps.length && !editable) return null;
  const draft = ui.note || {};
  const adding = editable && draft.open && (draft.index === null || draft.index === undefined);
  const editingGone = editable && draft.open && !adding && !here.some((n) => n.index === draft.index);
  return h(
    "section",
    { class: "nw-notes", "data-key": "notes", "aria-label": "Notes" },
    h("span", { class: "nw-caption" }, "Notes"),
    here.length
      ? h("ul", { class: "nw-note-list" }, here.map((n, i) => noteItem(state, ui, n, i)))
      : steps.length ? elsewhere(steps) : h("p", { class: "nw-muted" }, "No notes yet."),
    adding || editingGone ? renderNoteForm(state, ui) : null,
    editable && !draft.open
      ? h("button", {
          type: "button", class: "nw-btn nw-note-add", "data-key": "note-add", "data-ui": { ui: "note-open" },
        }, `Add a note at step ${state.step}`)
      : null,
  );
}

/** The mark of an event-list item whose step has a note. */
export function noteMark() {
  return [h("span", { class: "nw-ev-note", "aria-hidden": "true" }, "✎"), srOnly(" (note)")];
}

/** Small ticks under the slider at the steps with a note (decorative). */
export function noteTicks(state) {
  const steps = noteSteps(state).filter((k) => k >= 0 && k <= state.steps);
  if (!steps.length || !(state.steps > 0)) return null;
  return h(
    "div",
    { class: "nw-note-ticks", "aria-hidden": "true" },
    steps.map((k) => h("span", {
      class: "nw-note-tick", title: `Note at step ${k}`, style: { "--nw-at": (k / state.steps).toFixed(4) },
    })),
  );
}

function closedNote() {
  return { open: false, index: null, text: "", perspective: null, question: null, saving: false };
}

// Requests whose answer closes the note form when Python accepts it.
const NOTE_SAVES = new Set(["note_add", "note_edit"]);

const NOTE_FIELDS = { text: null, perspective: "perspectives", question: "kinds" };

function noteSet(note, field, value, state) {
  if (!note.open || !(field in NOTE_FIELDS)) return note;
  let v = value;
  if (field === "text") v = String(value ?? "");
  else if (typeof value === "string") v = choiceFrom((noteOffer(state) || {})[NOTE_FIELDS[field]], value);
  if (note[field] === v) return note;
  return { ...note, [field]: v };
}

function noteEdit(note, index, state) {
  if (!notesEditable(state)) return note;
  const shown = notesOf(state).find((n) => n.index === index);
  if (!shown) return note;
  return {
    ...closedNote(), open: true, index, text: shown.text || "",
    perspective: shown.perspective ?? null, question: shown.question ? shown.question.kind : null,
  };
}

export const noteFeature = {
  name: "note",
  initial: closedNote,
  reduce(note, action, state) {
    switch (action.ui) {
      case "note-open":
        return notesEditable(state) ? { ...closedNote(), open: true } : note;
      case "note-edit":
        return noteEdit(note, action.index, state);
      case "note-close":
        return note.open ? closedNote() : note;
      case "note-set":
        return noteSet(note, action.field, action.value, state);
      case "note-saving":
        return note.open ? { ...note, saving: action.saving || false } : note; // {id, notes} of the Save sent
      default:
        return note;
    }
  },
  /** A Save Python answered closes the form if it was accepted and keeps it (text and all) if refused;
   * when a later request's answer came first (one answer trait), a change of `notes` tells. The form
   * also closes when this screen may no longer edit, or the note edited is gone. */
  sync(note, state, answers) {
    let next = note;
    const save = next.saving;
    if (save && Number.isInteger(save.id) && answers && answers.answered(save.id)) {
      const answer = answers.answer;
      const ok = answer && answer.id === save.id
        ? Boolean(answer.ok)
        : JSON.stringify(notesOf(state)) !== save.notes;
      next = ok ? closedNote() : { ...next, saving: false };
    }
    if (!next.open) return next;
    const gone = next.index !== null && !notesOf(state).some((n) => n.index === next.index);
    return !notesEditable(state) || gone ? closedNote() : next;
  },
  views: { left: renderNotes },
  // The form's draft stays here until Save.
  inputs: {
    "note-text": (el) => ({ ui: "note-set", field: "text", value: el.value }),
    "note-for": (el) => ({ ui: "note-set", field: "perspective", value: el.value }),
    "note-question": (el) => ({ ui: "note-set", field: "question", value: el.value }),
  },
  // The textarea when the form opens, "Add a note" once it closes (Save, Cancel, Remove).
  focus: ["note-text", "note-add"],
  connect: (ctx) => ({
    /** A Save (note_add / note_edit) waits for Python's answer: "Saving…" until then. */
    sent(msg, id) {
      if (!NOTE_SAVES.has(msg.kind)) return;
      ctx.dispatch({ ui: "note-saving", saving: { id, notes: JSON.stringify(notesOf(ctx.state())) } });
    },
  }),
};
