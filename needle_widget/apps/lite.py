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
`~/.cache/needle_widget/lite`), so a second build downloads none of it again.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import pathlib
import shlex
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
           "site_answers", "site_files", "browser_requirements", "build_site", "add_parser", "run"]

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
            cell = {**({"id": cell["id"]} if "id" in cell else {}), "cell_type": "markdown",
                    "metadata": {"tags": [NOT_IN_BROWSER]},
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
    """A distribution's name as the package index compares them (PEP 503)."""
    from packaging.utils import canonicalize_name

    return canonicalize_name(name)


def browser_requirements(requires: Iterable[str], provided: Iterable[str] = (),
                         installed: Callable[[str], list[str] | None] | None = None) -> list[str]:
    """The distributions a browser install of a package with `requires` (its Requires-Dist) needs, each once,
    sorted, with what theirs need in turn: markers read for Pyodide, so what only a computer needs (cryptography,
    redis) is left out. `provided` (Pyodide's own packages, the kernel's stand-ins) are not followed.
    `installed(name)` gives a distribution's own Requires-Dist (default: the installed one's).

    >>> browser_requirements(["tqdm>=4", "redis>=5; sys_platform != 'emscripten'"], installed=lambda name: [])
    ['tqdm']
    """
    from packaging.requirements import Requirement

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
    try:
        done = subprocess.run(command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except FileNotFoundError:
        raise NeedleError(f"{command[0]!r} is not installed or not on the PATH") from None
    if done.returncode:
        tail = "\n".join(done.stdout.splitlines()[-15:])
        raise NeedleError(f"{' '.join(command[:4])} ... failed (exit {done.returncode}):\n{tail}")


def _wheel_key(path: pathlib.Path) -> str | None:
    """`name==version` of a wheel file, both normalized (None if the name is not a wheel's)."""
    from packaging.utils import InvalidWheelFilename, canonicalize_version, parse_wheel_filename

    try:
        name, version, _, _ = parse_wheel_filename(path.name)
    except InvalidWheelFilename:
        return None
    return f"{name}=={canonicalize_version(version)}"


def _pin_key(pin: str) -> str:
    from packaging.utils import canonicalize_version

    name, version = pin.split("==")
    return f"{_norm(name)}=={canonicalize_version(version)}"


def _download(pins: list[str], folder: pathlib.Path, log: Callable[[str], None],
              python: str = "3.14") -> dict[str, pathlib.Path]:
    """Pure-Python wheels of `pins` (`name==version`) in `folder`, downloaded where missing (into a temporary
    folder first, so a download cut short leaves nothing behind); each pin's wheel.
    """
    folder.mkdir(parents=True, exist_ok=True)
    have = {key: path for path in folder.glob("*.whl") if (key := _wheel_key(path))}
    wanted = [pin for pin in pins if _pin_key(pin) not in have]
    if wanted:
        log(f"downloading {len(wanted)} wheels: {' '.join(wanted)}")
        part = pathlib.Path(tempfile.mkdtemp(dir=folder, prefix=".part-"))
        try:
            _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:",
                  "--platform", "any", "--python-version", python, "--implementation", "py", "-d", str(part),
                  *wanted], log)
            for path in part.glob("*.whl"):
                path.replace(folder / path.name)
                have[_wheel_key(folder / path.name) or path.name] = folder / path.name
        finally:
            shutil.rmtree(part, ignore_errors=True)
    missing = [pin for pin in pins if _pin_key(pin) not in have]
    if missing:
        raise NeedleError(f"no pure-Python wheel of {', '.join(missing)} on the package index")
    return {pin: have[_pin_key(pin)] for pin in pins}


def _bin(venv: pathlib.Path, name: str) -> pathlib.Path:
    return venv / ("Scripts" if os.name == "nt" else "bin") / name


def _builder(cache: pathlib.Path, pins: list[str], log: Callable[[str], None]) -> pathlib.Path:
    """The `jupyter` of a virtual environment with the site builder and `pins` (the widgets' JupyterLab
    extensions), made once per set of versions.
    """
    key = hashlib.sha256(json.dumps([*BUILDER, *pins, sys.version]).encode()).hexdigest()[:12]
    venv = cache / f"builder-{key}"
    if not (venv / "ready").is_file():
        shutil.rmtree(venv, ignore_errors=True)
        log(f"making the site builder's environment: {venv}")
        _run([sys.executable, "-m", "venv", str(venv)], log)
        _run([str(_bin(venv, "python")), "-m", "pip", "install", "--quiet", *BUILDER, *pins], log)
        (venv / "ready").write_text("\n".join([*BUILDER, *pins]) + "\n")
    return _bin(venv, "jupyter")


