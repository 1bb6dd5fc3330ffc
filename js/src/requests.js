// Numbered requests and Python's answers (the `answer` trait: {id, ok, error}).
// A view numbers its requests id = tag * 2^20 + seq, with a random tag per view, so two views
// of one widget (or a reloaded page) never take each other's answers. Python answers requests
// in the order they were sent, so an answer for seq n also answers every earlier seq of this view.

import { MAX_REQUEST_ID } from "./shared.js";

const SEQ = 2 ** 20;
const TAGS = Math.floor((MAX_REQUEST_ID + 1) / SEQ); // 2048: ids stay below 2^31

const tagOf = (id) => Math.floor(id / SEQ);

/** A counter of this view's requests; `initial` is the answer the model holds at mount (not ours). */
export function requestIds(initial = null, random = Math.random) {
  const pick = () => 1 + Math.floor(random() * (TAGS - 1));
  let tag = pick();
  if (initial && Number.isInteger(initial.id) && tagOf(initial.id) === tag) tag = (tag % (TAGS - 1)) + 1;
  let seq = 0;
  let answered = 0;
  return {
    /** The id of the next request. */
    next() {
      if (seq === SEQ - 1) {
        tag = (tag % (TAGS - 1)) + 1;
        seq = 0;
        answered = 0;
      }
      seq += 1;
      return tag * SEQ + seq;
    },
    /** Take note of an `answer` from Python; true if it answers a request of this view. */
    note(answer) {
      if (!answer || !Number.isInteger(answer.id) || tagOf(answer.id) !== tag) return false;
      answered = Math.max(answered, answer.id % SEQ);
      return true;
    },
    /** Has Python answered the request with this id? */
    answered(id) {
      return tagOf(id) !== tag || id % SEQ <= answered;
    },
  };
}
