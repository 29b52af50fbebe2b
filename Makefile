# The two commands of the README: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# PostgreSQL for the database tests (skipped when unreachable, unless RISIKO_REQUIRE_POSTGRES=1)
RISIKO_TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/test
# Redis for the online tables' tests with the club server's channel layer
RISIKO_TEST_REDIS_URL ?= redis://127.0.0.1:6379/0

.PHONY: run test lint typecheck unit unit-compiled unit-postgres unit-redis install-check bench clean \
	catalogues

$(BIN)/risiko: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[web]'
	touch $(BIN)/risiko

$(VENV)/.dev: pyproject.toml $(BIN)/risiko
	$(BIN)/pip install --quiet -e '.[web,national,dev]'
	touch $(VENV)/.dev

# The main job: the club's web app on the embedded SQLite database (http://127.0.0.1:8000/).
run: $(BIN)/risiko
	$(BIN)/risiko serve

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests bench tools setup.py

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict src/risiko

unit: $(VENV)/.dev
	$(BIN)/pytest

# The database tests again, on PostgreSQL.
unit-postgres: $(VENV)/.dev
	@if $(BIN)/python -c "import psycopg,sys; psycopg.connect('$(RISIKO_TEST_POSTGRES_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		echo "PostgreSQL reachable: database tests on PostgreSQL"; \
		DATABASE_URL='$(RISIKO_TEST_POSTGRES_URL)' $(BIN)/pytest -m db || [ $$? -eq 5 ]; \
	elif [ "$$RISIKO_REQUIRE_POSTGRES" = "1" ]; then \
		echo "PostgreSQL required (RISIKO_REQUIRE_POSTGRES=1) but unreachable at $(RISIKO_TEST_POSTGRES_URL)"; exit 1; \
	else \
		echo "PostgreSQL unreachable: database tests on PostgreSQL skipped"; \
	fi

# The online tables' tests again as a club server runs them: Redis channel layer, PostgreSQL.
unit-redis: $(VENV)/.dev
	@if $(BIN)/python -c "import redis; redis.Redis.from_url('$(RISIKO_TEST_REDIS_URL)', socket_timeout=3).ping()" 2>/dev/null \
	  && $(BIN)/python -c "import psycopg; psycopg.connect('$(RISIKO_TEST_POSTGRES_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		echo "Redis and PostgreSQL reachable: online tests with the Redis channel layer"; \
		REDIS_URL='$(RISIKO_TEST_REDIS_URL)' RISIKO_CHANNELS_PREFIX="test-$$$$" \
		DATABASE_URL='$(RISIKO_TEST_POSTGRES_URL)' $(BIN)/pytest -m online || [ $$? -eq 5 ]; \
	elif [ "$$RISIKO_REQUIRE_REDIS" = "1" ]; then \
		echo "Redis and PostgreSQL required (RISIKO_REQUIRE_REDIS=1) but unreachable"; exit 1; \
	else \
		echo "Redis or PostgreSQL unreachable: online tests on Redis skipped"; \
	fi

# `pip install .` alone (no extras), in a fresh virtual environment outside the source tree:
# the game commands work and the web ones say `pip install 'risiko-club[web]'` in one line.
install-check:
	$(PYTHON) tools/install_check.py

# The engine's tests and doctests again on the compiled build (mypyc): the wheel
# built with RISIKO_BUILD=compiled (fails if it cannot compile: no silent fallback to pure)
# and installed in its own environment (.venv-compiled), the tests run from a copy outside
# src/; prints the build's seconds.
unit-compiled:
	$(PYTHON) tools/compiled_check.py

test: lint typecheck install-check unit unit-compiled unit-postgres unit-redis

# The fault catalogues (src/risiko/locale): add new codes, then compile (needs msgfmt).
catalogues: $(VENV)/.dev
	$(BIN)/python tools/catalogue.py

bench: $(VENV)/.dev
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .venv-compiled build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
