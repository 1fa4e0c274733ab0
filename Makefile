# Farol: two entry points, `make report` (main job) and `make test` (the test suite).
# Both build .venv at the repository root when it is missing.
PYTHON ?= python3
VENV := .venv
STAMP := $(VENV)/.farol-installed

.PHONY: report test test-slow test-mutation lint venv clean notebooks notebook-outputs

$(STAMP): pyproject.toml
	test -x $(VENV)/bin/python || $(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VENV)/bin/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

report: $(STAMP)
	$(VENV)/bin/farol report all

test: $(STAMP)
	$(VENV)/bin/ruff check games analysis tests benchmarks
	$(VENV)/bin/python -m pytest -n 2 -q

test-slow: $(STAMP)
	$(VENV)/bin/python -m pytest -n 2 -q -m slow -o addopts=''

# The mutation-score ratchet: each target's score at least its committed one
# (benchmarks/results/mutation.txt), within 12 minutes.
test-mutation: $(STAMP)
	$(VENV)/bin/python benchmarks/mutation.py --check --budget 720

# Jupyter is an extra: these two install it into the venv first.
notebooks: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[notebooks]'
	$(VENV)/bin/jupyter lab notebooks/

notebook-outputs: $(STAMP)
	$(VENV)/bin/python -m pip install --quiet -e '.[notebooks]'
	FAROL_QUICK=1 $(VENV)/bin/jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb

lint: $(STAMP)
	$(VENV)/bin/ruff check games analysis tests benchmarks

clean:
	rm -rf $(VENV) .farol_cache
