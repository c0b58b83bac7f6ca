# The two commands a newcomer needs (see README.md). Both set up .venv on first use.
VENV ?= .venv
PYTEST_ARGS ?=

.PHONY: demo test setup

demo:
	@bash scripts/setup_env.sh
	$(VENV)/bin/rlvr train

test:
	@bash scripts/setup_env.sh dev
	$(VENV)/bin/python -m pytest $(PYTEST_ARGS)
