import { describe, expect, it } from "vitest";
import { keyRequest } from "../src/keys.js";
import { mayStepOn } from "../src/replaybar.js";
import { quizAnswer, quizDraft } from "../src/quiz.js";
import { initialUi, reduceUi, syncUi } from "../src/ui.js";
import { FIXTURES, accessibleName, button, buttons, click, flush, key, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";

// Hand-written `quiz` traits in the shapes of the issue 12 contract (mode "quiz").
const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

const HIDDEN_INFO = { kind: "quiz", text: "The odds appear once you have answered." };
const NOTES_OFFER = {
  editable: false, reason: "Notes cannot be changed during a quiz",
  perspectives: [{ id: null, label: "Everyone" }], kinds: [{ id: null, label: "No question" }],
};

const FORMS = {
  cards: { type: "cards", min: 1, max: 3, candidates: ["2C", "7H", "QS", "10D", "AH"] },
  probability: { type: "probability", min: 0, max: 1, label: "P(Player 1 wins)" },
  choice: { type: "choice", options: ["pile", "steal"] },
  action: { type: "action", options: ["Discard A♦", "Discard 9♣", "Discard Q♠"] },
};

const PROMPTS = {
  cards: "Which cards may be Player 2's needle? Choose up to three.",
  probability: "How likely is Player 1 to win from here?",
  choice: "Draw from the pile or steal?",
  action: "Your move: what would you play here?",
};

const KINDS = { cards: "needle", probability: "winner", choice: "pile_or_steal", action: "your_move" };

const REVEAL = {
  answer_text: "You chose 7♥ Q♠.",
  verdict: "Found it: Player 2's needle was 7♥.",
  rows: [{ label: "Model-free", value: "31%" }, { label: "GreedyBot model", value: "44%" }],
  note: "Model-free: every deal the seat's view allows is equally likely.",
};

// Python's summary once every question is answered (quizmode.summary): every figure already words.
const SUMMARY = {
  title: "Quiz finished: 3 questions",
  text: "Your forecasts scored 0.090 (0 is perfect, lower is better): better than the model-free model.",
  rows: [
    { label: "Forecasts: mean Brier score (1)", you: "0.090", free: "0.250", greedy: "0.040" },
    { label: "Needles among the three cards chosen (1)", you: "1 of 1", free: "0 of 1", greedy: "1 of 1" },
  ],
  calibration: [{ band: "60%–80%", count: 1, said: "70%", happened: "1 of 1 (100%)" }],
  note: "The models answer the same questions from the same view.",
};

/** A quiz of three questions, showing question `index` (0-based) at `qStep`. */
function quiz({ form = "cards", index = 1, answered = false, done = false, qStep = 15 } = {}) {
  const items = [
    { index: 0, step: 4, kind: "needle", label: "Needle", answered: true, verdict: "Found it" },
    { index: 1, step: 15, kind: KINDS[form], label: "Pile or steal", answered: index > 1, verdict: null },
    { index: 2, step: 30, kind: "winner", label: "Winner", answered: done, verdict: null },
  ];
  items[index] = { ...items[index], step: qStep, answered };
  return {
    seat: 0, student: "Ada", total: 3, index, done,
    items,
    question: { index, step: qStep, kind: KINDS[form], prompt: PROMPTS[form], answered, form: FORMS[form] },
    reveal: answered ? REVEAL : null,
    summary: done ? SUMMARY : null,
  };
}

function quizState({ step = 15, steps = 15, ...q } = {}) {
  const answered = Boolean(q.answered);
  const fx = stateFrom("over_0");
  return {
    ...fx,
    mode: "quiz", perspectives: [0], spoilers: false, can_act: false, step, steps,
    info: answered ? fx.info : HIDDEN_INFO,
    offers: { branch: { seats: [], worlds: [], opponents: [], reason: "Not during a quiz" }, notes: NOTES_OFFER },
    notes: [],
    quiz: quiz({ qStep: step, ...q }),
  };
}

const mountQuiz = (options) => open(synced(quizState(options)));

function slide(input, value) {
  input.value = String(value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

describe("quiz mode", () => {
  it("is labelled Quiz, without play or move controls, its odds hidden", () => {
    const { root } = mountQuiz();
    expect(root.querySelector(".nw-mode").textContent).toBe("Quiz");
    expect(buttons(root, "Play")).toHaveLength(0);
    expect(root.querySelector(".nw-controls")).toBeNull();
    const info = root.querySelector(".nw-info");
    expect(info.textContent).toContain("The odds appear once you have answered.");
    expect(info.querySelector(".nw-caption").textContent).toBe("What Player 1 knows");
    expect(info.querySelector(".nw-heat")).toBeNull();
  });

  it("steps back and forth within 0..steps, never past steps", () => {
    expect(mayStepOn(quizState({ step: 15, steps: 15 }))).toBe(false);
    expect(mayStepOn(quizState({ step: 10, steps: 15 }))).toBe(true);
    // unlike spoiler-free review, which goes on at step === steps
    expect(mayStepOn({ ...quizState(), mode: "replay", table: FIXTURES.sets_p1.table })).toBe(true);
    expect(mayStepOn({ ...quizState(), table: FIXTURES.sets_p1.table })).toBe(false);
    const { root, model } = mountQuiz();
    expect(button(root, "Next step").disabled).toBe(true);
    key(root, "ArrowRight");
    expect(model.sent).toEqual([]);
    key(root, "ArrowLeft");
    expect(model.sent).toEqual([{ kind: "step", to: 14 }]);
    expect(keyRequest({ key: "ArrowRight", target: root }, quizState({ step: 10 }))).toEqual({ kind: "step", to: 11 });
  });

  it("shows the question, its number and its step under the table, in the board's column (not on the felt)", () => {
    const { root } = mountQuiz();
    const panel = root.querySelector('section[aria-label="Quiz"]');
    expect(panel).not.toBeNull();
    expect(panel.parentElement.classList.contains("nw-left")).toBe(true);
    expect(root.querySelector(".nw-analysis")).toBeNull(); // no "what if" toolbar in a quiz
    expect(panel.textContent).toContain("Question 2 of 3 · step 15");
    expect(byKey(root, "quiz-prompt").textContent).toContain(PROMPTS.cards);
    expect(byKey(root, "quiz-to-step")).toBeNull();
    for (const b of panel.querySelectorAll("button")) expect(accessibleName(b)).not.toBe("");
  });

  it("offers the way back when the student looks at another step", () => {
    const { root, model } = open(synced({ ...quizState(), step: 9 }));
    expect(root.querySelector(".nw-quiz").textContent)
      .toContain("You are looking at step 9; the question is about step 15");
    click(button(root, "Back to step 15"));
    expect(model.sent).toEqual([{ kind: "step", to: 15 }]);
  });
});

describe("answering", () => {
  it("cards: toggles with aria-pressed, at most three (a fourth replaces the first), then commits the codes", () => {
    const { root, model } = mountQuiz();
    const commit = byKey(root, "quiz-commit");
    expect(commit.disabled).toBe(true);
    const seven = byKey(root, "quiz-card-7H");
    expect(accessibleName(seven)).toBe("7 of hearts");
    expect(seven.getAttribute("aria-pressed")).toBe("false");
    click(seven);
    expect(byKey(root, "quiz-card-7H").getAttribute("aria-pressed")).toBe("true");
    expect(byKey(root, "quiz-commit").disabled).toBe(false);
    for (const c of ["QS", "10D", "AH"]) click(byKey(root, `quiz-card-${c}`));
    const pressed = Array.from(root.querySelectorAll('.nw-quiz-cards [aria-pressed="true"]')).map((b) => b.getAttribute("data-card"));
    expect(pressed).toEqual(["QS", "10D", "AH"]);
    expect(root.querySelector(".nw-quiz-chosen").textContent).toBe("Chosen (3 of 3): Q♠ 10♦ A♥");
    click(byKey(root, "quiz-card-10D")); // a second press takes it back
    expect(root.querySelector(".nw-quiz-chosen").textContent).toBe("Chosen (2 of 3): Q♠ A♥");
    expect(model.sent).toEqual([]);
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: ["QS", "AH"] }]);
  });

  it("probability: a 0-100 slider with no value chosen, then its value shown and spoken, sent as 0..1 only on Commit", () => {
    const { root, model } = mountQuiz({ form: "probability" });
    const slider = byKey(root, "quiz-prob");
    expect(slider.getAttribute("type")).toBe("range");
    expect([slider.min, slider.max, slider.step]).toEqual(["0", "100", "5"]);
    expect(slider.getAttribute("aria-label")).toBe("P(Player 1 wins)");
    // Not set: no thumb (a class the stylesheet hides it by), the words say so, and Commit waits.
    expect(slider.classList.contains("nw-quiz-prob-unset")).toBe(true);
    expect(slider.getAttribute("aria-valuetext")).toBe("not set");
    expect(root.querySelector(".nw-quiz-prob-value").textContent).toBe("not set");
    expect(byKey(root, "quiz-commit").disabled).toBe(true);
    slide(slider, 70);
    expect(byKey(root, "quiz-prob")).toBe(slider);
    expect(slider.classList.contains("nw-quiz-prob-unset")).toBe(false);
    expect(slider.value).toBe("70");
    expect(slider.getAttribute("aria-valuetext")).toBe("70%");
    expect(root.querySelector(".nw-quiz-prob-value").textContent).toBe("70%");
    expect(byKey(root, "quiz-commit").disabled).toBe(false);
    expect(model.sent).toEqual([]);
    // arrows inside the slider are the slider's, not steps
    expect(key(slider, "ArrowLeft").defaultPrevented).toBe(false);
    expect(model.sent).toEqual([]);
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: 0.7 }]);
  });

  it("probability: a value between two steps snaps to the nearer, and that is what is sent", () => {
    const { root, model } = mountQuiz({ form: "probability" });
    const slider = byKey(root, "quiz-prob");
    slide(slider, 71); // a click at 70% of the track's width
    expect(slider.value).toBe("70");
    expect(root.querySelector(".nw-quiz-prob-value").textContent).toBe("70%");
    slide(slider, 3);
    expect(slider.value).toBe("5");
    expect(slider.getAttribute("aria-valuetext")).toBe("5.0%"); // dom.js's one rule for figures
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: 0.05 }]);
  });

  it("probability: ticks every 10 under the slider, hidden from screen readers", () => {
    const { root } = mountQuiz({ form: "probability" });
    const ticks = root.querySelector(".nw-quiz-prob-ticks");
    expect(ticks.getAttribute("aria-hidden")).toBe("true");
    expect(Array.from(ticks.querySelectorAll(".nw-quiz-prob-tick")).map((t) => t.textContent))
      .toEqual(["0", "10", "20", "30", "40", "50", "60", "70", "80", "90", "100"]);
  });

  it("probability: a click where the unset slider rests sets that value (no input event fires there)", () => {
    const { root, model } = mountQuiz({ form: "probability" });
    const slider = byKey(root, "quiz-prob");
    expect(slider.value).toBe("50");
    click(slider);
    expect(slider.getAttribute("aria-valuetext")).toBe("50%");
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: 0.5 }]);
  });

  it("says why Commit waits, in a visible line that describes it, for every kind of question", () => {
    const why = (root) => {
      const commit = byKey(root, "quiz-commit");
      const id = commit.getAttribute("aria-describedby");
      return id && commit.disabled ? [root.querySelector(`[id="${id}"]`).textContent, commit.title] : null;
    };
    const cards = mountQuiz({ form: "cards" }).root;
    expect(why(cards)).toEqual(["Choose 1 to 3 cards first", "Choose 1 to 3 cards first"]);
    click(byKey(cards, "quiz-card-7H"));
    expect(why(cards)).toBe(null);
    expect(cards.querySelector(".nw-quiz-why")).toBeNull();
    const prob = mountQuiz({ form: "probability" }).root;
    expect(why(prob)).toEqual(["Set a probability on the slider first", "Set a probability on the slider first"]);
    slide(byKey(prob, "quiz-prob"), 40);
    expect(why(prob)).toBe(null);
    const choice = mountQuiz({ form: "choice" }).root;
    expect(why(choice)).toEqual(["Choose pile or steal first", "Choose pile or steal first"]);
    click(byKey(choice, "quiz-choice-pile"));
    expect(why(choice)).toBe(null);
  });

  it("choice: two toggles, Commit once one is chosen", () => {
    const { root, model } = mountQuiz({ form: "choice" });
    expect(byKey(root, "quiz-commit").disabled).toBe(true);
    const pile = button(root, "Draw from the pile");
    const steal = button(root, "Steal");
    expect(pile.getAttribute("data-key")).toBe("quiz-choice-pile");
    expect(steal.getAttribute("data-key")).toBe("quiz-choice-steal");
    click(steal);
    expect(byKey(root, "quiz-choice-steal").getAttribute("aria-pressed")).toBe("true");
    expect(byKey(root, "quiz-choice-pile").getAttribute("aria-pressed")).toBe("false");
    click(byKey(root, "quiz-choice-pile"));
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: "pile" }]);
  });

  it("your move: the seat's legal moves as toggles in a named group, Commit sends the move's words", () => {
    const { root, model } = mountQuiz({ form: "action" });
    const group = root.querySelector('[role="group"][aria-label="Your move"]');
    expect([...group.querySelectorAll("button")].map((b) => b.textContent)).toEqual(FORMS.action.options);
    expect(root.querySelector(".nw-quiz-why").textContent).toBe("Choose your move first");
    expect(byKey(root, "quiz-commit").disabled).toBe(true);
    click(byKey(root, "quiz-move-1"));
    expect(byKey(root, "quiz-move-1").getAttribute("aria-pressed")).toBe("true");
    expect(quizAnswer({ form: FORMS.action }, { ...quizDraft(), choice: "Discard 9♣" })).toBe("Discard 9♣");
    expect(quizAnswer({ form: FORMS.action }, { ...quizDraft(), choice: "Steal" })).toBe(null);
    click(byKey(root, "quiz-commit"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 1, answer: "Discard 9♣" }]);
  });

  it("keeps the draft across Python's re-renders and starts afresh on another question", async () => {
    const { root, model } = mountQuiz();
    click(byKey(root, "quiz-card-2C"));
    model.update(synced({ step: 14 }));
    await flush();
    expect(byKey(root, "quiz-card-2C").getAttribute("aria-pressed")).toBe("true");
    model.update(synced({ quiz: quiz({ index: 2, qStep: 14 }) }));
    await flush();
    expect(byKey(root, "quiz-card-2C").getAttribute("aria-pressed")).toBe("false");
  });

  it("after Commit, the focus goes to the verdict", async () => {
    const { root, model } = mountQuiz({ form: "choice" });
    click(byKey(root, "quiz-choice-steal"));
    byKey(root, "quiz-commit").focus();
    click(byKey(root, "quiz-commit"));
    model.answer(synced({ quiz: quiz({ form: "choice", answered: true }) }));
    await flush();
    expect(byKey(root, "quiz-commit")).toBeNull();
    expect(document.activeElement).toBe(byKey(root, "quiz-verdict"));
  });
});

