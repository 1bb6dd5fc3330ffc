"""axe-core's accessibility audit of one view of the widget, as the browser tests show it (issue 33).

`audit(page, part, view)` runs axe-core (npm `axe-core`, in js/node_modules) against WCAG 2.1 A and AA on the
widget's roots in `part` (the game's `.nw-root`, the board's `.nb-root`: `part` itself if it is one or lies in one,
else those inside it), never on the host's own page around them (JupyterLab's, marimo's). A violation at
"serious" or "critical" impact fails the test, quoting the rule, its help and the elements, and so does what axe
could not decide at that impact unless it is in REVIEWED. Each call writes its
counts to ARTIFACTS/axe/{view}.json and prints them on one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Locator, Page

from .conftest import ARTIFACTS

AXE = Path(__file__).resolve().parents[2] / "js" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ("wcag2a", "wcag2aa", "wcag21a", "wcag21aa")
"""WCAG 2.0 and 2.1, levels A and AA."""
BAR = ("serious", "critical")
"""The impacts that fail a test."""
OFF: dict[str, str] = {}
"""Rules turned off, each with the reason (none: every rule of TAGS runs)."""
REVIEWED: dict[str, str] = {
    "color-contrast": "axe cannot tell the background behind the text on the table's felt, a gradient of dark "
                      "greens (it says so); the felt's text is near white on it, and the same text is checked on the "
                      "plain backgrounds of the other views",
    "scrollable-region-focusable": "the list of moves scrolls, and its buttons take turns in the tab order (the "
                                   "current move's tabindex is 0, the others' -1): axe cannot tell that one of them "
                                   "is always reachable",
}
"""What axe could not decide ("incomplete", to review) that was reviewed here, by rule, with the finding. Anything
else it could not decide at BAR fails the test as a violation does."""

RUN = """async (part, [tags, off]) => {
  const rules = Object.fromEntries(off.map((id) => [id, { enabled: false }]));
  const ours = '.nw-root, .nb-root';
  const roots = part.closest(ours) ? [part] : [...part.querySelectorAll(ours)];
  if (!roots.length) throw new Error('no widget in the part audited');
  const r = await window.axe.run({ include: roots }, { runOnly: { type: 'tag', values: tags }, rules,
                                         resultTypes: ['violations', 'incomplete'] });
  const why = (n) => (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200);
  const brief = (v) => ({ id: v.id, impact: v.impact, help: v.help,
                          nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(' ')}: ${why(n)}`) });
  return { violations: r.violations.map(brief), incomplete: r.incomplete.map(brief), passes: r.passes.length };
}"""


def audit(page: Page, part: Locator, view: str) -> dict[str, Any]:
    """Audit the widgets of `part` (one view, in the page's theme now); fail on a violation at BAR; return the
    counts (also in ARTIFACTS/axe/{view}.json, and printed).
    """
    if not page.evaluate("() => Boolean(window.axe)"):
        # Evaluated by the browser's devtools, not as a <script>: the exported page's policy allows no other script.
        page.evaluate(f"(() => {{ {AXE.read_text(encoding='utf-8')}\n; return Boolean(window.axe); }})()")
    result = part.evaluate(RUN, [list(TAGS), sorted(OFF)])
    failing = [v for v in result["violations"] if v["impact"] in BAR]
    failing += [v for v in result["incomplete"] if v["impact"] in BAR and v["id"] not in REVIEWED]
    counts = {"view": view, "violations": len(result["violations"]), "serious_or_critical": len(failing),
              "incomplete": len(result["incomplete"]), "rules_passed": result["passes"],
              "found": result["violations"], "to_review": result["incomplete"]}
    folder = ARTIFACTS / "axe"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{view}.json").write_text(json.dumps(counts, indent=1, ensure_ascii=False))
    print(f"axe: {view}: {counts['violations']} violations ({len(failing)} serious or critical), "
          f"{counts['incomplete']} to review, {counts['rules_passed']} rules passed")
    assert not failing, f"axe found in {view}: " + json.dumps(failing, indent=1, ensure_ascii=False)
    return counts
