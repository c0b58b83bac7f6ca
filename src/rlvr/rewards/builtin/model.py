"""``reward_model``: a Hugging Face sequence-classification model as a reward (e.g. a Bradley-Terry
reward model trained with ``rlvr rm train``).

The model loads lazily on first use (so configs validate and pickle without weights), scores
prompt + completion in batches with its own tokenizer and chat template, truncates from the left
(the end of a completion is what matters most), and can normalise scores with fixed or running
statistics.
"""

from __future__ import annotations

import logging
import math
import os
import threading
from dataclasses import dataclass
from typing import Any

from rlvr.chat import completion_text, messages_as_text
from rlvr.errors import ConfigError
from rlvr.rewards.base import Reward, RewardResult
from rlvr.rewards.registry import reward
from rlvr.typed import param

logger = logging.getLogger(__name__)

_NORMALIZE = ("none", "fixed", "running")


@reward("reward_model")
class RewardModel(Reward):
    """Score with a sequence-classification reward model (local path or hub id).

    ``normalize``: ``none``; ``fixed`` ((x − mean) / std); ``running`` (mean/std over every score
    seen so far, updated per batch). ``num_labels=1`` loads a backbone with a fresh 1-output head.
    """

    @dataclass(frozen=True)
    class Params:
        model: str | None = param(None, "a saved reward-model folder (rlvr rm train) or a hub id")
        tokenizer: str | None = param(None, "tokenizer path or id (default: the model's)")
        batch_size: int = param(8, "completions scored per forward pass", min=1)
        max_length: int = param(1024, "tokens of prompt + completion kept (the rest is cut)", min=8)
        device: str = param("auto", "auto, cpu, cuda, cuda:N")
        normalize: str = param("none", "none; fixed: (x - mean) / std; running: mean/std over all scores so far",
                               choices=_NORMALIZE)
        mean: float = param(0.0, "fixed normalisation: subtracted")
        std: float = param(1.0, "fixed normalisation: divided by (> 0)")
        num_labels: int | None = param(None, "load a backbone with a fresh head of this many outputs (1)")
        use_chat_template: bool = param(True, "render chat prompts with the tokenizer's chat template")

        def __post_init__(self) -> None:
            if not self.model:
                raise ConfigError("reward_model needs params.model: a saved reward-model folder (rlvr rm train) or "
                                  "a hub id, e.g. {name: reward_model, params: {model: runs/rm}}")
            if not self.std > 0:
                raise ConfigError(f"std={self.std!r} must be > 0")

    def setup(self) -> None:
        from rlvr.files import looks_like_path

        if looks_like_path(self.p.model) and not os.path.exists(os.path.expanduser(self.p.model)):
            raise ConfigError(f"reward_model model={self.p.model!r} does not exist (a local path; hub ids look like "
                              "org/name)")
        self._loaded: tuple[Any, Any, Any] | None = None
        self._lock = threading.Lock()
        self._count, self._run_mean, self._run_m2 = 0, 0.0, 0.0

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state["_loaded"] = None  # weights reload in the receiving process
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()

    def _load(self) -> tuple[Any, Any, Any]:
        with self._lock:
            if self._loaded is None:
                import torch

                from rlvr.models import load_model

                device = self.device
                if device == "auto":
                    device = "cuda" if torch.cuda.is_available() else "cpu"
                net, tok = load_model(self.model, head="reward", num_labels=self.num_labels, tokenizer=self.tokenizer)
                if net.config.pad_token_id is None:
                    net.config.pad_token_id = tok.pad_token_id
                if net.config.num_labels != 1:
                    raise ConfigError(f"reward model {self.model!r} has {net.config.num_labels} labels; a reward model "
                                      "needs 1 (pass num_labels=1 to load the backbone with a fresh head)")
                tok.truncation_side = "left"
                net.to(device).eval()
                self._loaded = (tok, net, device)
        return self._loaded

    def _render(self, tok: Any, prompt: Any, completion: Any) -> str:
        if isinstance(prompt, list):
            messages = list(prompt) + (completion if isinstance(completion, list)
                                       else [{"role": "assistant", "content": completion}])
            if self.use_chat_template and getattr(tok, "chat_template", None):
                return tok.apply_chat_template(messages, tokenize=False)
            return messages_as_text(messages)
        return (prompt or "") + completion_text(completion)

    def explain(self, prompts: Any = None, completions: Any = None, **columns: Any) -> list[RewardResult]:
        if completions is None:
            raise TypeError("reward_model needs completions=")
        import torch

        tok, net, device = self._load()
        prompts = list(prompts) if prompts is not None else [""] * len(completions)
        texts = [self._render(tok, p, c) for p, c in zip(prompts, completions)]
        raw: list[float] = []
        with torch.inference_mode():
            for i in range(0, len(texts), self.batch_size):
                batch = tok(texts[i:i + self.batch_size], return_tensors="pt", padding=True, truncation=True,
                            max_length=self.max_length).to(device)
                raw += net(**batch).logits[:, 0].float().cpu().tolist()
        values = self._normalized(raw)
        return [RewardResult(v, "ok", f"reward model score {r:.4f}" + (f" (normalised {v:.4f})" if v != r else ""),
                             {"raw": r}) for r, v in zip(raw, values)]

    def _normalized(self, raw: list[float]) -> list[float]:
        if self.normalize == "fixed":
            return [(r - self.mean) / self.std for r in raw]
        if self.normalize == "running":
            for r in raw:  # Welford's update
                self._count += 1
                delta = r - self._run_mean
                self._run_mean += delta / self._count
                self._run_m2 += delta * (r - self._run_mean)
            std = math.sqrt(self._run_m2 / self._count) if self._count > 1 else 1.0
            return [(r - self._run_mean) / (std or 1.0) for r in raw]
        return list(raw)
