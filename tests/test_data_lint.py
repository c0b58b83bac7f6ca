"""`rlvr data lint` finds the three classic mismatches and passes the shipped recipes."""

from __future__ import annotations

import subprocess
import sys

import pytest

from rlvr.harness.lint import lint_config, lint_recipe
from rlvr.harness.config import load_recipe

RECIPES = ["default-cpu", "tiny-cpu-smoke", "unsloth-qwen3-working-out", "qwen25-math-r1-dapo", "smollm2-135m-cpu"]


@pytest.fixture(scope="module")
def tokenizer():
    from rlvr.harness.local_models import build_tokenizer

    return build_tokenizer(["<think> reasoning </think> <answer> 42 </answer> What is 6 times 7?"], vocab_size=300)


@pytest.mark.parametrize("recipe", RECIPES)
def test_shipped_recipes_pass(recipe):
    assert lint_recipe(recipe) == []


def test_dapo_answer_line_prompt_with_boxed_only_extractor():
    config = load_recipe("tiny-cpu-smoke", ["data.template=dapo",
                                            "rewards=[{name: math_equivalence, params: {verifier: {sources: [boxed]}}}]"])
    [finding] = lint_config(config)
    assert finding.code == "format" and "answer_line" in finding.message and "sources" in finding.fix


def test_format_reward_that_does_not_match_the_template():
    config = load_recipe("tiny-cpu-smoke", ["data.template=working_out",
                                            "rewards=[{name: format_strict, params: {preset: r1}}]"])
    codes = {(f.code, f.severity) for f in lint_config(config)}
    assert ("format", "error") in codes


def test_chat_template_that_prefills_think(tokenizer):
    import copy

    tok = copy.deepcopy(tokenizer)
    tok.chat_template = tok.chat_template.replace("'<|im_start|>assistant\n'", "'<|im_start|>assistant\n<think>\n'")
    config = load_recipe("tiny-cpu-smoke")
    findings = lint_config(config, tok)
    assert [f.code for f in findings] == ["prefill"]
    assert "think_prefilled=true" in findings[0].fix
    fixed = load_recipe("tiny-cpu-smoke", ["rewards=[{name: format_strict, params: {preset: r1, think_prefilled: true}},"
                                           " {name: math_equivalence}]"])
    assert lint_config(fixed, tok) == []


def test_tags_that_the_tokenizer_treats_as_special(tokenizer):
    import copy

    tok = copy.deepcopy(tokenizer)
    tok.add_special_tokens({"additional_special_tokens": ["<think>", "</think>"]})
    findings = lint_config(load_recipe("tiny-cpu-smoke"), tok)
    assert sorted(f.message.split("'")[1] for f in findings if f.code == "special-token") == ["</think>", "<think>"]
    ids = tok("<think>x</think>")["input_ids"]
    assert "<think>" not in tok.decode(ids, skip_special_tokens=True)  # what the finding warns about


def test_cli_exit_codes(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("data: {name: synthetic, template: dapo}\n"
                   "rewards: [{name: boxed_answer}]\n")
    r = subprocess.run([sys.executable, "-m", "rlvr", "data", "lint", "--recipe", str(bad)], capture_output=True, text=True)
    assert r.returncode == 1 and "[format]" in r.stdout and "fix:" in r.stdout
    r = subprocess.run([sys.executable, "-m", "rlvr", "data", "lint", "--recipe", "default-cpu"], capture_output=True, text=True)
    assert r.returncode == 0 and "agree" in r.stdout


def test_a_third_party_reward_is_linted_by_what_it_declares():
    """Lint asks each reward what it reads (Reward.reads), so rewards it has never heard of are checked."""
    from dataclasses import dataclass

    from rlvr.datasets.lint import lint_prompts
    from rlvr.rewards import Reads, Reward, RewardResult, reward
    from rlvr.typed import param

    @reward("acme_boxed_judge_for_tests")
    class AcmeBoxedJudge(Reward):
        """Judges the boxed answer."""

        @dataclass(frozen=True)
        class Params:
            bonus: float = param(1.0, "score of a boxed answer")

        def reads(self) -> Reads:
            return Reads(answer_sources=frozenset({"boxed"}))

        def score(self, completions, prompts, **columns):
            return [RewardResult(self.p.bonus if "\\boxed" in c else 0.0, "ok", "boxed?") for c in completions]

    [finding] = lint_prompts("dapo", [{"name": "acme_boxed_judge_for_tests"}])
    assert finding.code == "format" and "acme_boxed_judge_for_tests" in finding.message
    assert lint_prompts("boxed", [{"name": "acme_boxed_judge_for_tests", "params": {"bonus": 2.0}}]) == []
