"""Which build of the core is running, mypyc-compiled or pure Python, and the pure one beside it.

The compiled wheel (docs/DEVELOPMENT.md, "A compiled core") holds each compiled module twice: the extension module,
which Python imports first, and its source. `pure()` imports those sources as a second package, `needle_pure`, so
that one process can time both builds (`needle-widget bench`) and a test can compare what they give.

>>> import needle_widget
>>> build_of(needle_widget) in ("pure Python", "compiled (mypyc)")
True
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import sys
import types
from collections.abc import Sequence
from pathlib import Path

COMPILED_CORE = (
    "engine.bitmasks", "engine.draws", "engine.game", "engine.observation", "engine.playout", "engine.rollout",
    "inference.knowledge", "inference.slots",
    "players.bots",
)
"""The modules the compiled build compiles (pyproject.toml's mypyc hook lists the same files)."""

PURE = "needle_pure"
"""The name the pure sources are imported under, beside `needle_widget`."""

ROOT = Path(__file__).resolve().parents[1]


def compiled_modules(package: types.ModuleType) -> list[str]:
    """The modules of COMPILED_CORE that `package` runs as compiled extensions."""
    out = []
    for name in COMPILED_CORE:
        module = importlib.import_module(f"{package.__name__}.{name}")
        if not str(getattr(module, "__file__", "")).endswith(".py"):
            out.append(name)
    return out


def build_of(package: types.ModuleType) -> str:
    """"compiled (mypyc)" when the core of `package` is compiled, else "pure Python"."""
    return "compiled (mypyc)" if compiled_modules(package) else "pure Python"


class _PureSources(importlib.abc.MetaPathFinder):
    """Finds `needle_pure.<module>` as the source file of `needle_widget.<module>`, never an extension."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname != PURE and not fullname.startswith(PURE + "."):
            return None
        parts = fullname.split(".")[1:]
        where = ROOT.joinpath(*parts)
        if where.is_dir() and (where / "__init__.py").is_file():
            return importlib.util.spec_from_file_location(
                fullname, where / "__init__.py", submodule_search_locations=[str(where)],
                loader=importlib.machinery.SourceFileLoader(fullname, str(where / "__init__.py")))
        source = where.with_suffix(".py")
        if source.is_file():
            return importlib.util.spec_from_file_location(
                fullname, source, loader=importlib.machinery.SourceFileLoader(fullname, str(source)))
        return None


def pure() -> types.ModuleType:
    """The package again, imported from its Python sources as `needle_pure` (the same objects when the running
    build is pure already: then there is nothing to compare).
    """
    if PURE not in sys.modules:
        if not any(isinstance(f, _PureSources) for f in sys.meta_path):
            sys.meta_path.insert(0, _PureSources())
        importlib.import_module(PURE)
    return sys.modules[PURE]
