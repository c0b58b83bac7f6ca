"""Math data as GRPO-ready Hugging Face datasets: loaders, prompt templates, synthetic data.

>>> from rlvr.datasets import load
>>> ds = load("synthetic", n=100, level=1, template="r1")
>>> sorted(ds.column_names)[:5]
['answer', 'id', 'kind', 'problem', 'prompt']

Inside this package ``import datasets`` is Hugging Face's library (absolute imports).
"""

from rlvr.datasets.loaders import load, load_with_report, loader_names, read_records, register_loader
from rlvr.datasets.preferences import PairReport, load_preferences, synthetic_pairs
from rlvr.datasets.templates import PromptTemplate, get_template, register_template, template_names
from rlvr.datasets.validation import GoldReport, check_golds, filter_prompt_length

__all__ = [
    "load", "load_with_report", "loader_names", "register_loader", "read_records", "PromptTemplate", "get_template",
    "register_template", "template_names", "GoldReport", "check_golds", "filter_prompt_length", "load_preferences",
    "synthetic_pairs", "PairReport",
]