def _pyodide_core(cache: pathlib.Path, log: Callable[[str], None]) -> pathlib.Path:
    """Pyodide's core from its npm package, in the cache: assembled in a temporary folder, then moved into place
    whole, so an interrupted download leaves no half of it. The lock as published is kept beside it.
    """
    core = cache / f"pyodide-{PYODIDE}" / "pyodide"
    if (core / "pyodide-lock.orig.json").is_file():
        return core
    npm = shutil.which("npm")
    if npm is None:
        raise NeedleError("needle-widget lite takes Pyodide's core from the npm registry: install Node.js and npm")
    work = pathlib.Path(tempfile.mkdtemp(dir=cache, prefix=".part-"))
    try:
        log(f"downloading pyodide {PYODIDE} (npm)")
        _run([npm, "pack", "--silent", f"pyodide@{PYODIDE}"], log, cwd=work)
        with tarfile.open(work / f"pyodide-{PYODIDE}.tgz") as archive:
            if hasattr(tarfile, "data_filter"):
                archive.extractall(work, filter="data")
            else:  # pragma: no cover - Python 3.10 before 3.10.12
                archive.extractall(work)  # noqa: S202 (the npm registry's own package)
        assembled = work / "pyodide"
        assembled.mkdir()
        for path in (work / "package").iterdir():
            if path.suffix in (".mjs", ".js", ".wasm", ".zip", ".json") and not path.name.endswith(".map"):
                shutil.copyfile(path, assembled / path.name)
        (assembled / "pyodide-lock.json").replace(assembled / "pyodide-lock.orig.json")
        shutil.rmtree(core.parent, ignore_errors=True)
        core.parent.mkdir(parents=True)
        assembled.replace(core)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return core


def _pyodide(cache: pathlib.Path, needs: list[str], log: Callable[[str], None]) -> tuple[pathlib.Path, list[str]]:
    """A Pyodide tarball that needs no internet: the npm package's core, and the pure-Python packages of its lock
    that the kernel and `needs` load, from PyPI, with their hashes written into the lock (Pyodide's own builds of
    them differ from PyPI's). Also the names the lock provides.
    """
    core = _pyodide_core(cache, log)
    lock = json.loads((core / "pyodide-lock.orig.json").read_text())
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
    pins = {n: f"{n}=={packages[by_name[n]]['version']}" for n in sorted(closure)}
    wheels = _download(list(pins.values()), core.parent / "wheels", log)
    for name, pin in pins.items():
        entry = packages[by_name[name]]
        entry["file_name"] = wheels[pin].name
        entry["sha256"] = hashlib.sha256(wheels[pin].read_bytes()).hexdigest()
    key = hashlib.sha256(json.dumps(sorted(pins.values())).encode()).hexdigest()[:8]
    tarball = core.parent / f"pyodide-{PYODIDE}-{key}.tar.bz2"
    if not tarball.is_file():
        part = tarball.with_name(f".{tarball.name}.part")
        with tarfile.open(part, "w:bz2") as archive:
            for path in sorted(core.iterdir()):
                if path.name != "pyodide-lock.orig.json":
                    archive.add(path, arcname=f"pyodide/{path.name}")
            data = json.dumps(lock).encode()
            info = tarfile.TarInfo("pyodide/pyodide-lock.json")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
            for pin in pins.values():
                archive.add(wheels[pin], arcname=f"pyodide/{wheels[pin].name}")
        part.replace(tarball)
    return tarball, sorted(by_name)


def _check_wheel(wheel: pathlib.Path) -> pathlib.Path:
    """`wheel` if it is a pure-Python needle_widget wheel, else NeedleError quoting it."""
    key = _wheel_key(wheel)
    if not wheel.is_file():
        raise NeedleError(f"no wheel at {str(wheel)!r}")
    if key is None or not key.startswith("needle-widget==") or not wheel.name.endswith("-py3-none-any.whl") \
            or not zipfile.is_zipfile(wheel):
        raise NeedleError(f"{str(wheel)!r} is not a pure-Python needle_widget wheel (needle_widget-*-py3-none-any.whl):"
                          " a browser installs no compiled wheel")
    return wheel.resolve()


