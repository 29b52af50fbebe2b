# The two commands of the README: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint typecheck unit bench clean

$(BIN)/risiko: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e .
	touch $(BIN)/risiko

$(VENV)/.dev: pyproject.toml $(BIN)/risiko
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(VENV)/.dev

run: $(BIN)/risiko
	$(BIN)/risiko play --seats 5

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests bench

typecheck: $(VENV)/.dev
	$(BIN)/mypy --strict src/risiko

unit: $(VENV)/.dev
	$(BIN)/pytest

test: lint typecheck unit

bench: $(BIN)/risiko
	$(BIN)/python bench/run.py

clean:
	rm -rf $(VENV) build src/*.egg-info .pytest_cache .mypy_cache .ruff_cache
