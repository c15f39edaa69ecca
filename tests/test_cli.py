"""The companion command: doctor, and bad input that stops with a message, writing nothing."""

from __future__ import annotations

import subprocess
import sys

from companion.cli import main
from companion.config import DEFAULT_CONFIG


def test_doctor_reports_factory_bound_config_and_log(data_dir, capsys):
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "pin factory:   keyboard (simulated)" in out
    assert "timestamps:    taken in user space" in out
    assert "slap bound:    30 ms" in out
    assert f"config:        {DEFAULT_CONFIG}" in out
    assert "(schema 2, 0 games)" in out


def test_bad_config_stops_run_with_file_and_key_and_writes_nothing(tmp_path, data_dir, capsys):
    bad = tmp_path / "box.toml"
    bad.write_text(DEFAULT_CONFIG.read_text().replace("button_pin = 27", "button_pin = 4"))
    assert main(["run", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "seats[1].button_pin = 4" in err
    assert not data_dir.exists(), "a refused start must not create the data directory"


def test_doctor_watch_lists_presses(data_dir, tmp_path):
    cfg = tmp_path / "mock.toml"
    cfg.write_text(DEFAULT_CONFIG.read_text().replace('factory = "auto"', 'factory = "mock"'))
    lines = []
    from companion.doctor import doctor

    assert doctor(str(cfg), watch_seconds=0.01, out=lines.append) == 0
    assert any("watching buttons" in line for line in lines)


def test_python_dash_m_runs_the_same_command(data_dir):
    result = subprocess.run([sys.executable, "-m", "companion", "replay", "/nonexistent.jsonl"],
                            capture_output=True, text=True)
    assert result.returncode == 2
    assert "/nonexistent.jsonl: cannot read" in result.stderr
