"""The sdist and the wheel carry the pad firmware, and ``companion pad-sim`` runs from an
installed wheel (not from this source tree)."""

from __future__ import annotations

import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
from kiosk_stage import REPO

pytestmark = pytest.mark.slow

FIRMWARE = sorted(p.name for p in (REPO / "firmware").iterdir()
                  if p.suffix in (".py", ".md", ".json"))


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> Path:
    """`python -m build`: the sdist, then the wheel built from that sdist."""
    out = tmp_path_factory.mktemp("dist")
    result = subprocess.run([sys.executable, "-m", "build", "--outdir", str(out), str(REPO)],
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return out


def test_the_sdist_and_the_wheel_carry_every_firmware_file(dist):
    sdist = next(dist.glob("table_companion-*.tar.gz"))
    with tarfile.open(sdist) as tar:
        in_sdist = {Path(n).name for n in tar.getnames() if "/companion/firmware/" in n}
    wheel = next(dist.glob("table_companion-*.whl"))
    with zipfile.ZipFile(wheel) as whl:
        in_wheel = {Path(n).name for n in whl.namelist() if n.startswith("companion/firmware/")}
    assert FIRMWARE and set(FIRMWARE) <= in_sdist
    assert set(FIRMWARE) <= in_wheel


def test_pad_sim_runs_from_the_installed_wheel(dist, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = [str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet"]
    wheel = next(dist.glob("table_companion-*.whl"))
    # pad-sim needs only these two of the companion's dependencies: Kivy stays out of it.
    subprocess.run(pip + ["--no-deps", str(wheel)], check=True)
    subprocess.run(pip + ["pyserial", "platformdirs"], check=True, capture_output=True)
    where = subprocess.run([str(venv / "bin" / "python"), "-c",
                            "from companion.pad.fakehal import FIRMWARE_DIR; print(FIRMWARE_DIR)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert where.strip().startswith(str(venv)), "the firmware must come from the wheel"
    result = subprocess.run([str(venv / "bin" / "companion"), "pad-sim", "--duration", "0.5",
                             "--seed", "1"], cwd=tmp_path, stdin=subprocess.DEVNULL,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "virtual pad on /dev/pts/" in result.stdout + result.stderr
