"""`needle-widget lite DIR`: the lessons as a JupyterLite site, a folder of static files that needs no server and no
internet (docs/JUPYTERLITE.md).

Any web server serves the folder (`python -m http.server -d DIR`); each student's browser then runs the Python itself
(Pyodide), installs needle_widget from the site with the lessons' first cell, and draws the widget and the charts. The
site carries everything it loads: JupyterLab, the widget's front end, the wheels, and a Pyodide assembled from the npm
registry (its core) and PyPI (the pure-Python packages its kernel loads), so no request leaves the site's own server.

Built from:

- the needle_widget wheel: `--wheel`, else built from the clone the package runs from (`pip wheel`, no Node: the
  front end is already built), else the installed version downloaded from PyPI;
- the lessons that run in a browser (`BROWSER_LESSONS`), as copies (`site_notebook`): the repository's notebooks are
  never changed. A code cell tagged `not-in-browser` (processes, threads, a dask cluster: none exist there) becomes a
  note that shows its code; the answer files of lesson 05 go as CSV (`site_answers`), since JupyterLite reads a file
  whose name holds "json" as one JSON document;
- jupyterlite-core and jupyterlite-pyodide-kernel (`BUILDER`), in a virtual environment of their own (kept in the
  cache folder): the site's JupyterLab extensions are those of the environment it is built in, and the project's own
  holds many more.

The wheels, the assembled Pyodide and the builder's environment are kept in the cache folder (`--cache`, default
`~/.cache/needle_widget/lite`), so a second build downloads nothing.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TextIO

from ..engine.errors import NeedleError
from .lessons import lessons_source

__all__ = ["BROWSER_LESSONS", "BUILDER", "PYODIDE", "NOT_IN_BROWSER", "SITE_MARK", "Site", "site_notebook",
           "site_answers", "browser_requirements", "build_site", "add_parser", "run"]

BROWSER_LESSONS = ("01_play", "02_replay_and_hidden_information", "03_needle_odds", "04_strategy_lab",
                   "05_be_the_detective", "06_is_it_fair", "07_skill_or_luck", "09_learn_from_your_mistakes")
"""The lessons a site carries: those that need no server (the class's, 08, need a room)."""
BUILDER = ("jupyterlite-core==0.8.6", "jupyterlite-pyodide-kernel==0.8.6", "jupyter_server>=2.4",
           "jupyterlab_server>=2.27")
"""The site builder, tested together: jupyter_server, or `jupyter lite build` adds no notebooks."""
PYODIDE = "314.0.6"
"""The Pyodide that jupyterlite-pyodide-kernel 0.8.6 loads (its npm package carries the core only)."""
KERNEL_ROOTS = ("micropip", "packaging", "ipython", "jedi")
"""What the Pyodide kernel loads from Pyodide's own packages as it starts (found by running it)."""
KERNEL_STUBS = frozenset({"ipykernel", "widgetsnbextension", "pyodide-kernel", "piplite"})
"""Packages the kernel brings its own stand-ins for: never downloaded."""
NOT_IN_BROWSER = "not-in-browser"
"""The tag of a lesson's code cell that cannot run in a browser (it starts processes or threads)."""
EMSCRIPTEN = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
              "platform_machine": "wasm32", "python_version": "3.14", "python_full_version": "3.14.2",
              "implementation_name": "cpython", "platform_python_implementation": "CPython", "extra": ""}
"""The marker environment of the browser's Python (Pyodide 314.0.6)."""
SITE_MARK = ".needle-widget-lite"
"""The file `build_site` leaves in a site it wrote: only a folder holding it is ever replaced."""


@dataclass(frozen=True)
class Site:
    """A site `build_site` wrote: its folder, its lessons, its size in bytes, and the wheels it serves."""

    folder: pathlib.Path
    lessons: tuple[str, ...]
    size: int
    wheels: tuple[str, ...]


def site_notebook(notebook: dict[str, Any]) -> dict[str, Any]:
    """A lesson as the site carries it: without outputs (the student's browser runs it), and each code cell tagged
    `not-in-browser` a markdown note holding its code.

    >>> cell = {"cell_type": "code", "source": ["print(1)"], "metadata": {"tags": [NOT_IN_BROWSER]}, "outputs": []}
    >>> site_notebook({"cells": [cell]})["cells"][0]["source"].splitlines()[0]
    '**Not in the browser:** this cell needs a computer with Jupyter (it starts processes or threads). Its code:'
    """
    cells = []
    for cell in notebook.get("cells", []):
        tags = cell.get("metadata", {}).get("tags", [])
        if cell.get("cell_type") == "code" and NOT_IN_BROWSER in tags:
            code = "".join(cell.get("source", []))
            cell = {"cell_type": "markdown", "metadata": {"tags": [NOT_IN_BROWSER]},
                    "source": "**Not in the browser:** this cell needs a computer with Jupyter (it starts processes "
                              f"or threads). Its code:\n\n```python\n{code}\n```"}
        elif cell.get("cell_type") == "code":
            cell = {**cell, "outputs": [], "execution_count": None}
        cells.append(cell)
    return {**notebook, "cells": cells}


