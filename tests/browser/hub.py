"""A real JupyterHub on this machine for a browser test: OS accounts made for the test (and removed after it),
a Python those accounts may run, and the hub (LocalProcessSpawner: each user's server runs under their own
account) with configurable-http-proxy, on 127.0.0.1 and free ports.

It needs root (useradd, and a hub that starts servers as other users), `configurable-http-proxy` from npm
(.ci/run installs it into the project's virtual environment: ``npm install --global --prefix .venv
configurable-http-proxy@5.3.0``) and a Python of the tests' own version that every account may run: the
tests' virtual environment usually is not (a Python under root's home: permission denied at spawn), so the
accounts get one of their own, made from Debian's /usr/bin/python3, whose packages are the tests' own.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conftest import _free_port

PYTHONS = ("/usr/bin/python3",)
"""Pythons the accounts may run, tried after the tests' own base Python (the first of the tests' version)."""
PROBE = "import needle_widget, jupyterlab, jupyterhub, ipykernel"
TOOLS = ("useradd", "userdel", "groupdel", "runuser")


def chp() -> str | None:
    """configurable-http-proxy: in the tests' virtual environment (where .ci/run puts it), else on PATH."""
    local = Path(sys.prefix) / "bin" / "configurable-http-proxy"
    return str(local) if local.exists() else shutil.which("configurable-http-proxy")


def missing() -> str | None:
    """Why a hub cannot run here, or None."""
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return "needs root: it makes OS accounts and its hub starts each user's server as that user"
    for tool in TOOLS:
        if shutil.which(tool) is None:
            return f"{tool} not found (Debian's passwd and util-linux packages)"
    try:
        import jupyterhub  # noqa: F401
    except ImportError:
        return "jupyterhub is not installed (pip install -e '.[dev]')"
    if chp() is None:
        return ("configurable-http-proxy not found (npm install --global --prefix .venv "
                "configurable-http-proxy@5.3.0, as .ci/run does)")
    if not _pythons():
        return (f"no Python {sys.version_info[0]}.{sys.version_info[1]} (the tests' version) for the accounts to run "
                f"(the tests' base Python, {', '.join(PYTHONS)})")
    return None


def _pythons() -> list[str]:
    """Pythons of the tests' own version (their packages are shared), the tests' base Python first."""
    found = []
    for candidate in (os.path.realpath(sys._base_executable), *PYTHONS):
        if candidate in found or not os.path.exists(candidate):
            continue
        try:
            version = subprocess.run([candidate, "-c", "import sys; print(sys.version_info[:2])"],
                                     capture_output=True, text=True, timeout=20).stdout.strip()
        except OSError:
            continue
        if version == str(sys.version_info[:2]):
            found.append(candidate)
    return found


def _run(*command: str) -> None:
    subprocess.run(command, check=True, capture_output=True, text=True, timeout=60)


@dataclass
class Account:
    name: str
    uid: int
    gid: int
    home: Path

    def chown(self, path: Path) -> None:
        """`path` and everything under it, this account's."""
        for folder, folders, files in os.walk(path):
            for item in (folder, *(os.path.join(folder, n) for n in folders + files)):
                os.lchown(item, self.uid, self.gid)

    def run(self, *command: str, timeout: float = 60) -> subprocess.CompletedProcess:
        """`command` run as this account (runuser: its own groups), in its home."""
        return subprocess.run(["runuser", "-u", self.name, "--", *command], capture_output=True, text=True,
                              timeout=timeout, cwd=self.home)


@contextmanager
def accounts(*roles: str) -> Iterator[dict[str, Account]]:
    """One new OS account per role, named `nw<role's first letter><random>`, each with its own group (user
    private groups) and a private home; the first role's account (the teacher) is a member of every other's
    group. Removed afterwards with their homes, groups and processes, also when the test fails.
    """
    suffix = secrets.token_hex(3)
    made: dict[str, Account] = {}
    try:
        for role in roles[1:] + roles[:1]:  # the students first: the teacher joins their groups
            name = f"nw{role[0].lower()}{suffix}"
            groups = ["-G", ",".join(a.name for a in made.values())] if role == roles[0] and made else []
            _run("useradd", "--create-home", "--user-group", "--shell", "/bin/sh", "-K", "HOME_MODE=0700",
                 *groups, name)
            entry = pwd.getpwnam(name)
            made[role] = Account(name, entry.pw_uid, entry.pw_gid, Path(entry.pw_dir))
        yield {role: made[role] for role in roles}
    finally:
        for account in (made.get(roles[0]), *(made.get(r) for r in roles[1:])):
            if account is not None:
                kill_processes_of(account.uid)
                subprocess.run(["userdel", "--remove", account.name], capture_output=True, timeout=60)
                subprocess.run(["groupdel", account.name], capture_output=True, timeout=60)  # if userdel left it