describe("the reveal and the way on", () => {
  it("shows the verdict, the answer, the figures as a table and the note", () => {
    const { root } = mountQuiz({ answered: true });
    expect(byKey(root, "quiz-commit")).toBeNull();
    expect(byKey(root, "quiz-verdict").textContent).toBe(REVEAL.verdict);
    const panel = root.querySelector(".nw-quiz");
    expect(panel.textContent).toContain(REVEAL.answer_text);
    expect(panel.textContent).toContain(REVEAL.note);
    const heads = Array.from(panel.querySelectorAll("tbody th[scope=row]")).map((th) => th.textContent);
    expect(heads).toEqual(["Model-free", "GreedyBot model"]);
    expect(Array.from(panel.querySelectorAll("tbody td")).map((td) => td.textContent)).toEqual(["31%", "44%"]);
  });

  it("Next question asks for the next index; the focus lands on the new question", async () => {
    const { root, model } = mountQuiz({ answered: true });
    const next = byKey(root, "quiz-next");
    expect(accessibleName(next)).toBe("Next question");
    next.focus();
    click(next);
    expect(model.sent).toEqual([{ kind: "quiz_go", index: 2 }]);
    model.answer(synced({ quiz: quiz({ index: 2, qStep: 15 }) }));
    await flush();
    expect(byKey(root, "quiz-next")).toBeNull();
    expect(document.activeElement).toBe(byKey(root, "quiz-prompt"));
  });

  it("has no Next question on the last one, and says when the quiz is done", () => {
    const { root } = mountQuiz({ index: 2, answered: true, done: true });
    expect(byKey(root, "quiz-next")).toBeNull();
    expect(byKey(root, "quiz-done").textContent).toBe("Quiz finished: step on to see how the game ended.");
  });

  it("once the quiz is done, a question reviewed offers no Next question beside Quiz finished", () => {
    const { root } = mountQuiz({ index: 0, answered: true, done: true, qStep: 4, step: 4 });
    expect(byKey(root, "quiz-verdict").textContent).toBe(REVEAL.verdict);
    expect(byKey(root, "quiz-done")).not.toBeNull();
    expect(byKey(root, "quiz-next")).toBeNull();
    expect(byKey(root, "quiz-item-1").disabled).toBe(false); // the list still goes anywhere
  });

  it("lists the questions: answered ones and the first open one are reachable", () => {
    const { root, model } = mountQuiz({ index: 1 });
    const items = [0, 1, 2].map((i) => byKey(root, `quiz-item-${i}`));
    expect(items.map(accessibleName)).toEqual([
      "Question 1: Needle, answered", "Question 2: Pile or steal, current", "Question 3: Winner, not answered yet",
    ]);
    expect(items[0].textContent).toContain("✓");
    expect(items[1].getAttribute("aria-current")).toBe("step");
    expect(items[2].disabled).toBe(true);
    click(items[0]);
    click(items[1]); // the current one: nothing to ask
    click(items[2]);
    expect(model.sent).toEqual([{ kind: "quiz_go", index: 0 }]);
  });

  it("going back to an answered question lets the first open one be reached again", () => {
    const { root, model } = mountQuiz({ index: 0, answered: true, qStep: 4, step: 4 });
    expect(byKey(root, "quiz-item-1").disabled).toBe(false);
    expect(byKey(root, "quiz-item-2").disabled).toBe(true);
    click(byKey(root, "quiz-item-1"));
    expect(model.sent).toEqual([{ kind: "quiz_go", index: 1 }]);
  });
});

