"""GRPO fine-tuning runs on TRL's GRPOTrainer (Unsloth + vLLM on GPU, transformers + PEFT on CPU)."""
