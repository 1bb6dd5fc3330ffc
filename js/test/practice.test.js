// The practice panel (practice.js) from Python's own states: whatif_states.json holds a practice on the
// bundled found_early replay (tests/js_fixtures.py `_practice`): the first exercise asked,
// judging, after a wrong attempt, solved; the second with the better move shown; the summary.

import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { BUTTONS, FOCUS_AFTER, practiceOf } from "../src/practice.js";
import { accessibleName, button, buttons, click, flush, mountsCleanedAfterEach, spokenText } from "./helpers.js";

const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);
const stateOf = (name) => structuredClone({ ...states[name], error: null, answer: null, scale: 1 });
const mount = (name) => open(stateOf(name));
/** What Python sends after the request: the traits of another of its states. */
const becomes = (model, name, answered = true) => {
  const next = stateOf(name);
  if (answered) model.answer(next);
  else model.update(next);
  return flush();
};
const panel = (root) => root.querySelector('section[aria-label="Practice"]');
const live = (root) => byKey(root, "practice-feedback");

describe("the exercise", () => {
  it("is shown under the board with its prompt, its mark, and how to answer; nothing else to open", () => {
    const { root } = mount("practice_asking");
    const p = panel(root);
    expect(p).not.toBeNull();
    expect(p.parentElement.classList.contains("nw-left")).toBe(true);
    expect(root.querySelector(".nw-mode").textContent).toBe("Practice");
    expect(p.textContent).toContain("Practice · Player 2 · ann");
    expect(p.textContent).toContain("Exercise 1 of 2");
    const prompt = byKey(root, "practice-prompt");
    expect(prompt.textContent).toContain("Step 11: you played Discard 2♠ (a mistake). Find a better move.");
    expect(prompt.querySelector(".nw-practice-mark").getAttribute("aria-hidden")).toBe("true");
    expect(p.textContent).toContain("it is judged, not played");
    expect(root.querySelector(".nw-analysis")).toBeNull(); // no worlds, graph, branch or review in practice
    expect(buttons(root, BUTTONS.retry)).toHaveLength(0);
    expect(button(root, BUTTONS.show)).not.toBeNull();
    expect(button(root, BUTTONS.next).title).toBe("The next exercise");
    expect(root.querySelector('[role="group"][aria-label="Your move"]')).not.toBeNull();
  });

  it("keeps a polite live region for the feedback in every phase, empty until there is something to say", () => {
    for (const name of ["practice_asking", "practice_judging", "practice_wrong", "practice_solved", "practice_shown",
      "practice_done"]) {
      const { root } = mount(name);
      const region = live(root);
      expect(region.getAttribute("role")).toBe("status");
      expect(region.getAttribute("aria-live")).toBe("polite");
      const feedback = practiceOf({ practice: states[name].practice_state }).feedback;
      expect(region.textContent).toBe(feedback ? feedback.text : "");
    }
  });

  it("names every control, and every one is reachable by keyboard", () => {
    for (const name of ["practice_asking", "practice_wrong", "practice_solved", "practice_shown", "practice_done"]) {
      const { root } = mount(name);
      for (const el of panel(root).querySelectorAll("button, [tabindex]")) {
        if (el.tagName === "BUTTON") {
          expect(accessibleName(el), `${name}: ${el.outerHTML}`).not.toBe("");
          expect(el.getAttribute("type")).toBe("button");
          expect(el.getAttribute("tabindex")).toBeNull(); // in the tab order
        } else {
          expect(el.getAttribute("tabindex")).toBe("-1"); // words the focus may be put on, not tab stops
        }
      }
    }
  });
});

describe("an attempt", () => {
  it("is the board's own move: the act request, Python judges it", () => {
    const { root, model } = mount("practice_asking");
    click(byKey(root, "hand-3D"));
    const discard = byKey(root, "act-discard");
    expect(spokenText(discard)).toBe("Discard 3♦");
    click(discard);
    expect(model.sent).toEqual([{ kind: "act", action: { type: "discard", card: "3D" } }]);
  });

  it("while judged: the words in the live region, no move and no button to press", async () => {
    const { root, model } = mount("practice_asking");
    click(byKey(root, "hand-3D"));
    const discard = byKey(root, "act-discard");
    expect(spokenText(discard)).toBe("Discard 3♦");
    discard.focus();
    click(discard);
    await becomes(model, "practice_judging");
    expect(live(root).textContent).toBe("Judging your move (Discard 3♦)…");
    expect(root.querySelector('[role="group"][aria-label="Your move"]')).toBeNull();
    expect(root.querySelector(".nw-waiting").textContent).toBe("Judging your move…");
    expect(panel(root).querySelectorAll("button")).toHaveLength(0);
    // The focus went with the Discard button: it lands on the words being read out.
    expect(document.activeElement).toBe(live(root));
  });

  it("not accepted: the feedback, the try listed, Try again first; the focus on Try again", async () => {
    const { root, model } = mount("practice_judging");
    live(root).focus();
    await becomes(model, "practice_wrong", false);
    expect(live(root).textContent).toMatch(/^Try again: discarding 3♦ gives up 16 points of win chance/);
    expect(live(root).classList.contains("nw-practice-try_again")).toBe(true);
    const tries = panel(root).querySelector(".nw-practice-tries-list");
    expect(tries.getAttribute("aria-labelledby")).toBe(panel(root).querySelector(".nw-practice-tries-label").id);
    expect(tries.textContent).toContain("Discard 3♦ · not accepted (mistake, 16 points lost)");
    const order = [...panel(root).querySelectorAll("button")].map((b) => b.textContent);
    expect(order).toEqual([BUTTONS.retry, BUTTONS.show, BUTTONS.next]);
    expect(document.activeElement).toBe(byKey(root, FOCUS_AFTER.wrong));
    expect(root.querySelector(".nw-waiting").textContent).toBe(
      "Press Try again to play another move, or Show the better move");
    expect(panel(root).querySelector(".nw-practice-values")).toBeNull(); // the values only once solved or shown
  });

  it("Try again, Show the better move and Next each name the exercise they are for", () => {
    const { root, model } = mount("practice_wrong");
    click(button(root, BUTTONS.retry));
    click(button(root, BUTTONS.show));
    const next = button(root, BUTTONS.next);
    click(next);
    expect(model.sent).toEqual([
      { kind: "practice_retry", index: 0 }, { kind: "practice_show", index: 0 }, { kind: "practice_next", index: 0 }]);
  });

  it("after Try again the prompt has the focus and the move buttons are back", async () => {
    const { root, model } = mount("practice_wrong");
    const retry = button(root, BUTTONS.retry);
    retry.focus();
    click(retry);
    await becomes(model, "practice_asking");
    expect(buttons(root, BUTTONS.retry)).toHaveLength(0);
    expect(document.activeElement).toBe(byKey(root, "practice-prompt"));
    expect(root.querySelector('[role="group"][aria-label="Your move"]')).not.toBeNull();
  });
});

