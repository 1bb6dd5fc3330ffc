"""Colab and Binder (issue 47, item 4): the lessons install the package where it is missing, and the repository
carries a Binder environment. What cannot run here (Colab itself, a Binder build: both need their own servers and
the network) is said in docs/JUPYTERLITE.md, "Colab and Binder".
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from unittest import mock

import pytest
import yaml
from IPython.core.inputtransformer2 import TransformerManager

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ("01_play", "02_replay_and_hidden_information", "03_needle_odds", "04_strategy_lab", "05_be_the_detective",
           "06_is_it_fair", "07_skill_or_luck", "09_learn_from_your_mistakes", "08_class_demo")


def install_cell(name: str) -> str:
    book = json.loads((ROOT / "notebooks" / f"{name}.ipynb").read_text(encoding="utf-8"))
    first = next(c for c in book["cells"] if c["cell_type"] == "code")
    return "".join(first["source"])


@pytest.mark.parametrize("name", LESSONS)
def test_each_lesson_begins_by_installing_the_package_where_it_is_missing(name: str) -> None:
    source = install_cell(name)
    assert source == install_cell("01_play"), "one install cell, the same in every lesson"
    code = TransformerManager().transform_cell(source)  # as IPython runs it: %pip is a call to the pip magic
    calls = []
    shell = mock.Mock(run_line_magic=lambda magic, line: calls.append((magic, line)))
    with mock.patch("importlib.util.find_spec", return_value=None):
        exec(compile(code, name, "exec"), {"get_ipython": lambda: shell})  # noqa: S102 - the lesson's own cell
    assert calls == [("pip", "install --quiet needle_widget")]
    calls.clear()
    exec(compile(code, name, "exec"), {"get_ipython": lambda: shell})  # noqa: S102 - installed: nothing to do
    assert calls == []


def test_binder_builds_the_package_with_the_lessons_extra_from_the_clone() -> None:
    env = yaml.safe_load((ROOT / "binder" / "environment.yml").read_text(encoding="utf-8"))
    deps = env["dependencies"]
    assert "conda-forge" in env["channels"] and "pip" in deps
    assert any(str(d).startswith("python=3.1") for d in deps) and any(str(d).startswith("nodejs=2") for d in deps)
    post = ROOT / "binder" / "postBuild"
    assert os.access(post, os.X_OK) and post.read_text(encoding="utf-8").startswith("#!/usr/bin/env bash")
    assert 'pip install --no-cache-dir ".[class]"' in post.read_text(encoding="utf-8")
    extras = __import__("tomllib").loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "class" in extras["project"]["optional-dependencies"]
