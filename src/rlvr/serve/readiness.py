"""When the reward server is ready: the sandbox pools it will use are up and answer, end to end.

Every row is read in a sandbox pool (the verifier reads no model text in the server's process), so the
warm-up starts the pool of its ``/v1/verify`` config and those of the rewards' verifier configs (one
pool per memory cap). A reward that is a plain function (a plug-in) may call the verifier its own way,
so it counts as using the default pool. The end-to-end check is a symbolic comparison where the
server compares symbolically and an exact match where it does not (with ``symbolic: false`` a
symbolic match would be ``incorrect``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["sandbox_configs", "warm"]


def _members(reward_set: Any) -> list[Any]:
    out = []
    for f in reward_set.funcs:
        out += [r for r in (f, getattr(f, "inner", None), getattr(f, "gate", None)) if r is not None]
    return out


def sandbox_configs(server_config: Any, reward_set: Any) -> list[Any]:
    """The verifier configs, one per sandbox pool (memory cap), whose rows this server reads."""
    from rlvr.rewards.base import FunctionReward
    from rlvr.verifiers import VerifierConfig

    found = [server_config]
    for reward in _members(reward_set):
        if isinstance(reward, FunctionReward):
            found.append(VerifierConfig())  # what a plug-in function calls is unknown: the default pool
        found += [v for v in vars(reward).values() if isinstance(v, VerifierConfig)]
    pools: dict[int, Any] = {}
    for config in found:
        pools.setdefault(config.memory_mb, config)
    return list(pools.values())


def warm(server_config: Any, reward_set: Any, timeout_s: float) -> None:
    """Start the pools the server uses and check one comparison end to end; RuntimeError saying what failed."""
    from rlvr.verifiers import verify_batch, warm_up

    configs = sandbox_configs(server_config, reward_set)
    for config in configs:
        if not warm_up(timeout_s, config):
            raise RuntimeError(f"not every verifier sandbox worker (memory cap {config.memory_mb} MB) answered "
                               f"within {timeout_s:g}s")
    # one comparison, end to end: a symbolic one through the sandbox where the server has one, else an exact one
    probe, gold = ("\\boxed{x+1}", "1+x") if server_config.symbolic else ("\\boxed{2}", "2")
    verdict = verify_batch([probe], [gold], server_config)[0]
    if not verdict.correct:
        raise RuntimeError(f"the verifier answered {verdict.status} for {probe} against {gold}: {verdict.reason}")
