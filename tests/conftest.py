"""Shared test helpers. Tests run with --import-mode=importlib; there is no tests/__init__.py."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA

pytest_plugins = ["pytester"]


class ServeProcess:
    """``rlvr serve`` in its own process on a free 127.0.0.1 port, its log lines collected as they come."""

    def __init__(self, cwd: Path, *args: str, token: str | None = None) -> None:
        import os
        import socket
        import subprocess
        import sys
        import threading
        import time

        import httpx

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        env = {k: v for k, v in os.environ.items() if k != "RLVR_SERVE_TOKEN"}
        if token:
            env["RLVR_SERVE_TOKEN"] = token
        self.url = f"http://127.0.0.1:{self.port}"
        self.lines: list[str] = []
        self.proc = subprocess.Popen([sys.executable, "-m", "rlvr", "serve", "--port", str(self.port), *args],
                                     env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=cwd)
        threading.Thread(target=self._read, daemon=True).start()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and self.proc.poll() is None:
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        self.proc.kill()
        raise AssertionError("server did not start:\n" + "\n".join(self.lines[-30:]))

    def _read(self) -> None:
        for line in self.proc.stderr:  # type: ignore[union-attr]
            self.lines.append(line.rstrip("\n"))

    @property
    def pid(self) -> int:
        return self.proc.pid

    def ready(self, headers: dict[str, str] | None = None, within_s: float = 60) -> int:
        """Poll /readyz (bounded) until it stops answering 503 'warming up'; its final status code."""
        import time

        import httpx

        deadline = time.monotonic() + within_s
        while True:
            r = httpx.get(self.url + "/readyz", headers=headers, timeout=10)
            if r.status_code != 503 or time.monotonic() > deadline:
                return r.status_code
            time.sleep(0.1)

    def threads(self) -> int:
        import os

        return len(os.listdir(f"/proc/{self.pid}/task"))

    def children(self) -> list[int]:
        """Live (not zombie) child processes: the verifier's sandbox workers."""
        import os

        out = []
        for entry in os.listdir("/proc"):
            if entry.isdigit():
                try:
                    fields = open(f"/proc/{entry}/stat").read().rsplit(")", 1)[1].split()
                except OSError:
                    continue
                if int(fields[1]) == self.pid and fields[0] != "Z":
                    out.append(int(entry))
        return out

    def rss_mb(self) -> float:
        for line in open(f"/proc/{self.pid}/status"):
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def stop(self) -> int | None:
        import signal
        import subprocess

        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        return self.proc.returncode


@pytest.fixture
def rlvr_server(tmp_path):
    """A factory: ``rlvr_server(*serve_args, token=None)`` starts a server, stopped at the test's end."""
    started: list[ServeProcess] = []

    def start(*args: str, token: str | None = None) -> ServeProcess:
        started.append(ServeProcess(tmp_path, *args, token=token))
        return started[-1]

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="module")
def serve_process():
    """The :class:`ServeProcess` class, for module-scoped servers."""
    return ServeProcess
