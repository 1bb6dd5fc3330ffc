"""The Redis server of the class tests: Debian's redis-server on 127.0.0.1, on a free port, nothing saved.

CI (.ci/run) starts one and names its port in NEEDLE_REDIS_PORT; the tests use it (each test worker its
own database, and room names of its own, as Redis users are the server's, not a database's). Without it
the session starts its own. Without redis-server the tests that need it are skipped, except in CI
(NEEDLE_REQUIRE_BROWSER=1 or NEEDLE_REQUIRE_REDIS=1), where they fail.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time

import pytest
import redis


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_rooms = 0
_RUN = format(time.time_ns() // 1000 % 36**5, 'x')  # a server kept between runs has this run's rooms only


class RedisServer:
    """redis-server on 127.0.0.1:`port` (`start`, `stop`); `url(db, room)` the address of a room on it."""

    def __init__(self, port: int | None = None, worker: str = "") -> None:
        self.port = port or free_port()
        self.worker = worker
        self.db = int(worker[2:]) + 1 if worker.startswith("gw") and worker[2:].isdigit() else 0
        self.folder = tempfile.mkdtemp(prefix="needle-redis-")
        self.process: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", self.folder, "--protected-mode", "yes", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_connect_timeout=0.5)
        for _ in range(100):
            try:
                client.ping()
                return self
            except redis.exceptions.ConnectionError:
                time.sleep(0.05)
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None

    def fresh_url(self, stem: str, db: int | None = None) -> str:
        """The address of a room no test has used on this server, in this run or an earlier one (the server
        outlives a test: a room reopened would bring back an earlier test's students). No FLUSHDB: other
        workers share the server.
        """
        global _rooms
        _rooms += 1
        return self.url(db, room=f"{stem}{_rooms}r{_RUN}")

    def spare_db(self, k: int) -> int:
        """A database of this worker's own besides `db` (k = 0 or 1), e.g. for two twin rooms of one name."""
        index = int(self.worker[2:]) if self.worker.startswith("gw") and self.worker[2:].isdigit() else 0
        return 8 + 2 * index + k

    def url(self, db: int | None = None, room: str = "class") -> str:
        """A room's address on this server (the room's name carries the test worker's, for a shared server)."""
        suffix = f"-{self.worker}" if self.worker else ""
        return f"redis://127.0.0.1:{self.port}/{self.db if db is None else db}?room={room}{suffix}"


def require_redis() -> None:
    if shutil.which("redis-server") is None and not os.path.exists("/usr/bin/redis-server"):
        if os.environ.get("NEEDLE_REQUIRE_BROWSER") == "1" or os.environ.get("NEEDLE_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server is not installed (apt-get install redis-server); CI must run the Redis tests")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
