import { describe, expect, it } from "vitest";
import { button, buttons, click, flush, mountsCleanedAfterEach, stateFrom } from "./helpers.js";
import { BRANCH_HOTSEAT, BRANCH_INFO, OFFERS_LIVE, OFFERS_PLAYER, OFFERS_SPECTATOR, OFFERS_TEACHER, THOUGHT } from "./whatif_fixtures.js";
import { branchChoice, renderToolbar } from "../src/whatif.js";
import { initialUi } from "../src/ui.js";

const open = mountsCleanedAfterEach();

const replay = (overrides = {}) =>
  stateFrom("over_teacher", { mode: "replay", step: 12, offers: OFFERS_TEACHER, branch_info: null, worlds: null, graph: null, ...overrides });

const byKey = (root, key) => root.querySelector(`[data-key="${key}"]`);

function change(el, value) {
  el.value = value;
  el.dispatchEvent(new Event("change", { bubbles: true }));
}

describe("the what-if toolbar", () => {
  it("offers Possible worlds, Graph and Play from here… as toggles below the main area", () => {
    const { root } = open(replay());
    const bar = root.querySelector(".nw-analysis .nw-toolbar");
    expect(bar.getAttribute("aria-label")).toBe("What if");
    expect(root.querySelector(".nw-main .nw-toolbar")).toBeNull();
    for (const name of ["Possible worlds", "Graph", "Play from here…"]) {
      expect(button(root, name).getAttribute("aria-pressed")).toBe("false");
      expect(button(root, name).disabled).toBe(false);
    }
  });

  it("shows nothing when Python offers nothing", () => {
    const { root } = open(replay({ offers: {} }));
    expect(root.querySelector(".nw-analysis")).toBeNull();
    expect(renderToolbar({ offers: {} }, initialUi())).toBeNull();
  });

  it("the toggles send worlds / graph requests, open and closed", () => {
    const { root, model } = open(replay());
    click(button(root, "Possible worlds"));
    click(button(root, "Graph"));
    expect(model.sent).toEqual([
      { kind: "worlds", open: true, seat: null, model: null },
      { kind: "graph", open: true, seat: null, model: null },
    ]);
  });

  it("a pressed toggle closes its panel", async () => {
    const { root, model } = open(replay());
    model.update({ graph: { status: "computing", seat: 0, model: "random", n: 100, done: 0, total: 61, steps: 60, needle: null, points: [], markers: [] } });
    await flush();
    const graph = button(root, "Graph");
    expect(graph.getAttribute("aria-pressed")).toBe("true");
    click(graph);
    expect(model.sent).toEqual([{ kind: "graph", open: false, seat: null, model: null }]);
  });

  it("a closed offer is disabled with its reason as visible text", () => {
    const { root, model } = open(replay({ offers: OFFERS_SPECTATOR, perspective: "spectator" }));
    const graph = button(root, "Graph");
    expect(graph.disabled).toBe(true);
    const reason = root.querySelector(`#${graph.getAttribute("aria-describedby")}`);
    expect(reason.textContent).toBe(OFFERS_SPECTATOR.graph.reason);
    expect(root.querySelector(".nw-toolbar").textContent).toContain("This screen may not play a seat");
    expect(button(root, "Play from here…").disabled).toBe(true);
    click(graph);
    click(button(root, "Play from here…"));
    expect(model.sent).toEqual([]);
    expect(root.querySelector(".nw-branch-form")).toBeNull();
  });

  it("keeps its toggles together in one row, with the reasons under it (a long one never splits the row)", () => {
    const { root } = open(replay({ offers: OFFERS_SPECTATOR, perspective: "spectator" }));
    const bar = root.querySelector(".nw-toolbar");
    const row = bar.firstElementChild;
    expect(Array.from(row.children).map((b) => b.textContent)).toEqual(["Possible worlds", "Graph", "Play from here…"]);
    expect(Array.from(row.children).every((b) => b.tagName === "BUTTON")).toBe(true);
    const lines = Array.from(bar.querySelectorAll(".nw-tool-reasons > li")).map((li) => li.textContent);
    expect(lines).toEqual([
      `Graph: ${OFFERS_SPECTATOR.graph.reason}`, `Play from here: ${OFFERS_SPECTATOR.branch.reason}`,
    ]);
    // The description is the reason alone, not the tool's name before it.
    expect(root.querySelector(`#${button(root, "Graph").getAttribute("aria-describedby")}`).textContent)
      .toBe(OFFERS_SPECTATOR.graph.reason);
    expect(row.contains(bar.querySelector(".nw-tool-reasons"))).toBe(false);
  });

  it("a live game's Play from here says when it opens", () => {
    const { root } = open(replay({ mode: "play", offers: OFFERS_LIVE }));
    expect(button(root, "Play from here…").disabled).toBe(true);
    expect(root.textContent).toContain("Play from here opens once the round is over");
  });
});

