"""Judge backends: where a judgment's text comes from.

Every backend takes a batch of :class:`JudgeCall` and returns one :class:`JudgeReply` per call, in
order, and never raises for a failed call: a timeout, a dead server, an out-of-memory error become
a reply with ``error`` (a short status such as ``timeout``, ``connection_error``, ``http_503``,
``backend_error``) and a ``reason`` naming the cause, which the engine turns into an abstention. A
configuration that cannot work (no model at the path, no vLLM, a URL that is not http(s)) fails when
the backend is built, with the fix in the message.

``transformers``: a local causal LM, batched ``generate`` (CPU or GPU). ``vllm``: vLLM in process on
a GPU (imported only when chosen). ``http``: any OpenAI-compatible ``/v1/chat/completions`` server
(:mod:`rlvr.rewards.judges.http`).
"""

from __future__ import annotations

import importlib.util
import logging
import threading
import time
from dataclasses import dataclass
from typing import Any

from rlvr.chat import messages_as_text
from rlvr.errors import ConfigError, DependencyMissingError
from rlvr.models import fingerprint
from rlvr.rewards.judges.distribution import TERMINATORS, DistributionScore, Scale, read_scores

logger = logging.getLogger(__name__)

__all__ = ["JudgeCall", "JudgeReply", "JudgeBackend", "TransformersJudge", "VLLMJudge", "make_backend", "BACKENDS"]

BACKENDS = ("transformers", "vllm", "http")
_WORDS = {"yes", "y", "no", "n", "not", "true", "false", "equivalent"}  # a reference judge's answers


@dataclass(frozen=True)
class JudgeCall:
    """One judgment to generate: chat ``messages``; ``temperature`` 0 means greedy."""

    messages: tuple[tuple[str, str], ...]  # (role, content) pairs: hashable, cheap to pickle
    temperature: float
    max_tokens: int
    seed: int

    @classmethod
    def of(cls, messages: list[dict[str, str]], temperature: float, max_tokens: int, seed: int) -> JudgeCall:
        return cls(tuple((m["role"], m["content"]) for m in messages), float(temperature), int(max_tokens), int(seed))

    def as_messages(self) -> list[dict[str, str]]:
        return [{"role": r, "content": c} for r, c in self.messages]


@dataclass(frozen=True)
class JudgeReply:
    """The judge's text, or ``text=None`` with ``error`` (a status) and ``reason``; token counts."""

    text: str | None
    error: str | None = None
    reason: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @classmethod
    def failed(cls, error: str, reason: str) -> JudgeReply:
        return cls(None, error, reason)


class JudgeBackend:
    """Base class: ``model_id`` (part of every cache key: a content hash for local folders, see
    :func:`fingerprint`) and :meth:`generate`."""

    kind = "backend"
    model_id = ""
    #: how this backend reads a score from the distribution ("" when it cannot: the text parse only)
    distribution = ""

    def generate(self, calls: list[JudgeCall]) -> list[JudgeReply]:
        raise NotImplementedError

    def next_tokens(self, items: list[tuple[JudgeCall, str]], kind: str = "scores") -> list[dict[str, float] | None]:
        """For each (call, assistant prefix): the next token's probabilities, ``{token text: p}``, or ``None``
        where it cannot say. ``kind``: which tokens matter (``scores``: those that can start a score or a
        separator; ``words``: Yes/No words); a server returns its top log-probabilities whatever the kind."""
        return [None] * len(items)

    def score_judgments(self, items: list[tuple[JudgeCall, str, int]], scale: Scale,
                        min_mass: float) -> list[DistributionScore | None]:
        """Scores of judgments whose text did not parse: (call, the judge's text, responses shown) each.
        ``None`` where this backend has no way (the text parse then stands)."""
        if not self.distribution:
            return [None] * len(items)
        return list(read_scores(self.next_tokens, items, scale, min_mass, self.distribution))

    def __getstate__(self) -> dict[str, Any]:  # loaded weights and connections stay in their process
        state = dict(self.__dict__)
        state["_loaded"] = None
        state.pop("_lock", None)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        self._lock = threading.Lock()


