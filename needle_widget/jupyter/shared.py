"""What Python and the front end share, generated into js/src/shared.js (never kept by hand twice).

Perspectives and their labels come from `seats`, the modes from `session`, the speeds and
requests from `widget`, the synced traits from the screen contract (`screen.contract`).
`python -m needle_widget.jupyter.shared js/src/shared.js` writes the module; tests/test_js.py fails when the
committed file differs.
"""

from __future__ import annotations

import json
import pathlib
from typing import Any

from ..classroom.student import STUDENT_REQUESTS
from ..engine.figures import PERCENT_EXAMPLES, percent
from ..engine.seats import PERSPECTIVE_LABELS, PERSPECTIVES, player_name
from ..screen.contract import BOARD, FOLLOW, SCREEN, VIEW_NAMES, js_defaults
from ..screen.session import AUTOPLAY_MODES, DRILLS, MODES
from .widget import MAX_PICTURE, MAX_REQUEST_ID, PNG_DATA_URL, REQUESTS, SPEEDS

SHARED_JS = pathlib.Path("js") / "src" / "shared.js"
"""Where `python -m needle_widget.jupyter.shared` writes `shared_module()`, from the project folder."""


def shared_constants() -> dict[str, Any]:
    """The names and lists the front end shares with Python, each from its one Python source:
    perspectives and their labels (seats.py), the autoplay speeds and modes (with the drills: one seat, no
    panels), the requests (`widget`; a class screen's, `CLASS_REQUESTS`), the
    synced traits of a screen, of a class's screen and of the board, with the defaults and view names the
    front end reads them with (the screen contract, `screen.contract`), and how shares
    are written (figures.py: examples the front end's rule must match). js/src/shared.js is generated
    from it; the JS has no copy of its own.
    """
    return {
        "PERSPECTIVES": list(PERSPECTIVES),
        "PERSPECTIVE_LABELS": {str(p): label for p, label in PERSPECTIVE_LABELS.items()},
        "PLAYER_NAMES": [player_name(0), player_name(1)],
        "MODES": list(MODES),
        "AUTOPLAY_MODES": list(AUTOPLAY_MODES),
        "DRILL_MODES": list(DRILLS),
        "SPEEDS": list(SPEEDS),
        "TRAITS": sorted(SCREEN),
        "FOLLOW_TRAITS": sorted(FOLLOW),
        "BOARD_TRAITS": list(BOARD),
        "DEFAULTS": js_defaults(),
        "VIEW_NAMES": dict(VIEW_NAMES),
        "REQUESTS": {kind: list(spec.fields) for kind, spec in REQUESTS.items()},
        "CLASS_REQUESTS": {kind: list(spec.fields) for kind, spec in STUDENT_REQUESTS.items()},
        "MAX_REQUEST_ID": MAX_REQUEST_ID,
        "MAX_PICTURE_URL": len(PNG_DATA_URL) + (MAX_PICTURE + 2) // 3 * 4,
        "PERCENT_EXAMPLES": [[p, percent(p)] for p in PERCENT_EXAMPLES],
    }


def shared_module() -> str:
    """`shared_constants()` as the ES module js/src/shared.js."""
    lines = [
        "// Generated from needle_widget.jupyter.shared.shared_constants():",
        "// `python -m needle_widget.jupyter.shared js/src/shared.js`.",
        "// Do not edit: tests/test_js.py fails when this file differs from what Python generates now.",
        "",
    ]
    lines += [f"export const {name} = {json.dumps(value, ensure_ascii=False)};"
              for name, value in shared_constants().items()]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:  # pragma: no cover - a generator for the front end
    """Write `shared_module()` to the path given (default js/src/shared.js)."""
    import sys

    path = pathlib.Path((argv or sys.argv[1:] or [str(SHARED_JS)])[0])
    path.write_text(shared_module(), encoding="utf-8")


if __name__ == "__main__":  # pragma: no cover
    main()
