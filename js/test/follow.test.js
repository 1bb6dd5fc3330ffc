import { describe, expect, it } from "vitest";
import { FOLLOW_TRAITS, TRAITS } from "../src/shared.js";
import { accessibleName, button, buttons, click, flush, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";

// A student's screen in a class (FollowWidget): the `follow` trait and a class's question, in the
// shapes of issue 23's contract.
const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

function follow(overrides = {}) {
  return {
    status: "live", text: "Following the teacher at step 12", live_step: 12, can_live: false, name: "Ann",
    room: "monday", connected: true, ...overrides,
  };
}

// A lesson's frame as the room sends it (mode "replay", the teacher leads), with the follow bar.
const LEADS = "In a class the teacher leads: follow, or step back to look";
function classState(overrides = {}) {
  return {
    ...stateFrom("draw_p1"), mode: "replay", perspectives: [0], can_act: false, act_reason: LEADS, follow: follow(),
    ...overrides,
  };
}

const QUESTION = {
  index: 0, step: 12, kind: "pile_or_steal", prompt: "Draw from the pile or steal?", label: "Pile or steal",
  answered: false, form: { type: "choice", options: ["pile", "steal"] },
};

function classQuiz(overrides = {}) {
  return {
    seat: 0, student: "Ann", total: 1, index: 0, done: false, items: [], question: QUESTION, reveal: null,
    summary: null, class: true, waiting: null, ...overrides,
  };
}

describe("the follow bar", () => {
  it("is a trait of a class's screen only, read beside the screen's traits", () => {
    expect(FOLLOW_TRAITS).toEqual(["follow"]);
    expect(TRAITS).not.toContain("follow");
    const { root } = open("draw_p1");
    expect(byKey(root, "follow")).toBeNull();
  });

  it("says whom the screen follows in a polite status line, with Back to live disabled while live", () => {
    const { root } = open(classState());
    const bar = byKey(root, "follow");
    expect(bar.getAttribute("aria-label")).toBe("Following the class");
    const status = bar.querySelector('[role="status"]');
    expect(status.getAttribute("aria-live")).toBe("polite");
    expect(status.textContent).toBe("Following the teacher at step 12");
    expect(bar.textContent).toContain("Ann · room monday");
    expect(bar.textContent).toContain("Connected");
    const back = button(root, "Back to live");
    expect(back.disabled).toBe(true);
    const why = root.querySelector(`#${back.getAttribute("aria-describedby")}`);
    expect(why.textContent).toBe("You are following the teacher live");
    expect(root.querySelector(".nw-mode").textContent).toBe("Class");
  });

  it("shows a lesson's frame as a class's screen: the teacher leads, no autoplay, the seat is the student's", () => {
    const { root } = open(classState());
    expect(root.querySelector(".nw-waiting").textContent).toBe(LEADS);
    expect(byKey(root, "play")).toBeNull();
    expect(root.querySelector(".nw-speed")).toBeNull();
    expect(root.textContent).toContain("Player 1 (You)");
    const { root: replay } = open({ ...classState(), follow: null });
    expect(replay.querySelector(".nw-waiting")).toBeNull();
    expect(replay.querySelector(".nw-mode").textContent).toBe("Replay");
  });

  it("sends {kind: live} when the student looks elsewhere, and follows the state Python sends", async () => {
    const { root, model } = open(classState({ step: 5, follow: follow({ status: "looking", text: "Looking at step 5", can_live: true }) }));
    const back = button(root, "Back to live");
    expect(back.disabled).toBe(false);
    expect(back.hasAttribute("aria-describedby")).toBe(false);
    click(back);
    expect(model.sent).toEqual([{ kind: "live" }]);
    model.answer({ step: 12, follow: follow() });
    await flush();
    expect(byKey(root, "follow-status").textContent).toBe("Following the teacher at step 12");
    expect(button(root, "Back to live").disabled).toBe(true);
  });

  it("shows offline in words, not by colour alone", async () => {
    const { root, model } = open(classState());
    const status = byKey(root, "follow-status");
    model.update({ follow: follow({ status: "offline", text: "The class is out of reach: trying again", connected: false }) });
    await flush();
    expect(byKey(root, "follow-status")).toBe(status); // the same live region, its text changed
    expect(status.textContent).toBe("The class is out of reach: trying again (offline)");
    expect(byKey(root, "follow").textContent).toContain("Offline");
    expect(byKey(root, "follow").classList.contains("nw-follow-disconnected")).toBe(true);
  });

  it("shows before the first game state arrives", () => {
    const { root } = open({ mode: "class", follow: follow({ status: "waiting", text: "Waiting for the teacher" }) });
    expect(byKey(root, "follow-status").textContent).toBe("Waiting for the teacher");
  });
});

describe("a class's question", () => {
  it("has no list of questions and no way to the next one", () => {
    const { root, model } = open(synced(classState({ quiz: classQuiz() })));
    const panel = root.querySelector('section[aria-label="Quiz"]');
    expect(panel.textContent).toContain("Question 1 · step 12");
    expect(panel.textContent).not.toContain("of 1");
    expect(panel.querySelector(".nw-quiz-items")).toBeNull();
    click(button(root, "Steal"));
    click(button(root, "Commit answer"));
    expect(model.sent).toEqual([{ kind: "quiz_answer", index: 0, answer: "steal" }]);
    for (const b of panel.querySelectorAll("button")) expect(accessibleName(b)).not.toBe("");
  });

  it("waits for the teacher's reveal once answered, then shows the reveal", async () => {
    const waiting = "Sent: the teacher reveals the answer to everyone at once.";
    const answered = { ...QUESTION, answered: true };
    const { root, model } = open(synced(classState({ quiz: classQuiz({ question: answered, waiting }) })));
    const line = byKey(root, "quiz-waiting");
    expect(line.textContent).toBe(waiting);
    expect(line.getAttribute("role")).toBe("status");
    expect(buttons(root, "Next question")).toHaveLength(0);
    const reveal = { verdict: "The better draw was the pile.", answer_text: "You chose steal.", rows: [{ label: "Your score", value: "0 of 1" }] };
    model.update({ quiz_state: classQuiz({ question: answered, waiting, reveal }) });
    await flush();
    expect(byKey(root, "quiz-waiting")).toBeNull();
    expect(byKey(root, "quiz-verdict").textContent).toBe("The better draw was the pile.");
    expect(root.querySelector(".nw-quiz-rows").textContent).toContain("Your score0 of 1");
    expect(buttons(root, "Next question")).toHaveLength(0);
    expect(root.querySelector(".nw-quiz-done")).toBeNull();
  });
});
