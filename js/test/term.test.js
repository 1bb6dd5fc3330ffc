import { afterEach, describe, expect, it } from "vitest";
import { mountBoard } from "../src/boardapp.js";
import { homework, rosterText } from "../src/boardview.js";
import { accessibleName, click, fakeModel, flush, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";

// A real term (issue 45): the board's count of students online (a heartbeat, not "joined"), the latest homework on
// the board (who has done how many of their own exercises), and the student's follow bar offering it.
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);
const open = mountsCleanedAfterEach();

function follow(overrides = {}) {
  return {
    status: "waiting", text: "The lesson is over", live_step: null, can_live: false, name: "Ann", room: "monday",
    connected: true, question: null, homework: null, ...overrides,
  };
}

const HOMEWORK = { id: 1, title: "Practise the mistakes of your games (match 1)", assigned: 5, done: 2, open: false };

describe("the follow bar's homework", () => {
  it("offers the homework with its progress, as a named button that asks Python to open it", async () => {
    const { root, model } = open(synced({ ...stateFrom("draw_p1"), follow: follow({ homework: HOMEWORK }) }));
    const button = byKey(root, "follow-homework");
    expect(button.textContent).toBe("Homework: 2 of 5 done");
    expect(accessibleName(button)).toBe("Homework: 2 of 5 done. Practise it");
    click(button);
    await flush();
    expect(model.sent.map((m) => ({ kind: m.kind, open: m.open }))).toEqual([{ kind: "homework", open: true }]);
  });

  it("is not offered while it is practised, nor without an exercise or homework", () => {
    for (const hw of [{ ...HOMEWORK, open: true }, { ...HOMEWORK, assigned: 0, done: 0 }, null, { id: 1 }]) {
      const { root } = open(synced({ ...stateFrom("draw_p1"), follow: follow({ homework: hw }) }));
      expect(byKey(root, "follow-homework")).toBeNull();
    }
  });
});

let boards = [];
afterEach(() => {
  for (const stop of boards) stop();
  boards = [];
});

function board(overrides = {}) {
  return {
    room: "monday", view: "teacher", roster: { invited: 4, joined: 3, online: 2, timeout: 30 }, students: [],
    lesson: null, question: null, distribution: null, calibration: [], can_reveal: false,
    reveal_reason: "No question is open", challenge: null, match: null, headline: { kind: "idle", text: "Waiting" },
    homework: { id: 1, title: "Practise the mistakes of your games (match 1)", students: 2, finished: 1,
      rows: [{ name: "Ann", done: 3, assigned: 3 }, { name: "Bob", done: 0, assigned: 2 }] },
    ...overrides,
  };
}

function mounted(b) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const stop = mountBoard(fakeModel({ board: b, view: b.view, error: null, answer: null }), el);
  boards.push(() => { stop(); el.remove(); });
  return el.querySelector(".nb-root");
}

describe("the board in a term", () => {
  it("counts the students online beside those who joined", () => {
    expect(rosterText({ invited: 4, joined: 3, online: 2 })).toBe("3 of 4 joined · 2 online");
    expect(rosterText({ invited: 4, joined: 3 })).toBe("3 of 4 joined");
    const root = mounted(board({ students: [{ name: "Ann", joined: true, online: true }] }));
    expect(byKey(root, "roster").textContent).toBe("3 of 4 joined · 2 online");
    expect(byKey(root, "students").querySelector("caption").textContent)
      .toBe("Students (online: heard from within 30 s)");
  });

  it("shows the homework: who has done how many on the teacher's view, counts only on the projector's", () => {
    const root = mounted(board());
    const section = byKey(root, "homework");
    expect(section.querySelector("h3").textContent).toBe("Homework: Practise the mistakes of your games (match 1)");
    expect(byKey(section, "homework-counts").textContent).toBe("1 of 2 students have done all of theirs.");
    const rows = Array.from(section.querySelectorAll("tbody tr")).map((tr) => tr.textContent);
    expect(rows).toEqual(["Ann33", "Bob02"]);
    const projector = homework({ ...board().homework, rows: null });
    expect(projector.querySelector("table")).toBeNull();
    expect(homework(null)).toBeNull();
  });
});
