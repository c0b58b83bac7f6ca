# The two commands a newcomer needs (see README.md). Both set up .venv on first use.
VENV ?= .venv
PYTEST_ARGS ?=

.PHONY: demo test test-fast test-busy setup
BURNERS ?= 4

demo:
	@bash scripts/setup_env.sh
	$(VENV)/bin/rlvr train
	@echo "rlvr is in $(VENV): run $(VENV)/bin/rlvr --help, or 'source $(VENV)/bin/activate' and then rlvr ..."

test:
	@bash scripts/setup_env.sh dev
	$(VENV)/bin/python -m pytest $(PYTEST_ARGS)

# Everything but the slow end-to-end runs and the verl/OpenRLHF/verifiers venvs (CI runs `make test`).
test-fast:
	@bash scripts/setup_env.sh dev
	$(VENV)/bin/python -m pytest -m "not slow" $(PYTEST_ARGS)

# The whole suite beside $(BURNERS) CPU burners (pure-Python busy loops), as on a machine shared with
# other work: no test may assume how fast the machine is. The burners stop however the suite ends.
test-busy:
	@bash scripts/setup_env.sh dev
	$(VENV)/bin/python benchmarks/burners.py -n $(BURNERS) -- $(VENV)/bin/python -m pytest $(PYTEST_ARGS)
