"""Lint as part of the test run, so CI fails on a lint error: ruff over Python (the rule
sets are in pyproject.toml), and `node --check` over every front-end source file.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_python_passes_ruff() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "--no-cache", "needle_widget", "tests"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    if "No module named ruff" in done.stderr:
        pytest.fail("ruff is missing: pip install -e '.[dev]' installs it")
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-2000:]


@pytest.mark.parametrize("path", sorted((ROOT / "js" / "src").glob("*.js")), ids=lambda p: p.name)
def test_front_end_sources_parse(path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is missing")
        pytest.skip("node is missing")
    done = subprocess.run([node, "--check", str(path)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr[-3000:]
