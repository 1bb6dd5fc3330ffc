"""The front end's own tests (vitest, in js/), run from pytest so one command runs everything."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[1] / "js"


@pytest.mark.slow
def test_front_end_unit_tests_pass() -> None:
    npm = shutil.which("npm")
    if npm is None or not (JS / "node_modules").exists():
        if os.environ.get("CI"):
            pytest.fail("npm or js/node_modules is missing: `pip install -e .` runs npm install")
        pytest.skip("npm or js/node_modules missing (pip install -e . installs them)")
    done = subprocess.run([npm, "test", "--silent"], cwd=JS, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout


def test_the_shared_constants_module_is_what_python_generates_now() -> None:
    """js/src/shared.js is generated; regenerate it with `python -m needle_widget.jupyter.shared js/src/shared.js`."""
    from needle_widget.jupyter.shared import shared_module

    assert (JS / "src" / "shared.js").read_text(encoding="utf-8") == shared_module()


def test_the_what_if_states_the_js_tests_render_are_what_python_sends_now() -> None:
    """js/test/whatif_states.json is generated; regenerate it with `python tests/js_fixtures.py`."""
    import json

    from js_fixtures import example_whatif_states

    text = json.dumps(example_whatif_states(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"
    assert (JS / "test" / "whatif_states.json").read_text(encoding="utf-8") == text


def test_the_front_end_keeps_no_copy_of_what_python_shares() -> None:
    """Perspective labels, player names, speeds and the trait list come from shared.js only."""
    import re

    copies = re.compile(r"""["'`](Player [0-9$]|Spectator|Teacher)["'`]|\[0\.5, 1|["']can_act["']""")
    code = {path.name: [line for line in path.read_text(encoding="utf-8").splitlines()
                        if not line.lstrip().startswith(("//", "/*", "*"))]
            for path in sorted((JS / "src").glob("*.js")) if path.name != "shared.js"}
    found = {name: copies.findall("\n".join(lines)) for name, lines in code.items()}
    assert {name: hits for name, hits in found.items() if hits} == {}


def test_the_step_rules_the_js_copy_is_pinned_to_are_python_s_now() -> None:
    """js/test/step_rules.json is Python's `stepping.step_cases()` (js/test/steprules.test.js runs each case on the
    front end's copy, js/src/steprules.js); regenerate it with `python tests/js_fixtures.py`.
    """
    from js_fixtures import STEP_RULES, step_rules_text

    assert STEP_RULES.read_text(encoding="utf-8") == step_rules_text()
