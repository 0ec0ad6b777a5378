# Each target creates .venv and installs the project into it when missing.
PY      := .venv/bin/python
EXTRAS  := dev,dask,app,openspiel
STAMP   := .venv/.installed
# the root of the compiled kernels' cache (one directory per version of the sources inside)
export NUMBA_CACHE_DIR ?= $(CURDIR)/.numba_cache
GAME    ?= valhalla
# Jupyter refuses to start as root unless told to (CI and these VMs run as root)
ROOT_FLAG := $(if $(filter 0,$(shell id -u)),--allow-root,)

.PHONY: run test warm lab app bench golden clean browser-deps

# uv (from PyPI, into the venv) installs the same packages as pip in about a fifth of the time, pip among
# them; the venv starts without pip (ensurepip alone takes 3-7 s) and the system's pip puts uv in it.
# Where that cannot be done, the venv's own pip (ensurepip) installs uv, or everything if uv cannot.
$(STAMP): pyproject.toml
	python3 -m venv --without-pip .venv
	python3 -m pip --python $(PY) install --quiet uv 2>/dev/null || { $(PY) -m ensurepip >/dev/null && $(PY) -m pip install --quiet uv; }
	$(PY) -m uv pip install --quiet --python $(PY) pip -e ".[$(EXTRAS)]" \
	  || { $(PY) -m ensurepip >/dev/null; $(PY) -m pip install --quiet -e ".[$(EXTRAS)]"; }
	touch $(STAMP)

# Python keeps the compiled bytecode of the package and the tests (__pycache__, git-ignored) even where the
# environment says not to: each pytest process and each CLI subprocess of the tests would otherwise
# compile every module again (pytest's assertion rewriting of the tests alone: 10 s a process)
unexport PYTHONDONTWRITEBYTECODE

# every game's kernels, the plain and the searching copies, compiled into the cache ahead of their first
# use (games in parallel processes; a second or two when they are there already).  The cache directory is
# named by a digest of the sources (toolkit/core/cache.py), so an edit is never run as its old compiled self.
warm: $(STAMP)
	.venv/bin/toolkit warm --search

run: warm
	.venv/bin/toolkit report --html data/results/html

# the browser tests (tests/browser) drive Debian's chromium, never a downloaded browser:
# as root, make test installs the package when it is missing
browser-deps:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || \
	  { apt-get install -y -qq chromium >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null && apt-get install -y -qq chromium >/dev/null; }; }
	@command -v chromium >/dev/null 2>&1 || echo "chromium is missing (apt-get install chromium as root): the browser tests will fail"

# a skipped test fails make test (tests/no_skips.py): here the whole suite must really run.
# Two pytest-xdist workers, one a core, a module at a time in the order tests/conftest.py sorts them
# (the long ones first).  Each worker plays on one Numba thread where a test does not ask for more
# (TOOLKIT_TEST_THREADS; the tests of thread counts ask): two threads a worker on two cores kept a
# worker's parallel runs waiting on the other's (measured: 7% longer for the same tests).  The redraw
# times a designer sees are benchmarks/redraw.py's; the browser tests print theirs when run by hand.
# A run that PYTEST_ARGS leaves without tests (pytest's exit code 5) is not a failure.
test: warm browser-deps
	TOOLKIT_NO_SKIPS=1 TOOLKIT_TEST_THREADS=1 $(PY) -m pytest -n 2 --dist loadscope --no-loadscope-reorder \
	  --durations=20 $(PYTEST_ARGS) || [ $$? = 5 ]

# git tracks only the notebooks' jupytext sources (notebooks/*.py); each .ipynb is git-ignored and
# made here from its .py when missing or older (--update keeps its outputs; a newer .ipynb is left
# alone). Saving in JupyterLab writes the outputs to the .ipynb and the same text to the paired .py.
lab: $(STAMP)
	@stale=$$(for py in notebooks/*.py; do nb="$${py%.py}.ipynb"; \
	  if [ ! -e "$$nb" ] || [ "$$py" -nt "$$nb" ]; then echo "$$py"; fi; done); \
	  [ -z "$$stale" ] || .venv/bin/jupytext --quiet --update --to ipynb $$stale
	.venv/bin/jupyter lab $(ROOT_FLAG) notebooks/

# the rule-tweaking dashboard in the browser: make app [GAME=halali]
app: $(STAMP)
	.venv/bin/toolkit app $(GAME)

# The golden playthroughs (tests/golden): every trace and whole-run digest, the slow ones included
# (about 15 minutes); make test checks the quick part.  Rewrite them only on purpose:
# $(PY) tests/golden/golden_record.py
golden: $(STAMP)
	$(PY) tests/golden/golden_record.py --check

bench: $(STAMP)
	$(PY) benchmarks/run.py

clean:
	rm -rf .venv .numba_cache data/results
