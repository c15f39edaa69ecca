# Two commands do all set-up on a fresh machine:
#   make run    start the companion (simulated hardware when there is no Pi)
#   make test   lint and run every test (Kivy windows under Xvfb when there is no display)
# Both create .venv when it is missing and install what they need; running them again
# installs nothing new.

VENV   ?= .venv
PYTHON ?= python3
PY      = $(VENV)/bin/python
STAMP   = $(VENV)/.installed
XVFB    = xvfb-run -a -s "-screen 0 800x480x24"

.PHONY: run test lint bench pad-sim doctor clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(VENV)/bin/companion run

test: lint
	if [ -n "$$DISPLAY" ]; then $(PY) -m pytest; else $(XVFB) $(PY) -m pytest; fi

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	for b in bench/*.py; do \
	  echo "== $$b"; \
	  if [ -n "$$DISPLAY" ]; then $(PY) $$b || exit 1; else $(XVFB) $(PY) $$b || exit 1; fi; \
	done

pad-sim: $(STAMP)
	$(VENV)/bin/companion pad-sim

doctor: $(STAMP)
	$(VENV)/bin/companion doctor

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache tests/_artifacts
