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


def _lint_imports(config: Path, tree: Path) -> subprocess.CompletedProcess:
    """import-linter's contracts in `config` over the packages on `tree`."""
    command = shutil.which("lint-imports") or str(Path(sys.executable).with_name("lint-imports"))
    return subprocess.run([command, "--config", str(config), "--no-cache"], cwd=tree, capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(tree)})


def test_the_layers_contract_holds() -> None:
    """Arrows point one way: apps > jupyter > screen > teaching > players > inference > records >
    engine, and nothing below the adapter imports Jupyter (docs/ARCHITECTURE.md).
    """
    done = _lint_imports(ROOT / "pyproject.toml", ROOT)
    assert done.returncode == 0 and "2 kept, 0 broken" in done.stdout, done.stdout[-4000:] + done.stderr[-2000:]


def test_an_upward_import_breaks_the_contract(tmp_path: Path) -> None:
    """The contract has teeth: a copy of the package (under another name, with the same contracts)
    with one import that points up, the engine reaching for the screen, fails it, naming the import.
    """
    copy = tmp_path / "needle_copy"
    shutil.copytree(ROOT / "needle_widget", copy, ignore=shutil.ignore_patterns("__pycache__", "static", "replays"))
    config = tmp_path / "contracts.toml"
    config.write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8").replace("needle_widget", "needle_copy"),
                      encoding="utf-8")
    kept = _lint_imports(config, tmp_path)
    assert kept.returncode == 0, kept.stdout[-4000:]  # the copy as it is keeps the contracts
    cards = copy / "engine" / "cards.py"
    cards.write_text(cards.read_text(encoding="utf-8") + "\nfrom ..screen import session  # noqa\n", encoding="utf-8")
    done = _lint_imports(config, tmp_path)
    assert done.returncode != 0, done.stdout[-4000:]
    assert "BROKEN" in done.stdout and "needle_copy.engine.cards -> needle_copy.screen.session" in done.stdout
