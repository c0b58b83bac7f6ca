"""Score rows through OpenRLHF's own single-turn rollout executor (run in a venv that has OpenRLHF).

``SingleTurnAgentExecutor`` loads the reward file (or posts to the reward URL) named by
``--reward.remote_url`` exactly as OpenRLHF's rollout does, tokenizes the prompt, asks the engine for
a continuation, decodes prompt + response with special tokens and calls the reward. The engine here
replays each row's completion as tokens (it stands in for vLLM, the generator, not for the code under
test). Usage: ``python openrlhf_driver.py JOB.json OUT.json``; the job holds ``rows`` ({prompt,
completion, gold}), ``tokenizer_dir`` and ``remote`` (a .py file or an http URL).
"""

from __future__ import annotations

import asyncio
import json
import sys
from types import SimpleNamespace


class ReplayEngine:
    """Returns the row's completion tokens for a prompt, in vLLM's output shape."""

    def __init__(self, by_prompt: dict[tuple[int, ...], list[int]]) -> None:
        self.by_prompt = by_prompt

    async def generate(self, prompt_token_ids, sampling_params, multi_modal_data=None):
        ids = self.by_prompt[tuple(prompt_token_ids)]
        out = SimpleNamespace(token_ids=ids, finish_reason="stop", logprobs=None)
        return SimpleNamespace(outputs=[out])


async def run(job: dict) -> list[dict]:
    from openrlhf.utils.agent import SingleTurnAgentExecutor
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(job["tokenizer_dir"])
    executor = SingleTurnAgentExecutor(remote_rm_url=job["remote"])
    results = []
    for row in job["rows"]:  # one prompt at a time: rows may share a prompt text
        prompt_ids = tokenizer(text=row["prompt"], add_special_tokens=False)["input_ids"]
        engine = ReplayEngine({tuple(prompt_ids): tokenizer(row["completion"], add_special_tokens=False)["input_ids"]})
        params = SimpleNamespace(max_tokens=4096, logprobs=None)
        out = await executor.execute(row["prompt"], row["gold"], params, 8192, tokenizer, engine)
        reward = out["reward"]
        results.append({"reward": None if reward is None else float(reward.item() if hasattr(reward, "item") else reward[0]),
                        "extra_logs": {k: float(v.item() if hasattr(v, "item") else v[0])
                                       for k, v in (out["extra_logs"] or {}).items()}})
    return results


def main(job_path: str, out_path: str) -> None:
    job = json.loads(open(job_path, encoding="utf-8").read())
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(asyncio.run(run(job)), f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
