import { describe, expect, it } from "vitest";
import { questionHint } from "../src/follow.js";
import { accessibleName, button, buttons, click, flush, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";

// A question in a student's follow bar (issue 45, item 10): the teacher's question open on the screen, `follow.question`
// ({index, label}), hinted in the bar's polite live region with a button that takes the focus to the question, which
// sits below the tabletop (about 500 px down on a 1366×768 screen).
const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

function follow(overrides = {}) {
  return {
    status: "live", text: "Following the teacher at step 12", live_step: 12, can_live: false, name: "Ann",
    room: "monday", connected: true, question: null, ...overrides,
  };
}

const QUESTION = {
  index: 2, step: 12, kind: "pile_or_steal", prompt: "Draw from the pile or steal?", label: "Pile or steal",
  answered: false, form: { type: "choice", options: ["pile", "steal"] },
};

function classQuiz(overrides = {}) {
  return {
    seat: 0, student: "Ann", total: 1, index: 2, done: false, items: [], question: QUESTION, reveal: null,
    summary: null, class: true, waiting: null, ...overrides,
  };
}

function asked(overrides = {}) {
  return synced({
    ...stateFrom("draw_p1"), mode: "replay", perspectives: [0], can_act: false, act_reason: "The teacher leads",
    follow: follow({ question: { index: 2, label: "Pile or steal" } }), quiz: classQuiz(), ...overrides,
  });
}

describe("a question in the follow bar", () => {
  it("is said in the bar's polite live region, numbered as the quiz panel numbers it", () => {
    const { root } = open(asked());
    const status = byKey(root, "follow-status");
    expect(status.getAttribute("role")).toBe("status");
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.textContent).toBe("Following the teacher at step 12 · Question 3 (Pile or steal) is open: answer it below");
    expect(byKey(root, "follow").contains(byKey(root, "follow-question-text"))).toBe(true);
    expect(byKey(root, "quiz").textContent).toContain("Question 3 · step 12");
  });

  it("comes into the live region that was there before it, as the teacher asks", async () => {
    const { root, model } = open(asked({ follow: follow(), quiz: null }));
    const status = byKey(root, "follow-status");
    expect(byKey(root, "follow-question-text")).toBeNull();
    expect(buttons(root, "Go to question 3")).toHaveLength(0);
    model.update({ follow: follow({ question: { index: 2, label: "Pile or steal" } }), quiz_state: classQuiz() });
    await flush();
    expect(byKey(root, "follow-status")).toBe(status);
    expect(status.textContent).toContain("Question 3 (Pile or steal) is open: answer it below");
  });

  it("has a named button that takes the focus to the question, sending nothing to Python", async () => {
    const { root, model } = open(asked());
    const go = button(root, "Go to question 3");
    expect(accessibleName(go)).toBe("Go to question 3");
    expect(go.closest('[role="status"]')).toBeNull(); // the button is not read out with every change of the line
    go.focus();
    click(go);
    await flush();
    const prompt = byKey(root, "quiz-prompt");
    expect(document.activeElement).toBe(prompt);
    expect(prompt.textContent).toContain("Draw from the pile or steal?");
    expect(model.sent).toEqual([]);
    // Pressed again after the focus moved on: the focus goes to the question again.
    go.focus();
    click(go);
    await flush();
    expect(document.activeElement).toBe(prompt);
  });

  it("says once answered that the teacher reveals it", () => {
    const { root } = open(asked({ quiz: classQuiz({ question: { ...QUESTION, answered: true }, waiting: "Sent" }) }));
    expect(byKey(root, "follow-question-text").textContent).toBe(" · Question 3 (Pile or steal): your answer is sent, the teacher reveals it");
    expect(questionHint({ index: 0, label: "", answered: true }, {})).toBe("Question 1: your answer is sent, the teacher reveals it");
  });

  it("offers no button where no question panel is shown, and nothing when no question is open", () => {
    const { root } = open(asked({ quiz: null }));
    expect(byKey(root, "follow-question-text").textContent).toContain("Question 3 (Pile or steal) is open");
    expect(buttons(root, "Go to question 3")).toHaveLength(0);
    const { root: none } = open(asked({ follow: follow({ question: null }) }));
    expect(byKey(none, "follow-question-text")).toBeNull();
    expect(byKey(none, "follow-status").textContent).toBe("Following the teacher at step 12");
    for (const bad of [{ index: -1, label: "x" }, { label: "x" }, "Question 3"]) {
      const { root: odd } = open(asked({ follow: follow({ question: bad }) }));
      expect(byKey(odd, "follow-question-text")).toBeNull();
    }
  });
});
