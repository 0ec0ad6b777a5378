# Each target creates .venv and installs the project into it when missing.
PY      := .venv/bin/python
STAMP   := .venv/.installed
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache

.PHONY: run test lab bench clean

$(STAMP): pyproject.toml
	python3 -m venv .venv
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,dask]"
	touch $(STAMP)

run: $(STAMP)
	.venv/bin/toolkit report --html data/results/html

test: $(STAMP)
	$(PY) -m pytest --durations=20 $(PYTEST_ARGS)

lab: $(STAMP)
	$(PY) -m pip install --quiet "jupyterlab>=4"
	.venv/bin/jupyter lab notebooks/

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf .venv .numba_cache data/results
