"""The type hints are checked (issue 34): mypy over the whole package with the project's settings (pyproject.toml's
[tool.mypy]: every layer with check_untyped_defs, the core that mypyc compiles with --strict's rules) finds no
error. A hint a reader cannot trust is a bug.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_finds_no_error(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy"), "--no-error-summary"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    if "No module named mypy" in done.stderr:
        pytest.fail("mypy is missing: pip install -e '.[dev]' installs it")
    assert done.returncode == 0, done.stdout[-8000:] + done.stderr[-2000:]


STRICT = ("disallow_any_generics", "disallow_subclassing_any", "disallow_untyped_calls", "disallow_untyped_defs",
          "disallow_incomplete_defs", "disallow_untyped_decorators", "warn_return_any", "no_implicit_reexport")
"""--strict's per-module flags; its global ones are in [tool.mypy] itself."""


def test_the_core_is_checked_to_the_strict_rules() -> None:
    """The engine, the players and the inference (what mypyc compiles) and the review are under every per-module
    flag of --strict; the whole package under its global ones.
    """
    import tomllib

    mypy = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    for flag in ("check_untyped_defs", "warn_unused_ignores", "warn_redundant_casts", "strict_equality",
                 "extra_checks"):
        assert mypy[flag] is True, flag
    core = [o for o in mypy["overrides"] if "needle_widget.engine.*" in o["module"]]
    assert len(core) == 1
    assert sorted(core[0]["module"]) == [f"needle_widget.{p}.*" for p in ("engine", "inference", "players", "review")]
    assert {flag: core[0].get(flag) for flag in STRICT} == dict.fromkeys(STRICT, True)