describe("the branch form", () => {
  it("opens with the perspective's seat, the first opponent and the real cards", () => {
    const { root, model } = open(replay());
    click(button(root, "Play from here…"));
    expect(button(root, "Play from here…").getAttribute("aria-pressed")).toBe("true");
    const form = root.querySelector(".nw-branch-form");
    expect(form.getAttribute("aria-label")).toBe("Play from here");
    expect(form.textContent).toContain("Play on from step 12");
    expect(byKey(root, "branch-seat").value).toBe("0");
    expect(byKey(root, "branch-opponent").value).toBe("greedy");
    expect(byKey(root, "branch-world-real").checked).toBe(true);
    expect(byKey(root, "branch-seat").closest("label").textContent).toContain("Play as");
    expect(byKey(root, "branch-opponent").closest("label").textContent).toContain("Against");
    expect(Array.from(form.querySelectorAll("option")).map((o) => o.textContent)).toContain("Two people (hotseat)");
    click(button(root, "Play from step 12"));
    expect(model.sent).toEqual([{ kind: "branch", seat: 0, opponent: "greedy", world: "real" }]);
  });

  it("keeps the choices locally until Play", () => {
    const { root, model } = open(replay());
    click(button(root, "Play from here…"));
    change(byKey(root, "branch-seat"), "1");
    change(byKey(root, "branch-opponent"), "hotseat");
    const sampled = byKey(root, "branch-world-sampled");
    sampled.checked = true;
    sampled.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.sent).toEqual([]);
    expect(byKey(root, "branch-seat").value).toBe("1");
    expect(root.querySelector(".nw-branch-form").textContent).toContain("The cards Player 2 cannot see are dealt anew");
    click(button(root, "Play from step 12"));
    expect(model.sent).toEqual([{ kind: "branch", seat: 1, opponent: "hotseat", world: "sampled" }]);
  });

  it("a player may branch only its own seat in a possible world", () => {
    const { root, model } = open(replay({ perspective: 0, offers: OFFERS_PLAYER }));
    click(button(root, "Play from here…"));
    expect(byKey(root, "branch-world-real")).toBeNull();
    expect(byKey(root, "branch-world-sampled").checked).toBe(true);
    click(button(root, "Play from step 12"));
    expect(model.sent).toEqual([{ kind: "branch", seat: 0, opponent: "greedy", world: "sampled" }]);
  });

  it("Cancel closes the form; a branch opening closes it too", async () => {
    const { root, model } = open(replay());
    click(button(root, "Play from here…"));
    click(button(root, "Cancel"));
    expect(root.querySelector(".nw-branch-form")).toBeNull();
    click(button(root, "Play from here…"));
    click(button(root, "Play from step 12"));
    model.update({ branch_info: BRANCH_INFO, mode: "play" });
    await flush();
    expect(root.querySelector(".nw-branch-form")).toBeNull();
  });

  it("branchChoice falls back to what is offered", () => {
    const ui = { ...initialUi(), branch: { open: true, seat: 1, opponent: "nobody", world: "real" } };
    expect(branchChoice({ perspective: 0, offers: OFFERS_PLAYER }, ui)).toEqual({ seat: 0, opponent: "greedy", world: "sampled" });
  });
});