def _local_model(name: str, what: str) -> str:
    """A model folder that exists (a packaged model or a GGUF file prepared into one), or a hub id; a
    path that does not exist fails now, naming the fix."""
    from rlvr.models import resolve_model

    return resolve_model(name, what)


def _shared_prefix(net: Any, enc: Any) -> tuple[str, Any]:
    """(keyword, KV cache) of each distinct prompt but its last token, computed once: the k samples
    of one prompt (one shuffled order) then decode from it instead of each re-reading the prompt.
    transformers takes the cache as ``cache`` from 5.2x, as ``past_key_values`` before."""
    import inspect

    name = "cache" if "cache" in inspect.signature(type(net).forward).parameters else "past_key_values"
    ids, mask = enc["input_ids"][:, :-1], enc["attention_mask"][:, :-1]
    positions = (mask.long().cumsum(-1) - 1).clamp(min=0)  # as generate() numbers left-padded rows
    out = net(input_ids=ids, attention_mask=mask, position_ids=positions, use_cache=True)
    return name, getattr(out, name)


class TransformersJudge(JudgeBackend):
    """A local causal LM as judge: batched, left-padded ``generate`` with its chat template.

    Calls of one batch share a sampling seed (the first call's): with ``temperature > 0`` a judgment
    depends on its batch, which the verdict cache then fixes. ``model_and_tokenizer`` passes objects
    already in memory (the model is then named by ``model_id``). ``share_prefix``: calls with the same
    prompt in one batch share its KV cache (read once, decoded k times).
    """

    kind = "transformers"
    distribution = "transformers logits"

    def __init__(self, model: str, device: str = "auto", dtype: str = "auto", batch_size: int = 8,
                 model_and_tokenizer: tuple[Any, Any] | None = None, model_id: str | None = None,
                 share_prefix: bool = True):
        if batch_size < 1:
            raise ConfigError(f"batch_size={batch_size}; use a value >= 1")
        self.model = model if model_and_tokenizer is not None else _local_model(model, "judge_model")
        self.model_id = model_id or fingerprint(self.model)
        self.device, self.dtype, self.batch_size, self.share_prefix = device, dtype, batch_size, share_prefix
        self._loaded = model_and_tokenizer
        self._lock = threading.Lock()
        self._score_tokens: Any = None
        self._states: dict[str, tuple[list[int], Any]] = {}  # per prompt: (token ids, KV cache) of its last pass
        self.kv_states = 4 * batch_size

    def __getstate__(self) -> dict[str, Any]:
        state = super().__getstate__()
        state["_score_tokens"], state["_states"] = None, {}
        return state

    def _load(self) -> tuple[Any, Any]:
        with self._lock:
            if self._loaded is None:
                import torch

                from rlvr.models import load_model

                net, tok = load_model(self.model)
                device = self.device if self.device != "auto" else ("cuda" if torch.cuda.is_available() else "cpu")
                if self.dtype != "auto":
                    net = net.to(getattr(torch, self.dtype))
                self._loaded = (net.to(device).eval(), tok)
        return self._loaded

    def _render(self, tok: Any, call: JudgeCall) -> str:
        messages = call.as_messages()
        if getattr(tok, "chat_template", None):
            return tok.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return messages_as_text(messages) + "\nassistant: "

    def generate(self, calls: list[JudgeCall]) -> list[JudgeReply]:
        replies: list[JudgeReply | None] = [None] * len(calls)
        # same settings batch together; the samples of one prompt sit side by side (they share its prefix)
        order = sorted(range(len(calls)), key=lambda i: (calls[i].temperature, calls[i].max_tokens, calls[i].messages,
                                                         calls[i].seed))
        batch: list[int] = []
        for i in order + [-1]:
            same = batch and i >= 0 and (calls[i].temperature, calls[i].max_tokens) == \
                (calls[batch[0]].temperature, calls[batch[0]].max_tokens)
            if batch and (not same or len(batch) >= self.batch_size):
                for j, reply in zip(batch, self._batch([calls[j] for j in batch])):
                    replies[j] = reply
                batch = []
            if i >= 0:
                batch.append(i)
        return [r if r is not None else JudgeReply.failed("backend_error", "no reply") for r in replies]

    def _token_table(self, tok: Any, kind: str) -> tuple[Any, list[str]]:
        """(ids, texts) of the vocabulary's tokens that matter for ``kind`` (see :meth:`next_tokens`)."""
        if self._score_tokens is None:
            self._score_tokens = {}
        if kind not in self._score_tokens:
            import torch

            texts = tok.batch_decode([[i] for i in range(len(tok))])
            if kind == "scores":
                keep = [(i, t) for i, t in enumerate(texts)
                        if t.lstrip()[:1].isdigit() or t.lstrip().startswith(TERMINATORS)]
            else:
                keep = [(i, t) for i, t in enumerate(texts) if t.strip().lower().rstrip(".,!") in _WORDS]
            self._score_tokens[kind] = (torch.tensor([i for i, _ in keep], dtype=torch.long), [t for _, t in keep])
        return self._score_tokens[kind]

    def next_tokens(self, items: list[tuple[JudgeCall, str]], kind: str = "scores") -> list[dict[str, float] | None]:
        """One forward pass per item over only the tokens the last pass of the same prompt did not see: the
        reader asks for the prompt + critique + ``Scores: \\boxed{``, then the same with ``1`` or ``7, ``
        appended, and the k samples of one prompt differ only after it; so each prompt's KV cache is cut
        back to the common token prefix and extended (exact: the text is tokenized whole each time, and
        whatever differs is read again)."""
        out: list[dict[str, float] | None] = []
        try:
            import torch

            net, tok = self._load()
            ids, texts = self._token_table(tok, kind)
            with torch.inference_mode():
                for call, prefix in items:
                    logits = self._extend(net, tok, call, prefix)
                    row = torch.softmax(logits.float(), dim=-1)[ids.to(logits.device)].cpu().tolist()
                    dist: dict[str, float] = {}
                    for text, p in zip(texts, row):
                        dist[text] = dist.get(text, 0.0) + p
                    out.append(dist)
            return out
        except Exception as exc:  # out of memory, a broken checkpoint: these judgments keep their text parse
            logger.warning("judge %s: no next-token probabilities for %d item(s): %s: %s", self.model_id,
                           len(items), type(exc).__name__, exc)
            self._states.clear()
            return out + [None] * (len(items) - len(out))

    def _remember(self, texts: list[str], enc: dict[str, Any], generated: Any, kept_rows: list[list[int]]) -> None:
        """Keep each row's KV cache of prompt + judgment (left padding cut off) as that prompt's state, so
        reading its score from the distribution re-reads only the score line. Full-attention caches only
        (a sliding window keeps part of the prompt): anything else is simply not kept."""
        try:
            from transformers import DynamicCache

            cache = getattr(generated, "past_key_values", None) or getattr(generated, "cache", None)
            layers = getattr(cache, "layers", None)
            if not layers or any("Sliding" in type(layer).__name__ or not hasattr(layer, "keys") for layer in layers):
                return
            width, total = enc["input_ids"].shape[1], generated.sequences.shape[1]
            for r, (text, kept) in enumerate(zip(texts, kept_rows)):
                if text in self._states:
                    continue  # the first sample of a prompt is enough: the others share its prompt tokens
                pad = int((enc["attention_mask"][r] == 0).sum())
                cached = min(len(kept), total - width - 1, layers[0].keys.shape[2] - width)
                state = DynamicCache()
                for i, layer in enumerate(layers):
                    state.update(layer.keys[r:r + 1, :, pad:width + cached].clone(),
                                 layer.values[r:r + 1, :, pad:width + cached].clone(), i)
                self._states[text] = (enc["input_ids"][r, pad:].tolist() + kept[:cached], state)
            while len(self._states) > self.kv_states:
                self._states.pop(next(iter(self._states)))
        except Exception as exc:  # an optimisation only: the distribution is then read from the start
            logger.debug("judge %s: generation cache not kept: %s: %s", self.model_id, type(exc).__name__, exc)

    def _extend(self, net: Any, tok: Any, call: JudgeCall, prefix: str) -> Any:
        """The next-token logits after the rendered ``call`` + ``prefix``, reusing the call's KV cache."""
        import torch

        rendered = self._render(tok, call)
        ids = tok(rendered + prefix, add_special_tokens=False)["input_ids"]
        seen, cache = self._states.pop(rendered, ([], None))
        common = 0
        for a, b in zip(seen, ids):
            if a != b:
                break
            common += 1
        common = min(common, len(ids) - 1)  # at least one token is read, for its logits
        if cache is not None and common > 0 and hasattr(cache, "crop"):
            try:
                surplus = cache.get_seq_length() - common
                if surplus > 0:  # a negative count removes tokens in every transformers version (5.x refuses a length)
                    cache.crop(-surplus)
            except Exception as exc:  # a cache kind that cannot be cut (sliding windows): read it all again
                logger.debug("judge %s: KV cache not cut: %s: %s", self.model_id, type(exc).__name__, exc)
                cache, common = None, 0
        else:
            cache, common = None, 0
        new = torch.tensor([ids[common:]], device=net.device)
        positions = torch.arange(common, len(ids), device=net.device).unsqueeze(0)
        import inspect

        name = "cache" if "cache" in inspect.signature(type(net).forward).parameters else "past_key_values"
        result = net(input_ids=new, position_ids=positions, use_cache=True, logits_to_keep=1, **{name: cache})
        self._states[rendered] = (ids, getattr(result, name))
        while len(self._states) > self.kv_states:
            self._states.pop(next(iter(self._states)))
        return result.logits[0, -1]

    def _batch(self, calls: list[JudgeCall]) -> list[JudgeReply]:
        try:
            import torch

            net, tok = self._load()
            texts = [self._render(tok, c) for c in calls]
            unique = list(dict.fromkeys(texts))
            side, tok.padding_side = tok.padding_side, "left"
            try:
                enc = tok(unique, return_tensors="pt", padding=True, add_special_tokens=False).to(net.device)
            finally:
                tok.padding_side = side
            first = calls[0]
            kwargs: dict[str, Any] = {"max_new_tokens": first.max_tokens,
                                      "pad_token_id": tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id}
            if first.temperature > 0:
                torch.manual_seed(first.seed)
                kwargs.update(do_sample=True, temperature=first.temperature, top_p=1.0, top_k=0)
            else:
                kwargs.update(do_sample=False, temperature=None, top_p=None, top_k=None)
            with torch.inference_mode():
                index = torch.tensor([unique.index(t) for t in texts], device=net.device)
                if len(unique) < len(texts) and self.share_prefix:
                    name, cache = _shared_prefix(net, enc)
                    cache.batch_select_indices(index)
                    kwargs[name] = cache
                enc = {k: v[index] for k, v in enc.items()}
                generated = net.generate(**enc, **kwargs, return_dict_in_generate=True)
            out = generated.sequences
            new = out[:, enc["input_ids"].shape[1]:]
            configured = getattr(net.generation_config, "eos_token_id", None)
            stops = configured if isinstance(configured, (list, tuple)) else [configured]
            eos = {tok.eos_token_id, tok.pad_token_id, *stops} - {None}
            replies, kept_rows = [], []
            for row, mask in zip(new.tolist(), enc["attention_mask"].tolist()):
                kept = []
                for t in row:
                    if t in eos:
                        break
                    kept.append(t)
                kept_rows.append(kept)
                replies.append(JudgeReply(tok.decode(kept, skip_special_tokens=True), prompt_tokens=int(sum(mask)),
                                          completion_tokens=len(kept)))
            self._remember(texts, enc, generated, kept_rows)
            return replies
        except Exception as exc:  # out of memory, a broken checkpoint: every call of the batch abstains
            logger.warning("judge %s failed on a batch of %d: %s: %s", self.model_id, len(calls), type(exc).__name__, exc)
            return [JudgeReply.failed("backend_error", f"local judge {self.model_id}: {type(exc).__name__}: {exc}")
                    for _ in calls]


