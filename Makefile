# The two commands of the README: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run PORT=8001`: the port of the web app (a busy one is said in one line, in Italian
# unless RISIKO_LANG=en)
PORT ?= 8000
RISIKO_LANG ?= it
# PostgreSQL for the database tests (skipped when unreachable, unless RISIKO_REQUIRE_POSTGRES=1):
# the server of RISIKO_TEST_POSTGRES_URL, where pytest-django creates the database
# test_$(RISIKO_TEST_DB) and drops it at the end (`make test` drops it too if a run left it)
RISIKO_TEST_DB ?= risiko_check
RISIKO_TEST_POSTGRES_URL ?= postgres://postgres@127.0.0.1:5432/$(RISIKO_TEST_DB)
# Redis for the tests with the club server's channel layer: its own database number (14),
# keys under a prefix of the run (test-<pid>), which expire
RISIKO_TEST_REDIS_URL ?= redis://127.0.0.1:6379/14
# the server's maintenance database: reachable whether or not RISIKO_TEST_DB exists
PG_SERVER_URL = $(shell printf '%s' '$(RISIKO_TEST_POSTGRES_URL)' | sed 's|/[^/]*$$|/postgres|')
# the database the URL names (pytest-django's is test_ and this name)
PG_TEST_NAME = $(shell printf '%s' '$(RISIKO_TEST_POSTGRES_URL)' | sed 's|.*/||; s|?.*||')
DROP_TEST_DB = $(BIN)/python -c "import psycopg; c = psycopg.connect('$(PG_SERVER_URL)', connect_timeout=3, autocommit=True); c.execute('DROP DATABASE IF EXISTS \"test_$(PG_TEST_NAME)\" WITH (FORCE)'); c.close()" 2>/dev/null || true

.PHONY: run test lint typecheck unit unit-compiled unit-postgres unit-redis install-check bench clean \
	catalogues clean-test-databases

$(BIN)/risiko: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[web,national]'
	touch $(BIN)/risiko

$(VENV)/.dev: pyproject.toml $(BIN)/risiko
	$(BIN)/pip install --quiet -e '.[web,national,lab,dev]'
	touch $(VENV)/.dev

# The main job: the club's web app on the embedded SQLite database (http://127.0.0.1:8000/).
run: $(BIN)/risiko
	$(BIN)/risiko --lang $(RISIKO_LANG) serve --port $(PORT)

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests bench tools setup.py

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict src/risiko

unit: $(VENV)/.dev
	RISIKO_TEST_REDIS_URL='$(RISIKO_TEST_REDIS_URL)' $(BIN)/pytest

# The database tests again, on PostgreSQL.
unit-postgres: $(VENV)/.dev
	@if $(BIN)/python -c "import psycopg,sys; psycopg.connect('$(PG_SERVER_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		echo "PostgreSQL reachable: database tests on PostgreSQL (database test_$(PG_TEST_NAME))"; \
		DATABASE_URL='$(RISIKO_TEST_POSTGRES_URL)' RISIKO_TEST_REDIS_URL='$(RISIKO_TEST_REDIS_URL)' \
		$(BIN)/pytest -m db; status=$$?; $(DROP_TEST_DB); \
		[ $$status -eq 0 ] || [ $$status -eq 5 ]; \
	elif [ "$$RISIKO_REQUIRE_POSTGRES" = "1" ]; then \
		echo "PostgreSQL required (RISIKO_REQUIRE_POSTGRES=1) but unreachable at $(RISIKO_TEST_POSTGRES_URL)"; exit 1; \
	else \
		echo "PostgreSQL unreachable: database tests on PostgreSQL skipped"; \
	fi

# The online tables' tests again as a club server runs them: Redis channel layer, PostgreSQL.
unit-redis: $(VENV)/.dev
	@if $(BIN)/python -c "import redis; redis.Redis.from_url('$(RISIKO_TEST_REDIS_URL)', socket_timeout=3).ping()" 2>/dev/null \
	  && $(BIN)/python -c "import psycopg; psycopg.connect('$(PG_SERVER_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		echo "Redis and PostgreSQL reachable: online tests with the Redis channel layer"; \
		REDIS_URL='$(RISIKO_TEST_REDIS_URL)' RISIKO_CHANNELS_PREFIX="test-$$$$" \
		DATABASE_URL='$(RISIKO_TEST_POSTGRES_URL)' $(BIN)/pytest -m online; status=$$?; \
		$(DROP_TEST_DB); [ $$status -eq 0 ] || [ $$status -eq 5 ]; \
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
# src/; prints the build's seconds. Skipped without a C compiler or Python's headers, unless
# RISIKO_REQUIRE_COMPILED=1 (CI).
unit-compiled:
	$(PYTHON) tools/compiled_check.py

test: lint typecheck install-check unit unit-compiled unit-postgres unit-redis

# The test database a run may leave behind (killed, or a server still connected): dropped.
clean-test-databases: $(VENV)/.dev
	@$(DROP_TEST_DB)

# The catalogues (src/risiko/locale): new fault codes and help texts of `risiko`, then compile
# (needs msgfmt).
catalogues: $(VENV)/.dev
	$(BIN)/python tools/catalogue.py

bench: $(VENV)/.dev
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) .venv-compiled build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
