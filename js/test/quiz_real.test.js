// Notes and the quiz rendered from real synced states (Python's own output, in whatif_states.json).

import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { renderApp } from "../src/app.js";
import { VIEW_NAMES } from "../src/index.js";
import { initialUi } from "../src/ui.js";

function view(name) {
  const state = { ...states[name], answer: null, error: null, scale: 1 };
  for (const [trait, as] of Object.entries(VIEW_NAMES)) state[as] = state[trait];
  return state;
}
const render = (name) => renderApp(view(name), initialUi());
const byKey = (node, key) => node.querySelector(`[data-key="${key}"]`);

describe("notes and the quiz, from Python's own output", () => {
  it("asks for cards among the candidates, with the odds hidden and no verdict", () => {
    const s = states.quiz_cards;
    const app = render("quiz_cards");
    const form = s.quiz_state.question.form;
    expect(app.querySelectorAll('[data-key^="quiz-card-"]').length).toBe(form.candidates.length);
    expect(byKey(app, `quiz-card-${form.candidates[0]}`).getAttribute("aria-pressed")).toBe("false");
    expect(byKey(app, "quiz-commit").disabled).toBe(true);
    expect(byKey(app, "quiz-verdict")).toBeNull();
    expect(app.textContent).toContain("The odds appear once you have answered.");
    expect(app.querySelector(".nw-heat")).toBeNull();
  });

  it("asks for a probability on a slider named by the form, and for pile or steal", () => {
    const prob = render("quiz_probability");
    const label = states.quiz_probability.quiz_state.question.form.label;
    expect(byKey(prob, "quiz-prob").getAttribute("aria-label")).toBe(label);
    expect(byKey(prob, "quiz-prob").getAttribute("aria-valuetext")).toBe("not set");
    expect(byKey(prob, "quiz-commit").disabled).toBe(true);
    const choice = render("quiz_choice");
    expect(byKey(choice, "quiz-choice-pile")).not.toBeNull();
    expect(byKey(choice, "quiz-choice-steal")).not.toBeNull();
    expect(byKey(choice, "quiz-commit").disabled).toBe(true);
  });

  it("reveals the verdict and the figures once answered, with no form left and the odds back", () => {
    const s = states.quiz_revealed;
    const app = render("quiz_revealed");
    expect(byKey(app, "quiz-verdict").textContent).toBe(s.quiz_state.reveal.verdict);
    expect(app.querySelectorAll(".nw-quiz-rows tr").length).toBe(s.quiz_state.reveal.rows.length);
    expect(byKey(app, "quiz-commit")).toBeNull();
    expect(app.querySelector(".nw-heat")).not.toBeNull();
  });

  it("ends with Python's summary once every question is answered, its figures as Python wrote them", () => {
    const s = states.quiz_done.quiz_state;
    expect(s.done).toBe(true);
    const app = render("quiz_done");
    const panel = byKey(app, "quiz-summary");
    expect(panel.querySelector("h3").textContent).toBe(s.summary.title);
    expect(panel.textContent).toContain(s.summary.text);
    const rows = panel.querySelectorAll(".nw-quiz-vs tbody tr");
    expect(rows.length).toBe(s.summary.rows.length);
    s.summary.rows.forEach((row, i) => {
      expect(Array.from(rows[i].children).map((c) => c.textContent)).toEqual([row.label, row.you, row.free, row.greedy]);
    });
    const bands = panel.querySelectorAll(".nw-quiz-calibration tbody tr");
    expect(bands.length).toBe(s.summary.calibration.length);
    s.summary.calibration.forEach((b, i) => {
      expect(Array.from(bands[i].children).map((c) => c.textContent)).toEqual([b.band, String(b.count), b.said, b.happened]);
    });
    expect(panel.textContent).toContain(s.summary.note);
    expect(byKey(app, "quiz-verdict").textContent).toBe(s.reveal.verdict);
  });

  it("keeps the summary while the first question is reviewed", () => {
    const s = states.quiz_done_review.quiz_state;
    expect(s.index).toBe(0);
    const app = render("quiz_done_review");
    expect(byKey(app, "quiz-verdict").textContent).toBe(s.reveal.verdict);
    expect(byKey(app, "quiz-summary").querySelector("h3").textContent).toBe(s.summary.title);
    expect(byKey(app, "quiz-done")).not.toBeNull();
  });

  it("gives the teacher every note at the step with its buttons, and Player 1 only its own", () => {
    const teacher = render("notes_teacher");
    const atStep = states.notes_teacher.shown_notes.filter((n) => n.step === states.notes_teacher.step);
    expect(teacher.querySelectorAll(".nw-note-item").length).toBe(atStep.length);
    expect(byKey(teacher, `note-edit-${atStep[0].index}`)).not.toBeNull();
    const player = render("notes_0");
    const teacherOnly = atStep.find((n) => n.perspective === "teacher");
    expect(player.textContent).not.toContain(teacherOnly.text);
    expect(player.querySelector('[data-key^="note-edit-"]')).toBeNull();
    expect(byKey(player, "note-add")).toBeNull();
  });
});
