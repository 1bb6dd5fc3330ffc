"""The compiled core gives what the pure one gives, byte for byte (issue 34).

Where the compiled build is installed (CI's second stage, .ci/compiled: `HATCH_BUILD_HOOK_ENABLE_MYPYC=1 python -m
build --wheel`), the digest of tests/builds_digest.py (10,000 games of each fast bot, SearchBot's games, the bundled
replays' reviews, a duplicate tournament) is made by the compiled modules here and by the same package's Python
sources in a second process at the same time, and every part's sha256 must be the same. With the pure build there is
nothing compiled to compare: the test says so and skips, unless NEEDLE_REQUIRE_COMPILED=1 (the compiled stage) makes
that a failure.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from builds_digest import digest

import needle_widget
from needle_widget.apps import builds

DIGEST = Path(__file__).with_name("builds_digest.py")


def test_the_pure_sources_import_beside_the_package() -> None:
    """`builds.pure()` (what bench and the test below compare against) is the package from its .py files, and plays
    as the package does.
    """
    pure = builds.pure()
    assert pure.__name__ == "needle_pure"
    assert builds.build_of(pure) == "pure Python"
    assert all(str(sys.modules[f"needle_pure.{m}"].__file__).endswith(".py") for m in builds.COMPILED_CORE)
    ours = needle_widget.play_game(needle_widget.bots.GreedyBot(), needle_widget.bots.RandomBot(seed=4), seed=9)
    theirs = pure.play_game(pure.bots.GreedyBot(), pure.bots.RandomBot(seed=4), seed=9)
    assert theirs.replay().to_json() == ours.replay().to_json()


def test_the_compiled_core_is_the_one_the_build_compiles() -> None:
    """COMPILED_CORE names the files pyproject.toml's mypyc hook compiles."""
    import tomllib

    config = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    files = config["tool"]["hatch"]["build"]["targets"]["wheel"]["hooks"]["mypyc"]["include"]
    assert sorted(files) == sorted(f"needle_widget/{m.replace('.', '/')}.py" for m in builds.COMPILED_CORE)


@pytest.mark.slow
def test_compiled_and_pure_builds_agree_byte_for_byte() -> None:
    if builds.build_of(needle_widget) == "pure Python":
        if os.environ.get("NEEDLE_REQUIRE_COMPILED") == "1":
            pytest.fail(f"NEEDLE_REQUIRE_COMPILED=1, but {needle_widget.__file__} is the pure build")
        pytest.skip("the pure build is installed: there is no compiled core to compare (CI's compiled stage runs this)")
    assert sorted(builds.compiled_modules(needle_widget)) == sorted(builds.COMPILED_CORE)
    pure = subprocess.Popen([sys.executable, str(DIGEST), "--pure"], stdout=subprocess.PIPE, text=True)
    try:
        ours = digest(needle_widget)
        out, _ = pure.communicate(timeout=900)
    finally:
        if pure.poll() is None:
            pure.kill()
            pure.wait()
    assert pure.returncode == 0
    theirs = json.loads(out)
    assert theirs["build"] == "pure Python"
    print(f"{'part':<14} {'texts':>6} {'compiled s':>11} {'pure s':>7}")
    for part, mine in ours.items():
        print(f"{part:<14} {mine['texts']:>6} {mine['seconds']:>11} {theirs['digest'][part]['seconds']:>7}")
    assert {p: d["sha256"] for p, d in ours.items()} == {p: d["sha256"] for p, d in theirs["digest"].items()}