describe("the quiz's summary", () => {
  const summaryOf = (root) => byKey(root, "quiz-summary");
  const texts = (nodes) => Array.from(nodes).map((n) => n.textContent);

  it("is absent until every question is answered", () => {
    expect(summaryOf(mountQuiz({ answered: true }).root)).toBeNull();
    expect(summaryOf(mountQuiz({ index: 0, answered: true, qStep: 4, step: 4 }).root)).toBeNull();
    // Python's summary is what counts: none sent, none shown, even when done
    const state = quizState({ index: 2, answered: true, done: true });
    state.quiz = { ...state.quiz, summary: null };
    expect(summaryOf(open(synced(state)).root)).toBeNull();
  });

  it("shows the title as a heading that names the section, the text and the note", () => {
    const { root } = mountQuiz({ index: 2, answered: true, done: true });
    const panel = summaryOf(root);
    expect(panel.tagName).toBe("SECTION");
    const title = panel.querySelector("h3");
    expect(title.textContent).toBe(SUMMARY.title);
    expect(panel.getAttribute("aria-labelledby")).toBe(title.id);
    expect(root.querySelector(`#${title.id}`)).toBe(title);
    expect(panel.textContent).toContain(SUMMARY.text);
    expect(panel.querySelector(".nw-quiz-summary-note").textContent).toBe(SUMMARY.note);
  });

  it("puts the student beside the models in a table with column and row headers", () => {
    const { root } = mountQuiz({ index: 2, answered: true, done: true });
    const table = summaryOf(root).querySelector("table.nw-quiz-vs");
    expect(table.querySelector("caption").textContent).not.toBe("");
    const heads = table.querySelectorAll("thead th");
    expect(texts(heads)).toEqual(["Question", "You", "Model-free", "GreedyBot model"]);
    expect(Array.from(heads).every((th) => th.getAttribute("scope") === "col")).toBe(true);
    const rows = table.querySelectorAll("tbody tr");
    expect(rows).toHaveLength(SUMMARY.rows.length);
    SUMMARY.rows.forEach((row, i) => {
      const th = rows[i].querySelector("th");
      expect(th.getAttribute("scope")).toBe("row");
      expect(th.textContent).toBe(row.label);
      expect(texts(rows[i].querySelectorAll("td"))).toEqual([row.you, row.free, row.greedy]);
    });
  });

  it("shows the calibration bands in a table of their own", () => {
    const { root } = mountQuiz({ index: 2, answered: true, done: true });
    const table = summaryOf(root).querySelector("table.nw-quiz-calibration");
    const heads = table.querySelectorAll("thead th");
    expect(texts(heads)).toEqual(["You said", "How many", "Your average", "It happened"]);
    expect(Array.from(heads).every((th) => th.getAttribute("scope") === "col")).toBe(true);
    const [band] = SUMMARY.calibration;
    const row = table.querySelector("tbody tr");
    expect(row.querySelector("th[scope=row]").textContent).toBe(band.band);
    expect(texts(row.querySelectorAll("td"))).toEqual(["1", band.said, band.happened]);
  });

  it("leaves out a table with no rows", () => {
    const state = quizState({ index: 2, answered: true, done: true });
    state.quiz = { ...state.quiz, summary: { ...SUMMARY, calibration: [], rows: [] } };
    const panel = summaryOf(open(synced(state)).root);
    expect(panel.querySelector("table")).toBeNull();
    expect(panel.textContent).toContain(SUMMARY.title);
  });

  it("follows the verdict: after the last Commit the focus is on the verdict, the summary next", async () => {
    const { root, model } = mountQuiz({ form: "choice", index: 2, qStep: 15 });
    click(byKey(root, "quiz-choice-steal"));
    byKey(root, "quiz-commit").focus();
    click(byKey(root, "quiz-commit"));
    model.answer(synced({ quiz: quiz({ form: "choice", index: 2, answered: true, done: true }) }));
    await flush();
    const verdict = byKey(root, "quiz-verdict");
    expect(document.activeElement).toBe(verdict);
    const panel = summaryOf(root);
    // right after the reveal that holds the verdict, before the way on
    expect(verdict.closest(".nw-quiz-reveal").nextElementSibling).toBe(panel);
    expect(panel.nextElementSibling).toBe(byKey(root, "quiz-done"));
  });

  it("stays while an earlier question is reviewed", () => {
    const { root } = mountQuiz({ index: 0, answered: true, done: true, qStep: 4, step: 4 });
    expect(byKey(root, "quiz-verdict").textContent).toBe(REVEAL.verdict);
    expect(summaryOf(root).querySelector("h3").textContent).toBe(SUMMARY.title);
  });
});

