import { afterEach, describe, expect, it } from "vitest";
import { mountBoard } from "../src/boardapp.js";
import { barText } from "../src/boardbars.js";
import { accessibleName, button, buttons, click, fakeModel, flush, key } from "./helpers.js";

// The class board (BoardWidget: board.js), on boards in the shape of issue 23's contract.
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

function teacherBoard(overrides = {}) {
  return {
    room: "monday", view: "teacher",
    roster: { invited: 30, joined: 28, answered: 12 },
    students: [
      { name: "Ann", joined: true, online: true, answered: true, score: "Brier 0.12" },
      { name: "Bo", joined: true, online: false, answered: null, score: null },
    ],
    lesson: { title: "detective", step: 12, steps: 64, shown: "Player 1" },
    question: { index: 0, step: 12, kind: "winner", label: "Who wins", prompt: "Who wins from here?", revealed: false, truth: null },
    distribution: { title: "Forecasts", total: 12, bars: [
      { label: "0–20%", count: 3, truth: false }, { label: "20–40%", count: 9, truth: false }] },
    calibration: [{ band: "20%–40%", count: 4, said: "31%", happened: "1 of 4 (25%)" }],
    can_reveal: true, reveal_reason: null,
    challenge: { opponent: "GreedyBot", note: "One deal for everyone.", rows: [
      { name: "Ann", status: "finished", result: "Won 45–30", score: 15, luck: "+19", adjusted: "81", can_open: true },
      { name: "Bo", status: "playing", result: "Playing (step 14)", score: null, luck: null, adjusted: null, can_open: false }] },
    ...overrides,
  };
}

function projectorBoard() {
  const b = teacherBoard({ view: "projector", students: null });
  b.challenge.rows = b.challenge.rows.map((r) => ({ ...r, name: null, can_open: false }));
  return b;
}

let mounted = [];
afterEach(() => {
  for (const m of mounted) m.cleanup();
  mounted = [];
});

function open(board, view = board ? board.view : "teacher") {
  const el = document.createElement("div");
  document.body.appendChild(el);
  const model = fakeModel({ board, view, error: null, answer: null });
  const stop = mountBoard(model, el);
  const m = { el, model, root: el.querySelector(".nb-root"), cleanup: () => { stop(); el.remove(); } };
  mounted.push(m);
  return m;
}