def site_answers(source: pathlib.Path, target: pathlib.Path) -> list[str]:
    """Copy lesson 05's answer files from `source` to `target`, the JSON Lines ones as CSV with the same answers to
    CSV's 7 significant digits: JupyterLite's contents manager parses any file whose name holds "json" as one JSON
    document, so a .jsonl file cannot be read there. The names written, sorted.
    """
    from ..teaching.answers import load_answers, save_answers

    target.mkdir(parents=True, exist_ok=True)
    written = []
    for path in sorted(source.iterdir()):
        if not path.is_file() or path.name.startswith("."):
            continue
        if path.suffix == ".jsonl":
            name = path.with_suffix(".csv").name
            if (source / name).exists():
                raise NeedleError(f"answer files {path.name!r} and {name!r} would be one file in the site")
            save_answers(load_answers(path), target / name)
        elif path.suffix in (".csv", ".md"):
            name = path.name
            shutil.copyfile(path, target / name)
        else:
            continue
        written.append(name)
    return written


def _norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def browser_requirements(requires: Iterable[str], provided: Iterable[str] = (),
                         installed: Callable[[str], list[str] | None] | None = None) -> list[str]:
    """The distributions a browser install of a package with `requires` (its Requires-Dist) needs, each once,
    sorted, with what theirs need in turn: markers read for Pyodide, so what only a computer needs (cryptography,
    redis) is left out. `provided` (Pyodide's own packages, the kernel's stand-ins) are not followed.
    `installed(name)` gives a distribution's own Requires-Dist (default: the installed one's).

    >>> browser_requirements(["tqdm>=4", "redis>=5; sys_platform != 'emscripten'"], installed=lambda name: [])
    ['tqdm']
    """
    try:
        from packaging.requirements import Requirement
    except ImportError:  # pragma: no cover - JupyterLab and pip's build tools bring it
        raise NeedleError("needle-widget lite reads requirements with the packaging library: pip install packaging") \
            from None

    read = installed or (lambda name: importlib.metadata.requires(name))
    skip = {_norm(name) for name in provided}
    found: set[str] = set()
    todo = list(requires)
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate(EMSCRIPTEN):
            continue
        name = _norm(requirement.name)
        if name in found or name in skip:
            continue
        found.add(name)
        try:
            todo += read(requirement.name) or []
        except importlib.metadata.PackageNotFoundError:
            raise NeedleError(f"{requirement.name} is not installed here, so its version for the site is "
                              "unknown: pip install it") from None
    return sorted(found)


def _run(command: list[str], log: Callable[[str], None], cwd: pathlib.Path | None = None) -> None:
    done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if done.returncode:
        tail = "\n".join(done.stdout.splitlines()[-15:])
        raise NeedleError(f"{' '.join(command[:4])} ... failed (exit {done.returncode}):\n{tail}")


def _download(requirements: list[str], folder: pathlib.Path, log: Callable[[str], None],
              python: str = "3.14") -> None:
    """Pure-Python wheels of `requirements` (pinned) into `folder`, the ones already there kept."""
    folder.mkdir(parents=True, exist_ok=True)
    have = {_norm(p.name.split("-")[0]) + "==" + p.name.split("-")[1] for p in folder.glob("*.whl")}
    wanted = [r for r in requirements if _norm(r.split("==")[0]) + "==" + r.split("==")[1] not in have]
    if wanted:
        log(f"downloading {len(wanted)} wheels: {' '.join(wanted)}")
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
              "--platform", "any", "--python-version", python, "--implementation", "py", "-d", str(folder),
              *wanted], log)


def _builder(cache: pathlib.Path, pins: list[str], log: Callable[[str], None]) -> pathlib.Path:
    """The `jupyter` of a virtual environment with the site builder and `pins` (the widgets' JupyterLab
    extensions), made once per set of versions.
    """
    key = hashlib.sha256(json.dumps([*BUILDER, *pins, sys.version]).encode()).hexdigest()[:12]
    venv = cache / f"builder-{key}"
    jupyter = venv / "bin" / "jupyter"
    if not (venv / "ready").is_file():
        shutil.rmtree(venv, ignore_errors=True)
        log(f"making the site builder's environment: {venv}")
        _run([sys.executable, "-m", "venv", str(venv)], log)
        _run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", *BUILDER, *pins], log)
        (venv / "ready").write_text("\n".join([*BUILDER, *pins]) + "\n")
    return jupyter


