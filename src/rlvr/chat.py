"""Chat messages as text: one place for every module that turns a conversation into a string.

``completion_text`` is what a reward grades (the last assistant turn); ``messages_as_text`` renders a
whole conversation as ``role: content`` lines for models without a chat template.
"""

from __future__ import annotations

from typing import Any

__all__ = ["completion_text", "messages_as_text"]

# content part types that carry a model's reasoning (OpenAI's and Anthropic's chat formats), not its answer
_REASONING_PARTS = frozenset({"reasoning", "reasoning_text", "thinking", "redacted_thinking"})
# the model's turn: "assistant" in OpenAI's, Anthropic's and TRL's formats, "model" in Gemini's
_MODEL_ROLES = frozenset({"assistant", "model"})


def _part_text(part: Any) -> str:
    """A content part's text: a plain string, or a text part (reasoning parts are the model's thinking, which is
    not graded: a box in them is no answer, as a <think> block is not)."""
    if isinstance(part, str):
        return part
    if isinstance(part, dict) and part.get("type", "text") not in _REASONING_PARTS and part.get("thought") is not True:
        text = part.get("text", "")
        return text if isinstance(text, str) else ""
    return ""


def completion_text(completion: Any) -> str:
    """The text to grade: a string as is, or the content of the last assistant message of a chat."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)):
        for message in reversed(completion):
            if isinstance(message, dict) and str(message.get("role", "assistant")).strip().lower() in _MODEL_ROLES:
                content = message.get("content", message.get("parts", ""))  # Gemini's turns hold "parts"
                if isinstance(content, list):  # multimodal parts: the text ones
                    content = "".join(_part_text(p) for p in content)
                if not isinstance(content, str):
                    raise TypeError(f"assistant message content must be text, got {type(content).__name__}")
                return content
        if not completion:
            return ""
        raise TypeError("chat completion has no assistant message (messages need role='assistant', or Gemini's 'model')")
    raise TypeError(
        f"completion must be a string or a list of chat messages, got {type(completion).__name__}"
    )


def messages_as_text(value: Any) -> str:
    """Text as is; chat messages as ``role: content`` lines (for tokenizers without a chat template)."""
    if isinstance(value, str):
        return value
    return "\n".join(f"{m.get('role', '')}: {m.get('content', '')}" for m in value)
