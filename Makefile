# Two commands on a fresh machine with python3 and make: `make demo` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test check docs bench clean

# the installers say nothing but their errors (pip's -qq, uv's -q: its -qq hides the errors too), so
# that the commands' own output shows; uv (from PyPI, into the venv) installs the extras in seconds
# where pip took two minutes here, and compiles them to bytecode as pip does: without it every
# interpreter compiles each module it imports again where PYTHONDONTWRITEBYTECODE is set (as here),
# and `satedge --version` took 0.85 s instead of 0.26 s
$(BIN)/python:
	@echo "make: setting up $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install -qq --upgrade pip uv

$(VENV)/.installed-%: pyproject.toml | $(BIN)/python
	@echo "make: installing satedge with the extras $* into $(VENV)"
	@$(BIN)/uv pip install -q --compile-bytecode --python $(BIN)/python -e ".[$*]"
	@$(BIN)/python -m compileall -q satedge
	@touch $@

demo: $(VENV)/.installed-all
	$(BIN)/satedge run experiments/demo.yaml --out out/demo --resume
	$(BIN)/satedge report out/demo --compare edgecolor-heule2008/cadical195 support-seqcounter/cadical195

# satedge's own modules compiled to bytecode where they changed (an editable install leaves them
# out; each command the suite starts would compile them again, 0.16 s), the formatter and the
# linter (ruff, configured in pyproject.toml), then the whole suite in four
# test processes: on two cores, since much of the suite waits on the processes it starts (their
# time limits, their kills, their start-up), the others keep the cores busy meanwhile (three
# processes took 11:04 here, four 10:07).  The searches the suite compiles
# (satedge.backtrack.native) are kept in the venv from one run to the next ($SATEDGE_CACHE, where
# set, instead): not in the user's cache, and `make clean` removes them; a run that finds them
# took 7:00 here where one that compiled them took 7:58
TEST_CACHE := $(CURDIR)/$(VENV)/satedge-cache
test: $(VENV)/.installed-test
	@$(BIN)/python -m compileall -q satedge
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy
	SATEDGE_CACHE="$${SATEDGE_CACHE:-$(TEST_CACHE)}" $(BIN)/python -m pytest -q -n 4 --dist loadfile

# the inner loop, a few minutes: the formatter, the linter (a noqa that silences nothing included),
# the type checker over satedge/ (configured in pyproject.toml) and the tests not marked slow (the
# import contracts among them, tests/test_layers.py)
check: $(VENV)/.installed-test
	@$(BIN)/python -m compileall -q satedge
	$(BIN)/ruff format --check --quiet .
	$(BIN)/ruff check --quiet .
	$(BIN)/mypy
	$(BIN)/python -m pytest -q -n 2 --dist loadfile -m "not slow"

# the documentation site, warnings as errors: docs/_build/html/index.html
docs: $(VENV)/.installed-all
	$(BIN)/python -m sphinx -W --keep-going -q -b html docs docs/_build/html

bench: $(VENV)/.installed-test
	$(BIN)/python benchmarks/backtrack/bench-backtrack.py
	$(BIN)/python benchmarks/export/bench-export.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis docs/_build
