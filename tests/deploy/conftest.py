"""One staged kiosk install (``make install-kiosk DESTDIR=...``) shared by the deploy tests.

The stage lies in a folder every user can read, because the cage test runs the staged
kiosk as an unprivileged user (cage refuses root). It is removed after the session.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

import pytest
from kiosk_stage import install_kiosk


@pytest.fixture(scope="session")
def staged() -> Path:
    if not Path("/usr/bin/python3").exists():
        pytest.skip("the installer builds the kiosk's venv with Debian's /usr/bin/python3")
    root = Path(tempfile.mkdtemp(prefix="companion-stage-"))
    root.chmod(0o755)
    result = install_kiosk(root)
    assert result.returncode == 0, result.stdout + result.stderr
    yield root
    shutil.rmtree(root, ignore_errors=True)


@pytest.fixture
def stage_copy(staged, tmp_path) -> Path:
    """A copy of the stage that a test may install over again."""
    copy = tmp_path / "stage"
    shutil.copytree(staged, copy, symlinks=True)
    return copy
