import { describe, expect, it } from "vitest";
import { h } from "../src/dom.js";
import { morph } from "../src/morph.js";
import { noteRequest, renderNotes } from "../src/notes.js";
import { initialUi, reduceUi, syncUi } from "../src/ui.js";
import { accessibleName, button, buttons, click, flush, key, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";

// Hand-written `notes` traits and `offers.notes` in the shapes of the issue 12 contract.
const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

const CHOICES = {
  perspectives: [
    { id: null, label: "Everyone" }, { id: 0, label: "Player 1" }, { id: 1, label: "Player 2" },
    { id: "spectator", label: "Spectator" }, { id: "teacher", label: "Teacher" },
  ],
  kinds: [
    { id: null, label: "No question" }, { id: "needle", label: "Which is the opponent's needle?" },
    { id: "next_draw", label: "Will the next pile draw find the needle?" }, { id: "winner", label: "Who will win?" },
    { id: "pile_or_steal", label: "Pile or steal?" },
  ],
};
const EDITABLE = { editable: true, reason: null, ...CHOICES };
const READ_ONLY = { editable: false, reason: "Switch to the teacher's view to write notes", ...CHOICES };

function note(step, text, { perspective = null, question = null, index = null } = {}) {
  const labels = { null: "Everyone", 0: "Player 1", 1: "Player 2", spectator: "Spectator", teacher: "Teacher" };
  return { step, text, perspective, for_label: labels[String(perspective)], question, index };
}

const NEEDLE_Q = { kind: "needle", prompt: null, text: "Which card is Player 2's needle?" };

/** The teacher's notes, numbered (editable). */
const TEACHER_NOTES = [
  note(0, "Look at both hands.", { index: 0 }),
  note(12, "Player 2 stole here.\nWhy?", { perspective: 1, index: 1 }),
  note(12, "", { question: NEEDLE_Q, index: 2 }),
  note(40, "The needle is close.", { perspective: "teacher", index: 3 }),
];

const teacher = (over = {}) => stateFrom("over_teacher", {
  mode: "replay", step: 12, offers: { notes: EDITABLE }, notes: TEACHER_NOTES, ...over,
});

/** A player's screen: what Python lets Player 2 read, unnumbered. */
const player = (over = {}) => stateFrom("over_1", {
  mode: "replay", step: 12,
  offers: { notes: READ_ONLY },
  notes: [note(12, "Player 2 stole here.\nWhy?", { perspective: 1 }), note(30, "Count the pile.")],
  ...over,
});

function type(el, value) {
  el.value = value;
  el.dispatchEvent(new Event("input", { bubbles: true }));
}

function choose(select, value) {
  select.value = value;
  select.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("the Notes section", () => {
  it("lists the notes at the step shown: words as written, for whom, the question", () => {
    const { root } = open(synced(player()));
    const section = root.querySelector('.nw-left section[aria-label="Notes"]');
    expect(section).not.toBeNull();
    const items = section.querySelectorAll(".nw-note-item");
    expect(items).toHaveLength(1);
    expect(items[0].querySelector(".nw-note-text").textContent).toBe("Player 2 stole here.\nWhy?");
    expect(items[0].querySelector(".nw-note-for").textContent).toBe("for Player 2");
    // a reader's screen has no editing
    expect(byKey(root, "note-add")).toBeNull();
    expect(section.querySelectorAll("button")).toHaveLength(0);
  });

  it("marks a question and leaves out the tag of a note for everyone", () => {
    const { root } = open(synced(teacher()));
    const items = root.querySelectorAll(".nw-note-item");
    expect(items).toHaveLength(2);
    const q = items[1].querySelector(".nw-note-question");
    expect(q.textContent).toBe(`Question: ${NEEDLE_Q.text}`);
    expect(items[1].querySelector(".nw-note-for")).toBeNull();
  });

  it("elsewhere, names the steps with notes as buttons", () => {
    const { root, model } = open(synced(player({ step: 20 })));
    const line = root.querySelector(".nw-note-elsewhere");
    expect(line.textContent).toBe("Notes at steps 12, 30");
    click(button(root, "Go to the note at step 30"));
    expect(model.sent).toEqual([{ kind: "step", to: 30 }]);
  });

  it("shows nothing without notes on a screen that cannot write them", () => {
    const { root } = open(synced(player({ notes: [] })));
    expect(root.querySelector(".nw-notes")).toBeNull();
    expect(renderNotes(stateFrom("over_1", { notes: [] }), initialUi())).toBeNull();
  });
});

describe("note markers", () => {
  it("marks the events (and Start) at steps with a note, for screen readers too", () => {
    const { root } = open(synced(teacher()));
    const marked = Array.from(root.querySelectorAll(".nw-event-btn"))
      .filter((b) => b.querySelector(".nw-ev-note"))
      .map((b) => b.getAttribute("data-key"));
    expect(marked).toEqual(["ev-0", "ev-12", "ev-40"]);
    const start = byKey(root, "ev-0");
    expect(start.querySelector(".nw-ev-note").getAttribute("aria-hidden")).toBe("true");
    expect(start.querySelector(".nw-ev-note").textContent).toBe("✎");
    expect(start.textContent).toContain(" (note)");
  });

  it("puts a decorative tick under the slider per step with a note", () => {
    const state = teacher();
    const { root } = open(synced(state));
    const ticks = root.querySelector(".nw-slider-row .nw-note-ticks");
    expect(ticks.getAttribute("aria-hidden")).toBe("true");
    const each = Array.from(ticks.querySelectorAll(".nw-note-tick"));
    expect(each.map((t) => t.getAttribute("title"))).toEqual(["Note at step 0", "Note at step 12", "Note at step 40"]);
    expect(each[1].getAttribute("style")).toBe(`--nw-at: ${(12 / state.steps).toFixed(4)}`);
    expect(byKey(root, "slider")).not.toBeNull();
  });

  it("has no ticks without notes", () => {
    const { root } = open(synced(player({ notes: [] })));
    expect(root.querySelector(".nw-note-ticks")).toBeNull();
  });
});

describe("the teacher's note form", () => {
  it("opens from Add a note, stays local while typing, and Save sends note_add with every field", () => {
    const { root, model } = open(synced(teacher()));
    const add = byKey(root, "note-add");
    expect(accessibleName(add)).toBe("Add a note at step 12");
    add.focus();
    click(add);
    const text = byKey(root, "note-text");
    expect(text.tagName).toBe("TEXTAREA");
    expect(text.getAttribute("aria-label")).toBe("Note text");
    expect(document.activeElement).toBe(text); // the form took the focus from Add
    expect(byKey(root, "note-save").disabled).toBe(true);
    type(text, "Why steal now?\nThink of the pile.");
    choose(byKey(root, "note-for"), "1");
    choose(byKey(root, "note-question"), "winner");
    expect(model.sent).toEqual([]);
    expect(byKey(root, "note-text")).toBe(text);
    expect(text.value).toBe("Why steal now?\nThink of the pile.");
    expect(byKey(root, "note-for").value).toBe("1");
    click(byKey(root, "note-save"));
    expect(model.sent).toEqual([
      { kind: "note_add", step: 12, text: "Why steal now?\nThink of the pile.", perspective: 1, question: "winner" },
    ]);
  });

  it("Everyone and No question are sent as null; Cancel closes without sending", () => {
    const { root, model } = open(synced(teacher()));
    click(byKey(root, "note-add"));
    type(byKey(root, "note-text"), "For all.");
    choose(byKey(root, "note-for"), "spectator");
    choose(byKey(root, "note-for"), "");
    click(byKey(root, "note-save"));
    expect(model.sent).toEqual([{ kind: "note_add", step: 12, text: "For all.", perspective: null, question: null }]);
    model.answer({}, { ok: false, error: "x" });
    click(byKey(root, "note-cancel"));
    expect(byKey(root, "note-form")).toBeNull();
    expect(model.sent).toHaveLength(1);
  });

  it("closes once Python accepts the note, the focus back on Add a note", async () => {
    const { root, model } = open(synced(teacher()));
    click(byKey(root, "note-add"));
    type(byKey(root, "note-text"), "New one.");
    byKey(root, "note-save").focus();
    click(byKey(root, "note-save"));
    // waiting: a second press sends nothing
    expect(byKey(root, "note-save").getAttribute("aria-disabled")).toBe("true");
    click(byKey(root, "note-save"));
    expect(model.sent).toHaveLength(1);
    model.answer(synced({ notes: [...TEACHER_NOTES, note(12, "New one.", { index: 4 })] }));
    await flush();
    expect(byKey(root, "note-form")).toBeNull();
    expect(document.activeElement).toBe(byKey(root, "note-add"));
    expect(root.querySelectorAll(".nw-note-item")).toHaveLength(3);
  });

  it("keeps the typed text when Python refuses it", async () => {
    const { root, model } = open(synced(teacher()));
    click(byKey(root, "note-add"));
    type(byKey(root, "note-text"), "Too long, say.");
    click(byKey(root, "note-save"));
    model.answer(synced({ error: { id: 7, text: "A note has at most 2000 characters" } }), { ok: false, error: "refused" });
    await flush();
    expect(byKey(root, "note-text").value).toBe("Too long, say.");
    expect(byKey(root, "note-save").getAttribute("aria-disabled")).toBeNull();
    expect(root.querySelector(".nw-error").textContent).toContain("at most 2000 characters");
    click(byKey(root, "note-save"));
    expect(model.sent).toHaveLength(2);
  });

  it("does not clobber what is being typed when Python re-renders", async () => {
    const { root, model } = open(synced(teacher()));
    click(byKey(root, "note-add"));
    const text = byKey(root, "note-text");
    text.focus();
    type(text, "Half a thou");
    model.update(synced({ busy: true, notes: [...TEACHER_NOTES] }));
    await flush();
    expect(byKey(root, "note-text")).toBe(text);
    expect(text.value).toBe("Half a thou");
    expect(document.activeElement).toBe(text);
    // arrows in the textarea move the caret, never a step
    expect(key(text, "ArrowLeft").defaultPrevented).toBe(false);
    expect(model.sent).toEqual([]);
  });

  it("Edit opens the form filled in and sends note_edit; Remove sends note_remove", () => {
    const { root, model } = open(synced(teacher()));
    const edit = button(root, "Edit note 1");
    expect(edit.getAttribute("data-key")).toBe("note-edit-1");
    expect(byKey(root, "note-remove-1").getAttribute("aria-label")).toBe("Remove note 1");
    click(edit);
    expect(byKey(root, "note-text").value).toBe("Player 2 stole here.\nWhy?");
    expect(byKey(root, "note-for").value).toBe("1");
    expect(byKey(root, "note-question").value).toBe("");
    expect(byKey(root, "note-add")).toBeNull();
    type(byKey(root, "note-text"), "Player 2 stole.");
    click(byKey(root, "note-save"));
    click(button(root, "Remove note 2"));
    expect(model.sent).toEqual([
      { kind: "note_edit", index: 1, text: "Player 2 stole.", perspective: 1, question: null },
      { kind: "note_remove", index: 2 },
    ]);
  });

  it("closes when the note being edited is removed or the screen may no longer edit", async () => {
    const { root, model } = open(synced(teacher()));
    click(button(root, "Edit note 2"));
    expect(byKey(root, "note-text").value).toBe("");
    expect(byKey(root, "note-question").value).toBe("needle");
    model.update(synced({ notes: TEACHER_NOTES.filter((n) => n.index !== 2) }));
    await flush();
    expect(byKey(root, "note-form")).toBeNull();
    click(byKey(root, "note-add"));
    model.update(synced({ offers: { notes: READ_ONLY } }));
    await flush();
    expect(byKey(root, "note-form")).toBeNull();
    expect(buttons(root, "Save")).toHaveLength(0);
  });

  it("every control of the section has an accessible name", () => {
    const { root } = open(synced(teacher()));
    click(byKey(root, "note-add"));
    for (const el of root.querySelectorAll(".nw-notes button, .nw-notes select, .nw-notes textarea")) {
      expect(accessibleName(el)).not.toBe("");
    }
  });
});

describe("the note draft (ui.js, notes.js)", () => {
  it("is no request while empty, and a question alone is enough", () => {
    const state = teacher();
    let ui = reduceUi(initialUi(), { ui: "note-open" }, state);
    expect(noteRequest(state, ui)).toBe(null);
    ui = reduceUi(ui, { ui: "note-set", field: "question", value: "next_draw" }, state);
    expect(noteRequest(state, ui)).toEqual({ kind: "note_add", step: 12, text: "", perspective: null, question: "next_draw" });
    expect(reduceUi(initialUi(), { ui: "note-open" }, player()).note.open).toBe(false);
    expect(syncUi(ui, teacher({ offers: { notes: READ_ONLY } })).note.open).toBe(false);
  });

  it("morph keeps a textarea's typed value unless the state says otherwise", () => {
    const live = h("div", null, h("textarea", { value: "abc" }));
    const area = live.firstChild;
    expect(area.value).toBe("abc");
    expect(area.hasAttribute("value")).toBe(false);
    area.value = "abcd"; // typed, and the UI state followed
    morph(live, h("div", null, h("textarea", { value: "abcd" })));
    expect(live.firstChild).toBe(area);
    expect(area.value).toBe("abcd");
    morph(live, h("div", null, h("textarea", { value: "filled in" })));
    expect(area.value).toBe("filled in");
  });
});
