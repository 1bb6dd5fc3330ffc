// The follow bar of a class's screen (the `follow` trait: a student's FollowWidget, the teacher's view of a match
// table): whom it follows and how (Python's sentence, in a polite live region), connected or offline, "Back to
// live", and the teacher's question open on this screen ("Question 3 is open: answer it below", with a button that
// takes the focus to the question's panel, which may sit far below the bar on a small screen).
// Pure (state) -> DOM; "Back to live" is a request ({kind: "live"}) the classroom client answers (from one's own
// practice, "Back to the class"); "Go to question N" is a local action whose `connect` hook moves the focus.

import { h } from "./dom.js";
import { activeElementOf } from "./host.js";
import { quizOf } from "./quiz.js";

const STATUS_CLASS = {
  live: "nw-follow-live", looking: "nw-follow-looking", waiting: "nw-follow-waiting", offline: "nw-follow-off",
  practice: "nw-follow-looking", closed: "nw-follow-off",
};

/** The `follow` trait, or null on a screen that follows nobody. */
export function followOf(state) {
  const f = state.follow;
  return f && typeof f === "object" ? f : null;
}

/** Why "Back to live" is disabled, or null when it is not (Python's `live_reason` where it gives one: the
 * teacher's view of a table watches the table, it follows no teacher). */
export function liveReason(f) {
  if (f.can_live) return null;
  if (f.status === "closed") return "The teacher has closed the class";
  if (f.connected === false) return "Offline: the class is out of reach";
  if (f.status === "live" && typeof f.live_reason === "string" && f.live_reason) return f.live_reason;
  return f.status === "live" ? "You are following the teacher live" : "Nothing to go back to yet";
}

/** The teacher's question open on this screen, as the follow bar carries it ({index, label}), or null. */
export function openQuestion(f) {
  const q = f && f.question;
  return q && typeof q === "object" && Number.isInteger(q.index) && q.index >= 0 ? q : null;
}

/** The question `q` answered from this screen: the bar says so, or the quiz panel shows it answered. */
function answered(q, state) {
  if (q.answered === true) return true;
  const quiz = quizOf(state);
  return Boolean(quiz && quiz.question.index === q.index && quiz.question.answered);
}

/** The hint of the question open: "Question 3 (Pile or steal) is open: answer it below", or once answered,
 * that the teacher reveals it. Numbered from 1, as the quiz panel numbers it. */
export function questionHint(q, state) {
  const named = typeof q.label === "string" && q.label ? `Question ${q.index + 1} (${q.label})` : `Question ${q.index + 1}`;
  return answered(q, state) ? `${named}: your answer is sent, the teacher reveals it` : `${named} is open: answer it below`;
}

/** Where "Go to question N" takes the focus: the question's prompt, which reads it (quiz.js). */
export const QUESTION_TARGET = "quiz-prompt";

function questionButton(q, state) {
  if (!quizOf(state)) return null; // no panel to go to (yet)
  return h("button", {
    type: "button", class: "nw-btn nw-follow-to-question", "data-key": "follow-question",
    "data-ui": { ui: "follow-question" },
  }, `Go to question ${q.index + 1}`);
}

/** The latest homework the follow bar carries ({id, title, assigned, done, open}), or null. */
export function homeworkOf(f) {
  const hw = f && f.homework;
  return hw && typeof hw === "object" && Number.isInteger(hw.assigned) && Number.isInteger(hw.done) ? hw : null;
}

/** "Homework: 2 of 5 done" and its button, which practises it on this screen ({kind: "homework", open: true});
 * none while it is practised (the bar's "Back to the class" ends it) or when it has no exercise. */
function homeworkPart(hw) {
  if (!hw || hw.open || hw.assigned === 0) return null;
  const label = `Homework: ${hw.done} of ${hw.assigned} done`;
  return h("button", {
    type: "button", class: "nw-btn nw-follow-homework", "data-key": "follow-homework",
    "data-request": { kind: "homework", open: true }, title: hw.title || null,
    "aria-label": `${label}. Practise it`,
  }, label);
}

/** The follow bar, or null outside a class. */
export function renderFollow(state, ui) {
  const f = followOf(state);
  if (!f) return null;
  const connected = f.connected !== false;
  const reason = liveReason(f);
  const whyId = `${(ui && ui.uid) || "nw"}-follow-why`;
  const who = [f.name, f.room ? `room ${f.room}` : null].filter(Boolean).join(" · ");
  const q = openQuestion(f);
  return h(
    "section",
    {
      class: ["nw-follow", STATUS_CLASS[f.status] || null, connected ? null : "nw-follow-disconnected"],
      "data-key": "follow", "aria-label": "Following the class",
    },
    h("span", { class: "nw-follow-dot", "aria-hidden": "true" }),
    h("p", { class: "nw-follow-text", role: "status", "aria-live": "polite", "data-key": "follow-status", tabindex: "-1" },
      f.text || "", connected ? null : h("span", { class: "nw-follow-conn" }, " (offline)"),
      // In the bar's live region: a question asked is said as it comes.
      q ? h("span", { class: "nw-follow-question", "data-key": "follow-question-text" }, ` · ${questionHint(q, state)}`) : null),
    q ? questionButton(q, state) : null,
    homeworkPart(homeworkOf(f)),
    who ? h("span", { class: "nw-follow-who" }, who) : null,
    h("span", { class: ["nw-follow-link", connected ? null : "nw-follow-link-off"] }, connected ? "Connected" : "Offline"),
    h("button", {
      type: "button", class: "nw-btn nw-follow-back", "data-key": "follow-live",
      disabled: reason !== null, "data-request": reason === null ? { kind: "live" } : null,
      "aria-describedby": reason ? whyId : null, title: reason,
    }, f.status === "practice" ? "Back to the class" : "Back to live"),
    reason ? h("span", { class: "nw-sr", id: whyId }, reason) : null,
  );
}

/** "Go to question N": the focus (and the page's scroll) goes to the question's panel after the render. */
function toQuestion(ctx) {
  let done = 0;
  return function rendered() {
    const asked = (ctx.ui().follow || {}).asked || 0;
    if (asked === done) return;
    done = asked;
    const root = ctx.root;
    const target = root.querySelector(`[data-key="${QUESTION_TARGET}"]`);
    if (!target) return;
    if (activeElementOf(root) !== target) target.focus();
    if (typeof target.scrollIntoView === "function") target.scrollIntoView({ block: "nearest" });
  };
}

export const followFeature = {
  name: "follow",
  initial: () => ({ asked: 0 }),
  // "Go to question N" pressed: counted, so that each press moves the focus once (`toQuestion`).
  reduce: (slice, action) => (action.ui === "follow-question" ? { asked: ((slice && slice.asked) || 0) + 1 } : slice),
  views: { header: renderFollow }, // a line of its own under the title (style.css)
  // "Back to live" (or "Back to the class") disabled once it is done: the focus goes to the line that says where.
  focus: ["follow-status"],
  connect: (ctx) => ({ rendered: toQuestion(ctx) }),
};
