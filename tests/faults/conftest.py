"""The fault suite's fixtures, and its counts at the end of the pytest run.

Every fault test adds its ``Counts`` under a name; ``pytest_terminal_summary`` prints one
line per name (trials, lost, phantom, renamed, untold, uncertain), so a plain
``pytest tests/faults`` (or ``make test``) shows them. ``bench/log_faults.py`` prints the
same lines from the same harness, exhaustively.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from faults.harness import COUNTS, Counts


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not COUNTS:
        return
    terminalreporter.section("game log fault injection")
    total = Counts()
    for name, counts in COUNTS.items():
        terminalreporter.write_line(counts.line(name))
        total.add(counts)
    terminalreporter.write_line(total.line("all faults"))


@pytest.fixture
def fast_dir():
    """A folder on tmpfs (/dev/shm) when there is one: syncs cost nothing there, and
    fault injection does not depend on the disk under the test."""
    root = "/dev/shm" if os.access("/dev/shm", os.W_OK) else None
    path = Path(tempfile.mkdtemp(prefix="companion-faults-", dir=root))
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="session")
def strace_ok() -> None:
    if shutil.which("strace") is None:
        pytest.skip("strace is not installed (.ci/run installs it)")
    probe = subprocess.run(["strace", "-f", "-qq", "-o", "/dev/null", "-e", "trace=none",
                            "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip(f"strace cannot trace here: {probe.stderr.decode().strip()}")


@pytest.fixture
def tmpfs(tmp_path):
    """A small tmpfs of our own (needs root): ``mount(size_kb)``, ``remount_ro()``."""
    mounts: list[Path] = []

    class Tmpfs:
        def mount(self, size_kb: int, name: str = "mnt") -> Path:
            point = tmp_path / name
            point.mkdir()
            done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size_kb}k,mode=0755",
                                   "tmpfs", str(point)], capture_output=True, text=True)
            if done.returncode != 0:
                pytest.skip(f"cannot mount a tmpfs here (needs root): {done.stderr.strip()}")
            mounts.append(point)
            return point

        def remount(self, point: Path, mode: str) -> None:
            subprocess.run(["mount", "-o", f"remount,{mode}", str(point)], check=True)

    yield Tmpfs()
    for point in reversed(mounts):
        subprocess.run(["umount", "-l", str(point)], capture_output=True)
