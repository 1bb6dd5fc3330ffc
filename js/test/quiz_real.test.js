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
