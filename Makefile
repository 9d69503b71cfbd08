# Two commands for a new user: `make play` and `make test`. Both create .venv when missing.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: play test lint bench clean

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

play: $(STAMP)
	$(BIN)/gamenight

test: $(STAMP)
	$(BIN)/ruff check engine net tui tests bench
	$(BIN)/python -m pytest -q -n 3 --dist worksteal  # 3 workers on 2 cores: a third of the time the tests wait on brokers, pilots and processes

lint: $(STAMP)
	$(BIN)/ruff check engine net tui tests bench

bench: $(STAMP)
	$(BIN)/python bench/run_all.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .hypothesis
