"""The companion command: doctor, and bad input that stops with a message, writing nothing."""

from __future__ import annotations

import subprocess
import sys

import pytest

from companion.cli import main
from companion.config import DEFAULT_CONFIG
from companion.store.migrations import SCHEMA_VERSION


def test_doctor_reports_factory_bound_config_and_log(data_dir, capsys):
    assert main(["doctor"]) == 0
    assert "none yet" in capsys.readouterr().out
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    GameLog(log_path()).close()
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert "pin factory:   keyboard (simulated)" in out
    assert "timestamps:    taken in user space" in out
    assert "slap bound:    17 ms" in out  # a frame: keys are stamped on the UI thread
    assert f"config:        {DEFAULT_CONFIG}" in out
    assert f"(schema {SCHEMA_VERSION}, 0 games)" in out


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


def test_doctor_and_export_never_change_a_damaged_log(data_dir, capsys):
    from companion.paths import log_path

    path = log_path()
    path.write_bytes(b"not a database " * 50)
    assert main(["doctor"]) == 1
    assert "PROBLEM" in capsys.readouterr().out
    assert main(["export"]) == 2
    assert "not an SQLite database" in capsys.readouterr().err
    assert path.read_bytes() == b"not a database " * 50
    assert sorted(p.name for p in path.parent.iterdir()) == ["games.sqlite3"]


def test_export_refuses_bad_targets_with_a_message(data_dir, tmp_path, capsys):
    assert main(["export"]) == 0  # no log yet: nothing to export, not an error
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    log = GameLog(log_path())
    log.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}]})
    log.close()
    capsys.readouterr()
    assert main(["export", "-o", str(log_path())]) == 2
    assert "would overwrite the game log" in capsys.readouterr().err
    assert main(["export", "-o", str(tmp_path / "no" / "such" / "dir.jsonl")]) == 2
    assert "cannot write" in capsys.readouterr().err
    assert main(["export", "--game", "7"]) == 2
    assert "there is no game 7" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["export", "--game", "99999999999999999999999"])


def test_an_unusable_data_directory_is_a_message(tmp_path, monkeypatch, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("COMPANION_DATA_DIR", str(blocker / "data"))
    assert main(["export"]) == 2
    assert "COMPANION_DATA_DIR" in capsys.readouterr().err


def _one_game_log():
    from companion.paths import log_path
    from companion.store.gamelog import GameLog

    log = GameLog(log_path())
    game = log.new_game("scorepad", {"players": [{"name": "Ann", "seat": 1}]})
    log.append(game, {"type": "score", "seat": 1, "points": 3})
    log.close()


@pytest.mark.parametrize("command", [["export"], ["export", "--format", "csv"]])
def test_export_to_a_full_standard_output_is_a_sentence(data_dir, command):
    _one_game_log()
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "companion", *command], stdout=full,
                                stderr=subprocess.PIPE, text=True)
    assert result.returncode == 2
    assert "cannot write to the standard output (No space left on device)" in result.stderr
    assert "Traceback" not in result.stderr and "Exception ignored" not in result.stderr


@pytest.mark.timeout(30)
def test_replay_of_a_named_pipe_is_a_sentence_not_a_wait(tmp_path, capsys):
    import os

    fifo = tmp_path / "games.jsonl"
    os.mkfifo(fifo)
    assert main(["replay", str(fifo)]) == 2  # before: blocked for ever, waiting for a writer
    assert "is a named pipe, not a file" in capsys.readouterr().err
    assert main(["replay", str(tmp_path)]) == 2
    assert "is a folder, not a file" in capsys.readouterr().err