describe("the quiz draft (ui.js)", () => {
  it("is keyed by the question and never changes an answered one", () => {
    const state = quizState();
    let ui = syncUi(initialUi(), state);
    expect(ui.quiz).toEqual(quizDraft(1));
    ui = reduceUi(ui, { ui: "quiz-card", card: "7h" }, state);
    expect(ui.quiz.cards).toEqual(["7H"]);
    expect(reduceUi(ui, { ui: "quiz-card", card: "KD" }, state)).toBe(ui); // not a candidate
    const answered = quizState({ answered: true });
    expect(reduceUi(ui, { ui: "quiz-card", card: "2C" }, answered)).toBe(ui);
    expect(syncUi(ui, quizState({ index: 2 })).quiz).toEqual(quizDraft(2));
  });

  it("clamps and snaps the slider and gives the answer in Python's shapes", () => {
    const state = quizState({ form: "probability" });
    const ui = syncUi(initialUi(), state);
    expect(ui.quiz.prob).toBe(null);
    expect(quizAnswer(state.quiz.question, ui.quiz)).toBe(null); // nothing chosen: no answer
    expect(reduceUi(ui, { ui: "quiz-prob", value: "140" }, state).quiz.prob).toBe(100);
    expect(reduceUi(ui, { ui: "quiz-prob", value: "-3" }, state).quiz.prob).toBe(0);
    expect(reduceUi(ui, { ui: "quiz-prob", value: "71" }, state).quiz.prob).toBe(70);
    expect(reduceUi(ui, { ui: "quiz-prob", value: "72.5" }, state).quiz.prob).toBe(75);
    expect(reduceUi(ui, { ui: "quiz-prob", value: "" }, state)).toBe(ui);
    expect(reduceUi(ui, { ui: "quiz-prob", value: "abc" }, state)).toBe(ui);
    expect(quizAnswer(state.quiz.question, { ...quizDraft(1), prob: 33 })).toBeCloseTo(0.33);
    expect(quizAnswer(quizState().quiz.question, quizDraft(1))).toBe(null);
    expect(quizAnswer(quizState({ form: "choice" }).quiz.question, { ...quizDraft(1), choice: "steal" })).toBe("steal");
  });
});
