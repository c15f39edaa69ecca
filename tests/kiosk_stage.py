"""Helpers for the deploy tests: run the kiosk installer in DESTDIR mode, find the stage.

tests/deploy/conftest.py builds one stage per session from these (``staged``).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
UNIT = "table-companion.service"


def install_kiosk(destdir: Path, **settings: str) -> subprocess.CompletedProcess:
    """Run the installer in DESTDIR mode; the Debian python3 builds the venv, as on the box."""
    args = ["make", "-s", "-C", str(REPO), "install-kiosk", f"DESTDIR={destdir}"]
    args += [f"{k}={v}" for k, v in settings.items()]
    return subprocess.run(args, capture_output=True, text=True, timeout=900)


def venv_python(root: Path) -> Path:
    return root / "opt" / "table-companion" / "venv" / "bin" / "python"


def is_root() -> bool:
    return os.geteuid() == 0
