"""The front end's own tests (vitest, in js/), run from pytest so one command runs everything."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

JS = Path(__file__).resolve().parents[1] / "js"


def test_front_end_unit_tests_pass() -> None:
    npm = shutil.which("npm")
    if npm is None or not (JS / "node_modules").exists():
        if os.environ.get("CI"):
            pytest.fail("npm or js/node_modules is missing: `pip install -e .` runs npm install")
        pytest.skip("npm or js/node_modules missing (pip install -e . installs them)")
    done = subprocess.run([npm, "test", "--silent"], cwd=JS, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert " passed" in done.stdout
