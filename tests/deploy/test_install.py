"""``make install-kiosk DESTDIR=...``: every file staged, a unit systemd accepts and rates
at most 2.5, a second install that keeps what the people at the box changed, and an
install on something that is not Raspberry Pi OS refused before anything changes."""

from __future__ import annotations

import re
import shutil
import stat
import subprocess
from pathlib import Path

import pytest
from kiosk_stage import REPO, UNIT, install_kiosk, is_root, venv_python

pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(shutil.which("systemd-analyze") is None,
                                 reason="needs systemd-analyze (Debian package systemd)")]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.lstat().st_mode)


def test_every_file_is_staged_with_its_mode(staged):
    etc = staged / "etc"
    unit = etc / "systemd" / "system" / UNIT
    assert unit.is_file()
    wants = etc / "systemd" / "system" / "multi-user.target.wants" / UNIT
    assert wants.is_symlink() and str(wants.readlink()).endswith(UNIT)
    assert (etc / "pam.d" / "table-companion").read_text().count("pam_systemd.so") == 1
    assert (etc / "udev" / "rules.d" / "99-slap-pad.rules").is_file()
    assert "RuntimeWatchdogSec=" in (
        etc / "systemd" / "system.conf.d" / "table-companion-watchdog.conf").read_text()
    assert mode(staged / "var" / "lib" / "table-companion") == 0o700
    env = (etc / "table-companion" / "kiosk.env").read_text()
    assert "COMPANION_CONFIG=/etc/table-companion/config.toml" in env
    assert "COMPANION_DATA_DIR=/var/lib/table-companion" in env
    link = staged / "usr" / "local" / "bin" / "companion"
    assert str(link.readlink()) == "/opt/table-companion/venv/bin/companion"


def test_the_installed_config_turns_the_pad_and_full_screen_on(staged):
    config = staged / "etc" / "table-companion" / "config.toml"
    code = ("import sys; from companion.config import load_config; "
            "c = load_config(sys.argv[1]); print(c.pad.enabled, c.fullscreen)")
    out = subprocess.run([str(venv_python(staged)), "-c", code, str(config)],
                         capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "True"]


def test_the_venv_sees_debians_packages_and_has_no_rpi_gpio(staged):
    cfg = (staged / "opt" / "table-companion" / "venv" / "pyvenv.cfg").read_text()
    assert "include-system-site-packages = true" in cfg  # python3-lgpio comes from Debian
    out = subprocess.run([str(venv_python(staged)), "-m", "pip", "list", "--format=freeze"],
                         capture_output=True, text=True, check=True).stdout.lower()
    assert "table-companion==" in out and "rpi.gpio" not in out and "pytest" not in out


def verify(unit: Path, root: Path) -> subprocess.CompletedProcess:
    # verify checks that ExecStart exists on this machine's /opt, so a copy of the staged
    # unit points at the staged venv; everything else is the staged unit as it is.
    copy = root / "verify" / UNIT
    copy.parent.mkdir(exist_ok=True)
    copy.write_text(unit.read_text().replace("/opt/table-companion", f"{root}/opt/table-companion"))
    return subprocess.run(["systemd-analyze", "verify", str(copy)], capture_output=True,
                          text=True)


def test_the_staged_unit_passes_systemd_analyze_verify(staged, tmp_path):
    result = verify(staged / "etc" / "systemd" / "system" / UNIT, staged)
    problems = [line for line in result.stderr.splitlines() if UNIT in line]
    assert result.returncode == 0 and not problems, result.stderr


def test_verify_would_catch_a_broken_unit(staged, tmp_path):
    broken = tmp_path / UNIT
    broken.write_text((staged / "etc" / "systemd" / "system" / UNIT).read_text()
                      .replace("ExecStart=/opt/table-companion/venv/bin/companion",
                               "ExecStart=/opt/table-companion/venv/bin/missing"))
    assert verify(broken, staged).returncode != 0


def exposure(root: Path) -> float:
    result = subprocess.run(["systemd-analyze", "security", "--offline=true",
                             f"--root={root}", UNIT], capture_output=True, text=True)
    m = re.search(r"Overall exposure level for \S+: (\d+\.\d)", result.stdout + result.stderr)
    assert m, result.stdout + result.stderr
    return float(m[1])


