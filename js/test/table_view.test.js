import { describe, expect, it } from "vitest";
import { liveReason } from "../src/follow.js";
import { button, buttons, click, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

// The teacher's view of a match table (room.open_table(n), classroom/tablesource.py, issue 45 item 7): a frame from
// the teacher's seat with a follow bar naming the table; it watches, so its state offers no New deal, no Same deal
// again, no autoplay and no perspective switch, and "Back to live" says why it is disabled in the view's own words.
const open = mountsCleanedAfterEach();
const byKey = (root, k) => root.querySelector(`[data-key="${k}"]`);

function tableFollow(overrides = {}) {
  return {
    status: "live", text: "Table 1 · deal 1 of 2 · Ann (Player 1) against Bob (Player 2): the deal is over (step 31)",
    live_step: 31, can_live: false, name: "Table 1", room: "monday", connected: true, kind: "table",
    title: "Table 1 · deal 1 of 2 · Ann (Player 1) against Bob (Player 2)",
    live_reason: "You are watching table 1 live", ...overrides,
  };
}

// As TableSource.state() sends it: a frame (mode "replay", no offers), the teacher's perspective only, the seats named.
function tableState(overrides = {}) {
  return {
    ...stateFrom("over_teacher"), mode: "replay", perspectives: ["teacher"], seats: ["Ann", "Bob"], offers: {},
    can_act: false, act_reason: "The teacher watches table 1: its students play it",
    hidden_reason: "The teacher's view of a table shows every card", follow: tableFollow(), ...overrides,
  };
}

describe("the teacher's view of a match table", () => {
  it("offers no new deal, no same deal and no autoplay once the deal is over", () => {
    const { root } = open(tableState());
    expect(root.textContent).toContain("wins");
    expect(buttons(root, "New deal")).toHaveLength(0);
    expect(buttons(root, "Same deal again")).toHaveLength(0);
    expect(byKey(root, "new-game-new")).toBeNull();
    expect(byKey(root, "play")).toBeNull();
    // The same frame with a local screen's offer would show them: the offer is what the view leaves out.
    const { root: local } = open(tableState({ offers: { new_game: { reason: null, deals: ["new", "same"] } } }));
    expect(buttons(local, "New deal")).toHaveLength(1);
  });

  it("names the table and both seats", () => {
    const { root } = open(tableState());
    expect(byKey(root, "follow-status").textContent).toContain("Ann (Player 1) against Bob (Player 2)");
    expect(byKey(root, "follow").textContent).toContain("Table 1 · room monday");
    expect(root.textContent).toContain("Player 1 (Ann)");
    expect(root.textContent).toContain("Player 2 (Bob)");
  });

  it("says in its own words why Back to live is disabled, and goes back to live when it looks elsewhere", () => {
    const { root, model } = open(tableState());
    const back = button(root, "Back to live");
    expect(back.disabled).toBe(true);
    expect(root.querySelector(`#${back.getAttribute("aria-describedby")}`).textContent).toBe("You are watching table 1 live");
    expect(liveReason({ status: "live", can_live: false })).toBe("You are following the teacher live");
    const { root: looking, model: lookingModel } = open(tableState({
      step: 4, follow: tableFollow({ status: "looking", can_live: true }),
    }));
    click(button(looking, "Back to live"));
    expect(lookingModel.sent).toEqual([{ kind: "live" }]);
    expect(model.sent).toEqual([]);
  });
});
