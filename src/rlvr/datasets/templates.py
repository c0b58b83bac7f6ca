"""Prompt templates: the system prompt and answer-format instruction a reward set expects.

A template turns a problem into chat messages. Built in: ``r1`` (``<think>``/``<answer>``),
``working_out`` (the Unsloth recipe's ``<start_working_out>…<end_working_out><SOLUTION>…</SOLUTION>``),
``boxed`` (``\\boxed{}``), ``dapo`` (DAPO's own ``Answer:`` line) and ``plain`` (the problem only).
Custom templates come from :func:`register_template` or a recipe's ``{system, instruction}``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rlvr.errors import ConfigError

__all__ = ["PromptTemplate", "get_template", "register_template", "template_names", "DAPO_PREFIX", "DAPO_SUFFIX"]

DAPO_PREFIX = ("Solve the following math problem step by step. The last line of your response should be of the "
               "form Answer: $Answer (without quotes) where $Answer is the answer to the problem.\n\n")
DAPO_SUFFIX = '\n\nRemember to put your answer on its own line after "Answer:".'


@dataclass(frozen=True)
class PromptTemplate:
    """``system`` (optional) and ``instruction`` with a ``{problem}`` slot.

    ``answer_format`` names what the model is asked to write (``think_answer``, ``working_out``,
    ``boxed``, ``answer_line``) so lint can check the reward set extracts the same thing;
    ``prefill`` is text a chat template puts at the start of the assistant turn (e.g.
    ``<start_working_out>``), which rewards must then not expect the model to write.
    """

    name: str
    instruction: str = "{problem}"
    system: str | None = None
    answer_format: str = "boxed"
    prefill: str = ""

    def __post_init__(self) -> None:
        if "{problem}" not in self.instruction:
            raise ConfigError(f"template {self.name!r}: instruction must contain '{{problem}}'")

    def messages(self, problem: str) -> list[dict[str, str]]:
        """The chat messages for one problem."""
        out = [{"role": "system", "content": self.system}] if self.system else []
        out.append({"role": "user", "content": self.instruction.replace("{problem}", problem)})
        return out

    def format_solution(self, reasoning: str, answer: str) -> str:
        """A worked solution in this template's answer format (for SFT cold starts and fixtures)."""
        if self.answer_format == "think_answer":
            return f"<think>\n{reasoning}\n</think>\n<answer>\n\\boxed{{{answer}}}\n</answer>"
        if self.answer_format == "working_out":
            start = "" if self.prefill else "<start_working_out>"
            return f"{start}{reasoning}<end_working_out><SOLUTION>{answer}</SOLUTION>"
        if self.answer_format == "answer_line":
            return f"{reasoning}\nAnswer: {answer}"
        return f"{reasoning}\nThe answer is $\\boxed{{{answer}}}$."


_TEMPLATES: dict[str, PromptTemplate] = {}


def register_template(template: PromptTemplate, replace: bool = False) -> PromptTemplate:
    if template.name in _TEMPLATES and not replace:
        raise ConfigError(f"template {template.name!r} already exists (pass replace=True)")
    _TEMPLATES[template.name] = template
    return template


register_template(PromptTemplate(
    "r1",
    system=("A conversation between User and Assistant. The user asks a question, and the Assistant solves it. "
            "The assistant first thinks about the reasoning process in the mind and then provides the user with "
            "the answer. The reasoning process and answer are enclosed within <think> </think> and <answer> "
            "</answer> tags, respectively, i.e., <think> reasoning process here </think> <answer> answer here "
            "</answer>. Put the final answer in \\boxed{} inside the answer tags."),
    answer_format="think_answer"))
register_template(PromptTemplate(
    "working_out",
    system=("You are given a problem.\nThink about the problem and provide your working out.\n"
            "Place it between <start_working_out> and <end_working_out>.\n"
            "Then, provide your solution between <SOLUTION></SOLUTION>"),
    answer_format="working_out", prefill="<start_working_out>"))
register_template(PromptTemplate(
    "boxed", instruction="{problem}\nPlease reason step by step, and put your final answer within \\boxed{}.",
    answer_format="boxed"))
register_template(PromptTemplate("dapo", instruction=DAPO_PREFIX + "{problem}" + DAPO_SUFFIX, answer_format="answer_line"))
register_template(PromptTemplate("plain", answer_format="boxed"))


def template_names() -> list[str]:
    return sorted(_TEMPLATES)


def get_template(spec: str | dict[str, Any] | PromptTemplate | None) -> PromptTemplate:
    """A template by name, from a ``{name, system, instruction, answer_format, prefill}`` dict, or as is."""
    if spec is None:
        return _TEMPLATES["boxed"]
    if isinstance(spec, PromptTemplate):
        return spec
    if isinstance(spec, dict):
        unknown = sorted(set(spec) - {"name", "system", "instruction", "answer_format", "prefill"})
        if unknown:
            raise ConfigError(f"template config has unknown key(s) {unknown}; use name, system, instruction, "
                              "answer_format, prefill")
        return PromptTemplate(**{"name": "custom", **spec})
    if spec not in _TEMPLATES:
        raise ConfigError(f"no prompt template {spec!r}; templates: {template_names()}")
    return _TEMPLATES[spec]
