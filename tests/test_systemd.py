"""The unit and udev files are valid for systemd (checked with systemd-analyze)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

SYSTEMD = Path(__file__).parent.parent / "systemd"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_service_unit_verifies(tmp_path):
    unit = tmp_path / "companion.service"
    # Point ExecStart at a binary that exists here so verify checks the rest of the unit.
    text = (SYSTEMD / "companion.service").read_text()
    unit.write_text(text.replace("/opt/table-companion/.venv/bin/companion", "/bin/true")
                    .replace("User=pi", "User=root"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True)
    problems = [line for line in result.stderr.splitlines() if "companion.service" in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_service_keeps_a_writable_working_directory():
    text = (SYSTEMD / "companion.service").read_text()
    assert "WorkingDirectory=/var/lib/table-companion" in text
    assert "StateDirectory=table-companion" in text
