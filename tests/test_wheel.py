"""The wheel carries the built front end and works where there is no Node (issue 13, item 4); a release a stranger
can trust (issue 47, item 5).

`python -m build --sdist`, the wheel built from that sdist with no node or npm on the PATH, then the wheel in a
fresh venv whose PATH has none either (tests/wheel_env.py); the release's checks (`.ci/release check`) on both.
The browser half is tests/browser/test_wheel_in_browser.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from wheel_env import ROOT, STATIC, WheelEnv, sha256, wheel_env

from needle_widget.jupyter import widget

pytestmark = pytest.mark.slow  # builds a wheel and a venv

BENCHMARKS = ("apps/bench.py", "apps/classbench.py", "apps/matchbench.py", "apps/recordbench.py",
              "apps/classbrowsers.py", "apps/needle_ref.c")
"""The benchmarks and their browser harness: in the clone (`needle-widget bench`), not in the wheel."""
MARKERS = {"widget.js": "Needle in a Card Stack", "widget.css": ".nw-root", "standalone.js": "needle-data",
           "board.js": "Class board", "board.css": ".nb-root"}


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
        assert len(data) > (2_000 if name.endswith(".css") else 10_000), f"{name} is only {len(data)} bytes"
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
        from needle_widget import NeedleWidget, examples
        from needle_widget.jupyter import widget
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


def test_the_wheel_holds_the_product_not_the_benchmarks(wheel: WheelEnv) -> None:
    names = wheel.names()
    package = [name.removeprefix("needle_widget/") for name in names if name.startswith("needle_widget/")]
    assert [name for name in package if name in BENCHMARKS] == []
    assert all(name.startswith(("needle_widget/", "needle_widget-")) for name in names), names
    assert {"apps/cli.py", "apps/export.py", "examples.py", "teaching/examples.py"} <= set(package)
    assert (ROOT / "needle_widget" / "apps" / "classbench.py").is_file()  # the clone keeps them


def test_every_module_in_the_wheel_imports(wheel: WheelEnv) -> None:
    """Nothing in the wheel imports a module the wheel leaves out; the notebooks' names import from the root."""
    script = """if True:
        import importlib, pkgutil, sys
        import needle_widget
        from needle_widget import NeedleWidget, classroom, examples, knowledge, whatif, worlds
        names = [m.name for m in pkgutil.walk_packages(needle_widget.__path__, "needle_widget.")]
        for name in names:
            importlib.import_module(name)
        print(len(names), sorted(m for m in sys.modules if "bench" in m or "classbrowsers" in m))
    """
    count, left_out = wheel.run([str(wheel.python), "-c", script]).stdout.split(" ", 1)
    assert int(count) > 50 and left_out.strip() == "[]"


def test_bench_says_it_runs_from_a_clone(wheel: WheelEnv) -> None:
    done = wheel.run([str(wheel.bin / "needle-widget"), "bench", "--seconds", "0.05"], check=False)
    assert done.returncode == 2 and done.stdout == "", done.stdout + done.stderr
    assert done.stderr.strip() == ("needle-widget: error: bench runs from a clone of the project (pip install -e .): "
                                   "the wheel holds the game, not its benchmarks")


def test_the_release_checks_pass_on_the_sdist_and_the_wheel_built_from_it(wheel: WheelEnv) -> None:
    """`.ci/release check`: twine check --strict (the metadata and the README as PyPI renders them),
    check-wheel-contents (no duplicate files: the exported page once carried a copy of widget.css), validate-pyproject,
    and the wheel's built front end. Before issue 47 the wheel could not be built from the sdist without npm.
    """
    done = subprocess.run(["bash", str(ROOT / ".ci" / "release"), "check", str(wheel.wheel.parent)], cwd=ROOT,
                          capture_output=True, text=True, timeout=300,
                          env={"PATH": f"{Path(sys.executable).parent}:/usr/bin:/bin"})
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.count("PASSED") == 2, done.stdout  # twine: the sdist and the wheel
    assert f"{wheel.wheel}: OK" in done.stdout and "Valid file: pyproject.toml" in done.stdout, done.stdout
    assert "front end: OK" in done.stdout, done.stdout


def test_the_licence_and_the_changelog_ship(wheel: WheelEnv) -> None:
    from needle_widget import __version__

    with zipfile.ZipFile(wheel.wheel) as whl:
        names = whl.namelist()
        licence = next(n for n in names if n.endswith(".dist-info/licenses/LICENSE"))
        assert whl.read(licence).decode().startswith("MIT License")
        metadata = whl.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    assert "License-Expression: MIT" in metadata and "License-File: LICENSE" in metadata
    changelog = (ROOT / "docs" / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## {__version__} " in changelog, "docs/CHANGELOG.md says nothing of this version"
    assert wheel.wheel.name.startswith(f"needle_widget-{__version__}-")
