import { describe, expect, it } from "vitest";
import { FIXTURES, FIXTURE_NAMES, MODES, buttons, button, mountsCleanedAfterEach, stateFrom } from "./helpers.js";

const open = mountsCleanedAfterEach();

describe("every fixture renders", () => {
  for (const name of FIXTURE_NAMES) {
    for (const mode of MODES) {
      it(`${name} in ${mode} mode`, () => {
        const { root } = open(name, { mode });
        expect(root.getAttribute("data-lm-suppress-shortcuts")).not.toBeNull();
        expect(root.getAttribute("tabindex")).toBe("0");
        expect(root.querySelector(".nw-table")).not.toBeNull();
        expect(root.querySelector(".nw-live").textContent).toMatch(/^Step \d+ of \d+: /);
        // every button has an accessible name
        for (const b of root.querySelectorAll("button")) {
          expect((b.getAttribute("aria-label") || b.textContent).trim()).not.toBe("");
        }
      });
    }
  }
});

describe("controls by phase and perspective", () => {
  it("needle_p1 offers the 52-card picker with the own hand disabled", () => {
    const { root } = open("needle_p1");
    const picker = root.querySelector(".nw-picker");
    const cards = picker.querySelectorAll("button.nw-card");
    expect(cards.length).toBe(52);
    const hand = FIXTURES.needle_p1.table.players[0].hand;
    // A card of the hand may not be picked, and is still a cell of the grid that the arrows reach and read.
    for (const b of cards) {
      const code = b.getAttribute("data-card");
      expect(b.getAttribute("aria-disabled") === "true").toBe(hand.includes(code));
      expect(b.hasAttribute("data-request")).toBe(!hand.includes(code));
      expect(b.disabled).toBe(false);
    }
    expect(picker.getAttribute("role")).toBe("grid");
    expect(picker.querySelectorAll('[role="row"]').length).toBe(4);
    expect(picker.querySelectorAll('[role="gridcell"] > button').length).toBe(52);
    expect(Array.from(cards).filter((b) => b.getAttribute("tabindex") === "0").map((b) => b.getAttribute("data-card")))
      .toEqual([["AC", "2C", "3C"].find((c) => !hand.includes(c))]);
    expect(button(root, "7 of hearts").getAttribute("aria-disabled")).toBeNull();
    expect(button(root, "ace of clubs, in your hand").getAttribute("aria-disabled")).toBe("true");
  });

  it("needle_spectator shows no controls and both needles as not picked", () => {
    const { root } = open("needle_spectator");
    expect(root.querySelector(".nw-picker")).toBeNull();
    expect(root.querySelectorAll('[aria-label$="has not picked a needle yet"]').length).toBe(2);
  });

  it("draw_p1 has enabled Draw from pile and Steal from opponent", () => {
    const { root } = open("draw_p1");
    expect(button(root, "Draw from pile").disabled).toBe(false);
    expect(button(root, "Steal from opponent").disabled).toBe(false);
    expect(root.textContent).toContain("Steal available");
  });

  it("draw_p2_waiting has no play controls", () => {
    const { root } = open("draw_p2_waiting");
    expect(buttons(root, "Draw from pile")).toHaveLength(0);
    expect(buttons(root, "Steal from opponent")).toHaveLength(0);
    expect(root.querySelector(".nw-waiting").textContent).toContain("Waiting for Player 1");
  });

  it("disables a steal that is not legal, with the reason", () => {
    const state = stateFrom("draw_p1");
    state.table.legal_actions = state.table.legal_actions.filter((a) => a.type !== "steal");
    Object.assign(state.table.players[0], { may_steal: false, next_steal_turn: 9 });
    state.table.refusals = { draw_pile: null, steal: "Next steal on turn 9" }; // Python's reason
    const { root } = open(state);
    const steal = button(root, "Steal from opponent");
    expect(steal.disabled).toBe(true);
    const reason = root.querySelector(`#${steal.getAttribute("aria-describedby")}`);
    expect(reason.textContent).toBe("Next steal on turn 9");
    expect(root.textContent).toContain("Next steal on turn 9");
  });

  it("draw_teacher shows both hands, both needles and the next cards of the pile", () => {
    const { root } = open("draw_teacher");
    const t = FIXTURES.draw_teacher.table;
    for (const code of [...t.players[0].hand, ...t.players[1].hand]) {
      expect(root.querySelector(`.nw-hand [data-card="${code}"]`)).not.toBeNull();
    }
    expect(root.querySelector('.nw-needle-box [data-card="7H"]')).not.toBeNull();
    expect(root.querySelector('.nw-needle-box [data-card="QS"]')).not.toBeNull();
    expect(root.querySelector(".nw-pile-top").textContent).toContain("Next cards of the draw pile");
    expect(root.querySelectorAll(".nw-pile-top .nw-card")).toHaveLength(5);
    expect(root.textContent).toContain("card 22 of 38 from the top");
    expect(root.querySelectorAll(".nw-knows table.nw-heat")).toHaveLength(2);
  });

  it("sets_p1 has Done laying sets and a disabled Lay set", () => {
    const { root } = open("sets_p1");
    expect(button(root, "Done laying sets").disabled).toBe(false);
    expect(button(root, "Lay set").disabled).toBe(true);
    const hand = root.querySelectorAll(".nw-zone-bottom .nw-hand button[aria-pressed]");
    expect(hand.length).toBe(FIXTURES.sets_p1.table.players[0].hand.length);
  });

  it("discard_p1 has a disabled Discard until a card is selected", () => {
    const { root } = open("discard_p1");
    expect(button(root, "Discard").disabled).toBe(true);
  });

  it("discard_spectator shows hidden hands as backs only", () => {
    const { root } = open("discard_spectator");
    expect(root.querySelectorAll(".nw-hand .nw-face")).toHaveLength(0);
    const t = FIXTURES.discard_spectator.table;
    expect(root.querySelectorAll(".nw-hand .nw-back")).toHaveLength(t.players[0].hand_size + t.players[1].hand_size);
    expect(root.querySelectorAll('[aria-label$="needle: hidden"]')).toHaveLength(2);
  });

  for (const name of ["over_0", "over_1", "over_spectator", "over_teacher"]) {
    it(`${name} shows the end banner with the result`, () => {
      const { root } = open(name);
      const bannerEl = root.querySelector(".nw-banner");
      expect(bannerEl.textContent).toContain(FIXTURES[name].table.result.text);
      expect(bannerEl.textContent).toContain("Player 1 (You) wins");
      expect(root.querySelector(".nw-controls:not(.nw-waiting)")).toBeNull();
      // both needles are shown at the end
      for (const player of FIXTURES[name].table.players) {
        expect(root.querySelector(`.nw-needle-box [data-card="${player.needle}"]`)).not.toBeNull();
      }
    });
  }

  it("over_0 shows sets with point badges and the discard history toggle", () => {
    const { root } = open("over_0");
    const badges = Array.from(root.querySelectorAll(".nw-badge")).map((b) => b.textContent).sort();
    const sets = FIXTURES.over_0.table.players.flatMap((p) => p.sets);
    expect(badges).toEqual(sets.map((s) => (s.points === 1 ? "1 point" : "2 points")).sort());
    const toggle = button(root, "Show all discards");
    expect(toggle.getAttribute("aria-expanded")).toBe("false");
  });

  it("shows the opponent's needle as ? while hidden, and the own needle face up", () => {
    const { root } = open("draw_p1");
    const top = root.querySelector(".nw-zone-top .nw-needle-box");
    expect(top.querySelector(".nw-question").textContent).toBe("?");
    expect(top.querySelector(".nw-face")).toBeNull();
    const bottom = root.querySelector(".nw-zone-bottom .nw-needle-box");
    expect(bottom.querySelector('[data-card="7H"]')).not.toBeNull();
    expect(bottom.textContent).toContain("Your needle");
  });

  it("puts Player 2 at the bottom for Player 2's perspective", () => {
    const { root } = open("draw_p2_waiting");
    expect(root.querySelector(".nw-zone-bottom .nw-name").textContent).toBe("Player 2 (greedy)");
    expect(root.querySelector(".nw-zone-top .nw-name").textContent).toBe("Player 1 (You)");
  });

  it("shows known opponent cards face up and the rest as backs", () => {
    const state = stateFrom("draw_p1");
    state.table.known_opponent_cards = ["9C"];
    const { root } = open(state);
    const hand = root.querySelector(".nw-zone-top .nw-hand");
    expect(hand.querySelectorAll(".nw-face")).toHaveLength(1);
    expect(hand.querySelector('[data-card="9C"]').getAttribute("aria-label")).toBe("9 of clubs, known to you");
    expect(hand.querySelectorAll(".nw-back")).toHaveLength(6);
  });
});

