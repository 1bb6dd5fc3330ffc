import { describe, expect, it } from "vitest";
import { button, buttons, click, flush, mountsCleanedAfterEach } from "./helpers.js";

const open = mountsCleanedAfterEach();

const PAUSED = {
  player: 1,
  text: "OddsBot (Player 2) made an illegal move; the game is paused.",
  bots: ["greedy", "odds", "random"],
};

describe("a paused game (a bot failed)", () => {
  it("shows no banner while no bot has failed", () => {
    const { root } = open("draw_p2_waiting");
    expect(root.querySelector(".nw-paused")).toBeNull();
  });

  it("says which bot failed, as an alert, with a button per built-in bot", () => {
    const { root } = open("draw_p2_waiting", { paused: PAUSED });
    const banner = root.querySelector(".nw-paused");
    expect(banner.getAttribute("role")).toBe("alert");
    expect(banner.querySelector(".nw-paused-text").textContent).toBe(PAUSED.text);
    expect(buttons(root, "Go on with greedy")).toHaveLength(1);
    expect(banner.querySelector('[role="group"]').getAttribute("aria-label")).toBe(
      "Go on with another bot as Player 2",
    );
  });

  it("a button asks Python to resume with that bot", () => {
    const { root, model } = open("draw_p2_waiting", { paused: PAUSED });
    click(button(root, "Go on with random"));
    expect(model.sent).toEqual([{ kind: "resume", bot: "random" }]);
  });

  it("goes away when Python resumes", async () => {
    const { root, model } = open("draw_p2_waiting", { paused: PAUSED });
    model.update({ paused: null });
    await flush();
    expect(root.querySelector(".nw-paused")).toBeNull();
  });

  it("shows the text alone when no bots are offered", () => {
    const { root } = open("draw_p2_waiting", { paused: { ...PAUSED, bots: [] } });
    expect(root.querySelector(".nw-paused-text").textContent).toBe(PAUSED.text);
    expect(root.querySelectorAll(".nw-paused button")).toHaveLength(0);
  });
});