def processes_of(uid: int) -> list[int]:
    """The live processes running as `uid` (from /proc; a zombie, dead and not yet waited for, is none)."""
    pids = []
    for entry in os.scandir("/proc"):
        if entry.name.isdigit():
            with suppress(OSError):
                if entry.stat().st_uid == uid and \
                        Path(entry.path, "stat").read_text().rpartition(")")[2].split()[0] != "Z":
                    pids.append(int(entry.name))
    return pids


def kill_processes_of(uid: int, wait: float = 5) -> None:
    """SIGKILL each process of a test account, by its id, until none is left (or `wait` seconds pass)."""
    deadline = time.monotonic() + wait
    while (pids := processes_of(uid)) and time.monotonic() < deadline:
        for pid in pids:
            with suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.05)


def users_python(venv: Path, probe_as: Account) -> tuple[str, float]:
    """A virtual environment at `venv` whose Python `probe_as` may run, with the tests' own packages: (how
    it was made, seconds). Its site-packages, share/ and etc/ are links to the tests' virtual environment
    when the accounts may read it; else copies (hard links where the file system allows), with the project
    itself copied in if it is installed in editable mode.
    """
    start = time.monotonic()
    tried = []
    python = str(venv / "bin" / "python")
    for candidate in _pythons():
        shutil.rmtree(venv, ignore_errors=True)
        subprocess.run([candidate, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True,
                       timeout=60)
        for how in ("linked", "copied"):
            _fill(venv, how)
            probe = probe_as.run(python, "-c", PROBE)
            if probe.returncode == 0:
                return f"{how} into a venv of {candidate}", time.monotonic() - start
            tried.append(f"{candidate}, {how}: {probe.stderr.strip()[-300:]}")
            if "Permission denied" in probe.stderr and python in probe.stderr:
                break  # the account may not run this Python at all
    raise RuntimeError(f"no Python that {probe_as.name} may run imports what a server needs: {tried}")


def _fill(venv: Path, how: str) -> None:
    """The tests' packages in `venv` (see `users_python`)."""
    site = Path(sysconfig.get_paths()["purelib"])
    relative = site.relative_to(sys.prefix)
    pairs = [(site, venv / relative)] + [(Path(sys.prefix) / d, venv / d) for d in ("share", "etc")
                                          if (Path(sys.prefix) / d).is_dir()]
    for source, target in pairs:
        if target.is_symlink() or target.is_file():
            target.unlink()
        elif target.exists():
            shutil.rmtree(target)
        if how == "linked":
            target.symlink_to(source, target_is_directory=True)
        else:
            shutil.copytree(source, target, symlinks=True, copy_function=_link_or_copy)
    if how == "copied":
        import needle_widget

        package = Path(needle_widget.__file__).parent
        copied = venv / relative
        if package.parent != site:  # an editable install: the project's folder, which the accounts may not read
            shutil.copytree(package, copied / package.name, symlinks=True, copy_function=_link_or_copy,
                            ignore=shutil.ignore_patterns("__pycache__"))
            for pth in copied.glob("*.pth"):
                if "needle_widget" in pth.name:
                    pth.unlink()


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


@dataclass
class Hub:
    base: str
    """http://127.0.0.1:PORT, the proxy's public address."""
    token: str
    """A service's API token (starts and reads the users' servers)."""
    password: str
    folder: Path
    proc: subprocess.Popen
    log: Path
    proxy_pid: Path
    timings: dict[str, float] = field(default_factory=dict)

    def api(self, method: str, path: str, timeout: float = 10) -> Any:
        request = urllib.request.Request(f"{self.base}/hub/api{path}", method=method,
                                         headers={"Authorization": f"token {self.token}"})
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            body = answer.read()
        return json.loads(body) if body else {}

    def wait_up(self, seconds: float = 60) -> None:
        """Wait until the hub answers through its proxy."""
        deadline = time.monotonic() + seconds
        while True:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited early:\n{self.log.read_text()[-6000:]}")
            try:
                self.api("GET", "/", timeout=2)
                return
            except (OSError, urllib.error.HTTPError):
                if time.monotonic() > deadline:
                    raise RuntimeError(f"jupyterhub not up after {seconds:g} s:\n{self.log.read_text()[-6000:]}") \
                        from None
                time.sleep(0.1)

    def spawn(self, *accounts: Account, seconds: float = 120) -> None:
        """Start each account's server (all at once) and wait until every one is ready."""
        for account in accounts:
            self.api("POST", f"/users/{account.name}/server")
        deadline = time.monotonic() + seconds
        waiting = {a.name for a in accounts}
        while waiting:
            time.sleep(0.5)
            for user in self.api("GET", "/users"):
                if (user.get("servers", {}).get("") or {}).get("ready"):
                    waiting.discard(user["name"])
            if waiting and (self.proc.poll() is not None or time.monotonic() > deadline):
                raise RuntimeError(f"servers of {sorted(waiting)} not ready:\n{self.log.read_text()[-6000:]}")

    def stop(self, users: list[Account]) -> None:
        """Kill the users' servers and kernels (by id: the processes of their accounts, which only this test
        runs), SIGTERM to the hub (it stops its proxy), then kill what is left of its process group and proxy.
        """
        for account in users:
            kill_processes_of(account.uid)
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        with suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with suppress(OSError, ValueError):
            pid = int(self.proxy_pid.read_text().strip())
            if Path(f"/proc/{pid}/cmdline").read_bytes().find(b"configurable-http-proxy") >= 0:
                os.kill(pid, signal.SIGKILL)


@contextmanager
def jupyterhub(base: Path, users: list[Account], python: Path) -> Iterator[Hub]:
    """A JupyterHub on 127.0.0.1 (free ports), starting (`Hub.wait_up`): a shared password for `users` (the
    only ones allowed), LocalProcessSpawner running `python -m jupyterhub.singleuser` (JupyterLab) under each
    user's account, configurable-http-proxy; its state in `base`/hub (root's alone). Stopped afterwards, with
    its servers and proxy.
    """
    folder = base / "hub"
    folder.mkdir(mode=0o700)
    port, api_port, hub_port = _free_port(), _free_port(), _free_port()
    token, password = secrets.token_hex(32), secrets.token_urlsafe(12)
    config = {
        "ip": "127.0.0.1", "port": port, "hub_ip": "127.0.0.1", "hub_port": hub_port,
        "api_url": f"http://127.0.0.1:{api_port}", "chp": chp(), "db": f"sqlite:///{folder / 'hub.sqlite'}",
        "cookie_secret_file": str(folder / "cookie_secret"), "proxy_pid": str(folder / "proxy.pid"),
        "users": [u.name for u in users], "password": password, "token": token, "python": str(python),
    }
    (folder / "jupyterhub_config.py").write_text(CONFIG.format(config=json.dumps(config)))
    log = folder / "hub.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "JPY_"))}
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "jupyterhub", "-f", str(folder / "jupyterhub_config.py")],
                                cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    hub = Hub(f"http://127.0.0.1:{port}", token, password, folder, proc, log, folder / "proxy.pid")
    try:
        yield hub
    finally:
        hub.stop(users)


