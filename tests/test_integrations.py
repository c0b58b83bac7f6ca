"""verl's and OpenRLHF's reward entry points, called with the signatures those frameworks use."""

from __future__ import annotations

import asyncio
import pickle

import pytest
import torch

from rlvr.errors import ConfigError

from rlvr.integrations import openrlhf, verl

HUGE = "9" * 5000


def test_verl_compute_score_is_a_dict_with_stable_keys_and_never_raises():
    right = verl.compute_score("math_dapo", "so \\boxed{12}", "12", {"prompt": "q", "index": 3})
    wrong = verl.compute_score("math_dapo", "so \\boxed{13}", "12")
    odd = verl.compute_score("math_dapo", f"\\boxed{{{HUGE}}}", "12", None)
    abstain = verl.compute_score("math_dapo", "\\boxed{3}", "The answer cannot be determined from the data")
    assert right["score"] == 1.0 and right["acc"] == 1.0 and wrong["score"] == 0.0
    assert set(right) == set(wrong) == set(odd) == set(abstain)  # verl averages the same keys every call
    assert abstain["score"] == verl.ABSTAIN_SCORE and abstain["rlvr_abstained"] == 1.0
    assert all(isinstance(v, float) for v in right.values())


def test_verl_batch_async_and_reward_kwargs(tmp_path):
    config = tmp_path / "r.yaml"
    config.write_text("rewards:\n  - {name: math_equivalence, params: {preset: dapo}}\n  - {name: think_format, weight: 0.1}\n")
    out = verl.compute_score_batch(["a", "a"], ["<think>x</think>\\boxed{2}", "\\boxed{3}"], ["2", "2"], [{}, {}],
                                   rewards=str(config))
    assert [o["score"] for o in out] == [1.1, -1.0] and "think_format" in out[0]
    single = asyncio.run(verl.compute_score_async("a", "\\boxed{2}", "2", {}, rewards=str(config)))
    assert single["score"] == 1.0
    # a config that cannot load fails loudly, naming the file: never a run scored 0.0 throughout
    with pytest.raises(ConfigError, match="missing.yaml does not exist"):
        verl.compute_score("a", "\\boxed{2}", "2", rewards=str(tmp_path / "missing.yaml"))
    bad = tmp_path / "bad.yaml"
    bad.write_text("rewards:\n  - {name: math_equivalence, params: {preset: strict}}\n")
    with pytest.raises(ConfigError, match=f"reward config {bad}: .*preset='strict'"):
        verl.compute_score("a", "\\boxed{2}", "2", rewards=str(bad))
    assert pickle.loads(pickle.dumps(verl.compute_score)) is verl.compute_score  # Ray ships it by reference


def test_openrlhf_reward_func_strips_the_prompt_and_returns_tensors(monkeypatch):
    monkeypatch.delenv("RLVR_REWARDS", raising=False)
    prompt = "<|im_start|>user\\nWhat is 2+2?<|im_end|>\\n<|im_start|>assistant\\n"
    out = openrlhf.reward_func([prompt + "\\boxed{4}<|im_end|>", prompt + "\\boxed{5}<|im_end|>"], [prompt, prompt],
                               ["4", "4"])
    assert torch.equal(out["rewards"], torch.tensor([1.0, 0.0])) and torch.equal(out["scores"], out["rewards"])
    assert torch.equal(out["extra_logs"]["math_equivalence/correct"], torch.tensor([1.0, 0.0]))
    # the prompt is not graded: a box in the prompt does not answer for the response
    tricky = "Show your answer like \\boxed{4}.\\n"
    assert openrlhf.reward_func([tricky + "I do not know."], [tricky], ["4"])["rewards"].tolist() == [0.0]


def test_exported_verl_lines_load_and_score(tmp_path, capsys):
    """The printed path/name/reward_kwargs load as verl's ``pkg://`` loader does, and score (verl's own
    loader runs them in tests/test_framework_parity.py)."""
    import importlib

    import yaml

    from rlvr.cli import main

    rewards = tmp_path / "r.yaml"
    rewards.write_text("rewards:\n  - {name: math_equivalence, params: {preset: dapo}}\n")
    assert main(["rewards", "export", "--framework", "verl", str(rewards)]) == 0
    cfg = yaml.safe_load(capsys.readouterr().out)["reward"]["custom_reward_function"]
    assert cfg["path"].startswith("pkg://")
    fn = getattr(importlib.import_module(cfg["path"][len("pkg://"):].replace("/", ".")), cfg["name"])
    assert fn("math_dapo", "\\boxed{7}", "7", {}, **cfg["reward_kwargs"])["score"] == 1.0
    assert fn("math_dapo", "\\boxed{8}", "7", {}, **cfg["reward_kwargs"])["score"] == -1.0
    assert main(["rewards", "export", "--framework", "openrlhf", str(rewards)]) == 0
    assert "/get_reward?access_token=" in capsys.readouterr().out
    assert main(["rewards", "export", "--framework", "verifiers", str(rewards)]) == 0
    assert "legacy_reward_funcs" in capsys.readouterr().out


def test_verifiers_legacy_funcs_are_per_rollout_and_need_no_verifiers_install():
    import inspect

    from rlvr.integrations import vf

    funcs, weights = vf.legacy_reward_funcs('{"rewards": [{"name": "math_equivalence"}, '
                                            '{"name": "think_format", "weight": 0.1}]}')
    group_names = {"states", "prompts", "completions", "answers", "tasks", "infos"}
    assert [f.__name__ for f in funcs] == ["math_equivalence", "think_format"] and weights == [1.0, 0.1]
    assert all(not set(inspect.signature(f).parameters) & group_names for f in funcs)  # the Rubric's group test
    chat = [{"role": "assistant", "content": "\\boxed{4}", "reasoning_content": "2+2"}]
    assert funcs[0](completion=chat, answer="4") == 1.0 and funcs[1](completion=chat, answer="4") == 1.0
    assert funcs[0](completion="no answer at all", answer="4") == 0.0  # abstain/incorrect: a float, never None


def test_verl_overlong_entry_maps_dapo_config():
    import pytest

    from rlvr.errors import ConfigError

    assert verl.overlong_entry({"enable": False, "len": 4}, 16) is None
    entry = verl.overlong_entry({"enable": True, "len": 4, "penalty_factor": 0.5}, 16)
    assert entry["name"] == "soft_overlong" and entry["weight"] == 0.5
    assert entry["params"] == {"max_completion_len": 16, "soft_punish_cache": 4, "length_unit": "tokens"}
    with pytest.raises(ConfigError, match="max_resp_len"):
        verl.overlong_entry({"enable": True, "len": 40}, 16)
