"""The unit, PAM and udev files as they lie in the repository (the staged install is
checked in tests/deploy/test_install.py)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).parent.parent
UNIT = (REPO / "systemd" / "table-companion.service").read_text()


def settings(text: str, key: str) -> list[str]:
    return [line.split("=", 1)[1] for line in text.splitlines() if line.startswith(f"{key}=")]


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="needs systemd-analyze")
def test_service_unit_verifies(tmp_path):
    unit = tmp_path / "table-companion.service"
    # ExecStart must exist here for verify to check the rest: point it at a real binary.
    unit.write_text(UNIT.replace("/opt/table-companion/venv/bin/companion", "/bin/true"))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True)
    problems = [line for line in result.stderr.splitlines() if unit.name in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_the_kiosk_takes_tty1_in_a_logind_session_at_multi_user_boot():
    assert settings(UNIT, "PAMName") == ["table-companion"]
    assert settings(UNIT, "TTYPath") == ["/dev/tty1"]
    assert "getty@tty1.service" in " ".join(settings(UNIT, "Conflicts"))
    assert settings(UNIT, "WantedBy") == ["multi-user.target"]
    assert "User=pi" not in UNIT and "DISPLAY=" not in UNIT
    pam = (REPO / "deploy" / "table-companion.pam").read_text()
    assert "pam_systemd.so" in pam


def test_readiness_goes_through_the_main_pid_and_bad_setups_do_not_loop():
    assert settings(UNIT, "Type") == ["notify"]
    assert settings(UNIT, "NotifyAccess") == ["main"]  # the launcher relays (PAMName=)
    assert settings(UNIT, "WatchdogSec") == ["15"]
    assert settings(UNIT, "RestartPreventExitStatus") == ["78"]  # companion/launcher.py
    assert settings(UNIT, "StartLimitBurst")


def test_the_log_folder_is_private_and_writable():
    assert settings(UNIT, "WorkingDirectory") == ["/var/lib/table-companion"]
    assert settings(UNIT, "StateDirectory") == ["table-companion"]
    assert settings(UNIT, "StateDirectoryMode") == ["0700"]
    assert settings(UNIT, "UMask") == ["0077"]
    assert settings(UNIT, "ProtectSystem") == ["strict"]


def test_the_sessions_slice_gets_the_units_device_list():
    # logind moves the session out of the unit's cgroup: the installer repeats the list
    # on the kiosk user's slice, and the two must not drift apart.
    slice_conf = (REPO / "systemd" / "table-companion-slice.conf").read_text()
    assert settings(slice_conf, "DeviceAllow") == settings(UNIT, "DeviceAllow")
    assert settings(slice_conf, "DevicePolicy") == settings(UNIT, "DevicePolicy") == ["closed"]


def test_the_app_runs_optimised_python_with_a_bytecode_cache_it_may_write():
    # /usr and /opt are read-only to the unit (ProtectSystem=strict) and neither Debian
    # nor pip ships bytecode for -O: without a writable cache every start would compile
    # every module again.
    env = " ".join(settings(UNIT, "Environment")).split()
    assert "PYTHONOPTIMIZE=1" in env
    assert "PYTHONPYCACHEPREFIX=/var/cache/table-companion/bytecode" in env
    assert settings(UNIT, "CacheDirectory") == ["table-companion"]
    assert settings(UNIT, "CacheDirectoryMode") == ["0700"]


def test_make_run_and_the_benches_run_python_as_the_box():
    import importlib.util

    spec = importlib.util.spec_from_file_location("box_python", REPO / "bench" / "box_python.py")
    box_python = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(box_python)
    assert box_python.box_settings() == {"PYTHONOPTIMIZE": "1"}
    run = (REPO / "Makefile").read_text().split("\nrun:", 1)[1].split("\n\n", 1)[0]
    assert "PYTHONOPTIMIZE=1 $(VENV)/bin/companion run" in run
    for bench in ("ui_actions", "idle_screens", "startup", "long_night",
                  "log_append"):
        main = (REPO / "bench" / f"{bench}.py").read_text().split('if __name__ == "__main__":')[1]
        assert "as_the_box()" in main, bench