describe("hidden cards are never rendered as faces", () => {
  it("a table with both hands null shows backs only", () => {
    const state = stateFrom("draw_teacher", { perspective: "spectator", info: { kind: "spectator" }, can_act: false });
    for (const p of state.table.players) {
      p.hand = null;
      p.needle = null;
    }
    state.table.legal_actions = [];
    delete state.table.draw_pile;
    const { root } = open(state);
    const secret = [...FIXTURES.draw_teacher.table.players.flatMap((p) => [...p.hand, p.needle]),
      ...FIXTURES.draw_teacher.table.draw_pile];
    for (const code of secret) expect(root.querySelector(`[data-card="${code}"]`)).toBeNull();
    expect(root.querySelectorAll(".nw-face")).toHaveLength(0);
    expect(root.querySelectorAll('.nw-hand [aria-label="face-down card"]')).toHaveLength(14);
  });

  it("a player's view shows no face of the opponent's hand or needle", () => {
    for (const name of ["draw_p1", "sets_p1", "discard_p1", "draw_p2_waiting"]) {
      const { root } = open(name);
      const top = root.querySelector(".nw-zone-top");
      expect(top.querySelectorAll(".nw-face")).toHaveLength(0);
    }
  });
});

describe("info panel", () => {
  it("draws an accessible 4x13 heat map with each probability as text", () => {
    const { root } = open("draw_p1");
    const table = root.querySelector("table.nw-heat");
    expect(table.querySelector("caption").textContent).toBe("Where Player 2's needle may be");
    expect(table.querySelectorAll('thead th[scope="col"]')).toHaveLength(13);
    expect(table.querySelectorAll('tbody th[scope="row"]')).toHaveLength(4);
    const cells = table.querySelectorAll("td.nw-heat-cell");
    expect(cells).toHaveLength(52);
    expect(cells[0].querySelector(".nw-sr").textContent).toBe("2.2%");
    expect(cells[1].querySelector(".nw-sr").textContent).toBe("1.9%");
    const text = root.querySelector(".nw-info").textContent;
    expect(text).toContain("Chance the opponent's needle is in your hand");
    expect(text).toContain("16%");
    expect(text).toContain("In the pile84%");
    expect(text).toContain("Next draw finds it2.2%");
  });

  it("shows the bots' reasons", () => {
    const { root } = open("draw_p1", { bots: [{ player: 1, name: "greedy", text: "I drew because my hand has no set." }] });
    expect(root.querySelector(".nw-bots").textContent).toBe("Player 2 (greedy): I drew because my hand has no set.");
  });

  it("shows the error line as an alert", () => {
    const text = "Steal not allowed: Player 1 stole on turn 1; next steal on turn 7";
    const { root } = open("draw_p1", { error: { id: 3, text } });
    const alert = root.querySelector('[role="alert"]');
    expect(alert.textContent).toContain(text);
  });
});

