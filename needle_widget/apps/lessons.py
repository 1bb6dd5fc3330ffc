"""`needle-widget lessons [FOLDER]`: a copy of the lesson notebooks to run, never the project's own files.

Running a lesson changes its notebook (outputs, a student's answers, files it writes beside it), so the lessons run
from a copy: this command copies them into FOLDER (default `./needle-lessons`) in the project's layout,
`FOLDER/notebooks/` with the files the notebooks read (`answers/`, `data/`) and lesson 01 for marimo (`marimo/`), and
`FOLDER/docs/RULES.md`, the rule book lesson 01 links to, then prints the command that opens the first lesson
(`--open` runs it).

The lessons come from the wheel (`needle_widget/lessons/`, put there at build time: pyproject.toml's
`force-include`) or, in a clone (`pip install -e .`), from its `notebooks/` and `docs/`. Only lesson files are
copied (`lesson_files`): no checkpoints, no class room a notebook made, no hidden file.

Copying again never overwrites a file the reader changed: FOLDER keeps a manifest (`MANIFEST`) of what it last
copied, and a file is replaced only if it is still exactly that copy (a newer version of the package brings its
newer lessons); a file changed since (run and saved, edited) is kept, and said so.

>>> import tempfile
>>> folder = pathlib.Path(tempfile.mkdtemp()) / "lessons"
>>> copied = copy_lessons(folder)
>>> "notebooks/01_play.ipynb" in copied.new and (folder / "docs" / "RULES.md").is_file()
True
>>> _ = (folder / "notebooks" / "01_play.ipynb").write_text("{}")   # a student's own work
>>> again = copy_lessons(folder)
>>> again.new, again.kept
([], ['notebooks/01_play.ipynb'])
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import pathlib
import shlex
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from ..engine.errors import NeedleError

__all__ = ["DEFAULT_FOLDER", "FIRST_LESSON", "MANIFEST", "Copied", "lessons_source", "lesson_files", "copy_lessons",
           "open_command", "add_parser", "run"]

DEFAULT_FOLDER = "needle-lessons"
"""Where `needle-widget lessons` copies the lessons when no folder is given (in the current folder)."""
FIRST_LESSON = "notebooks/01_play.ipynb"
"""The lesson the printed command opens."""
MANIFEST = ".needle-lessons.json"
"""The file in FOLDER that lists what was copied last (path -> sha256), so a changed copy is never overwritten."""
_FOLDERS = {"answers": (".csv", ".jsonl", ".md"), "data": (".csv",), "marimo": (".py",)}
"""The notebooks' subfolders a lesson reads, and the kinds of file in them."""


@dataclass
class Copied:
    """What `copy_lessons` did, each a list of paths relative to the folder: copied anew, replaced by a newer
    version (the copy was unchanged), already the same, and kept because they were changed since they were copied.
    """

    folder: pathlib.Path
    new: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    same: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)


def lessons_source(package: pathlib.Path | None = None) -> pathlib.Path:
    """The folder the lessons are copied from: the installed wheel's `needle_widget/lessons/`, or the clone the
    package runs from (its `notebooks/` and `docs/`). NeedleError if neither holds them.
    """
    package = package or pathlib.Path(__file__).resolve().parents[1]
    for root in (package / "lessons", package.parent):
        if (root / FIRST_LESSON).is_file() and (root / "docs" / "RULES.md").is_file():
            return root
    raise NeedleError(f"the lesson notebooks are not in this installation ({package}): install needle_widget from "
                      "a wheel, which holds them, or run from a clone of the project (pip install -e .)")


def lesson_files(root: pathlib.Path) -> list[str]:
    """The lessons' files under `root`, as paths relative to it (posix), sorted: the notebooks, the files they read,
    the rule book. Nothing else (no checkpoints, no room a notebook made, no hidden or linked file).
    """
    notebooks = root / "notebooks"
    found = [f"notebooks/{p.name}" for p in notebooks.glob("*.ipynb") if _plain(p)]
    for sub, kinds in _FOLDERS.items():
        folder = notebooks / sub
        if folder.is_dir() and not folder.is_symlink():
            found += [f"notebooks/{sub}/{p.name}" for p in folder.iterdir() if p.suffix in kinds and _plain(p)]
    return sorted(found) + ["docs/RULES.md"]


def _plain(path: pathlib.Path) -> bool:
    return not path.name.startswith(".") and path.is_file() and not path.is_symlink()


