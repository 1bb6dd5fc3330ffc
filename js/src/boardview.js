// The board of a class (BoardWidget, `board` trait) as a pure function of (board, ui) -> DOM: the
// teacher's or the projector's view, who joined and answered, the question and Reveal, the answers'
// distribution, the class's calibration, the students (teacher's view only) and the challenge's
// ranking. Controls carry data-request (sent as is) or data-ui (a local action), as in the widget.

import { h } from "./dom.js";
import { renderDistribution } from "./boardbars.js";
import { UNIT } from "./review.js";

export const VIEW_LABELS = { teacher: "Teacher’s view", projector: "Projector" };
export const CALIBRATION_COLUMNS = ["Said", "How many", "Said on average", "It happened"];
/** The columns of the challenge's games (the first "Name" on the teacher's view, "Game" on the projector's). */
export const CHALLENGE_COLUMNS = ["Result", "Margin", "Luck (points)", "Luck-adjusted (points)"];
/** The columns of the class's record; its figures in points of win chance (`UNIT`), as Python writes them. */
export const RECORD_COLUMNS = ["Place", "Name", "Games", "Luck-adjusted (points a game)",
  "Range, all at 95% (points)", "Won–drew–lost", "Placed above", "Cannot tell apart yet from"];

const yesNo = (v) => (v === true ? "yes" : v === false ? "no" : "–");

function header(board, view, ui) {
  return h(
    "div",
    { class: "nb-header" },
    h("h2", { class: "nb-title" }, board && board.room ? `Class board · ${board.room}` : "Class board"),
    h("div", { class: "nb-toggle", role: "group", "aria-label": "Board view" },
      Object.entries(VIEW_LABELS).map(([id, label]) => h("button", {
        type: "button", class: ["nb-btn", "nb-toggle-btn", view === id ? "nb-on" : null], "data-key": `view-${id}`,
        "aria-pressed": String(view === id), "data-request": view === id ? null : { kind: "view", view: id },
      }, label))),
    errorLine(ui.error),
  );
}

function errorLine(error) {
  if (!error || !error.text || error.dismissed) return null;
  return h("div", { class: "nb-error", role: "alert", "data-key": `error-${error.id}` },
    h("span", null, error.text),
    h("button", { type: "button", class: "nb-link", "data-key": "dismiss-error", "aria-label": "Dismiss error",
      "data-ui": { ui: "dismiss", id: error.id } }, "×"));
}

/** "28 of 30 joined · 25 online · 12 answered", in a polite live region ("online": their kernel spoke within the
 * room's presence timeout). */
export function rosterText(roster) {
  if (!roster) return "";
  const parts = [`${roster.joined ?? 0} of ${roster.invited ?? 0} joined`];
  if (Number.isInteger(roster.online)) parts.push(`${roster.online} online`);
  if (Number.isInteger(roster.answered)) parts.push(`${roster.answered} answered`);
  return parts.join(" · ");
}

function lessonLine(lesson) {
  if (!lesson) return null;
  const parts = [lesson.title, `step ${lesson.step} of ${lesson.steps}`, lesson.shown ? `shown: ${lesson.shown}` : null];
  return h("p", { class: "nb-lesson" }, parts.filter(Boolean).join(" · "));
}

function question(board, uid) {
  const q = board.question;
  if (!q) return h("section", { class: "nb-question", "data-key": "question", "aria-label": "Question" },
    h("p", { class: "nb-muted" }, "No question is asked now."));
  const whyId = `${uid}-reveal-why`;
  const reason = board.can_reveal ? null : board.reveal_reason || "Nothing to reveal now";
  return h(
    "section",
    { class: "nb-question", "data-key": "question", "aria-labelledby": `${uid}-q-title` },
    h("h3", { class: "nb-h", id: `${uid}-q-title` }, `Question ${q.index + 1}: ${q.label} · step ${q.step}`),
    q.prompt ? h("p", { class: "nb-prompt" }, q.prompt) : null,
    q.revealed && q.truth ? h("p", { class: "nb-truth" }, `Revealed: ${q.truth}`) : null,
    h("div", { class: "nb-actions" },
      h("button", {
        type: "button", class: "nb-btn nb-btn-primary", "data-key": "reveal", disabled: reason !== null,
        "data-request": reason === null ? { kind: "reveal" } : null, "aria-describedby": reason ? whyId : null,
        title: reason,
      }, "Reveal"),
      reason ? h("span", { class: "nb-why", id: whyId }, reason) : null),
  );
}

