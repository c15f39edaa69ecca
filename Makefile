# Two commands do all set-up on a fresh machine:
#   make run    start the companion (simulated hardware when there is no Pi)
#   make test   lint and run every test (Kivy windows under Xvfb when there is no display)
# Both create .venv when it is missing and install what they need: `run` only what running
# needs, `test` the dev tools as well. Running them again installs nothing new.
#
# On the box (Raspberry Pi OS Bookworm):
#   sudo make install-kiosk    the kiosk service, its user, venv, config and data folder
#   make flash                 copy the slap pad firmware to the Pico (stops the kiosk meanwhile)
# `make install-kiosk DESTDIR=DIR` stages every file under DIR and changes nothing else.

VENV   ?= .venv
PYTHON ?= python3
PY      = $(VENV)/bin/python
RUN_STAMP  = $(VENV)/.installed-run
DEV_STAMP  = $(VENV)/.installed-dev
PICO_STAMP = $(VENV)/.installed-pico
XVFB    = xvfb-run -a -s "-screen 0 800x480x24"

# install-kiosk settings (see docs/deploy.md): where the app goes, which Python builds its
# venv (Debian's, for python3-lgpio), a data folder on a writable partition, extra pip
# options, FORCE=1 to install on something that is not Raspberry Pi OS.
DESTDIR  ?=
PREFIX   ?= /opt/table-companion
DATA_DIR ?= /var/lib/table-companion
KIOSK_PYTHON ?= /usr/bin/python3
PIP_ARGS ?=
FORCE    ?= 0
# flash settings: the pad's serial port (default: /dev/slap-pad, else the only Pico found).
PORT     ?=

.PHONY: run test check lint bench pad-sim doctor clean install-kiosk flash boot-test test-arm64

# Debian packages first (installed as root; otherwise named in one line): see the script.
$(PY):
	bash deploy/system-packages.sh run
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	touch $@

$(DEV_STAMP): pyproject.toml | $(PY)
	bash deploy/system-packages.sh test
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@ $(RUN_STAMP)

$(PICO_STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[pico]'
	touch $@ $(RUN_STAMP)

# Python as the box runs it (systemd/table-companion.service: PYTHONOPTIMIZE=1).
run: $(RUN_STAMP)
	PYTHONOPTIMIZE=1 $(VENV)/bin/companion run

test: lint
	if [ -n "$$DISPLAY" ]; then $(PY) -m pytest; else $(XVFB) $(PY) -m pytest; fi

# The fast inner loop while changing code: lint and the tests that open no window and are
# not marked slow (make test runs them all).
check: lint
	$(PY) -m pytest -q -m "not window and not slow"

# The installed box booted by a real systemd (root; about 10 minutes; tests/boot/).
boot-test:
	bash tests/boot/boot-test.sh

# The box's runtime dependencies from aarch64 wheels on a Debian bookworm arm64 system, and
# the tests marked arm64 run there under qemu-user emulation (root: binfmt_misc; see
# docs/arm64.md).
test-arm64:
	bash tests/arm64/arm64-test.sh

lint: $(DEV_STAMP)
	$(VENV)/bin/ruff check .

# Every bench that stands alone; bench/resume_one.py is told what to look at (its
# argument), bench/box_python.py is the benches' helper.
BENCHES := $(filter-out bench/box_python.py bench/resume_one.py,\
                        $(sort $(wildcard bench/*.py)))

bench: $(DEV_STAMP)
	for b in $(BENCHES); do \
	  echo "== $$b"; \
	  if [ -n "$$DISPLAY" ]; then $(PY) $$b || exit 1; else $(XVFB) $(PY) $$b || exit 1; fi; \
	done

pad-sim: $(RUN_STAMP)
	$(VENV)/bin/companion pad-sim

doctor: $(RUN_STAMP)
	$(VENV)/bin/companion doctor

install-kiosk:
	DESTDIR='$(DESTDIR)' PREFIX='$(PREFIX)' DATA_DIR='$(DATA_DIR)' \
	  KIOSK_PYTHON='$(KIOSK_PYTHON)' PIP_ARGS='$(PIP_ARGS)' FORCE='$(FORCE)' \
	  bash deploy/install-kiosk.sh

flash: $(PICO_STAMP)
	$(PY) deploy/flash_pico.py $(if $(PORT),--port '$(PORT)')

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache tests/_artifacts
