"""A real JupyterLab and Debian's headless Chromium for the browser tests.

Recipe: docs/TESTING.md. The tests skip when Chromium or Playwright is
missing, except where NEEDLE_REQUIRE_BROWSER=1 (CI), where they fail instead.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from playwright.sync_api import Page

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
collect_ignore = [] if os.environ.get("NEEDLE_LITE") == "1" else ["test_lite_site.py"]
"""The JupyterLite site's test runs in CI's own stage (.ci/lite, NEEDLE_LITE=1), not in README's command."""
REQUIRED = os.environ.get("NEEDLE_REQUIRE_BROWSER") == "1"
ARTIFACTS = Path(os.environ.get("NEEDLE_ARTIFACTS", Path(__file__).parent / "artifacts"))
KERNEL_READY = """() => {
  const k = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
  return k?.connectionStatus === 'connected' && k?.status === 'idle';
}"""


def _missing() -> str | None:
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    try:
        import jupyterlab  # noqa: F401
        import playwright  # noqa: F401
    except ImportError as error:
        return f"{error.name} is not installed (pip install -e '.[dev]')"
    return None


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    reason = _missing()
    if reason is None:
        return
    for item in items:
        if "browser" in str(item.fspath):
            if REQUIRED:
                item.add_marker(pytest.mark.usefixtures("_browser_missing"))
            else:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def _browser_missing() -> None:
    pytest.fail(f"NEEDLE_REQUIRE_BROWSER=1 but {_missing()}")


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args: dict) -> dict:
    return {
        **browser_type_launch_args, "executable_path": CHROMIUM, "headless": True,
        "args": ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    }


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_up(proc: subprocess.Popen, url: str, name: str, log_path: Path, seconds: float,
                  stop: Callable[[], None]) -> None:
    """Poll `url` until the server `proc` answers; fail the test with its log if it exits or is not up in time."""
    deadline = time.monotonic() + seconds
    while True:
        if proc.poll() is not None:
            pytest.fail(f"{name} exited early:\n{log_path.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except OSError:
            if time.monotonic() > deadline:
                stop()
                pytest.fail(f"{name} not up after {seconds:g} s:\n{log_path.read_text()}")
            time.sleep(0.25)


@pytest.fixture(scope="session")
def jupyter(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    root = tmp_path_factory.mktemp("root")
    home = tmp_path_factory.mktemp("jhome")
    settings = home / "config/lab/user-settings/@jupyterlab/apputils-extension"
    settings.mkdir(parents=True)
    (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(home / "config"), "JUPYTER_RUNTIME_DIR": str(home / "runtime"),
           "IPYTHONDIR": str(home / "ipython")}
    env.pop("ANYWIDGET_HMR", None)
    port, token = _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    log_path = home / "server.log"
    with open(log_path, "w") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={port}",
             "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={token}",
             f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
             "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
             "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
            cwd=root, env=env, stdout=log, stderr=subprocess.STDOUT)
    wait_until_up(proc, f"{base}/api/status?token={token}", "jupyter lab", log_path, 90, proc.kill)
    yield {"base": base, "token": token, "root": root}
    try:
        urllib.request.urlopen(urllib.request.Request(
            f"{base}/api/shutdown", method="POST", headers={"Authorization": f"token {token}"}), timeout=10)
        proc.wait(timeout=20)
    except Exception:
        proc.kill()
        proc.wait()


def to_front(page: Page) -> Page:
    """Bring `page` to the front of its browser before it is clicked in or shot; `page` again.

    Of several JupyterLab pages in one browser context, Chromium draws the ones not in front late (measured in
    tests/browser/test_class_in_jupyterlab.py: a click there, for which Playwright waits for the element to be
    still over two frames, took about 2 s; an element's screenshot 3-4 s; set_theme's wait for two frames 2 s).
    The hub test's pages, each in a context of its own, showed no such delay. Reading a page behind the others
    (an `expect` on its text, a kernel call) needs no frame and is not delayed.
    """
    page.bring_to_front()
    return page


def write_notebook(path: Path, cells: list[str]) -> None:
    """A notebook of code cells, no outputs."""
    nb = {
        "cells": [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {}, "outputs": [],
                   "source": src} for i, src in enumerate(cells)],
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
        "nbformat": 4, "nbformat_minor": 5,
    }
    path.write_text(json.dumps(nb, indent=1))


def copy_notebook(src: Path, dest: Path) -> None:
    shutil.copy(src, dest)


def stop_server(proc: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM to a server started in its own process group (it shuts its kernels down), then anything left."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
