"""Which config and log a command uses: flags, environment, the kiosk's on the box, the user's."""

from __future__ import annotations

import os

import pytest

from companion import paths
from companion.cli import main
from companion.config import DEFAULT_CONFIG


@pytest.fixture
def a_box(tmp_path, monkeypatch):
    """A kiosk.env as the installer writes it, pointing at a log folder and a config."""
    monkeypatch.delenv("COMPANION_DATA_DIR", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "user"))
    kiosk_data = tmp_path / "var-lib"
    config = tmp_path / "config.toml"
    config.write_text(DEFAULT_CONFIG.read_text())
    env = tmp_path / "kiosk.env"
    env.write_text(f"# written by the installer\nCOMPANION_CONFIG={config}\n"
                   f"COMPANION_DATA_DIR='{kiosk_data}'\nOTHER=1\n")
    monkeypatch.setattr(paths, "BOX_ENV", env)
    monkeypatch.setitem(paths._state, "box_env", env)
    yield kiosk_data, config
    paths.reset()


def test_doctor_and_export_on_the_box_use_the_kiosks_config_and_log(a_box, capsys):
    kiosk_data, config = a_box
    assert main(["doctor"]) == 0
    out = capsys.readouterr().out
    assert f"config:        {config} (the kiosk's (" in out
    assert f"log folder:    {kiosk_data} (the kiosk's (" in out
    assert main(["export"]) == 0
    assert str(kiosk_data / "games.sqlite3") in capsys.readouterr().err


def test_run_from_a_shell_keeps_the_users_own_folder(a_box, tmp_path):
    paths.use(box=False)
    assert paths.log_path().parent == tmp_path / "user" / "table-companion"


def test_a_flag_beats_the_environment_which_beats_the_box(a_box, tmp_path, monkeypatch, capsys):
    kiosk_data, _ = a_box
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "env"))
    paths.use(box=True)
    assert paths.data_dir() == tmp_path / "env"
    assert paths.origin()["data"] == "COMPANION_DATA_DIR"
    assert main(["doctor", "--data-dir", str(tmp_path / "flag")]) == 0
    assert f"log folder:    {tmp_path / 'flag'} (--data-dir)" in capsys.readouterr().out
    assert main(["--data-dir", str(tmp_path / "top"), "export"]) == 0
    assert str(tmp_path / "top") in capsys.readouterr().err


def test_no_box_file_means_no_box(tmp_path, monkeypatch):
    monkeypatch.setitem(paths._state, "box_env", tmp_path / "absent.env")
    assert paths.box_settings() == {}


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every folder")
def test_a_kiosk_folder_of_another_user_is_a_sentence_not_a_traceback(tmp_path, monkeypatch,
                                                                     capsys):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o000)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(locked))
    assert main(["export"]) == 2
    assert "can be read only by" in capsys.readouterr().err


def test_unreadable_folder_message_names_owner_and_the_way_out(tmp_path):
    text = paths._not_yours(tmp_path, "the kiosk's (/etc/table-companion/kiosk.env)")
    assert str(tmp_path) in text and "sudo" in text and "--data-dir" in text


def test_the_firmware_ships_inside_the_package():
    fw = paths.firmware_dir()
    assert (fw / "core.py").is_file() and (fw / "PROTOCOL.md").is_file()
