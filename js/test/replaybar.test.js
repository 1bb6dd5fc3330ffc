// The list of moves keeps the current move centred (replaybar.js centreInList; the browser test
// tests/browser/test_looks_in_jupyterlab.py measures it in JupyterLab).

import { describe, expect, it } from "vitest";
import { centreInList } from "../src/replaybar.js";

/** A list 200 px high whose content is `content` px, scrolled to `scrollTop`, at 100 px down the page. */
function fakeList({ content = 1000, scrollTop = 0 } = {}) {
  return {
    clientTop: 1, clientHeight: 200, scrollHeight: content, scrollTop, sets: 0,
    getBoundingClientRect() {
      return { top: 100, height: 202 };
    },
  };
}

/** A row `height` px high at `at` px into the list's content. */
function fakeRow(list, at, height = 25) {
  return {
    getBoundingClientRect() {
      const top = 100 + list.clientTop + at - list.scrollTop;
      return { top, bottom: top + height, height };
    },
  };
}

describe("centreInList", () => {
  it("puts the row's middle in the list's middle", () => {
    const list = fakeList({ scrollTop: 40 });
    expect(centreInList(list, fakeRow(list, 500))).toBe(413); // 500 + 25 / 2 - 200 / 2, rounded
    expect(list.scrollTop).toBe(413);
    // the same from anywhere the list was scrolled to
    const again = fakeList({ scrollTop: 780 });
    centreInList(again, fakeRow(again, 500));
    expect(again.scrollTop).toBe(413);
  });

  it("stops at either end of the list's scrolling", () => {
    const top = fakeList({ scrollTop: 300 });
    expect(centreInList(top, fakeRow(top, 25))).toBe(0);
    const bottom = fakeList({ scrollTop: 0 });
    expect(centreInList(bottom, fakeRow(bottom, 975))).toBe(800);
    const short = fakeList({ content: 150, scrollTop: 0 });
    expect(centreInList(short, fakeRow(short, 100))).toBe(0);
  });
});
