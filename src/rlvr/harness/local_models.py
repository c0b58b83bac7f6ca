"""Small models and tokenizers built locally, for runs and tests with no download.

A Qwen2-architecture causal LM of any (small) size and a byte-level BPE tokenizer trained on the
text it will see, wrapped as a ``PreTrainedTokenizerFast`` with a ChatML chat template (the layout
Qwen models use), so TRL's GRPOTrainer treats them like a real checkpoint.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["build_tokenizer", "build_qwen2", "CHATML_TEMPLATE", "SPECIAL_TOKENS"]

SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]

# ChatML, as Qwen2 uses it; `add_generation_prompt` opens the assistant turn.
CHATML_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\n' + message['content'] + '<|im_end|>' + '\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\n' }}{% endif %}"
)


def build_tokenizer(texts: Iterable[str], vocab_size: int = 512) -> Any:
    """Train a byte-level BPE tokenizer on ``texts`` and wrap it for transformers."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    # one token per digit: small models learn arithmetic far more easily than on multi-digit merges
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Digits(individual_digits=True),
                                                 pre_tokenizers.ByteLevel(add_prefix_space=False)])
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=SPECIAL_TOKENS,
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(list(texts), trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>",
                                   bos_token=None, unk_token=None)
    fast.chat_template = CHATML_TEMPLATE
    return fast


def qwen2_config(tokenizer: Any, hidden_size: int = 64, num_layers: int = 2, num_heads: int = 4,
                 intermediate_size: int | None = None, max_position_embeddings: int = 1024, **extra: Any) -> Any:
    """A small ``Qwen2Config`` sized for ``tokenizer`` (the one definition of rlvr's tiny local models)."""
    from transformers import Qwen2Config

    return Qwen2Config(
        vocab_size=len(tokenizer), hidden_size=hidden_size, num_hidden_layers=num_layers,
        num_attention_heads=num_heads, num_key_value_heads=num_heads,
        intermediate_size=intermediate_size or hidden_size * 2, max_position_embeddings=max_position_embeddings,
        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id, bos_token_id=None, **extra,
    )


def build_qwen2(tokenizer: Any, hidden_size: int = 64, num_layers: int = 2, num_heads: int = 4,
                intermediate_size: int | None = None, seed: int = 0, max_position_embeddings: int = 1024) -> Any:
    """A randomly initialised ``Qwen2ForCausalLM`` sized for ``tokenizer``."""
    import torch
    from transformers import GenerationConfig, Qwen2ForCausalLM

    torch.manual_seed(seed)
    config = qwen2_config(tokenizer, hidden_size, num_layers, num_heads, intermediate_size, max_position_embeddings,
                          tie_word_embeddings=True)
    model = Qwen2ForCausalLM(config)
    model.generation_config = GenerationConfig(eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.pad_token_id,
                                               bos_token_id=None)
    return model
