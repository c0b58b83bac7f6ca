"""Unit-testing reward functions: fixture files, a pytest plugin, adversarial audits."""
