// The step rules of a screen, as Python's (needle_widget/screen/stepping.py): the page exported with no kernel
// behind it answers its step requests with them. The copy is pinned: js/test/step_rules.json, generated from
// Python's `step_cases()`, lists a case for every branch of every rule with Python's answer, and the tests run
// each here. Each rule returns null (allowed) or the refusal's words.

const MAX_STRING = 60;
const MAX_ITEMS = 6;

/** A string as Python's repr writes it (single quotes unless it holds one and no double quote). */
function pyString(text) {
  const q = text.includes("'") && !text.includes('"') ? '"' : "'";
  const escaped = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n").replace(/\r/g, "\\r").replace(/\t/g, "\\t");
  return q + (q === "'" ? escaped.replace(/'/g, "\\'") : escaped) + q;
}

/** A value as Python's `quote` (errors.py: reprlib, strings cut to 60 characters, lists to 6 items) echoes it. */
export function pyQuote(value, level = 6) {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : String(value);
  if (typeof value === "string") {
    let s = pyString(value.slice(0, MAX_STRING));
    if (s.length > MAX_STRING) {
      const i = Math.floor((MAX_STRING - 3) / 2);
      const j = MAX_STRING - 3 - i;
      s = pyString(value.slice(0, i) + value.slice(value.length - j));
      s = s.slice(0, i) + "..." + s.slice(s.length - j);
    }
    return s;
  }
  if (Array.isArray(value)) {
    if (!value.length) return "[]";
    if (level <= 0) return "[...]";
    const pieces = value.slice(0, MAX_ITEMS).map((v) => pyQuote(v, level - 1));
    if (value.length > MAX_ITEMS) pieces.push("...");
    return `[${pieces.join(", ")}]`;
  }
  if (typeof value === "object") {
    const keys = Object.keys(value);
    if (!keys.length) return "{}";
    if (level <= 0) return "{...}";
    const pieces = keys.slice(0, MAX_ITEMS).map((k) => `${pyQuote(k, level - 1)}: ${pyQuote(value[k], level - 1)}`);
    if (keys.length > MAX_ITEMS) pieces.push("...");
    return `{${pieces.join(", ")}}`;
  }
  return String(value);
}

const isStep = (to) => Number.isInteger(to);

/** A quiz: any step from 0 to `horizon`. */
export function quizRefusal({ to, horizon }) {
  return isStep(to) && to >= 0 && to <= horizon ? null : `Cannot go to step ${pyQuote(to)}: the quiz shows steps 0 to ${horizon} now`;
}

/** A replay or a game shown whole: any step from 0 to `end`. */
export function wholeRefusal({ to, end }) {
  return isStep(to) && to >= 0 && to <= end ? null : `Cannot go to step ${pyQuote(to)}: steps run from 0 to ${end}`;
}

/** Spoiler-free review at `step` of a replay of `end` steps: back to any step, or on to the next one; a
 * refusal tells nothing of what comes after. */
export function spoilerFreeRefusal({ to, step, end }) {
  if (isStep(to) && to === step + 1 && to > end) return `The replay ends at step ${step}`;
  if (!isStep(to) || to < 0 || to > step + 1) {
    return `Cannot go to step ${pyQuote(to)}: spoiler-free review goes back to any step from 0 to ${step}, or on to the next one (${step + 1})`;
  }
  return null;
}

/** A screen that holds only the steps it received (`held`): of the class's game, or with `label`, of that
 * variation. */
export function heldRefusal({ to, held, label = null }) {
  if (isStep(to) && held.includes(to)) return null;
  if (!held.length) return "Nothing has been shown yet: wait for the teacher";
  const last = Math.max(...held);
  if (label === null || label === undefined) return `Cannot show step ${pyQuote(to)}: the class has shown steps 0 to ${last}`;
  return `Cannot show step ${pyQuote(to)} of ${label}: it has steps ${Math.min(...held)} to ${last}`;
}

/** Each rule by the name Python's `step_cases()` gives it. */
export const STEP_RULES = { quiz: quizRefusal, whole: wholeRefusal, spoiler_free: spoilerFreeRefusal, held: heldRefusal };
