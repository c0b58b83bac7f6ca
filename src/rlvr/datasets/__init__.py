"""Math data as GRPO-ready Hugging Face datasets: loaders, prompt templates, synthetic data.

Inside this package ``import datasets`` is Hugging Face's library (absolute imports).
"""