CONFIG = '''
import json
config = json.loads({config!r})
c = get_config()  # noqa: F821
c.JupyterHub.ip, c.JupyterHub.port = config["ip"], config["port"]
c.JupyterHub.hub_ip, c.JupyterHub.hub_port = config["ip"], config["hub_port"]
c.ConfigurableHTTPProxy.api_url = config["api_url"]
c.ConfigurableHTTPProxy.command = [config["chp"]]
c.ConfigurableHTTPProxy.pid_file = config["proxy_pid"]
c.JupyterHub.db_url = config["db"]
c.JupyterHub.cookie_secret_file = config["cookie_secret_file"]
c.JupyterHub.cleanup_servers = False  # the test kills them (a graceful stop takes seconds)
c.JupyterHub.cleanup_proxy = True
c.JupyterHub.authenticator_class = "shared-password"
c.SharedPasswordAuthenticator.user_password = config["password"]
c.Authenticator.allowed_users = set(config["users"])
c.JupyterHub.spawner_class = "localprocess"
c.Spawner.cmd = [config["python"], "-m", "jupyterhub.singleuser"]
c.Spawner.default_url = "/lab"
c.Spawner.args = ["--LabApp.expose_app_in_browser=True", "--LabApp.news_url=None",
                  "--LabApp.extension_manager=readonly",
                  "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                  *(f"--ServerApp.jpserver_extensions={{name}}=False" for name in  # not used here: a faster start
                    ("voila.server_extension", "jupyter_lsp", "jupyter_server_terminals", "notebook"))]
c.Spawner.start_timeout = c.Spawner.http_timeout = 120
c.JupyterHub.tornado_settings = {{"slow_spawn_timeout": 0}}  # a request to start a server returns at once
c.JupyterHub.services = [{{"name": "needle-test", "api_token": config["token"]}}]
c.JupyterHub.load_roles = [{{"name": "needle-test", "scopes": ["admin:users", "admin:servers"],
                            "services": ["needle-test"]}}]
'''


def private_base() -> Path:
    """A temporary folder every account may pass through (not list): the users' Python, the shared folder."""
    base = Path(tempfile.mkdtemp(prefix="needle-hub-"))
    os.chmod(base, 0o711)
    return base
