// The "what if" parts rendered from real synced states: whatif_states.json is written by Python
// (`python tests/js_fixtures.py`; tests/test_js.py checks it is current).

import { describe, expect, it } from "vitest";
import states from "./whatif_states.json";
import { renderApp } from "../src/app.js";
import { initialUi } from "../src/ui.js";

const render = (name, ui = initialUi()) => renderApp({ ...states[name], answer: null, error: null, scale: 1 }, ui);
const byKey = (node, key) => node.querySelector(`[data-key="${key}"]`);

describe("what if, from Python's own output", () => {
  it("shows the teacher the real world first, then the sampled ones, and the graph", () => {
    const s = states.worlds_graph_teacher;
    const app = render("worlds_graph_teacher");
    const rows = app.querySelectorAll(".nw-worlds tbody tr");
    expect(rows.length).toBe(s.worlds.rows.length);
    expect(rows[0].textContent).toContain("Real");
    expect(app.textContent).toContain(s.worlds.playout.text.split(";")[0].split(" (")[0]);
    // Python's reason "melded" is shown in the words used everywhere else.
    expect(app.querySelector(".nw-playout").textContent).not.toMatch(/meld/i);
    expect(app.querySelector(".nw-playout").textContent).toContain("a needle was laid in a set");
    expect(byKey(app, "graph-box").getAttribute("aria-valuenow")).toBe(String(s.step));
    expect(byKey(app, "graph-box").querySelector("svg")).not.toBeNull();
  });

  it("gives a player its own worlds and graph, and no real row", () => {
    const app = render("worlds_graph_0");
    expect(app.textContent).toContain("Possible worlds for Player 1");
    expect([...app.querySelectorAll(".nw-worlds tbody tr")].some((r) => r.textContent.includes("Real"))).toBe(false);
    expect(byKey(app, "graph-box")).not.toBeNull();
  });

  it("draws the spectator's worlds with both hands hidden, the model fixed, and no graph", () => {
    const app = render("worlds_graph_spectator");
    expect(app.textContent).toContain("Player 1's hand");
    expect(app.textContent).toContain("Player 2's hand");
    expect(byKey(app, "worlds-model").disabled).toBe(true);
    expect(byKey(app, "tool-graph").disabled).toBe(true);
    expect(app.textContent).toContain(states.worlds_graph_spectator.offers.graph.reason);
  });

  it("marks a branch and offers the way back", () => {
    const app = render("branch_player");
    expect(app.textContent).toContain(states.branch_player.branch_info.text);
    expect(byKey(app, "branch-back").textContent).toContain("Back to the replay");
  });

  it("shows what the searching bot thought beside its reason", () => {
    const app = render("search_thought_teacher");
    const thought = states.search_thought_teacher.bots.find((b) => b.thought).thought;
    expect(app.textContent).toContain(thought.values[0].action);
  });
});
