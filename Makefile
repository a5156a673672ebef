# Everything runs inside .venv, created on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: setup demo docs test lint bench fonts train clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

# The main job on the example photos of one table: two players on combo sheets, a third on
# a garden and a play sheet photographed apart. Prints each breakdown, any field to check
# and the ranking, writes an overlay per photo, then says how to start game night.
DEMO_OUT ?= /tmp/companion-demo
DEMO_PHOTOS := $(addprefix examples/delicious/photos/,combo-good-light.jpg \
	combo-tilted-shadow.jpg garden-player3.jpg play-player3.jpg)

demo: $(STAMP)
	$(BIN)/companion delicious read $(DEMO_PHOTOS) --overlay $(DEMO_OUT)
	@echo
	@echo "The overlays (green trusted, orange to check, red a rule problem) are in $(DEMO_OUT)/."
	@echo "For game night, put companion on your PATH, then serve the phones on your Wi-Fi:"
	@echo "    source $(VENV)/bin/activate        # or once for good: pipx install ."
	@echo "    companion serve --lan            # prints a URL and a QR code: scan it with each phone"

lint: $(STAMP)
	$(BIN)/ruff check --output-format concise companion layouts tests tools
	$(BIN)/mypy companion layouts tools/synth

# The documentation site, strict: a broken link or a page left out of mkdocs.yml's nav
# fails; the command-line reference must match the commands' --help. Built into build/site.
docs: $(STAMP)
	$(BIN)/python -m tools.cli_reference --check
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet

# The whole suite with whatever fonts the machine has, then the tests that draw synthetic
# handwriting again with every font hidden (as on a machine without tools/fonts.txt).
test: $(STAMP) lint docs
	$(BIN)/pytest
	COMPANION_FONT_DIRS= $(BIN)/pytest -m synth -W ignore::RuntimeWarning

# Handwriting fonts for synthetic photos (benchmark and training); Debian packages.
fonts:
	@if fc-list 2>/dev/null | grep -qi purisa; then :; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
			$$(grep -v '^#' tools/fonts.txt) tesseract-ocr >/dev/null; \
	else echo "install the fonts listed in tools/fonts.txt (apt-get) for held-out handwriting"; fi

bench: $(STAMP) fonts
	$(BIN)/python -m tools.bench $(BENCH)

# Retrain the letter classifier (assets/letters.onnx: real writers' letters from
# ../shared/data/handwriting when present, fonts and stroke letters, and ink that is no one
# letter trained towards even odds, --outliers; calibrated on held-out real writers; three
# more, letters-d with another seed and letters-k and letters-m with the cursive recipe and
# other seeds, which the reader also asks about the letters the first is unsure of, the mean
# of their log-probabilities fitted on the same writers' crops,
# tools/fit_letter_ensemble.py; its sheet review thresholds, for every letter and for a
# letter of a pair its sheet doubts, then fitted on 300 photographed sheets of the
# calibration writers), the check-or-cross classifier (assets/marks.onnx, from mark
# patches the reader cuts from 600 synthetic photos) and the dice pip counter's second
# opinion (assets/pips.onnx, from the dice the reader cuts from 600 synthetic dice photos of
# the tuning camera settings) and the cell network (assets/cells.onnx: every cell of the
# reader's lattices on 900 tuning photos, bare ones too, so it tells a die from the table)
# in their own venv with PyTorch (CPU);
# then the sketch classifier (assets/sketches.onnx: our icons traced and doodles from
# several templates per plant, turned, mirrored and stretched, by synthetic players; and
# letters, 4,000 more than a plant's share, so written cells pass the letter gate), its
# thresholds fitted on the calib setting's players.
train: $(STAMP) fonts
	$(PY) -m venv .trainenv
	.trainenv/bin/pip install -q torch==2.13.0 onnx numpy opencv-python-headless pillow
	.trainenv/bin/pip install -q --no-deps -e .  # companion.assets: where the models are written
	PYTHONPATH=. .trainenv/bin/python -m tools.train_letters --outliers 0.06
	PYTHONPATH=. .trainenv/bin/python -m tools.train_letters --outliers 0.06 --seed 20261203 --threads 1 --out assets/letters-d.onnx
	PYTHONPATH=. .trainenv/bin/python -m tools.train_letters --outliers 0.06 --seed 20261205 --cursive --epochs 8 --threads 1 --out assets/letters-k.onnx
	PYTHONPATH=. .trainenv/bin/python -m tools.train_letters --outliers 0.06 --seed 20261206 --cursive --epochs 8 --threads 1 --out assets/letters-m.onnx
	$(BIN)/python -m tools.fit_letter_ensemble --member letters-d.onnx --member letters-k.onnx --member letters-m.onnx --mean log --write
	$(BIN)/python -m tools.fit_letter_sheets --jobs 2 --write
	$(BIN)/python -m tools.train_marks --harvest
	PYTHONPATH=. .trainenv/bin/python -m tools.train_marks
	$(BIN)/python -m tools.train_pips --harvest --workers 2
	PYTHONPATH=. .trainenv/bin/python -m tools.train_pips --threads 2
	$(BIN)/python -m tools.train_cells --harvest --workers 2
	PYTHONPATH=. .trainenv/bin/python -m tools.train_cells --threads 2
	.trainenv/bin/pip install -q reportlab segno pypdfium2  # the sketches trace layouts/art
	PYTHONPATH=. .trainenv/bin/python -m tools.train_sketches --threads 2 --cache .trainenv/cache
	$(BIN)/python -m tools.fit_sketches --jobs 2 --cache .trainenv/cache --papers 800 --no-trust-floor

clean:
	rm -rf $(VENV) build *.egg-info
