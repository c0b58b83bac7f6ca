"""Score rows through the verifiers library's own scoring code (run in a venv that has verifiers).

verifiers 0.4 (v1): each row becomes an ``RlvrMathTask`` and a ``Trace`` built as verifiers' rollout
builds one (the prompt, then the sampled assistant reply); ``Task.score`` runs the rlvr hooks and
records the weighted rewards. verifiers <= 0.3: a legacy ``Rubric`` made from
``legacy_reward_funcs`` scores a rollout state with ``Rubric.score_rollout``.
Usage: ``python verifiers_driver.py JOB.json OUT.json`` with ``rows`` ({prompt, completion, gold})
and ``rewards`` (a RewardSet file).
"""

from __future__ import annotations

import asyncio
import json
import sys


async def score_v1(job: dict) -> list[dict]:
    import verifiers.v1 as vf
    from verifiers.v1.graph import MessageNode
    from verifiers.v1.trace import AgentInfo, Trace, TraceTask
    from verifiers.v1.types import AssistantMessage, UserMessage

    from rlvr.integrations import vf as rlvr_vf

    config = rlvr_vf.RlvrTaskConfig(rlvr_rewards=job["rewards"])
    out = []
    for row in job["rows"]:
        task = rlvr_vf.RlvrMathTask(rlvr_vf.RlvrTaskData(prompt=row["prompt"], answer=row["gold"]), config)
        trace = Trace(task=TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
                      agent=AgentInfo(config=vf.AgentConfig(), name="solver"),
                      nodes=[MessageNode(message=UserMessage(content=row["prompt"])),
                             MessageNode(parent=0, message=AssistantMessage(content=row["completion"]), sampled=True)])
        await task.score(trace)
        out.append({"reward": trace.reward, "rewards": {k: r.score for k, r in trace.rewards.items()},
                    "info": trace.info.get("rlvr")})
    return out


async def score_taskset(job: dict) -> list[dict]:
    """Load ``RlvrMathTaskset`` from a data file as verifiers iterates a taskset, then score each task
    with its gold boxed and with a wrong answer."""
    import verifiers.v1 as vf
    from verifiers.v1.graph import MessageNode
    from verifiers.v1.trace import AgentInfo, Trace, TraceTask
    from verifiers.v1.types import AssistantMessage

    from rlvr.integrations import vf as rlvr_vf

    config = rlvr_vf.RlvrTasksetConfig(dataset="dapo-math", path=job["taskset"], template="boxed",
                                       task=rlvr_vf.RlvrTaskConfig(rlvr_rewards=job["rewards"]))
    out = []
    for task in rlvr_vf.RlvrMathTaskset(config):
        scores = []
        for reply in (f"So \\boxed{{{task.data.answer}}}.", "So \\boxed{-12345}."):
            nodes = [MessageNode(message=m) for m in task.data.prompt]
            nodes.append(MessageNode(parent=len(nodes) - 1, message=AssistantMessage(content=reply), sampled=True))
            trace = Trace(task=TraceTask(type=type(task).__name__, data=task.data, key=task.key, hash=task.hash),
                          agent=AgentInfo(config=vf.AgentConfig(), name="solver"), nodes=nodes)
            await task.score(trace)
            scores.append(trace.reward)
        out.append({"idx": task.data.idx, "answer": task.data.answer, "roles": [m.role for m in task.data.prompt],
                    "right": scores[0], "wrong": scores[1]})
    return out


async def score_legacy(job: dict) -> list[dict]:
    import verifiers as vf

    from rlvr.integrations.vf import legacy_reward_funcs

    funcs, weights = legacy_reward_funcs(job["rewards"])
    rubric = vf.Rubric(funcs=funcs, weights=weights)
    assert not any(rubric._is_group_func(f) for f in funcs), "rlvr's legacy functions must be per-rollout"
    out = []
    for row in job["rows"]:
        state = {"prompt": row["prompt"], "completion": [{"role": "assistant", "content": row["completion"]}],
                 "answer": row["gold"], "info": {}}
        await rubric.score_rollout(state)
        out.append({"reward": state["reward"], "rewards": dict(state["metrics"])})
    return out


def main(job_path: str, out_path: str) -> None:
    import verifiers

    job = json.loads(open(job_path, encoding="utf-8").read())
    legacy = int(verifiers.__version__.split(".")[0]) == 0 and int(verifiers.__version__.split(".")[1]) < 4
    if "taskset" in job:
        result = asyncio.run(score_taskset(job))
    else:
        result = asyncio.run(score_legacy(job) if legacy else score_v1(job))
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump({"version": verifiers.__version__, "rows": result}, f)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