describe("the board", () => {
  it("shows who joined and answered in a polite status line, and the lesson", () => {
    const { root } = open(teacherBoard());
    const roster = byKey(root, "roster");
    expect(roster.getAttribute("role")).toBe("status");
    expect(roster.getAttribute("aria-live")).toBe("polite");
    expect(roster.textContent).toBe("28 of 30 joined · 12 answered");
    expect(root.textContent).toContain("detective · step 12 of 64 · shown: Player 1");
    expect(root.querySelector("h2").textContent).toBe("Class board · monday");
  });

  it("lists the students on the teacher's view only", () => {
    const { root } = open(teacherBoard());
    const rows = Array.from(byKey(root, "students").querySelectorAll("tbody tr"));
    expect(rows.map((r) => r.textContent)).toEqual(["Annyesyesyes" + "Brier 0.12", "Boyesno–" + "–"]);
    const projector = open(projectorBoard());
    expect(byKey(projector.root, "students")).toBeNull();
    expect(projector.root.textContent).not.toContain("Ann");
    expect(projector.root.querySelector(".nb-view-projector")).not.toBeNull();
  });

  it("draws the distribution as bars with their words for screen readers", () => {
    const { root } = open(teacherBoard());
    const dist = byKey(root, "dist");
    expect(dist.querySelector("h3").textContent).toBe("Forecasts (12 answers)");
    const words = Array.from(dist.querySelectorAll(".nb-sr")).map((n) => n.textContent);
    expect(words).toEqual(["0–20%: 3 answers (25%)", "20–40%: 9 answers (75%)"]);
    const bars = Array.from(dist.querySelectorAll(".nb-bar")).map((b) => b.getAttribute("style"));
    expect(bars).toEqual(["--nb-share: 0.3333333333333333", "--nb-share: 1"]);
    for (const hidden of dist.querySelectorAll(".nb-bar-track")) expect(hidden.getAttribute("aria-hidden")).toBe("true");
    expect(barText({ label: "Player 1", count: 1, truth: true }, 4)).toBe("Player 1: 1 answer (25%), the truth");
  });

  it("shows the calibration as a table with a caption and headers", () => {
    const { root } = open(teacherBoard());
    const table = byKey(root, "calibration");
    expect(table.querySelector("caption").textContent).toContain("Calibration");
    expect(Array.from(table.querySelectorAll("thead th")).map((t) => t.getAttribute("scope"))).toEqual(["col", "col", "col", "col"]);
    expect(table.querySelector("tbody th").textContent).toBe("20%–40%");
  });

  it("reveals on request, and says why Reveal is disabled", async () => {
    const { root, model } = open(teacherBoard());
    click(button(root, "Reveal"));
    expect(model.sent).toEqual([{ kind: "reveal" }]);
    expect(Number.isInteger(model.requests[0].id)).toBe(true);
    model.answer({ board: teacherBoard({ can_reveal: false, reveal_reason: "Already revealed",
      question: { ...teacherBoard().question, revealed: true, truth: "Player 1 won" } }) });
    await flush();
    const reveal = button(root, "Reveal");
    expect(reveal.disabled).toBe(true);
    expect(root.querySelector(`#${reveal.getAttribute("aria-describedby")}`).textContent).toBe("Already revealed");
    expect(root.textContent).toContain("Revealed: Player 1 won");
  });

  it("lists a match's tables with their players, round and margin, and no names on the projector", () => {
    const board = teacherBoard();
    board.match = { deals: 2, tables: [
      { table: 1, players: ["Ann", "Bob"], round: 2, rounds: 4, status: "playing", margin: [3, -3] },
      { table: 2, players: ["Cy", "Bot"], round: 1, rounds: 4, status: "over", margin: [0, 0] }] };
    const { root } = open(board);
    const section = byKey(root, "match");
    expect(section.getAttribute("aria-label")).toBe("Match");
    const rows = [...section.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(rows).toEqual([["1", "Ann · Bob", "2 of 4", "Playing", "+3 / -3"], ["2", "Cy · Bot", "1 of 4", "Round over", "0 / 0"]]);
    expect(byKey(open(teacherBoard()).root, "match")).toBeNull();
  });

  it("lists the challenge's games, unranked, with an Open replay button per row it may open", () => {
    const { root, model } = open(teacherBoard());
    const ranking = root.querySelector(".nb-ranking");
    expect(Array.from(ranking.querySelectorAll("thead th")).map((t) => t.textContent))
      .toEqual(["Name", "Result", "Margin", "Luck (points)", "Luck-adjusted (points)", "Replay"]);
    // The unit of the figures: points of win chance, a win 100 (issue 45: "Luck-adjusted" had no unit).
    expect(ranking.querySelector("caption").textContent)
      .toContain("in points of win chance (a win is 100, a draw 50, a loss 0)");
    expect([...ranking.querySelector("tbody tr").children].map((c) => c.textContent).slice(0, 5))
      .toEqual(["Ann", "Won 45–30", "15", "+19", "81"]);
    expect(buttons(root, "Open Bo's replay")).toHaveLength(0);
    click(button(root, "Open Ann's replay"));
    expect(model.sent).toEqual([{ kind: "open", name: "Ann" }]);
    const projector = open(projectorBoard());
    const heads = Array.from(projector.root.querySelectorAll(".nb-ranking thead th")).map((t) => t.textContent);
    expect(heads).toEqual(["Game", "Result", "Margin", "Luck (points)", "Luck-adjusted (points)"]);
  });

  it("shows a game still playing with dashes, not null", () => {
    const board = teacherBoard();
    board.challenge.rows[1] = { ...board.challenge.rows[1], can_open: true };
    const { root } = open(board);
    const names = Array.from(root.querySelectorAll(".nb-ranking tbody th")).map((t) => t.textContent);
    expect(names).toEqual(["Ann", "Bo"]);
    expect(root.querySelector(".nb-ranking").textContent).not.toContain("null");
    expect(buttons(root, "Open Bo's replay")).toHaveLength(1);
  });

  it("shows the record's places as ranges where students cannot be told apart, and counts only on the projector", () => {
    const rows = [
      { place: "1", name: "Ann", games: 12, adjusted: "71", interval: "62 to 80", raw: "8–1–3", raw_mean: "71",
        provisional: false, stood_in: 0, above: ["Bo (12 deals in common: ahead on 11, +19 a game)"], level: null },
      { place: "2–3", name: "Bo", games: 12, adjusted: "52", interval: "41 to 63", raw: "6–0–6", raw_mean: "50",
        provisional: false, stood_in: 1, level: ["Cy (+8 a game over 3 deals in common, ahead on 2; about 40 would place Bo above)", "and 2 more"] },
      { place: "2–3", name: "Cy", games: 3, adjusted: "44", interval: "10 to 78", raw: "1–0–2", raw_mean: "33",
        provisional: true, stood_in: 0, level: "Bo" }];
    const { root } = open(teacherBoard({ record: { games: 19, worlds: 96, provisional: 8, pending: 0, note: "How.", rows } }));
    const section = byKey(root, "record");
    expect(section.getAttribute("aria-label")).toBe("The class's record");
    const cells = [...section.querySelectorAll("tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent));
    expect(cells[0]).toEqual(["1", "Ann", "12", "71", "62 to 80", "8–1–3",
      "Bo (12 deals in common: ahead on 11, +19 a game)", "–"]);
    expect(cells[1]).toEqual(["2–3", "Bo", "12 (+1 stood in)", "52", "41 to 63", "6–0–6", "–",
      "Cy (+8 a game over 3 deals in common, ahead on 2; about 40 would place Bo above)and 2 more"]);
    expect(section.querySelectorAll("tbody tr")[1].querySelectorAll(".nb-claim")).toHaveLength(2);
    // Each figure's unit in its column's head and the caption (issue 45: "Luck-adjusted" had no unit).
    expect([...section.querySelectorAll("thead th")].map((th) => th.textContent)).toEqual(["Place", "Name", "Games",
      "Luck-adjusted (points a game)", "Range, all at 95% (points)", "Won–drew–lost", "Placed above",
      "Cannot tell apart yet from"]);
    expect(section.querySelector("caption").textContent).toContain("points of win chance (a win is 100, a draw 50, a loss 0)");
    expect(section.querySelector("caption").textContent).toContain("listed by score, then won–drew–lost");
    expect(cells[2][1]).toBe("Cy provisional");
    const projector = open(teacherBoard({ view: "projector", students: null,
      record: { games: 19, worlds: 96, provisional: 8, pending: 2, note: "How.", rows: null, students: 3, placed: 1 } }));
    const counts = byKey(projector.root, "record");
    expect(counts.textContent).toContain("3 students in the record; 1 with a place their games settle (at the board's 95%).");
    expect(counts.textContent).toContain("Reviewing 2 of them");
    expect(counts.querySelector("table")).toBeNull();
  });

  it("switches between the teacher's view and the projector's by a request", async () => {
    const { root, model } = open(teacherBoard());
    const teacher = button(root, "Teacher’s view");
    expect(teacher.getAttribute("aria-pressed")).toBe("true");
    click(teacher);
    expect(model.sent).toEqual([]);
    click(button(root, "Projector"));
    expect(model.sent).toEqual([{ kind: "view", view: "projector" }]);
    model.answer({ view: "projector", board: projectorBoard() });
    await flush();
    expect(button(root, "Projector").getAttribute("aria-pressed")).toBe("true");
  });

  it("shows Python's refusal as an alert until dismissed", async () => {
    const { root, model } = open(teacherBoard());
    model.update({ error: { id: 1, text: "No question is open" } });
    await flush();
    const alert = root.querySelector('[role="alert"]');
    expect(alert.textContent).toContain("No question is open");
    click(button(root, "Dismiss error"));
    expect(root.querySelector('[role="alert"]')).toBeNull();
    model.update({ error: { id: 2, text: "Again" } });
    await flush();
    expect(root.querySelector('[role="alert"]').textContent).toContain("Again");
  });

  it("gives every control an accessible name, and keeps keys from JupyterLab", () => {
    const { root } = open(teacherBoard());
    for (const b of root.querySelectorAll("button")) expect(accessibleName(b)).not.toBe("");
    let reached = 0;
    const outside = () => { reached += 1; };
    document.addEventListener("keydown", outside);
    key(root.querySelector("button"), "a");
    document.removeEventListener("keydown", outside);
    expect(reached).toBe(0);
    const waiting = open(null);
    expect(waiting.root.textContent).toContain("Loading the board…");
  });

  it("cleans up its listeners", () => {
    const m = open(teacherBoard());
    m.cleanup();
    mounted = mounted.filter((x) => x !== m);
    expect(m.model.listenerCount()).toBe(0);
  });
});