function calibration(rows) {
  if (!Array.isArray(rows) || !rows.length) return null;
  return h("table", { class: "nb-table nb-calibration", "data-key": "calibration" },
    h("caption", null, "Calibration: the class's forecasts, grouped by what was said"),
    h("thead", null, h("tr", null, CALIBRATION_COLUMNS.map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, rows.map((r) => h("tr", null,
      h("th", { scope: "row" }, r.band),
      h("td", null, String(r.count ?? "–")),
      h("td", null, r.said ?? "–"),
      h("td", null, r.happened ?? "–")))));
}

/** The students' table: who joined, who is online now (their kernel heard from within the room's presence
 * timeout, `roster.timeout` seconds), who answered the question shown, and their score. */
function students(list, roster) {
  if (!Array.isArray(list)) return null; // the projector's view: no names
  const timeout = roster && Number.isFinite(roster.timeout) ? roster.timeout : null;
  return h("table", { class: "nb-table nb-students", "data-key": "students" },
    h("caption", null, timeout === null ? "Students" : `Students (online: heard from within ${timeout} s)`),
    h("thead", null, h("tr", null, ["Name", "Joined", "Online", "Answered", "Score"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", null, list.map((s) => h("tr", { class: s.online === false ? "nb-offline" : null },
      h("th", { scope: "row" }, s.name),
      h("td", null, yesNo(s.joined)),
      h("td", null, yesNo(s.online)),
      h("td", null, yesNo(s.answered)),
      h("td", null, s.score ?? "–")))));
}

function challenge(c) {
  if (!c) return null;
  const rows = Array.isArray(c.rows) ? c.rows : [];
  const named = rows.some((r) => r.name);
  return h(
    "section",
    { class: "nb-challenge", "data-key": "challenge", "aria-label": "Challenge" },
    h("h3", { class: "nb-h" }, `Challenge: one deal against ${c.opponent}`),
    c.note ? h("p", { class: "nb-note" }, c.note) : null,
    rows.length
      ? h("table", { class: "nb-table nb-ranking" },
          h("caption", null, `This deal's games by luck-adjusted score, in ${UNIT}, beside the result (one deal ranks nobody)`),
          h("thead", null, h("tr", null,
            [named ? "Name" : "Game", ...CHALLENGE_COLUMNS, named ? "Replay" : null]
              .filter(Boolean).map((col) => h("th", { scope: "col" }, col)))),
          h("tbody", null, rows.map((r, i) => h("tr", { class: r.status === "playing" ? "nb-playing" : null },
            h("th", { scope: "row" }, named ? r.name ?? "–" : String(i + 1)),
            h("td", null, r.result ?? "–"),
            h("td", null, r.score === null || r.score === undefined ? "–" : String(r.score)),
            h("td", null, r.luck ?? "–"),
            h("td", null, r.adjusted ?? "–"),
            named
              ? h("td", null, r.can_open && r.name
                  ? h("button", {
                      type: "button", class: "nb-btn", "data-key": `open-${r.name}`,
                      "aria-label": `Open ${r.name}'s replay`, "data-request": { kind: "open", name: r.name },
                    }, "Open replay")
                  : null)
              : null))))
      : h("p", { class: "nb-muted" }, "Nobody has played yet."),
  );
}

/** A match's tables: who sits at each (names on the teacher's view), the round, and the margin so far. */
function match(m) {
  if (!m) return null;
  const tables = Array.isArray(m.tables) ? m.tables : [];
  return h(
    "section",
    { class: "nb-match", "data-key": "match", "aria-label": "Match" },
    h("h3", { class: "nb-h" }, `Match: ${m.deals} ${m.deals === 1 ? "deal" : "deals"}, each played from both seats`),
    h("table", { class: "nb-table nb-tables" },
      h("caption", null, "Tables: points won minus points lost, over the deals every table has finished"),
      h("thead", null, h("tr", null,
        ["Table", "Players", "Round", "Now", "Margin"].map((col) => h("th", { scope: "col" }, col)))),
      h("tbody", null, tables.map((t) => h("tr", { class: t.status === "playing" ? "nb-playing" : null },
        h("th", { scope: "row" }, String(t.table)),
        h("td", null, (t.players || []).join(" · ")),
        h("td", null, `${t.round} of ${t.rounds}`),
        h("td", null, t.status === "over" ? "Round over" : t.status === "stood in" ? "A bot stands in" : "Playing"),
        h("td", null, (t.margin || []).map((v) => (v > 0 ? `+${v}` : String(v))).join(" / ")))))),
  );
}

/** A row's claims (or pairs not told apart yet), one a line. */
function claims(list) {
  return Array.isArray(list) && list.length ? list.map((text) => h("span", { class: "nb-claim" }, text)) : "–";
}

/** The class's record over the term: each student's place (a range while the evidence cannot separate them),
 * games, mean luck-adjusted score with its range (in points of win chance), raw results, each claim with its
 * evidence and those not told apart yet with what a claim would need; counts only on the projector. */
export function record(r) {
  if (!r) return null;
  const rows = Array.isArray(r.rows) ? r.rows : null;
  const games = `${r.games} ${r.games === 1 ? "game" : "games"}`;
  return h(
    "section",
    { class: "nb-record", "data-key": "record", "aria-label": "The class's record" },
    h("h3", { class: "nb-h" }, `The class's record: ${games}`),
    r.pending ? h("p", { class: "nb-muted", role: "status" }, `Reviewing ${r.pending} of them…`) : null,
    rows
      ? h("table", { class: "nb-table nb-standings" },
          h("caption", null, `Places by luck-adjusted score, in ${UNIT}: a student is placed above another only `
            + "where the games they share say so for the whole class at every look; a range where they cannot tell "
            + "students apart yet, listed by score, then won–drew–lost"),
          h("thead", null, h("tr", null, RECORD_COLUMNS.map((col) => h("th", { scope: "col" }, col)))),
          h("tbody", null, rows.map((row) => h("tr", { class: row.provisional ? "nb-provisional" : null },
            h("th", { scope: "row" }, row.place),
            h("td", null, row.name, row.provisional ? h("span", { class: "nb-tag" }, " provisional") : null),
            h("td", null, String(row.games) + (row.stood_in ? ` (+${row.stood_in} stood in)` : "")),
            h("td", null, row.adjusted),
            h("td", null, row.interval ?? "–"),
            h("td", null, row.raw),
            h("td", null, claims(row.above)),
            h("td", null, claims(row.level))))))
      : h("p", { class: "nb-note", "data-key": "record-counts" },
          `${r.students} ${r.students === 1 ? "student" : "students"} in the record; ${r.placed} with a place their games settle (at the board's 95%).`),
    r.note ? h("p", { class: "nb-note" }, r.note) : null,
  );
}

/** The latest homework (`board.homework`): who has done how many of their own exercises (the teacher's view), or
 * how many students have done all of theirs (the projector). */
export function homework(hw) {
  if (!hw) return null;
  const rows = Array.isArray(hw.rows) ? hw.rows : null;
  return h(
    "section",
    { class: "nb-homework", "data-key": "homework", "aria-label": "Homework" },
    h("h3", { class: "nb-h" }, `Homework: ${hw.title}`),
    h("p", { class: "nb-note", "data-key": "homework-counts" },
      `${hw.finished} of ${hw.students} ${hw.students === 1 ? "student has" : "students have"} done all of theirs.`),
    rows
      ? h("table", { class: "nb-table nb-homework-rows" },
          h("caption", null, "Each student's exercises, from the mistakes of their own games"),
          h("thead", null, h("tr", null, ["Name", "Done", "Given"].map((col) => h("th", { scope: "col" }, col)))),
          h("tbody", null, rows.map((row) => h("tr", { class: row.done >= row.assigned ? "nb-done" : null },
            h("th", { scope: "row" }, row.name),
            h("td", null, String(row.done)),
            h("td", null, String(row.assigned))))))
      : null,
  );
}

/** The kinds of what the students' screens show now (`board.headline.kind`). */
export const HEADLINE_KINDS = ["lesson", "question", "challenge", "match", "idle"];

/** What is on the students' screens now (`board.headline`: {kind, text}; the room decides the words, so that an
 * earlier lesson's question never headlines above a match), as the board's first heading; null without one. */
export function headline(board) {
  const line = board && board.headline;
  if (!line || typeof line !== "object" || typeof line.text !== "string" || !line.text) return null;
  const kind = HEADLINE_KINDS.includes(line.kind) ? line.kind : null;
  return h("h3", { class: ["nb-h", "nb-headline", kind ? `nb-headline-${kind}` : null], "data-key": "headline" },
    h("span", { class: "nb-headline-kind" }, "Now on the students’ screens: "), line.text);
}

/** The whole board. `view` is the trait (the board's own says the same once Python answered). */
export function renderBoard(board, view, ui) {
  const uid = ui.uid || "nb";
  const shown = (board && board.view) || view || "teacher";
  if (!board) {
    return h("div", { class: "nb-app" }, header(board, shown, ui), h("p", { class: "nb-muted" }, "Loading the board…"));
  }
  return h(
    "div",
    { class: ["nb-app", `nb-view-${shown}`] },
    header(board, shown, ui),
    headline(board),
    h("p", { class: "nb-roster", role: "status", "aria-live": "polite", "data-key": "roster" }, rosterText(board.roster)),
    lessonLine(board.lesson),
    h("div", { class: "nb-columns" },
      h("div", { class: "nb-col" }, question(board, uid), renderDistribution(board.distribution, uid),
        calibration(board.calibration)),
      shown === "teacher" ? h("div", { class: "nb-col" }, students(board.students, board.roster)) : null),
    challenge(board.challenge),
    match(board.match),
    homework(board.homework),
    record(board.record),
  );
}
