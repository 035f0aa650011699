# clubwhist: `make run` to try it on this machine, `make test` to check it. See README.md.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
HOST   ?= 127.0.0.1
PORT   ?= 8000

# Python keeps each module it compiles as bytecode in __pycache__ (ignored by git), unless
# PYTHONDONTWRITEBYTECODE is set, as some machines' environments do. Then every process compiles
# clubwhist's modules afresh, and pytest rewrites every test module's asserts afresh, in each of
# its processes: 7 s of CPU a pytest process and 0.3 s a Django process start, measured. So
# what make runs writes bytecode.
unexport PYTHONDONTWRITEBYTECODE

.DEFAULT_GOAL := help
.PHONY: help run club test lint types pytest docs bench pins migrate demo worker clean

help:
	@echo "make run    - set up .venv, migrate, load the demo and serve on http://$(HOST):$(PORT)/"
	@echo "make club   - club night: serve the tablets on the venue's Wi-Fi from this laptop"
	@echo "make test   - set up .venv with dev tools, then lint, type-check and run every test"
	@echo "make docs   - build the documentation site into build/docs (warnings are errors)"
	@echo "make bench  - run the benchmarks in benchmarks/ and print their figures"
	@echo "make pins   - regenerate requirements/*.txt from pyproject.toml"
	@echo "make worker - start a Celery worker (needs REDIS_URL)"

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "clubwhist needs Python 3.11 or newer; set PYTHON=python3.x")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# Stamp files: reinstall only when the pinned sets (or the build of the C extension) change.
$(VENV)/.base: $(PY) requirements/base.txt pyproject.toml setup.py
	$(PY) -m pip install --quiet -r requirements/base.txt
	$(PY) -m pip install --quiet --no-deps -e .
	@touch $@

$(VENV)/.dev: $(VENV)/.base requirements/dev.txt
	$(PY) -m pip install --quiet -r requirements/dev.txt
	@touch $@

migrate: $(VENV)/.base
	$(PY) manage.py migrate --no-input

demo: migrate
	$(PY) manage.py demo

run: demo
	@echo
	@echo "  clubwhist is starting on http://$(HOST):$(PORT)/"
	@echo "  health:  http://$(HOST):$(PORT)/health"
	@echo "  API:     http://$(HOST):$(PORT)/api/schema/"
	@echo "  Stop it with Ctrl-C."
	@echo "  Only this computer can open it: for a club night with tablets, use make club."
	@echo
	$(PY) manage.py runserver --noreload $(HOST):$(PORT)

# Club night: the laptop serves the tablets on the venue's Wi-Fi (see manage.py club).
# ADDRESS=192.168.1.50 names the laptop's address when it has several.
club: migrate
	$(PY) manage.py club --port $(PORT) $(if $(ADDRESS),--address $(ADDRESS))

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports

types: $(VENV)/.dev
	$(VENV)/bin/mypy engine clubwhist tournaments benchmarks

# With no PYTEST_ARGS (`make test`), every test runs in PYTEST_WORKERS processes (pytest-xdist;
# tests/support/workers.py gives each its own test database and Redis databases). A file's
# tests stay in one process, so a module's club night (gunicorn and a worker) starts once.
# Three on two cores: the app's tests spend much of their time waiting on PostgreSQL, Redis,
# the live server and Chromium, and the engine's fill that time. The tests marked solo load
# both cores by themselves (a thousand live readers, tablets flat out): beside them a browser
# test's live server starved past its timeouts, so they run afterwards, alone (from their
# folder, tests/web/load: a solo test anywhere else fails the collection). Both parts
# always run; either failing fails the target. The thirty slowest tests are listed at the end
# of the first part, so a CI log shows where its minutes go. The slow files are handed out first
# (tests/conftest.py, `pytest_collection_modifyitems`), so none is left running alone at the end.
PYTEST_WORKERS ?= 3
pytest: $(VENV)/.dev
ifeq ($(strip $(PYTEST_ARGS)),)
	@$(PY) -m pytest -n $(PYTEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not solo" --durations=30; parallel=$$?; \
	echo; echo "==== the tests marked solo, alone"; \
	$(PY) -m pytest -m solo --durations=30 tests/web/load; solo=$$?; \
	echo "==== make pytest: the others exit $$parallel, the solo ones exit $$solo"; \
	[ $$parallel -eq 0 ] && [ $$solo -eq 0 ]
else
	$(PY) -m pytest $(PYTEST_ARGS)
endif

# The type check runs beside the tests, not before them: mypy keeps one core busy for some
# 20 s, and the tests keep both busy, so one after the other left the second core idle that
# long. Its report is printed after the tests'; either failing fails the target. (A lint
# failure still stops the target before the tests start.)
test: lint
	@mkdir -p build; \
	$(MAKE) --no-print-directory types > build/types.log 2>&1 & typing=$$!; \
	$(MAKE) --no-print-directory pytest; tests=$$?; \
	wait $$typing; types=$$?; \
	echo "==== make types (run beside the tests): exit $$types"; cat build/types.log; \
	[ $$tests -eq 0 ] && [ $$types -eq 0 ]

# Sphinx, strict: a warning (a broken link or reference included) fails the build.
docs: $(VENV)/.dev
	$(VENV)/bin/sphinx-build -W --keep-going -n -q -b html docs build/docs

# Every module of benchmarks/ is a benchmark, run as a module from the root (they import
# benchmarks.harness, the club night they share with the tests); BENCHMARKS="dd scoring" picks.
BENCHMARKS ?= $(sort $(filter-out __init__,$(basename $(notdir $(wildcard benchmarks/*.py)))))
bench: $(VENV)/.dev
	@for name in $(BENCHMARKS); do echo "== python -m benchmarks.$$name"; $(PY) -m benchmarks.$$name || exit 1; done

pins: $(VENV)/.dev
	$(VENV)/bin/pip-compile --quiet --strip-extras --no-header --no-emit-index-url --no-emit-find-links -o requirements/base.txt pyproject.toml
	$(VENV)/bin/pip-compile --quiet --strip-extras --no-header --no-emit-index-url --no-emit-find-links --extra dev -o requirements/dev.txt pyproject.toml

worker: $(VENV)/.base
	$(VENV)/bin/celery -A clubwhist worker --loglevel INFO

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .mypy_cache .ruff_cache