def test_the_staged_unit_rates_at_most_2_5(staged):
    assert exposure(staged) <= 2.5


def test_the_rating_would_see_a_unit_without_its_sandbox(stage_copy):
    unit = stage_copy / "etc" / "systemd" / "system" / UNIT
    text = unit.read_text()
    unit.write_text(text[:text.index("# Sandbox.")] + "\n[Install]\nWantedBy=multi-user.target\n")
    assert exposure(stage_copy) > 4.5


def test_a_second_install_keeps_the_config_and_the_added_settings(stage_copy):
    config = stage_copy / "etc" / "table-companion" / "config.toml"
    config.write_text(config.read_text() + "\n# our box: seat 8 is broken\n")
    env = stage_copy / "etc" / "table-companion" / "kiosk.env"
    env.write_text(env.read_text() + "COMPANION_CAGE_ARGS=-r\n")
    before = config.read_text()
    result = install_kiosk(stage_copy, DATA_DIR="/srv/table-companion")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "config.toml exists: kept" in result.stdout
    assert config.read_text() == before
    text = env.read_text()
    assert "COMPANION_CAGE_ARGS=-r" in text
    assert "COMPANION_DATA_DIR=/srv/table-companion" in text
    assert text.count("COMPANION_DATA_DIR=") == 1
    dropin = stage_copy / "etc" / "systemd" / "system" / f"{UNIT}.d" / "data-dir.conf"
    assert "RequiresMountsFor=/srv/table-companion" in dropin.read_text()
    assert mode(stage_copy / "srv" / "table-companion") == 0o700


def test_only_a_venue_config_gets_internet_sockets(staged, stage_copy):
    dropin = stage_copy / "etc" / "systemd" / "system" / f"{UNIT}.d" / "venue-network.conf"
    assert not (staged / dropin.relative_to(stage_copy)).exists()
    unit = (staged / "etc" / "systemd" / "system" / UNIT).read_text()
    assert "AF_INET" not in unit.split("RestrictAddressFamilies=", 1)[1].splitlines()[0]
    config = stage_copy / "etc" / "table-companion" / "config.toml"
    config.write_text(config.read_text() + '\n[venue]\nhost = "venue.local"\ntable = "One"\n')
    result = install_kiosk(stage_copy)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "AF_INET AF_INET6" in dropin.read_text()
    assert exposure(stage_copy) <= 2.5


def refusal(tmp_path: Path, os_release: str, model: str) -> subprocess.CompletedProcess:
    fake_os, fake_model = tmp_path / "os-release", tmp_path / "model"
    fake_os.write_text(os_release)
    fake_model.write_text(model)
    return subprocess.run(["bash", str(REPO / "deploy" / "install-kiosk.sh")],
                          env={"PATH": "/usr/bin:/bin", "OS_RELEASE": str(fake_os),
                               "PI_MODEL": str(fake_model)},
                          capture_output=True, text=True, timeout=60)


@pytest.mark.skipif(not is_root(), reason="as a user the installer first asks for sudo")
def test_an_install_on_another_os_is_refused_with_a_sentence(tmp_path):
    result = refusal(tmp_path, 'PRETTY_NAME="Ubuntu 24.04 LTS"\nVERSION_CODENAME=noble\n', "")
    assert result.returncode == 1
    assert "this is not Raspberry Pi OS" in result.stderr and "FORCE=1" in result.stderr
    result = refusal(tmp_path, 'PRETTY_NAME="Raspbian 11"\nVERSION_CODENAME=bullseye\n',
                     "Raspberry Pi 4 Model B Rev 1.5\0")
    assert result.returncode == 1 and "made for Raspberry Pi OS Bookworm" in result.stderr
    assert not Path("/etc/table-companion").exists() or Path("/etc/rpi-issue").exists()


def test_without_root_the_installer_asks_for_sudo(tmp_path):
    if is_root():
        result = subprocess.run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                                 "bash", str(REPO / "deploy" / "install-kiosk.sh")],
                                capture_output=True, text=True, timeout=60)
    else:
        result = subprocess.run(["bash", str(REPO / "deploy" / "install-kiosk.sh")],
                                capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "sudo make install-kiosk" in result.stderr
