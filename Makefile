# Everything runs inside .venv, created on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo test lint bench sheets clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

demo: $(STAMP)
	$(BIN)/companion delicious simulate --seed 7 --players 3 -o /tmp/companion-demo
	$(BIN)/companion delicious score /tmp/companion-demo/player*.json

lint: $(STAMP)
	$(BIN)/ruff check --output-format concise companion layouts tests scripts
	$(BIN)/mypy companion layouts

test: $(STAMP) lint
	$(BIN)/pytest

bench: $(STAMP)
	$(BIN)/python -m scripts.bench $(BENCH)

clean:
	rm -rf $(VENV) build *.egg-info
