"""A RewardSet drives real GRPO training steps in TRL's GRPOTrainer on a tiny local model."""

from __future__ import annotations

import pytest

from rlvr.rewards import RewardSet

pytest.importorskip("trl")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from rlvr.harness.local_models import build_qwen2, build_tokenizer

    corpus = [f"<think>{a}+{b}={a + b}</think><answer>\\boxed{{{a + b}}}</answer> What is {a} plus {b}?"
              for a in range(20) for b in range(20)]
    tok = build_tokenizer(corpus, vocab_size=300)
    model = build_qwen2(tok, hidden_size=32, num_layers=1, num_heads=2)
    return model, tok


def test_grpo_trainer_accepts_rewardset(tiny, tmp_path):
    from datasets import Dataset
    from trl import GRPOConfig, GRPOTrainer

    model, tok = tiny
    rows = [{"prompt": [{"role": "user", "content": f"What is {a} plus {b}?"}], "answer": str(a + b)}
            for a, b in [(1, 2), (3, 4), (5, 6), (7, 8)]]
    rs = RewardSet.from_config({"rewards": [
        {"name": "format_approx", "weight": 0.5, "params": {"preset": "r1"}},
        {"name": "math_equivalence", "weight": 1.0},
        {"name": "overlong_penalty", "weight": 0.0, "params": {"max_length": 16, "cache_length": 4}},
    ]})
    args = GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=4, num_generations=4,
                      max_completion_length=8, max_steps=2, logging_steps=1, use_cpu=True, bf16=False,
                      report_to=[], save_strategy="no", learning_rate=1e-3, reward_weights=rs.weights,
                      temperature=1.0, seed=0, activation_checkpointing=False)
    trainer = GRPOTrainer(model=model, processing_class=tok, reward_funcs=rs.funcs, args=args,
                          train_dataset=Dataset.from_list(rows))
    trainer.train()
    logged = {k for entry in trainer.state.log_history for k in entry}
    for name in rs.names:
        assert f"rewards/{name}/mean" in logged, sorted(logged)
    stats = rs.stats()
    # 2 steps x 4 completions reached every reward, each with a typed status
    assert sum(stats["math_equivalence"].values()) == 8
    assert sum(stats["format_approx"].values()) == 8
    assert any(k.startswith("rewards/math_equivalence/status/") for k in logged)