describe("solved, shown, next", () => {
  it("solved: Good, then the better move and every candidate's value, over how many worlds; Next first", () => {
    const { root } = mount("practice_solved");
    const s = states.practice_solved.practice_state;
    expect(live(root).textContent).toBe(s.feedback.text);
    expect(live(root).textContent).toMatch(/^Good: discarding 5♥ wins/);
    const table = panel(root).querySelector(".nw-practice-values");
    const name = root.querySelector(`#${table.getAttribute("aria-labelledby")}`);
    expect(name.textContent).toBe(s.solution.caption);
    expect(name.textContent).toContain("the same worlds you could not tell apart");
    const rows = [...table.querySelectorAll("tbody tr")];
    expect(rows.map((r) => r.querySelector("th").textContent)).toEqual(s.solution.rows.map((r) => r.text));
    expect(rows[0].textContent).toContain("best found");
    expect(rows.find((r) => r.textContent.includes("Discard 2♠")).textContent).toContain("you played it");
    expect(rows.find((r) => r.textContent.includes("Discard 3♦")).textContent).toContain("you tried it");
    expect(panel(root).querySelector(".nw-practice-better").textContent).toBe(s.solution.text);
    expect([...panel(root).querySelectorAll("button")].map((b) => b.textContent)).toEqual([BUTTONS.next]);
    expect(button(root, BUTTONS.next).classList.contains("nw-btn-primary")).toBe(true);
  });

  it("Next brings the next exercise and the focus to its prompt; the better move shown there", async () => {
    const { root, model } = mount("practice_solved");
    const next = button(root, BUTTONS.next);
    next.focus();
    click(next);
    expect(model.sent).toEqual([{ kind: "practice_next", index: 0 }]);
    await becomes(model, "practice_shown");
    expect(byKey(root, "practice-prompt").textContent).toContain("Step 4: you played Done laying sets (a blunder)");
    expect(panel(root).textContent).toContain("Exercise 2 of 2");
    expect(live(root).textContent).toBe(states.practice_shown.practice_state.solution.text);
    expect(panel(root).querySelector(".nw-practice-better")).toBeNull(); // said once, in the live region
    expect(button(root, BUTTONS.next).title).toBe("Finish: the summary of this practice");
    expect(document.activeElement).toBe(byKey(root, "practice-next"));
  });

  it("after the last: the summary, a heading with the focus, and when each comes back", async () => {
    const { root, model } = mount("practice_shown");
    const next = button(root, BUTTONS.next);
    next.focus();
    click(next);
    await becomes(model, "practice_done");
    const s = states.practice_done.practice_state.summary;
    const title = byKey(root, "practice-summary-title");
    expect(title.tagName).toBe("H3");
    expect(title.textContent).toBe("Practice finished: 2 exercises");
    expect(document.activeElement).toBe(title);
    const summary = byKey(root, "practice-summary");
    expect(summary.getAttribute("aria-labelledby")).toBe(title.id);
    expect(summary.textContent).toContain(s.text);
    expect(summary.querySelector(".nw-practice-counts").textContent).toContain("Solved after trying again1");
    const items = [...summary.querySelectorAll(".nw-practice-items tbody tr")].map((r) => r.textContent);
    expect(items[0]).toContain("solved after trying again");
    expect(items[0]).toContain(s.items[0].due);
    expect(summary.querySelector(".nw-practice-deck").textContent).toBe(s.deck);
    expect(byKey(root, "practice-prompt")).toBeNull();
    expect(panel(root).querySelectorAll("button")).toHaveLength(0);
  });

  it("looking back at an earlier step offers the way back to the exercise", () => {
    const { root, model } = open({ ...stateOf("practice_asking"), step: 4, can_act: false });
    expect(panel(root).textContent).toContain("You are looking at step 4; the exercise is at step 10.");
    expect(panel(root).textContent).not.toContain("it is judged, not played");
    click(button(root, "Back to step 10"));
    expect(model.sent).toEqual([{ kind: "step", to: 10 }]);
  });
});