def _pyodide(cache: pathlib.Path, needs: list[str], log: Callable[[str], None]) -> tuple[pathlib.Path, list[str]]:
    """A Pyodide tarball that needs no internet: the npm package's core, and the pure-Python packages of its lock
    that the kernel and `needs` load, from PyPI, with their hashes written into the lock. Also the names the lock
    provides.
    """
    folder = cache / f"pyodide-{PYODIDE}"
    if not (folder / "pyodide" / "pyodide-lock.json").is_file():
        work = pathlib.Path(tempfile.mkdtemp(dir=cache))
        log(f"downloading pyodide {PYODIDE} (npm)")
        _run(["npm", "pack", "--silent", f"pyodide@{PYODIDE}"], log, cwd=work)
        with tarfile.open(work / f"pyodide-{PYODIDE}.tgz") as archive:
            archive.extractall(work, filter="data")
        core = folder / "pyodide"
        shutil.rmtree(folder, ignore_errors=True)
        core.mkdir(parents=True)
        for path in (work / "package").iterdir():
            if path.suffix in (".mjs", ".js", ".wasm", ".zip", ".json") and not path.name.endswith(".map"):
                shutil.copyfile(path, core / path.name)
        shutil.rmtree(work)
    core = folder / "pyodide"
    lock = json.loads((core / "pyodide-lock.json").read_text())
    packages = lock["packages"]
    by_name = {_norm(name): name for name in packages}
    closure: set[str] = set()
    todo = [_norm(n) for n in (*KERNEL_ROOTS, *needs) if _norm(n) in by_name]
    while todo:
        name = todo.pop()
        if name not in closure:
            closure.add(name)
            todo += [_norm(d) for d in packages[by_name[name]]["depends"]]
    compiled = sorted(n for n in closure if not packages[by_name[n]]["file_name"].endswith("-none-any.whl"))
    if compiled:
        raise NeedleError(f"the site would need Pyodide's compiled packages {', '.join(compiled)}, which only "
                          "Pyodide's own distribution carries (docs/JUPYTERLITE.md)")
    _download([f"{n}=={packages[by_name[n]]['version']}" for n in sorted(closure)], core, log)
    for wheel in core.glob("*.whl"):
        name = _norm(wheel.name.split("-")[0])
        if name in closure:
            entry = packages[by_name[name]]
            entry["file_name"] = wheel.name
            entry["sha256"] = hashlib.sha256(wheel.read_bytes()).hexdigest()
    (core / "pyodide-lock.json").write_text(json.dumps(lock))
    key = hashlib.sha256(json.dumps(sorted(closure)).encode()).hexdigest()[:8]
    tarball = folder / f"pyodide-{PYODIDE}-{key}.tar.bz2"
    if not tarball.is_file():
        with tarfile.open(tarball.with_suffix(".part"), "w:bz2") as archive:
            for path in sorted(core.iterdir()):
                if path.suffix != ".whl" or _norm(path.name.split("-")[0]) in closure:
                    archive.add(path, arcname=f"pyodide/{path.name}")
        tarball.with_suffix(".part").replace(tarball)
    return tarball, sorted(by_name)


def _own_wheel(out: pathlib.Path, log: Callable[[str], None]) -> pathlib.Path:
    """needle_widget's wheel: built from the clone the package runs from, else downloaded from PyPI."""
    from .._version import __version__

    out.mkdir(parents=True, exist_ok=True)
    root = pathlib.Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "needle_widget" / "static" / "widget.js").is_file():
        log(f"building the wheel from {root}")
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(root)], log)
    else:
        log(f"downloading needle_widget {__version__} from PyPI")
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "-d",
              str(out), f"needle_widget=={__version__}"], log)
    return max(out.glob("needle_widget-*.whl"), key=lambda p: p.stat().st_mtime)


def _wheel_requires(wheel: pathlib.Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        name = next((n for n in archive.namelist() if n.endswith(".dist-info/METADATA")), None)
        if name is None:
            raise NeedleError(f"{wheel.name} is not a wheel: it has no METADATA")
        text = archive.read(name).decode("utf-8")
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")
            and "extra ==" not in line]


def _check_target(folder: pathlib.Path) -> pathlib.Path:
    target = folder.expanduser().resolve()
    if target.exists():
        if not target.is_dir():
            raise NeedleError(f"{str(folder)!r} is a file, not a folder")
        if any(target.iterdir()) and not (target / SITE_MARK).is_file():
            raise NeedleError(f"{str(folder)!r} is not empty and holds no site this command built: give an empty "
                              "or new folder")
    return target