def _own_wheel(out: pathlib.Path, log: Callable[[str], None]) -> pathlib.Path:
    """needle_widget's wheel: built from the clone the package runs from, else this version's from PyPI."""
    from .._version import __version__

    out.mkdir(parents=True, exist_ok=True)
    root = pathlib.Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "needle_widget" / "static" / "widget.js").is_file():
        log(f"building the wheel from {root}")
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(root)], log)
    else:
        log(f"downloading needle_widget {__version__} from PyPI")
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:", "--platform",
              "any", "--implementation", "py", "--python-version", "3.14", "-d", str(out),
              f"needle_widget=={__version__}"], log)
    found = sorted(out.glob("needle_widget-*.whl"))
    if not found:
        raise NeedleError(f"no needle_widget wheel was made in {str(out)!r}")
    return _check_wheel(found[-1])


def _wheel_requires(wheel: pathlib.Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        name = next((n for n in archive.namelist() if n.endswith(".dist-info/METADATA")), None)
        if name is None:
            raise NeedleError(f"{wheel.name!r} is not a wheel: it has no METADATA")
        text = archive.read(name).decode("utf-8")
    return [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("Requires-Dist:")
            and "extra ==" not in line]


def _served_versions(requires: list[str], names: list[str]) -> list[str]:
    """`name==version` for each of `names`, the version installed here, which the wheel's own requirement of it
    must allow (the site serves one version of each, and the browser has no index to ask for another).
    """
    from packaging.requirements import Requirement

    asked = {_norm(r.name): r for r in map(Requirement, requires)}
    pins = []
    for name in names:
        try:
            version = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            raise NeedleError(f"{name!r} is not installed here, so the version to serve is unknown: pip install "
                              f"{name}") from None
        requirement = asked.get(_norm(name))
        if requirement is not None and not requirement.specifier.contains(version, prereleases=True):
            raise NeedleError(f"the wheel asks for {str(requirement)!r} but {name} {version} is installed here: "
                              "install a version it allows, or give the wheel of this version")
        pins.append(f"{name}=={version}")
    return pins


def _check_target(folder: pathlib.Path) -> pathlib.Path:
    """`folder`, absolute, if it may hold the site: new, empty, or a site this command wrote with nothing added."""
    target = folder.expanduser().resolve()
    if not target.exists():
        return target
    if not target.is_dir():
        raise NeedleError(f"{str(folder)!r} is a file, not a folder")
    present = {path.name for path in target.iterdir()}
    if not present:
        return target
    if SITE_MARK not in present:
        raise NeedleError(f"{str(folder)!r} is not empty and holds no site this command built: give an empty or "
                          "new folder")
    try:
        written = set(json.loads((target / SITE_MARK).read_text(encoding="utf-8"))["files"])
    except (OSError, ValueError, KeyError, TypeError):
        raise NeedleError(f"{str(folder)!r}: its {SITE_MARK} is not one this command wrote") from None
    added = sorted(present - written - {SITE_MARK})
    if added:
        raise NeedleError(f"{str(folder)!r} holds {', '.join(map(repr, added[:5]))}, which this command did not "
                          "write: move them out, or give another folder")
    return target


def _replace_site(built: pathlib.Path, target: pathlib.Path, mark: dict[str, Any]) -> None:
    """Put the site in `built` into `target`: what a site there had written is removed, the new files moved in,
    the mark written last (so a site cut short is refused, never mistaken for a whole one).
    """
    target.mkdir(parents=True, exist_ok=True)
    if (target / SITE_MARK).is_file():
        old = json.loads((target / SITE_MARK).read_text(encoding="utf-8"))["files"]
        (target / SITE_MARK).unlink()
        for name in old:
            path = target / name
            if path.is_dir() and not path.is_symlink():
                shutil.rmtree(path)
            elif path.exists() or path.is_symlink():
                path.unlink()
    names = sorted(path.name for path in built.iterdir())
    for name in names:
        shutil.move(str(built / name), str(target / name))
    (target / SITE_MARK).write_text(json.dumps({**mark, "files": names}, indent=1) + "\n", encoding="utf-8")


def build_site(folder: pathlib.Path, *, wheel: pathlib.Path | None = None, cache: pathlib.Path | None = None,
               log: Callable[[str], None] = lambda line: None) -> Site:
    """Write a JupyterLite site of the lessons into `folder` (new, empty, or a site this built before, replaced).

    Needs pip, npm (for Pyodide's core) and the package registries; what it downloads stays in `cache`.
    """
    if importlib.util.find_spec("packaging") is None:  # JupyterLab brings it (the class extra); a bare install may not
        raise NeedleError("needle-widget lite reads the wheels' requirements with the packaging library: pip install "
                          "packaging")
    target = _check_target(folder)
    own = _check_wheel(wheel) if wheel is not None else None
    cache = (cache or pathlib.Path(os.environ.get("XDG_CACHE_HOME", pathlib.Path.home() / ".cache"))
             / "needle_widget" / "lite").expanduser().resolve()
    if cache.is_relative_to(target) or target.is_relative_to(cache):
        raise NeedleError(f"the cache {str(cache)!r} and the site {str(target)!r} must be apart: one is inside the "
                          "other")
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise NeedleError(f"the cache {str(cache)!r} is a file, not a folder") from None
    work = pathlib.Path(tempfile.mkdtemp(prefix="needle-lite-"))
    try:
        own = own or _own_wheel(work / "own", log)
        pins = _served_versions([], ["anywidget", "jupyterlab_widgets"])
        jupyter = _builder(cache, pins, log)
        requires = _wheel_requires(own)
        needs = browser_requirements(requires, provided=KERNEL_STUBS)
        tarball, provided = _pyodide(cache, needs, log)
        from_pypi = browser_requirements(requires, provided=[*provided, *KERNEL_STUBS])
        wheels = _download(_served_versions(requires, from_pypi), cache / "wheels", log)
        lite = work / "lite"
        (lite / "wheels").mkdir(parents=True)
        shutil.copyfile(own, lite / "wheels" / own.name)
        served = [own.name]
        for path in wheels.values():
            shutil.copyfile(path, lite / "wheels" / path.name)
            served.append(path.name)
        lessons = site_files(lite / "files")
        (lite / "jupyter_lite_config.json").write_text(json.dumps({
            "LiteBuildConfig": {"contents": ["files"], "output_dir": "_output"},
            "PipliteAddon": {"piplite_urls": ["wheels"]},
            "PyodideAddon": {"pyodide_url": str(tarball)}}, indent=1))
        # exposeAppInBrowser: window.jupyterapp, which the CI test drives; the site holds nothing private.
        (lite / "jupyter-lite.json").write_text(json.dumps({
            "jupyter-lite-schema-version": 0,
            "jupyter-config-data": {"appName": "Needle in a Card Stack", "exposeAppInBrowser": True}}, indent=1))
        log("building the site (jupyter lite build)")
        _run([str(jupyter), "lite", "build"], log, cwd=lite)
        _check_target(folder)  # again: nothing was added while it built
        _replace_site(lite / "_output", target, {"needle_widget": own.name, "lessons": list(lessons)})
        size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
        return Site(target, lessons, size, tuple(served))
    finally:
        shutil.rmtree(work, ignore_errors=True)


def site_files(files: pathlib.Path) -> tuple[str, ...]:
    """Write the site's contents into `files`, in the lessons' own layout (`notebooks/`, and `docs/RULES.md`,
    which lesson 01 links to): the lessons that run in a browser (`site_notebook`), the files they read, lesson
    05's answers (`site_answers`). The lessons' paths, as the site opens them.
    """
    from .lessons import lesson_files

    root = lessons_source()
    lessons = []
    (files / "notebooks").mkdir(parents=True, exist_ok=True)
    for name in BROWSER_LESSONS:
        path = f"notebooks/{name}.ipynb"
        notebook = json.loads((root / path).read_text(encoding="utf-8"))
        (files / path).write_text(json.dumps(site_notebook(notebook), indent=1, ensure_ascii=False) + "\n",
                                  encoding="utf-8")
        lessons.append(path)
    site_answers(root / "notebooks" / "answers", files / "notebooks" / "answers")
    for path in lesson_files(root):
        if path.startswith(("notebooks/data/", "docs/")):
            (files / path).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / path, files / path)
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
    print(f"  python -m http.server -d {shlex.quote(str(site.folder))} 8000", file=out)
    print(f"then open http://127.0.0.1:8000/lab/index.html?path={site.lessons[0]} (each lesson's first cell "
          "installs needle_widget there)", file=out)
    return 0
