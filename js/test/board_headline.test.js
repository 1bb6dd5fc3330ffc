import { afterEach, describe, expect, it } from "vitest";
import { mountBoard } from "../src/boardapp.js";
import { headline } from "../src/boardview.js";
import { fakeModel, flush } from "./helpers.js";

// The board headlines what is on the students' screens now (issue 45, item 10): `board.headline` ({kind, text}, the
// room's words) as the board's first heading under its title, above everything else, a question asked in an
// earlier lesson included.
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

function board(overrides = {}) {
  return {
    room: "monday", view: "teacher", roster: { invited: 3, joined: 3, answered: 0 }, students: [],
    lesson: { title: "detective", step: 12, steps: 64, shown: "Player 1" },
    question: { index: 2, step: 12, kind: "winner", label: "Who wins", prompt: "Who wins from here?", revealed: false, truth: null },
    distribution: null, calibration: [], can_reveal: true, reveal_reason: null, challenge: null, match: null,
    headline: { kind: "match", text: "Match of 2 deals · 2 tables playing deal 1" },
    ...overrides,
  };
}

let mounted = [];
afterEach(() => {
  for (const m of mounted) m.cleanup();
  mounted = [];
});

function open(b) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel({ board: b, view: b ? b.view : "teacher", error: null, answer: null });
  const stop = mountBoard(model, el);
  const m = { el, model, root: el.querySelector(".nb-root"), cleanup: () => { stop(); el.remove(); } };
  mounted.push(m);
  return m;
}

/** `a` comes before `b` in the document. */
const before = (a, b) => Boolean(a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING);

describe("the board's headline", () => {
  it("is the first heading under the board's title, above the roster and a question from an earlier lesson", () => {
    const { root } = open(board());
    const line = byKey(root, "headline");
    expect(line.tagName).toBe("H3");
    expect(line.textContent).toBe("Now on the students’ screens: Match of 2 deals · 2 tables playing deal 1");
    expect(line.classList.contains("nb-headline-match")).toBe(true);
    const headings = Array.from(root.querySelectorAll("h2, h3"));
    expect(headings[0].textContent).toBe("Class board · monday");
    expect(headings[1]).toBe(line);
    expect(before(line, byKey(root, "roster"))).toBe(true);
    expect(before(line, byKey(root, "question"))).toBe(true);
  });

  it("follows what the room says is on the screens now", async () => {
    const { root, model } = open(board({ headline: { kind: "question", text: "Question 3: Who wins · step 12" } }));
    expect(byKey(root, "headline").textContent).toContain("Question 3: Who wins · step 12");
    model.update({ board: board({ headline: { kind: "idle", text: "Nothing yet: the students wait for you" } }) });
    await flush();
    const line = byKey(root, "headline");
    expect(line.textContent).toBe("Now on the students’ screens: Nothing yet: the students wait for you");
    expect(line.classList.contains("nb-headline-idle")).toBe(true);
    expect(line.classList.contains("nb-headline-question")).toBe(false);
  });

  it("shows on the projector's view too, and nothing where the board has no headline", () => {
    const { root } = open(board({ view: "projector", students: null }));
    expect(byKey(root, "headline").textContent).toContain("Match of 2 deals");
    const { root: none } = open(board({ headline: null }));
    expect(byKey(none, "headline")).toBeNull();
    expect(none.querySelectorAll("h3").length).toBeGreaterThan(0); // the rest of the board is still there
    for (const bad of [{ kind: "match" }, { kind: "match", text: "" }, "Match"]) expect(headline({ headline: bad })).toBeNull();
    const odd = headline({ headline: { kind: "party", text: "A party" } }); // a kind the board does not know: words only
    expect(odd.textContent).toBe("Now on the students’ screens: A party");
    expect(odd.getAttribute("class")).toBe("nb-h nb-headline");
  });
});