class VLLMJudge(JudgeBackend):
    """vLLM in process (GPU): every call of a batch in one ``LLM.chat`` with its own sampling seed."""

    kind = "vllm"
    distribution = "vLLM logprobs"
    top_logprobs = 20  # vLLM's default max_logprobs

    def __init__(self, model: str, gpu_memory_utilization: float = 0.3, max_model_len: int = 8192,
                 dtype: str = "auto"):
        if importlib.util.find_spec("vllm") is None:
            raise DependencyMissingError("backend 'vllm' needs vLLM on a GPU machine: pip install 'rlvr[gpu]' "
                                         "(or use backend: transformers, or backend: http with a vllm serve URL)")
        if not 0 < gpu_memory_utilization <= 1:
            raise ConfigError(f"gpu_memory_utilization={gpu_memory_utilization}; use a share in (0, 1]")
        self.model = _local_model(model, "judge_model")
        self.model_id = fingerprint(self.model)
        self.gpu_memory_utilization, self.max_model_len, self.dtype = gpu_memory_utilization, max_model_len, dtype
        self._loaded: Any = None
        self._lock = threading.Lock()

    def _load(self) -> Any:
        with self._lock:
            if self._loaded is None:
                from vllm import LLM

                started = time.perf_counter()
                self._loaded = LLM(model=self.model, gpu_memory_utilization=self.gpu_memory_utilization,
                                   max_model_len=self.max_model_len, dtype=self.dtype, enable_prefix_caching=True)
                logger.info("vLLM judge %s loaded in %.0f s", self.model, time.perf_counter() - started)
        return self._loaded

    def generate(self, calls: list[JudgeCall]) -> list[JudgeReply]:
        try:
            from vllm import SamplingParams

            llm = self._load()
            params = [SamplingParams(temperature=c.temperature, max_tokens=c.max_tokens,
                                     seed=c.seed if c.temperature > 0 else None) for c in calls]
            outputs = llm.chat([c.as_messages() for c in calls], params, use_tqdm=False)
            return [JudgeReply(o.outputs[0].text, prompt_tokens=len(o.prompt_token_ids or []),
                               completion_tokens=len(o.outputs[0].token_ids)) for o in outputs]
        except Exception as exc:
            logger.warning("vLLM judge %s failed on a batch of %d: %s: %s", self.model, len(calls), type(exc).__name__, exc)
            return [JudgeReply.failed("backend_error", f"vLLM judge {self.model}: {type(exc).__name__}: {exc}")
                    for _ in calls]

    def next_tokens(self, items: list[tuple[JudgeCall, str]], kind: str = "scores") -> list[dict[str, float] | None]:
        """vLLM: the chat prompt rendered by the model's own template, the prefix appended, one token
        generated with the top log-probabilities (the raw distribution, before any sampling setting)."""
        from rlvr.rewards.judges.distribution import logprob_dict

        try:
            from vllm import SamplingParams

            llm = self._load()
            tok = llm.get_tokenizer()
            prompts = [{"prompt_token_ids": tok.encode(tok.apply_chat_template(call.as_messages(), tokenize=False,
                                                                                add_generation_prompt=True) + prefix,
                                                       add_special_tokens=False)} for call, prefix in items]
            params = SamplingParams(temperature=0.0, max_tokens=1, logprobs=self.top_logprobs)
            outputs = llm.generate(prompts, params, use_tqdm=False)
            out: list[dict[str, float] | None] = []
            for o in outputs:
                steps = o.outputs[0].logprobs or []
                out.append(logprob_dict([(lp.decoded_token, lp.logprob) for lp in steps[0].values()]) if steps else None)
            return out
        except Exception as exc:
            logger.warning("vLLM judge %s: no log-probabilities for a batch of %d: %s: %s", self.model, len(items),
                           type(exc).__name__, exc)
            return [None] * len(items)


def make_backend(kind: str, model: str | None, *, url: str | None = None, **options: Any) -> JudgeBackend:
    """A backend by name; ``options`` are the chosen backend's keyword arguments."""
    if kind not in BACKENDS:
        raise ConfigError(f"judge backend={kind!r}; use one of {list(BACKENDS)}")
    if kind == "http":
        from rlvr.rewards.judges.http import OpenAICompatibleJudge

        if not url:
            raise ConfigError("backend 'http' needs url: the server's OpenAI-compatible base URL, e.g. "
                              "http://127.0.0.1:8000/v1")
        return OpenAICompatibleJudge(url, model, **options)
    if not model:
        raise ConfigError(f"backend {kind!r} needs judge_model: a model folder or hub id "
                          "(rlvr models prepare smollm2-135m prepares a small offline one)")
    return TransformersJudge(model, **options) if kind == "transformers" else VLLMJudge(model, **options)
