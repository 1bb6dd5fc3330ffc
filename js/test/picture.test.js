import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { FIXTURES, button, click, fakeModel, flush, mountsCleanedAfterEach, stateFrom, synced } from "./helpers.js";
import { mount } from "../src/index.js";
import { backgroundOf, drawPicture, fixCopy, painter, pictureName, pngBlob, renderPictureControl } from "../src/picture.js";

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

// html-to-image's copy of the DOM and the canvas are the browser's (tests/browser); here they are
// stand-ins: `toSvg` copies the node as html-to-image does (an SVG around it), `toPng` is the canvas.
const toPng = vi.fn();
const copies = [];
painter.toSvg = async (node, options) => {
  copies.push({ node, options });
  const xhtml = new XMLSerializer().serializeToString(node.cloneNode(true));
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><foreignObject width="100%" height="100%">${xhtml}</foreignObject></svg>`;
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
};
painter.rasterize = (svgUrl, width, height, background) => toPng({ svgUrl, width, height, background });

const open = mountsCleanedAfterEach();
const replay = (over = {}) => stateFrom("over_0", { mode: "replay", step: 12, ...over });

describe("picture file names", () => {
  it("say the step and the perspective, nothing else", () => {
    expect(pictureName({ step: 12, perspective: 0 })).toBe("needle-step-12-player-1.png");
    expect(pictureName({ step: 3, perspective: 1 })).toBe("needle-step-3-player-2.png");
    expect(pictureName({ step: 0, perspective: "teacher" })).toBe("needle-step-0-teacher.png");
    expect(pictureName({ step: 7, perspective: "spectator", table: { players: ["QH"] } })).toBe("needle-step-7-spectator.png");
    expect(pictureName({ step: -1, perspective: "../x" })).toBe("needle-step-0-view.png");
  });

  it("a data URL becomes a PNG blob", () => {
    const blob = pngBlob(PNG);
    expect(blob.type).toBe("image/png");
    expect(blob.size).toBe(70);
  });

  it("the background is the theme's, never transparent", () => {
    const outer = document.createElement("div");
    outer.style.backgroundColor = "rgb(17, 17, 17)";
    const inner = document.createElement("div");
    outer.appendChild(inner);
    document.body.appendChild(outer);
    expect(backgroundOf(inner)).toBe("rgb(17, 17, 17)");
    outer.remove();
    expect(backgroundOf(document.createElement("div"))).toBe("#ffffff");
  });
});

describe("the copy drawn is the view shown", () => {
  it("a scrolled list shows where it is scrolled to, a row on one line stays on one line, the control goes", () => {
    const live = document.createElement("div");
    live.innerHTML = '<ol style="overflow-y: auto"><li>a</li><li>b</li></ol>'
      + '<div style="display: flex; flex-wrap: wrap"><span>1</span><span>2</span></div>'
      + '<span class="nw-picture"><button>Save picture</button></span>';
    document.body.appendChild(live);
    const list = live.querySelector("ol");
    Object.defineProperty(list, "scrollHeight", { value: 500 });
    Object.defineProperty(list, "clientHeight", { value: 100 });
    list.scrollTop = 120;
    const copy = live.cloneNode(true);
    fixCopy(live, copy);
    live.remove();
    expect(copy.querySelector("ol").style.overflow).toBe("hidden");
    expect(Array.from(copy.querySelectorAll("li"), (li) => li.style.translate)).toEqual(["0px -120px", "0px -120px"]);
    expect(copy.querySelector("div").style.flexWrap).toBe("nowrap");
    expect(copy.querySelector(".nw-picture")).toBeNull();
  });
});

describe("the Save picture button", () => {
  let clicks;
  beforeEach(() => {
    toPng.mockReset();
    clicks = [];
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function record() {
      clicks.push({ download: this.download, href: this.href });
    });
  });
  afterEach(() => vi.restoreAllMocks());

  it("is in the header, with an accessible name and a polite status", () => {
    const { root } = open(replay());
    const save = button(root, "Save picture");
    expect(save.closest(".nw-header")).not.toBeNull();
    expect(root.querySelector(".nw-picture-status").getAttribute("role")).toBe("status");
  });

  it("is not shown on the hotseat cover or while loading", () => {
    const control = renderPictureControl({ saving: true });
    expect(control.querySelector("button").getAttribute("aria-disabled")).toBe("true");
    expect(control.querySelector("button").disabled).toBe(false); // keeps the focus while drawing
    expect(control.querySelector('[role="status"]').textContent).toBe("Drawing the picture…");
    const { root } = open(replay({ cover: { player: 1, text: "Pass to Player 2" } }));
    expect(root.querySelector("[data-picture]")).toBeNull();
  });

  it("draws the root on the theme's background, says Saving… meanwhile, downloads needle-step-12-….png", async () => {
    let finish;
    toPng.mockImplementation(() => new Promise((resolve) => { finish = resolve; }));
    copies.length = 0;
    const { root, model } = open(replay({ perspective: 0 }));
    const control = button(root, "Save picture");
    control.focus();
    click(control);
    await flush();
    const saving = root.querySelector("[data-picture]");
    expect(saving.getAttribute("aria-disabled")).toBe("true");
    expect(saving.textContent).toBe("Saving…");
    expect(document.activeElement).toBe(saving); // the focus stays on the button, inside the widget
    click(saving); // a second click while drawing draws nothing more
    expect(copies.map((c) => c.node)).toEqual([root]);
    expect(copies[0].options.backgroundColor).toBeTruthy();
    expect(toPng).toHaveBeenCalledTimes(1);
    const { svgUrl, width, height } = toPng.mock.calls[0][0];
    expect([width, height]).toEqual([300, 200]);
    const drawn = decodeURIComponent(svgUrl);
    expect(drawn).toContain("nw-board");
    expect(drawn).not.toContain("nw-picture"); // the control itself is left out
    finish(PNG);
    await flush();
    await flush();
    expect(clicks).toHaveLength(1);
    expect(clicks[0].download).toBe(`needle-step-12-${FIXTURES.over_0.perspective === 0 ? "player-1" : FIXTURES.over_0.perspective}.png`);
    expect(button(root, "Save picture").getAttribute("aria-disabled")).toBeNull();
    expect(document.activeElement).toBe(button(root, "Save picture"));
    expect(root.querySelector(".nw-picture-status").textContent).toMatch(/^Saved needle-step-12-/);
    expect(model.sent).toEqual([]); // browser-side only: nothing asked of Python
  });

  it("an empty canvas (data:,) is an error, not an empty file", async () => {
    const { toSvg, rasterize } = painter;
    painter.toSvg = async () => 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><foreignObject><div xmlns="http://www.w3.org/1999/xhtml"></div></foreignObject></svg>');
    painter.rasterize = async () => "data:,";
    try {
      await expect(drawPicture(document.createElement("div"))).rejects.toThrow("empty picture");
    } finally {
      Object.assign(painter, { toSvg, rasterize });
    }
  });

  it("a copy that is no SVG is an error", async () => {
    const toSvg = painter.toSvg;
    painter.toSvg = async () => "data:text/plain,nothing";
    try {
      await expect(drawPicture(document.createElement("div"))).rejects.toThrow("no picture");
    } finally {
      painter.toSvg = toSvg;
    }
  });

  it("a failure is a status line, never an exception", async () => {
    toPng.mockRejectedValue(new Error("tainted canvas"));
    const { root } = open(replay());
    click(button(root, "Save picture"));
    await flush();
    await flush();
    expect(root.querySelector(".nw-picture-status").textContent).toBe("The picture could not be drawn (tainted canvas).");
    expect(button(root, "Save picture").disabled).toBe(false);
    expect(clicks).toEqual([]);
  });
});

describe("pictures for Python's save_png", () => {
  let mounted = null;
  beforeEach(() => { toPng.mockReset(); });
  afterEach(() => mounted && mounted());

  /** A mounted view whose model can also deliver custom messages (`model.custom(msg)`). */
  function withCustom(state) {
    const model = fakeModel(synced(state));
    const handlers = new Set();
    const on = model.on;
    const off = model.off;
    model.on = (event, fn) => (event === "msg:custom" ? handlers.add(fn) : on(event, fn));
    model.off = (event, fn) => (event === "msg:custom" ? handlers.delete(fn) : off(event, fn));
    model.custom = (msg) => [...handlers].forEach((fn) => fn(msg, []));
    const el = document.createElement("div");
    document.body.appendChild(el);
    const cleanup = mount(model, el);
    mounted = () => { cleanup(); el.remove(); expect(handlers.size).toBe(0); };
    return { model };
  }

  it("answers a picture message with the PNG drawn, under the id asked", async () => {
    toPng.mockResolvedValue(PNG);
    const { model } = withCustom(replay());
    model.custom({ kind: "picture", id: 3 });
    model.custom({ kind: "other", id: 4 });
    model.custom({ kind: "picture", id: "x" });
    await flush();
    await flush();
    expect(model.requests).toEqual([{ kind: "picture", id: 3, png: PNG }]);
  });

  it("stays silent when it cannot draw", async () => {
    toPng.mockRejectedValue(new Error("no"));
    const { model } = withCustom(replay());
    model.custom({ kind: "picture", id: 1 });
    await flush();
    await flush();
    expect(model.requests).toEqual([]);
  });
});
