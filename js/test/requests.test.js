import { describe, expect, it } from "vitest";
import { FIXTURES, button, click, spokenText, flush, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const LAST = FIXTURES.over_0.events.length;

const open = mountsCleanedAfterEach();

const handCard = (root, code) => root.querySelector(`.nw-zone-bottom .nw-hand button[data-card="${code}"]`);

describe("play requests", () => {
  it("the needle picker sends choose_needle", () => {
    const { root, model } = open("needle_p1");
    click(button(root, "7 of hearts"));
    expect(model.sent).toEqual([{ kind: "act", action: { type: "choose_needle", card: "7H" } }]);
    click(button(root, "ace of clubs, in your hand")); // disabled: own hand
    expect(model.sent).toHaveLength(1);
  });

  it("Draw from pile and Steal from opponent send their actions", () => {
    const { root, model } = open("draw_p1");
    click(button(root, "Draw from pile"));
    click(button(root, "Steal from opponent"));
    expect(model.sent).toEqual([
      { kind: "act", action: { type: "draw_pile" } },
      { kind: "act", action: { type: "steal" } },
    ]);
  });

  it("clicking a card then Discard sends the discard", () => {
    const { root, model } = open("discard_p1");
    const card = FIXTURES.discard_p1.table.legal_actions.find((a) => a.type === "discard").card;
    click(handCard(root, card));
    expect(handCard(root, card).getAttribute("aria-pressed")).toBe("true");
    const discard = button(root, "Discard");
    expect(discard.disabled).toBe(false);
    click(discard);
    expect(model.sent).toEqual([{ kind: "act", action: { type: "discard", card } }]);
  });

  it("selecting another card for the discard replaces the first", () => {
    const { root } = open("discard_p1");
    const [a, b] = FIXTURES.discard_p1.table.players[0].hand;
    click(handCard(root, a));
    click(handCard(root, b));
    expect(handCard(root, a).getAttribute("aria-pressed")).toBe("false");
    expect(handCard(root, b).getAttribute("aria-pressed")).toBe("true");
    click(handCard(root, b));
    expect(handCard(root, b).getAttribute("aria-pressed")).toBe("false");
  });

  it("three cards then Lay set sends the lay_set action, with its points shown first", () => {
    const { root, model } = open("sets_with_set_p1");
    const lay = FIXTURES.sets_with_set_p1.table.legal_actions.find((a) => a.type === "lay_set");
    expect(button(root, "Lay set").disabled).toBe(true);
    for (const code of [...lay.cards].reverse()) click(handCard(root, code));
    const btn = button(root, "Lay set");
    expect(btn.disabled).toBe(false);
    expect(spokenText(btn)).toBe(`Lay set · ${lay.points} point`);
    expect(btn.querySelector("kbd").textContent).toBe("L");
    expect(btn.getAttribute("aria-keyshortcuts")).toBe("L");
    expect(btn.getAttribute("aria-label")).toBe("Lay set");
    click(btn);
    expect(model.sent).toEqual([{ kind: "act", action: { type: "lay_set", cards: lay.cards } }]);
  });

  it("three cards that are no legal set leave Lay set disabled", () => {
    const { root, model } = open("sets_with_set_p1");
    for (const code of ["2D", "2S", "4C"]) click(handCard(root, code));
    const btn = button(root, "Lay set");
    expect(btn.disabled).toBe(true);
    expect(root.querySelector(`#${btn.getAttribute("aria-describedby")}`).textContent).toBe(
      "These three cards are not a set",
    );
    click(btn);
    expect(model.sent).toEqual([]);
  });

  it("a fourth card replaces the oldest of three", () => {
    const { root } = open("sets_with_set_p1");
    for (const code of ["2D", "10H", "JD", "QD"]) click(handCard(root, code));
    expect(handCard(root, "2D").getAttribute("aria-pressed")).toBe("false");
    expect(button(root, "Lay set").disabled).toBe(false);
  });

  it("Done laying sets sends end_sets", () => {
    const { root, model } = open("sets_p1");
    click(button(root, "Done laying sets"));
    expect(model.sent).toEqual([{ kind: "act", action: { type: "end_sets" } }]);
  });

  it("the selection is cleared when the step changes", async () => {
    const { root, model } = open("discard_p1");
    const card = FIXTURES.discard_p1.table.players[0].hand[0];
    click(handCard(root, card));
    expect(handCard(root, card).getAttribute("aria-pressed")).toBe("true");
    model.update({ step: 3 });
    await flush();
    expect(handCard(root, card).getAttribute("aria-pressed")).toBe("false");
    expect(button(root, "Discard").disabled).toBe(true);
  });

  it("the teacher may act for the player to move when Python allows it", () => {
    const { root, model } = open("draw_teacher", { can_act: true });
    click(button(root, "Draw from pile"));
    expect(model.sent).toEqual([{ kind: "act", action: { type: "draw_pile" } }]);
  });

  it("sends nothing to act when can_act is false", () => {
    const { root } = open("draw_p1", { can_act: false });
    expect(root.querySelector('button[data-request*="draw_pile"]')).toBeNull();
  });
});

describe("replay requests", () => {
  const state = () => stateFrom("over_0", { mode: "replay", step: 12 });

  it("first, previous, next and last send steps", () => {
    const { root, model } = open(state());
    click(button(root, "First step"));
    click(button(root, "Previous step"));
    click(button(root, "Next step"));
    click(button(root, "Last step"));
    expect(model.sent).toEqual([
      { kind: "step", to: 0 },
      { kind: "step", to: 11 },
      { kind: "step", to: 13 },
      { kind: "step", to: LAST },
    ]);
  });

  it("disables first/previous at step 0 and next/last at the end", () => {
    const { root } = open(stateFrom("over_0", { mode: "replay", step: 0 }));
    expect(button(root, "First step").disabled).toBe(true);
    expect(button(root, "Previous step").disabled).toBe(true);
    expect(button(root, "Next step").disabled).toBe(false);
    const end = open(stateFrom("over_0", { mode: "replay" })).root;
    expect(button(end, "Next step").disabled).toBe(true);
    expect(button(end, "Last step").disabled).toBe(true);
  });

  it("the slider sends a step", () => {
    const { root, model } = open(state());
    const slider = root.querySelector('input[type="range"]');
    expect(slider.getAttribute("aria-label")).toBe("Step");
    expect(slider.value).toBe("12");
    expect(slider.max).toBe(String(LAST));
    slider.value = "20";
    slider.dispatchEvent(new Event("input", { bubbles: true }));
    slider.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.sent).toEqual([{ kind: "step", to: 20 }]);
  });

  it("clicking an event jumps to its step; the current one is marked", () => {
    const { root, model } = open(state());
    const current = root.querySelectorAll('.nw-events [aria-current="step"]');
    expect(current).toHaveLength(1);
    expect(current[0].textContent).toContain(FIXTURES.over_0.events[11].text);
    const items = root.querySelectorAll(".nw-events button");
    expect(items).toHaveLength(LAST + 1); // start + every event
    click(items[5].querySelector(".nw-ev-text"));
    expect(model.sent).toEqual([{ kind: "step", to: 5 }]);
  });

  it("the live line reads out the current step", () => {
    const { root } = open(state());
    expect(root.querySelector('.nw-live').textContent).toBe(
      `Step 12 of ${LAST}: ${FIXTURES.over_0.events[11].text}`,
    );
  });

  it("play/pause toggles autoplay with the speed; the speed select changes it", async () => {
    const { root, model } = open(state());
    click(button(root, "Play"));
    expect(model.sent).toEqual([{ kind: "autoplay", playing: true, speed: 1 }]);
    model.update({ playing: true });
    await flush();
    click(button(root, "Pause"));
    const select = root.querySelector("select.nw-speed");
    select.value = "4";
    select.dispatchEvent(new Event("change", { bubbles: true }));
    expect(model.sent.slice(1)).toEqual([
      { kind: "autoplay", playing: false, speed: 1 },
      { kind: "autoplay", playing: true, speed: 4 },
    ]);
  });

  it("the perspective switch sends a perspective request", () => {
    const { root, model } = open(state());
    click(button(root, "Teacher"));
    click(button(root, "Spectator"));
    click(button(root, "Player 1")); // already shown: nothing to send
    expect(model.sent).toEqual([
      { kind: "perspective", to: "teacher" },
      { kind: "perspective", to: "spectator" },
    ]);
  });

  it("the hotseat cover hides the table and sends reveal", () => {
    const { root, model } = open("draw_p1", { mode: "hotseat", cover: { player: 1, text: "Pass to Player 2" } });
    expect(root.querySelector(".nw-table")).toBeNull();
    expect(root.querySelector(".nw-info")).toBeNull();
    expect(root.querySelector(".nw-events")).toBeNull();
    expect(root.querySelectorAll(".nw-face")).toHaveLength(0);
    expect(root.textContent).toContain("Pass to Player 2");
    click(button(root, "I am Player 2: show my hand"));
    expect(model.sent).toEqual([{ kind: "reveal" }]);
  });

  it("the discard history toggle lists every discard, bottom first", () => {
    const { root, model } = open("over_0");
    click(button(root, "Show all discards"));
    const toggle = button(root, "Hide discards");
    expect(toggle.getAttribute("aria-expanded")).toBe("true");
    const codes = Array.from(root.querySelectorAll(".nw-discard-list [data-card]")).map((c) => c.dataset.card);
    expect(codes).toEqual(FIXTURES.over_0.table.discard_pile);
    expect(model.sent).toEqual([]);
  });

  it("an error can be dismissed and a new one shows again", async () => {
    const { root, model } = open("draw_p1", { error: { id: 1, text: "No." } });
    click(button(root, "Dismiss error"));
    expect(root.querySelector('[role="alert"]')).toBeNull();
    model.update({ error: { id: 2, text: "No again." } });
    await flush();
    expect(root.querySelector('[role="alert"]').textContent).toContain("No again.");
  });
});