describe("perspective switcher", () => {
  it("disables the perspectives not allowed now", () => {
    const { root } = open("draw_p1", { perspectives: [0, "spectator"], hidden_reason: "Hidden while the round is live" });
    const p1 = button(root, "Player 1");
    expect(p1.getAttribute("aria-pressed")).toBe("true");
    const p2 = button(root, "Player 2");
    expect(p2.disabled).toBe(true);
    expect(p2.title).toBe("Hidden while the round is live");
    expect(button(root, "Teacher").disabled).toBe(true);
    expect(button(root, "Spectator").disabled).toBe(false);
  });
});

describe("scale", () => {
  it("sets --nw-scale on the root", () => {
    const { root } = open("draw_p1", { scale: 1.5 });
    expect(root.style.getPropertyValue("--nw-scale")).toBe("1.5");
  });
});

describe("Python's reasons on disabled controls", () => {
  const description = (root, el) => root.querySelector(`#${el.getAttribute("aria-describedby")}`).textContent;

  it("a refused Steal carries Python's reason as its description and tooltip", () => {
    const { root } = open("draw_p1_no_steal");
    const why = FIXTURES.draw_p1_no_steal.table.refusals.steal;
    expect(why).toBe("Steal not allowed: Player 1 stole on turn 1; next steal on turn 7");
    const steal = button(root, "Steal from opponent");
    expect(steal.disabled).toBe(true);
    expect(description(root, steal)).toBe(why);
    expect(steal.title).toBe(why);
    const draw = button(root, "Draw from pile");
    expect(draw.disabled).toBe(false);
    expect(draw.hasAttribute("aria-describedby") || draw.hasAttribute("title")).toBe(false);
  });

  it("a disabled control without Python's reason gets no made-up one", () => {
    const state = stateFrom("draw_p1");
    state.table.legal_actions = state.table.legal_actions.filter((a) => a.type !== "steal");
    const { root } = open(state); // refusals say steal: null, e.g. an older Python
    const steal = button(root, "Steal from opponent");
    expect(steal.disabled).toBe(true);
    expect(steal.hasAttribute("aria-describedby")).toBe(false);
    expect(root.querySelector(".nw-controls").textContent).not.toMatch(/Not allowed now|Nothing left to draw/);
  });

  it("the waiting line says Python's act_reason", () => {
    const reason = "It is Player 1's move, not yours";
    const { root } = open("draw_p2_waiting", { act_reason: reason });
    expect(root.querySelector(".nw-waiting").textContent).toBe(reason);
    const past = open("draw_p1", { can_act: false, act_reason: "Go to the latest step (12) to play", step: 1 });
    expect(past.root.querySelector(".nw-waiting").textContent).toBe("Go to the latest step (12) to play");
  });

  it("a bot thinking says so rather than the reason", () => {
    const { root } = open("draw_p2_waiting", { busy: true, act_reason: "It is Player 1's move: a bot plays that seat" });
    expect(root.querySelector(".nw-waiting").textContent).toBe("Player 1 (You) is thinking…");
  });

  it("closed perspectives carry hidden_reason as description and tooltip; open ones carry none", () => {
    const why = "Hidden on this screen, even after the round";
    const { root } = open("over_0", { perspectives: [0, "spectator"], hidden_reason: why });
    for (const name of ["Player 2", "Teacher"]) {
      const b = button(root, name);
      expect(b.disabled).toBe(true);
      expect(b.title).toBe(why);
      expect(description(root, b)).toBe(why);
    }
    expect(button(root, "Spectator").hasAttribute("aria-describedby")).toBe(false);
  });
});