describe("the branch banner", () => {
  it("names where the branch comes from and goes back", () => {
    const { root, model } = open(replay({ mode: "play", branch_info: BRANCH_INFO }));
    const banner = root.querySelector(".nw-board > .nw-branch-banner");
    expect(banner.textContent).toContain("Branch from step 34 of seed 4: the real cards");
    expect(banner.textContent).toContain("Player 1 plays against GreedyBot.");
    click(button(root, "Back to the replay"));
    expect(model.sent).toEqual([{ kind: "back" }]);
  });

  it("uses Python's words for the way back, and says who plays a hotseat branch", () => {
    const { root } = open(replay({ mode: "hotseat", branch_info: BRANCH_HOTSEAT }));
    expect(buttons(root, "Back to the game")).toHaveLength(1);
    expect(root.querySelector(".nw-branch-banner").textContent).toContain("Two people play at this screen.");
  });

  it("is absent outside a branch", () => {
    const { root } = open(replay());
    expect(root.querySelector(".nw-branch-banner")).toBeNull();
  });
});

describe("a SearchBot's thought", () => {
  it("lists the moves it weighed with value and games, the chosen one marked", () => {
    const { root } = open(replay({ bots: [{ player: 1, text: "I discarded 7♥.", thought: THOUGHT }] }));
    const table = root.querySelector(".nw-bots .nw-thought table");
    expect(table.querySelector("caption").textContent).toBe("Moves weighed over 16 worlds (96 games; 5 legal moves)");
    const rows = Array.from(table.querySelectorAll("tbody tr"));
    expect(rows).toHaveLength(3);
    expect(rows[0].classList.contains("nw-chosen")).toBe(true);
    expect(rows[0].textContent).toContain("(chosen)");
    expect(rows[0].textContent).toContain("56%");
    expect(rows[1].textContent).toBe("Discard K♣50%16");
  });

  it("says when GreedyBot's move was kept, and shows nothing without a thought", () => {
    const { root } = open(replay({ bots: [{ player: 1, text: "Hi.", thought: { ...THOUGHT, kept: true } }, { player: 0, text: "Yo.", thought: null }] }));
    expect(root.querySelectorAll(".nw-thought")).toHaveLength(1);
    expect(root.textContent).toContain("Kept GreedyBot's move");
  });
});

describe("focus when a form or panel closes", () => {
  it("Cancel hands the focus back to Play from here…", () => {
    const { root } = open(replay());
    click(button(root, "Play from here…"));
    const cancel = button(root, "Cancel");
    cancel.focus();
    click(cancel);
    expect(document.activeElement).toBe(button(root, "Play from here…"));
  });

  it("a branch opening moves the focus from Play to the way back", async () => {
    const { root, model } = open(replay());
    click(button(root, "Play from here…"));
    const play = button(root, "Play from step 12");
    play.focus();
    click(play);
    const offers = { ...OFFERS_TEACHER, branch: { ...OFFERS_TEACHER.branch, reason: "This is a branch" } };
    model.answer({ branch_info: BRANCH_INFO, mode: "play", offers });
    await flush();
    expect(document.activeElement).toBe(button(root, "Back to the replay"));
  });

  it("closing the graph from inside it focuses the Graph toggle", async () => {
    const graph = { status: "ready", seat: 0, model: "random", n: 100, done: 1, total: 1, steps: 60, needle: null, points: [], markers: [] };
    const { root, model } = open(replay({ graph }));
    byKey(root, "graph-box").focus();
    model.update({ graph: null });
    await flush();
    expect(document.activeElement).toBe(button(root, "Graph"));
  });
});
