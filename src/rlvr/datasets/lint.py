"""``rlvr data lint``: do the prompts ask for what the rewards extract, and does the chat template agree?

Three kinds of mismatch silently zero a run's reward signal:

- **format**: the prompt template asks for one answer format (DAPO's ``Answer:`` line, a box, think/answer
  tags, the working_out tags) while a reward extracts another (e.g. a boxed-only extractor);
- **prefill**: the chat template (or the prompt template) opens the reasoning block in the prompt while a
  format reward expects the model to write the opening tag itself (or the reverse);
- **special tags**: the tokenizer treats a tag as a special token, so decoding with
  ``skip_special_tokens=True`` (as TRL does) strips it before any reward sees it.

Each finding says how to fix it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from rlvr.datasets.templates import PromptTemplate, get_template

logger = logging.getLogger(__name__)

__all__ = ["Finding", "lint_prompts", "reward_entries"]

# what each answer format makes the model write, as verifier answer sources
_FORMAT_SOURCES = {"answer_line": {"answer_line"}, "boxed": {"boxed"}, "think_answer": {"boxed", "answer_tag"},
                   "working_out": {"solution_tag"}}
_LAYOUT_FOR_FORMAT = {"think_answer": "r1", "working_out": "working_out"}


@dataclass(frozen=True)
class Finding:
    code: str
    severity: str  # "error" (the run cannot learn as configured) or "warning"
    message: str
    fix: str


def reward_entries(rewards: Any) -> list[dict[str, Any]]:
    """The ``{name, params, ...}`` entries of a RewardSet config (a list, or a mapping with ``rewards``)."""
    rewards = rewards if isinstance(rewards, list) else rewards.get("rewards", [])
    return [e if isinstance(e, dict) else {"name": e} for e in rewards]


def _built(entries: list[dict[str, Any]]) -> list[tuple[str, Any]]:
    """(label, reward instance) per entry: lint asks each reward what it reads (third-party ones too)."""
    from rlvr.rewards import get_reward

    return [(e.get("alias") or e["name"], get_reward(e["name"], **(e.get("params") or {}))) for e in entries]


def _format_findings(template: PromptTemplate, rewards: list[tuple[str, Any]]) -> list[Finding]:
    asked = template.answer_format
    written = _FORMAT_SOURCES.get(asked, set())
    out = []
    for label, r in rewards:
        reads = r.reads()
        if reads.answer_sources is not None and written and not written & reads.answer_sources:
            sources = sorted(reads.answer_sources)
            fix = (f"add {sorted(written)[0]!r} to {label}.params.verifier.sources, or use a template that asks for "
                   f"{sources}") if "verifier" in r.params() else (
                   f"use a template that asks for {sources}, or a reward that reads {asked} answers")
            out.append(Finding("format", "error", f"the {template.name!r} prompt asks for {asked} answers, but reward "
                               f"{label!r} reads answers only from {sources}: every completion scores no_answer", fix))
        if reads.layout is not None:
            expected = _LAYOUT_FOR_FORMAT.get(asked)
            if expected != reads.layout:
                out.append(Finding("format", "error", f"reward {label!r} scores the {reads.layout!r} tag layout but the "
                                   f"{template.name!r} prompt asks for {asked} answers",
                                   f"set {label}.params.preset to {expected!r}" if expected else
                                   f"use a template with tags ({sorted(_LAYOUT_FOR_FORMAT.values())}) or drop {label!r}"))
    return out


def _reasoning_open_tags(rewards: list[tuple[str, Any]]) -> list[tuple[str, str, bool]]:
    """(reward label, opening reasoning tag, think_prefilled setting) of each reward that expects one."""
    out = []
    for label, r in rewards:
        reads = r.reads()
        if reads.reasoning_open is not None:
            out.append((label, reads.reasoning_open, bool(reads.think_prefilled)))
    return out


def _tag_list(rewards: list[tuple[str, Any]]) -> set[str]:
    return {tag for _label, r in rewards for tag in r.reads().tags}


def lint_prompts(template: Any, rewards: Any, tokenizer: Any = None) -> list[Finding]:
    """All findings for a prompt template (name, spec or PromptTemplate), a RewardSet config and,
    when given, the tokenizer whose chat template renders the prompts."""
    template = template if isinstance(template, PromptTemplate) else get_template(template)
    built = _built(reward_entries(rewards))
    findings = _format_findings(template, built)
    tok = tokenizer
    prefilled_text = template.prefill
    if tok is not None and getattr(tok, "chat_template", None):
        rendered = tok.apply_chat_template(template.messages("PROBLEM"), tokenize=False, add_generation_prompt=True)
        tail = rendered[rendered.rfind("PROBLEM"):]
        prefilled_text = tail if any(t in tail for _l, t, _p in _reasoning_open_tags(built)) else prefilled_text
    for label, open_tag, think_prefilled in _reasoning_open_tags(built):
        opened_by_prompt = open_tag in (prefilled_text or "")
        if opened_by_prompt and not think_prefilled:
            findings.append(Finding("prefill", "error",
                                    f"the chat/prompt template already opens {open_tag} for the model, but reward "
                                    f"{label!r} expects the model to write it (think_prefilled=false)",
                                    f"set {label}.params.think_prefilled=true"))
        elif think_prefilled and not opened_by_prompt and (tok is not None or template.prefill == ""):
            findings.append(Finding("prefill", "warning",
                                    f"reward {label!r} assumes {open_tag} is prefilled, but neither the chat template "
                                    f"nor the prompt template opens it", f"set {label}.params.think_prefilled=false"))
    if tok is not None:
        special = set(getattr(tok, "all_special_tokens", []) or [])
        special |= {t.content for t in getattr(tok, "added_tokens_decoder", {}).values() if getattr(t, "special", False)}
        for tag in sorted(_tag_list(built) & special):
            findings.append(Finding("special-token", "error",
                                    f"the tokenizer treats {tag!r} as a special token: TRL decodes completions with "
                                    "skip_special_tokens=True, so rewards never see it",
                                    f"re-add {tag!r} as a normal (special=False) added token, or use other tags"))
    return findings