def build_site(folder: pathlib.Path, *, wheel: pathlib.Path | None = None, cache: pathlib.Path | None = None,
               log: Callable[[str], None] = lambda line: None) -> Site:
    """Write a JupyterLite site of the lessons into `folder` (new, empty, or a site this built before, replaced).

    Needs pip, npm (for Pyodide's core) and the package registries; what it downloads stays in `cache`.
    """
    target = _check_target(folder)
    if wheel is not None and not wheel.is_file():
        raise NeedleError(f"no wheel at {str(wheel)!r}")
    cache = (cache or pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
             / "needle_widget" / "lite").expanduser().resolve()
    cache.mkdir(parents=True, exist_ok=True)
    work = pathlib.Path(tempfile.mkdtemp(prefix="needle-lite-"))
    try:
        own = wheel.resolve() if wheel else _own_wheel(work / "own", log)
        versions = {name: importlib.metadata.version(name) for name in ("anywidget", "jupyterlab_widgets")}
        pins = [f"{name}=={version}" for name, version in versions.items()]
        jupyter = _builder(cache, pins, log)
        requires = _wheel_requires(own)
        needs = browser_requirements(requires, provided=KERNEL_STUBS)
        tarball, provided = _pyodide(cache, needs, log)
        from_pypi = [n for n in browser_requirements(requires, provided=[*provided, *KERNEL_STUBS])]
        wheels = cache / "wheels"
        _download([f"{n}=={importlib.metadata.version(n)}" for n in from_pypi], wheels, log)
        lite = work / "lite"
        (lite / "wheels").mkdir(parents=True)
        shutil.copyfile(own, lite / "wheels" / own.name)
        served = [own.name]
        for path in sorted(wheels.glob("*.whl")):
            if _norm(path.name.split("-")[0]) in from_pypi:
                shutil.copyfile(path, lite / "wheels" / path.name)
                served.append(path.name)
        lessons = _site_lessons(lite / "files")
        (lite / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"contents": ["files"], "output_dir": "_output"},
            "PipliteAddon": {"piplite_urls": ["wheels"]},
            "PyodideAddon": {"pyodide_url": str(tarball)}}, indent=1))
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "Needle in a Card Stack", "exposeAppInBrowser": True}}, indent=1))
        log("building the site (jupyter lite build)")
        _run([str(jupyter), "lite", "build"], log, cwd=lite)
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(lite / "_output", target)
        (target / SITE_MARK).write_text(json.dumps({"needle_widget": own.name, "lessons": list(lessons)}) + "\n")
        size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        return Site(target, lessons, size, tuple(served))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _site_lessons(files: pathlib.Path) -> tuple[str, ...]:
    root = lessons_source()
    notebooks = root / "notebooks"
    files.mkdir(parents=True)
    lessons = []
    for name in BROWSER_LESSONS:
        notebook = json.loads((notebooks / f"{name}.ipynb").read_text(encoding="utf-8"))
        (files / f"{name}.ipynb").write_text(json.dumps(site_notebook(notebook), indent=1, ensure_ascii=False))
        lessons.append(f"{name}.ipynb")
    site_answers(notebooks / "answers", files / "answers")
    for sub in ("data", "images"):
        if (notebooks / sub).is_dir():
            shutil.copytree(notebooks / sub, files / sub)
    return tuple(lessons)


def add_parser(commands: Any) -> None:
    """`needle-widget lite DIR [--wheel WHEEL] [--cache DIR]`."""
    lite = commands.add_parser("lite", help="write the lessons as a JupyterLite site: static files, Python in the "
                               "browser, no install and no internet for the students")
    lite.add_argument("folder", metavar="DIR", help="the site's folder (new or empty, or a site this built)")
    lite.add_argument("--wheel", metavar="WHEEL", type=pathlib.Path,
                      help="the needle_widget wheel to serve (default: built from this clone, or this version's "
                           "from PyPI)")
    lite.add_argument("--cache", metavar="DIR", type=pathlib.Path, default=None,
                      help="where the downloads and the builder's environment are kept (default "
                           "~/.cache/needle_widget/lite)")


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Build the site, saying each step, then how to serve it."""
    site = build_site(pathlib.Path(args.folder), wheel=args.wheel, cache=args.cache,
                      log=lambda line: print(line, file=out, flush=True))
    print(f"The site: {site.folder} ({site.size / 1e6:.0f} MB, {len(site.lessons)} lessons, "
          f"{len(site.wheels)} wheels). Serve it:", file=out)
    print(f"  python -m http.server -d {site.folder} 8000", file=out)
    print("then open http://127.0.0.1:8000/lab/index.html (each lesson's first cell installs needle_widget there)",
          file=out)
    return 0