def _sha(path: pathlib.Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def _manifest(folder: pathlib.Path) -> dict[str, str]:
    """The manifest of the last copy into `folder` ({} if none, or not one this command wrote)."""
    try:
        data = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    files = data.get("files") if isinstance(data, dict) else None
    if not isinstance(files, dict):
        return {}
    return {k: v for k, v in files.items() if isinstance(k, str) and isinstance(v, str)}


def _write(target: pathlib.Path, data: bytes) -> None:
    """Write `data` to `target` whole (a temporary file beside it, then moved over it: a link there is replaced,
    never followed).
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(temporary, 0o644)  # the lessons are public: readable, as a copy made by cp would be
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def _check_folder(folder: pathlib.Path, root: pathlib.Path) -> pathlib.Path:
    """`folder` made absolute; NeedleError if it is a file, or the lessons' own folder (or inside it)."""
    target = folder.expanduser().resolve()
    if target.exists() and not target.is_dir():
        raise NeedleError(f"{str(folder)!r} is a file, not a folder")
    source = root.resolve()
    for own in (source / "notebooks", source / "docs", source / "needle_widget"):
        if target == source or target == own or target.is_relative_to(own):
            raise NeedleError(f"{str(folder)!r} is where the lessons come from: give a folder of your own "
                              f"(default ./{DEFAULT_FOLDER})")
    return target


def copy_lessons(folder: str | os.PathLike[str], root: pathlib.Path | None = None) -> Copied:
    """Copy the lessons (from `root`, by default `lessons_source()`) into `folder` (made if missing), never
    overwriting a file changed since this command copied it; what it did.
    """
    root = root or lessons_source()
    target = _check_folder(pathlib.Path(folder), root)
    target.mkdir(parents=True, exist_ok=True)
    before = _manifest(target)
    copied = Copied(target)
    after: dict[str, str] = {}
    for name in lesson_files(root):
        data = (root / name).read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        path = target / name
        if path.is_symlink() or path.exists():
            present = _sha(path) if path.is_file() and not path.is_symlink() else None
            if present == digest:
                copied.same.append(name)
            elif present is not None and before.get(name) == present:
                _write(path, data)
                copied.updated.append(name)
            else:  # changed since it was copied (or never copied by this command): the reader's own
                copied.kept.append(name)
                if name in before:
                    after[name] = before[name]
                continue
        else:
            _write(path, data)
            copied.new.append(name)
        after[name] = digest
    _write(target / MANIFEST, (json.dumps({"files": after}, indent=1, sort_keys=True) + "\n").encode())
    return copied


def open_command(folder: pathlib.Path, as_root: bool | None = None) -> list[str]:
    """The command that opens the first lesson in `folder`'s copy, run from `folder`: JupyterLab serving the whole
    copy (so lesson 01's link to the rule book opens), with `--allow-root` when run as root, which Jupyter asks for.
    """
    if as_root is None:
        as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    return ["jupyter", "lab", *(["--allow-root"] if as_root else []), "--ServerApp.root_dir=.", FIRST_LESSON]


def add_parser(commands: Any) -> None:
    """Add the `lessons` command to `needle-widget`'s subcommands."""
    lessons = commands.add_parser("lessons", help="copy the lesson notebooks into a folder of your own and say how to "
                                  "open them (a student's changed copy is never overwritten)")
    lessons.add_argument("folder", nargs="?", default=DEFAULT_FOLDER, metavar="FOLDER",
                         help=f"where to copy them (default ./{DEFAULT_FOLDER}); copying again adds what is new and "
                              "keeps every file changed since")
    lessons.add_argument("--open", action="store_true", help="then open the first lesson in JupyterLab")


def run(args: argparse.Namespace, out: TextIO,
        launch: Callable[[Sequence[str], pathlib.Path], int] | None = None) -> int:
    """`needle-widget lessons`: copy, say what was copied and kept, print the command that opens the first lesson,
    and with `--open` run it (through `launch`, by default a subprocess in the folder); the exit code.
    """
    copied = copy_lessons(args.folder)
    where = copied.folder
    total = len(copied.new) + len(copied.updated) + len(copied.same) + len(copied.kept)
    print(f"The lessons are in {where}: {total} files ({_counts(copied)}).", file=out)
    if copied.kept:
        print("Kept as they are, changed since they were copied: " + ", ".join(copied.kept), file=out)
    command = open_command(where)
    print("Open the first lesson:", file=out)
    print(f"  cd {shlex.quote(str(where))} && {shlex.join(command)}", file=out)
    if not args.open:
        return 0
    if shutil.which("jupyter") is None:
        raise NeedleError("jupyter is not installed here: pip install \"needle_widget[class]\" brings JupyterLab")
    out.flush()
    return (launch or _launch)(command, where)


def _counts(copied: Copied) -> str:
    parts = [(copied.new, "copied"), (copied.updated, "updated"), (copied.same, "already there"),
             (copied.kept, "kept: you changed them")]
    return ", ".join(f"{len(names)} {what}" for names, what in parts if names) or "none"


def _launch(command: Sequence[str], folder: pathlib.Path) -> int:
    """Run `command` in `folder` until it ends (Ctrl+C stops JupyterLab); its exit code."""
    try:
        return subprocess.run(list(command), cwd=folder).returncode
    except KeyboardInterrupt:
        return 130

