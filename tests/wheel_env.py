"""The release `python -m build` makes: the sdist from the project, and the wheel from the sdist with no Node on
the PATH (the sdist holds the built bundle), installed in a fresh venv with no Node on its PATH.

Shared by tests/test_wheel.py and tests/browser/test_wheel_in_browser.py: built and installed once
per test run however many modules and workers ask for it (a file lock in the workers' shared folder, and a cache
here, not a conftest fixture).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import shutil
import subprocess
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STATIC = ("widget.js", "widget.css", "standalone.js", "board.js", "board.css")
"""The bundles anywidget loads (the widget's, the board's) and the exported page's script (which takes the widget's
styles): all of needle_widget/static/ must be in the wheel."""


@dataclass(frozen=True)
class WheelEnv:
    """A built wheel and a venv it is installed in, whose PATH has no node or npm."""

    wheel: Path
    sdist: Path
    venv: Path
    env: dict[str, str]
    built: dict[str, str]
    """sha256 of each file in the project's needle_widget/static/, read just after the build."""

    @property
    def bin(self) -> Path:
        return self.venv / "bin"

    @property
    def python(self) -> Path:
        return self.bin / "python"

    @property
    def static(self) -> Path:
        """needle_widget/static as installed in the venv."""
        return Path(self.run([str(self.python), "-c", "import needle_widget, pathlib; "
                              "print(pathlib.Path(needle_widget.__file__).parent / 'static')"]).stdout.strip())

    def run(self, args: list[str], timeout: float = 120, check: bool = True) -> subprocess.CompletedProcess[str]:
        """`args` in the venv's environment (no Node), outside the project folder; fails the test on error, unless
        `check` is false.
        """
        done = subprocess.run(args, env=self.env, cwd=self.venv, capture_output=True, text=True, timeout=timeout)
        if check and done.returncode:
            pytest.fail(f"{args} exited {done.returncode}:\n{done.stdout}\n{done.stderr}")
        return done

    def names(self) -> list[str]:
        """Every file in the wheel, by its path in the archive."""
        with zipfile.ZipFile(self.wheel) as whl:
            return whl.namelist()

    def members(self) -> dict[str, bytes]:
        """The wheel's needle_widget/static files, by name."""
        prefix = "needle_widget/static/"
        with zipfile.ZipFile(self.wheel) as whl:
            return {name.removeprefix(prefix): whl.read(name) for name in whl.namelist() if name.startswith(prefix)}


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def no_node_env(bin_dir: Path) -> dict[str, str]:
    """The current environment with PATH = only the venv's bin: no node, no npm (Debian's live in /usr/bin)."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "NODE_PATH")}
    env["PATH"] = str(bin_dir)
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    for tool in ("node", "npm", "npx"):
        assert shutil.which(tool, path=env["PATH"]) is None, f"{tool} is on the wheel venv's PATH"
    return env


_CACHE: dict[str, WheelEnv] = {}


def _shared(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder all of this run's workers share: the parent of each xdist worker's base folder."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def wheel_env(tmp_path_factory: pytest.TempPathFactory) -> WheelEnv:
    """Build the wheel from the project folder and install it in a fresh venv, once per test run: the first worker
    to ask builds it (the others wait on a lock), and every worker reads what it made.
    """
    if "env" in _CACHE:
        return _CACHE["env"]
    out = _shared(tmp_path_factory) / "wheel"
    out.mkdir(exist_ok=True)
    with open(out / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        made = out / "made.json"
        if not made.exists():
            made.write_text(json.dumps(_build(out)), encoding="utf-8")
        record = json.loads(made.read_text(encoding="utf-8"))
    venv = Path(record["venv"])
    _CACHE["env"] = WheelEnv(wheel=Path(record["wheel"]), sdist=Path(record["sdist"]), venv=venv,
                             env=no_node_env(venv / "bin"), built=record["built"])
    return _CACHE["env"]


def _build(out: Path) -> dict[str, object]:
    """Build the sdist into `out`/dist, the wheel from it with no Node on the PATH, and install the wheel in
    `out`/venv; the paths and the static files' hashes.
    """
    # The sdist runs the hatch-jupyter-builder hook: npm only if js/ is newer than needle_widget/static/ (a release
    # builds the bundle first: .ci/release). The wheel from the sdist skips it (skip-if-exists): no Node.
    dist = out / "dist"
    made = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(dist), str(ROOT)],
                          cwd=ROOT, capture_output=True, text=True, timeout=600)
    if made.returncode:
        pytest.fail(f"python -m build --sdist failed:\n{made.stdout[-4000:]}\n{made.stderr[-4000:]}")
    (sdist,) = dist.glob("needle_widget-*.tar.gz")
    bare = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    for tool in ("node", "npm", "npx"):
        assert shutil.which(tool, path=bare["PATH"]) is None, f"{tool} is on the PATH the wheel is built with"
    built = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist), str(sdist)],
                           cwd=out, env=bare, capture_output=True, text=True, timeout=600)
    if built.returncode:
        pytest.fail(f"python -m build --wheel from the sdist failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}")
    static = ROOT / "needle_widget" / "static"
    hashes = {path.name: sha256(path.read_bytes()) for path in static.iterdir() if path.is_file()}
    (wheel,) = (out / "dist").glob("needle_widget-*.whl")
    venv = out / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    env = no_node_env(venv / "bin")
    installed = subprocess.run([str(venv / "bin/python"), "-m", "pip", "install", "--quiet", str(wheel)],
                               env=env, cwd=out, capture_output=True, text=True, timeout=600)
    if installed.returncode:
        pytest.fail(f"pip install {wheel.name} failed:\n{installed.stdout[-4000:]}\n{installed.stderr[-4000:]}")
    return {"wheel": str(wheel), "sdist": str(sdist), "venv": str(venv), "built": hashes}
