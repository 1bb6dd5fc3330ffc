"""The wheel carries the built front end and works where there is no Node (issue 13, item 4).

`python -m build --wheel`, then the wheel in a fresh venv whose PATH has no node or npm (tests/wheel_env.py).
The browser half is tests/browser/test_wheel_in_browser.py.
"""

from __future__ import annotations

import json

import pytest
from wheel_env import STATIC, WheelEnv, sha256, wheel_env

from needle_widget.jupyter import widget

pytestmark = pytest.mark.slow  # builds a wheel and a venv

MARKERS = {"widget.js": "Needle in a Card Stack", "widget.css": ".nw-root", "standalone.js": "needle-data",
           "standalone.css": ".nw-root"}


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    return wheel_env(tmp_path_factory)


def test_the_wheel_carries_the_built_front_end(wheel: WheelEnv) -> None:
    members = wheel.members()
    assert sorted(members) == sorted(wheel.built), "the wheel's static/ is not the project's needle_widget/static/"
    for name, data in members.items():
        assert sha256(data) == wheel.built[name], f"the wheel's {name} is not the one in needle_widget/static"
    for name in STATIC:
        data = members[name]
        assert len(data) > 10_000, f"{name} is only {len(data)} bytes"
        assert MARKERS[name] in data.decode(), name
    assert widget._MISSING.encode() not in members["widget.js"]


def test_the_venv_has_no_node(wheel: WheelEnv) -> None:
    probe = "import shutil; print([shutil.which(t) for t in ('node', 'npm', 'npx')])"
    assert wheel.run([str(wheel.python), "-c", probe]).stdout.strip() == "[None, None, None]"


def test_the_installed_package_comes_from_the_wheel_with_its_bundle(wheel: WheelEnv) -> None:
    static = wheel.static
    assert static.is_relative_to(wheel.venv), f"needle_widget imported from {static}, not the wheel's venv"
    for name, data in wheel.members().items():
        assert (static / name).read_bytes() == data, name


def test_a_widget_in_the_venv_uses_the_real_bundle(wheel: WheelEnv) -> None:
    script = """if True:
        import json, pathlib
        import needle_widget
        from needle_widget import NeedleWidget, examples, widget
        w = NeedleWidget.from_replay(examples.load("found_early"))
        static = pathlib.Path(needle_widget.__file__).parent / "static"
        print(json.dumps({
            "esm_is_bundle": w._esm == (static / "widget.js").read_text(),
            "css_is_bundle": w._css == (static / "widget.css").read_text(),
            "missing": w._esm == widget._MISSING,
            "title": "Needle in a Card Stack" in w._esm,
            "steps": w.steps,
        }))
    """
    seen = json.loads(wheel.run([str(wheel.python), "-c", script]).stdout)
    assert seen.pop("steps") > 0
    assert seen == {"esm_is_bundle": True, "css_is_bundle": True, "missing": False, "title": True}


def test_the_command_line_works_in_the_venv(wheel: WheelEnv) -> None:
    done = wheel.run([str(wheel.bin / "needle-widget"), "--help"])
    assert "Needle in a Card Stack" in done.stdout
