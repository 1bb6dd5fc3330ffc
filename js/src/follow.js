// The follow bar of a student's screen in a class (the `follow` trait, FollowWidget): whom it follows
// and how (Python's sentence, in a polite live region), connected or offline, and "Back to live".
// Pure (state) -> DOM; "Back to live" is a request ({kind: "live"}) the classroom client answers (from one's own
// practice, "Back to the class").

import { h } from "./dom.js";

const STATUS_CLASS = {
  live: "nw-follow-live", looking: "nw-follow-looking", waiting: "nw-follow-waiting", offline: "nw-follow-off",
  practice: "nw-follow-looking", closed: "nw-follow-off",
};

/** The `follow` trait, or null on a screen that follows nobody. */
export function followOf(state) {
  const f = state.follow;
  return f && typeof f === "object" ? f : null;
}

/** Why "Back to live" is disabled, or null when it is not. */
export function liveReason(f) {
  if (f.can_live) return null;
  if (f.status === "closed") return "The teacher has closed the class";
  if (f.connected === false) return "Offline: the class is out of reach";
  return f.status === "live" ? "You are following the teacher live" : "Nothing to go back to yet";
}

/** The follow bar, or null outside a class. */
export function renderFollow(state, ui) {
  const f = followOf(state);
  if (!f) return null;
  const connected = f.connected !== false;
  const reason = liveReason(f);
  const whyId = `${(ui && ui.uid) || "nw"}-follow-why`;
  const who = [f.name, f.room ? `room ${f.room}` : null].filter(Boolean).join(" · ");
  return h(
    "section",
    {
      class: ["nw-follow", STATUS_CLASS[f.status] || null, connected ? null : "nw-follow-disconnected"],
      "data-key": "follow", "aria-label": "Following the class",
    },
    h("span", { class: "nw-follow-dot", "aria-hidden": "true" }),
    h("p", { class: "nw-follow-text", role: "status", "aria-live": "polite", "data-key": "follow-status", tabindex: "-1" },
      f.text || "", connected ? null : h("span", { class: "nw-follow-conn" }, " (offline)")),
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

export const followFeature = {
  name: "follow",
  views: { header: renderFollow }, // a line of its own under the title (style.css)
  // "Back to live" (or "Back to the class") disabled once it is done: the focus goes to the line that says where.
  focus: ["follow-status"],
};
