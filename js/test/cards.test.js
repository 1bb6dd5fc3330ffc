import { describe, expect, it } from "vitest";
import { cardBack, cardFace, cardName, cardText, parseCode } from "../src/cards.js";
import { percent } from "../src/dom.js";

describe("cards", () => {
  it("names cards the way people say them", () => {
    expect(cardName("7H")).toBe("7 of hearts");
    expect(cardName("QS")).toBe("queen of spades");
    expect(cardName("AC")).toBe("ace of clubs");
    expect(cardName("10D")).toBe("10 of diamonds");
    expect(cardName("KH")).toBe("king of hearts");
    expect(cardName("JC")).toBe("jack of clubs");
  });

  it("parses codes and writes short text", () => {
    expect(parseCode("10S")).toEqual({ rank: "10", suit: "S" });
    expect(cardText("7H")).toBe("7♥");
    expect(cardText("10D")).toBe("10♦");
  });

  it("shows rank, suit symbol, suit shape and suit letter on a face", () => {
    for (const [code, symbol, letter] of [["7H", "♥", "H"], ["QS", "♠", "S"], ["AC", "♣", "C"], ["10D", "♦", "D"]]) {
      const el = cardFace(code);
      expect(el.getAttribute("aria-label")).toBe(cardName(code));
      expect(el.getAttribute("role")).toBe("img");
      expect(el.querySelector(".nw-rank").textContent).toBe(parseCode(code).rank);
      expect(el.querySelector(".nw-pip").textContent).toBe(symbol);
      expect(el.querySelector(".nw-letter").textContent).toBe(letter);
      expect(el.querySelector("svg path")).not.toBeNull();
      expect(el.classList.contains(`nw-suit-${letter}`)).toBe(true);
    }
  });

  it("draws the four suits with four different shapes", () => {
    const shapes = ["C", "D", "H", "S"].map((s) =>
      Array.from(cardFace(`5${s}`).querySelectorAll("path")).map((p) => p.getAttribute("d")).join("|"));
    expect(new Set(shapes).size).toBe(4);
  });

  it("makes a face a toggle button when asked", () => {
    const el = cardFace("7H", { button: { key: "hand-7H", ui: { ui: "select", card: "7H" }, pressed: true } });
    expect(el.tagName).toBe("BUTTON");
    expect(el.getAttribute("aria-pressed")).toBe("true");
    expect(el.getAttribute("aria-label")).toBe("7 of hearts");
    expect(JSON.parse(el.getAttribute("data-ui"))).toEqual({ ui: "select", card: "7H" });
  });

  it("labels a back as a face-down card and shows nothing of a face", () => {
    const el = cardBack();
    expect(el.getAttribute("aria-label")).toBe("face-down card");
    expect(el.textContent).toBe("");
  });

  it("formats probabilities", () => {
    expect(percent(0.8444)).toBe("84%");
    expect(percent(0.0222)).toBe("2.2%");
    expect(percent(0)).toBe("0%");
    expect(percent(1)).toBe("100%");
    expect(percent(null)).toBe("–");
  });
});
