"""A private Redis server for the class tests: Debian's redis-server on 127.0.0.1, on a free port, with
nothing saved to disk. Without redis-server the tests that need it are skipped, except in CI
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


class RedisServer:
    """redis-server on 127.0.0.1:`port` (`start`, `stop`); `url(db, room)` the address of a room on it."""

    def __init__(self, port: int | None = None) -> None:
        self.port = port or free_port()
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

    def url(self, db: int = 0, room: str = "class") -> str:
        return f"redis://127.0.0.1:{self.port}/{db}?room={room}"


def require_redis() -> None:
    if shutil.which("redis-server") is None and not os.path.exists("/usr/bin/redis-server"):
        if os.environ.get("NEEDLE_REQUIRE_BROWSER") == "1" or os.environ.get("NEEDLE_REQUIRE_REDIS") == "1":
            pytest.fail("redis-server is not installed (apt-get install redis-server); CI must run the Redis tests")
        pytest.skip("redis-server is not installed (apt-get install redis-server)")
