"""Real browsers in `needle-widget bench class --browsers N`: a private JupyterLab server (a free port, a
token, a throwaway root and config) and Debian's headless Chromium driven by Playwright's sync API. Each
browser student is a page of its own running a notebook `w = NeedleWidget.join(URL, CODE); w` in its own
kernel; a MutationObserver in the page records `Date.now()` the first time the follow bar reads
"Following the teacher at step k". The teacher's clock is `time.time_ns()`: the same wall clock.

Never `playwright install`: the browser is Debian's (`apt-get install chromium`), or $CHROMIUM.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from ..classroom.errors import ClassError

__all__ = ["missing", "Browsers"]

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-background-timer-throttling", "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows"]
SERVER_UP = 90.0
"""Seconds the JupyterLab server has to answer."""
PAGE_READY = 120.0
"""Seconds a page has to load, start its kernel and show the follow bar."""
KERNEL_READY = """() => {
  const k = window.jupyterapp?.shell?.currentWidget?.sessionContext?.session?.kernel;
  return k?.connectionStatus === 'connected' && k?.status === 'idle';
}"""
FOLLOW = '.jp-NotebookPanel:not(.lm-mod-hidden) .nw-root [data-key="follow-status"]'
FOLLOW_READY = """(selector) => {
  const el = document.querySelector(selector);
  const text = el ? el.textContent : "";
  return text.startsWith("Following the teacher at step 0") || text.startsWith("Waiting");
}"""
OBSERVE = """(selector) => {
  const times = window.__needleBench = {};
  const read = () => {
    const now = Date.now();
    const el = document.querySelector(selector);
    const m = el && /^Following the teacher at step (\\d+)/.exec(el.textContent);
    if (m && !(m[1] in times)) times[m[1]] = now;
  };
  window.__needleObserver = new MutationObserver(read);
  window.__needleObserver.observe(document.body, {subtree: true, childList: true, characterData: true});
  read();
}"""


def missing() -> str | None:
    """Why the browsers cannot run here (Chromium, Playwright or JupyterLab missing), or None."""
    if not Path(CHROMIUM).exists():
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    for module in ("playwright", "jupyterlab"):
        try:
            __import__(module)
        except ImportError:
            return f"{module} is not installed (pip install -e '.[dev]')"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _notebook(path: Path, source: str) -> None:
    cell: dict[str, Any] = {"cell_type": "code", "execution_count": None, "id": "c0", "metadata": {}, "outputs": [],
                            "source": source}
    path.write_text(json.dumps({
        "cells": [cell], "nbformat": 4, "nbformat_minor": 5,
        "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}},
    }))


class Browsers:
    """`count` headless Chromium pages on a private JupyterLab: `start()` the server and the browser,
    `join(url, codes)` a page per ticket (waits for each follow bar, then observes it), `shown(step)`
    how many pages have shown `step`, `times()` each page's {step: Date.now()}, `leave()` closes the
    pages and their kernels, `close()` everything. Every wait is bounded.
    """

    def __init__(self, count: int) -> None:
        self.count = count
        self.home = Path(tempfile.mkdtemp(prefix="needle-bench-jupyter-"))
        self.root = self.home / "root"
        self.root.mkdir()
        self.port, self.token = _free_port(), secrets.token_hex(16)
        self.base = f"http://127.0.0.1:{self.port}"
        self.server: subprocess.Popen | None = None
        self.playwright: Any = None
        self.browser: Any = None
        self.pages: list[Any] = []
        self.notebooks = 0

    # ---- the server and the browser -----------------------------------------------------------

    def start(self) -> Browsers:
        """Start the server (wait until it answers), then Playwright and Chromium."""
        settings = self.home / "config/lab/user-settings/@jupyterlab/apputils-extension"
        settings.mkdir(parents=True)
        (settings / "notification.jupyterlab-settings").write_text('{"fetchNews": "false"}')
        env = {**os.environ, "JUPYTER_CONFIG_DIR": str(self.home / "config"),
               "JUPYTER_RUNTIME_DIR": str(self.home / "runtime"), "IPYTHONDIR": str(self.home / "ipython")}
        env.pop("ANYWIDGET_HMR", None)
        self.log = self.home / "server.log"
        with open(self.log, "w") as log:
            self.server = subprocess.Popen(
                [sys.executable, "-m", "jupyterlab", "--no-browser", "--allow-root", f"--port={self.port}",
                 "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1", f"--IdentityProvider.token={self.token}",
                 f"--ServerApp.root_dir={self.root}", "--LabApp.expose_app_in_browser=True",
                 "--LabApp.news_url=None", "--LabApp.extension_manager=readonly",
                 "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"],
                cwd=self.root, env=env, stdout=log, stderr=subprocess.STDOUT)
        end = time.monotonic() + SERVER_UP
        while True:
            if self.server.poll() is not None:
                raise ClassError(f"jupyter lab exited early: {self._log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base}/api/status?token={self.token}", timeout=2):
                    break
            except OSError:
                if time.monotonic() > end:
                    raise ClassError(f"jupyter lab was not up after {SERVER_UP:g} s: {self._log_tail()}") from None
                time.sleep(0.25)
        from playwright.sync_api import sync_playwright

        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise ClassError("the browsers need Playwright's sync API: run the bench outside an asyncio loop "
                             "(in a thread of its own, or from the command line)")
        try:
            self.playwright = sync_playwright().start()
            self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS,
                                                           timeout=60_000)
        except Exception as error:
            first = str(error).strip().splitlines()[0] if str(error).strip() else ""
            raise ClassError(f"Chromium did not start ({type(error).__name__}: {first})") from None
        return self

    def _log_tail(self) -> str:
        try:
            return " | ".join(self.log.read_text().strip().splitlines()[-3:])
        except OSError:
            return "(no log)"

    # ---- the students' pages -----------------------------------------------------------------

    def join(self, url: str, codes: list[str]) -> None:
        """A page per ticket in `codes`, each joining the room at `url` in a notebook of its own; waits
        until every page shows the follow bar, then installs the observers.
        """
        for code in codes:
            self.notebooks += 1
            name = f"bench-student-{self.notebooks}.ipynb"
            _notebook(self.root / name, "from needle_widget import NeedleWidget\n"
                                        f"w = NeedleWidget.join({url!r}, {code!r})\nw")
            page = self.browser.new_page(viewport={"width": 1200, "height": 900})
            self.pages.append(page)
            page.set_default_timeout(PAGE_READY * 1000)
            page.goto(f"{self.base}/lab/tree/{name}?reset&token={self.token}")
            page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").first.wait_for()
            page.wait_for_function(KERNEL_READY)
            page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        for page in self.pages:
            try:
                page.wait_for_function(FOLLOW_READY, arg=FOLLOW, timeout=PAGE_READY * 1000)
            except Exception as error:
                raise ClassError(f"a browser page did not show the follow bar in {PAGE_READY:g} s "
                                 f"({type(error).__name__})") from None
            page.evaluate(OBSERVE, FOLLOW)

    def shown(self, step: int) -> int:
        """How many pages have shown `step` live."""
        key = str(step)
        return sum(bool(page.evaluate("k => window.__needleBench && k in window.__needleBench", key))
                   for page in self.pages)

    def wait_shown(self, step: int, timeout: float) -> None:
        """Wait until every page has shown `step` live (at most `timeout` seconds)."""
        end = time.monotonic() + timeout
        while self.shown(step) < len(self.pages):
            if time.monotonic() > end:
                raise ClassError(f"{len(self.pages) - self.shown(step)} browsers did not show step {step} "
                                 f"within {timeout:g} s")
            time.sleep(0.02)

    def times(self) -> list[dict[int, float]]:
        """Each page's {step: Date.now() in ms} of the first time its follow bar showed the step."""
        return [{int(k): float(v) for k, v in page.evaluate("() => window.__needleBench || {}").items()}
                for page in self.pages]

    def leave(self) -> None:
        """Close the pages and shut their kernels down (the next channel starts afresh)."""
        for page in self.pages:
            try:
                page.close()
            except Exception:
                pass
        self.pages = []
        if self.server is None or self.server.poll() is not None:
            return
        try:
            headers = {"Authorization": f"token {self.token}"}
            with urllib.request.urlopen(urllib.request.Request(f"{self.base}/api/sessions", headers=headers),
                                        timeout=10) as answer:
                sessions = json.load(answer)
            for session in sessions:
                urllib.request.urlopen(urllib.request.Request(
                    f"{self.base}/api/sessions/{session['id']}", method="DELETE", headers=headers), timeout=20)
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        """Stop the pages, the browser, Playwright and the server; remove the temporary root."""
        try:
            self.leave()
        finally:
            for stop in (lambda: self.browser and self.browser.close(),
                         lambda: self.playwright and self.playwright.stop()):
                try:
                    stop()
                except Exception:
                    pass
            self.browser = self.playwright = None
            if self.server is not None:
                try:
                    urllib.request.urlopen(urllib.request.Request(
                        f"{self.base}/api/shutdown", method="POST",
                        headers={"Authorization": f"token {self.token}"}), timeout=10)
                    self.server.wait(timeout=20)
                except Exception:
                    self.server.kill()
                    self.server.wait(timeout=10)
                self.server = None
            shutil.rmtree(self.home, ignore_errors=True)
