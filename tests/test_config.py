"""The hardware config: the default loads, and every mistake names file, key and value."""

from __future__ import annotations

import tomllib

import pytest

from companion.config import DEFAULT_CONFIG, load_config, parse_config
from companion.errors import ConfigError


def default_data() -> dict:
    return tomllib.loads(DEFAULT_CONFIG.read_text())


def test_default_config_loads():
    cfg = load_config(DEFAULT_CONFIG)
    assert [s.seat for s in cfg.seats] == list(range(1, 9))
    assert cfg.captain_button_pin == 20
    assert cfg.slap.holdoff_ms == 20


def test_env_variable_selects_the_file(tmp_path, monkeypatch):
    path = tmp_path / "box.toml"
    path.write_text(DEFAULT_CONFIG.read_text().replace('factory = "auto"', 'factory = "mock"'))
    monkeypatch.setenv("COMPANION_CONFIG", str(path))
    cfg = load_config()
    assert cfg.path == path and cfg.factory == "mock"


def mutate(fn):
    data = default_data()
    fn(data)
    return data


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (lambda d: d["seats"][1].update(button_pin=4),
         "seats[1].button_pin = 4: GPIO4 is already"),
        (lambda d: d["seats"][2].update(lamp_pin=20), "seats[2].lamp_pin = 20: GPIO20 is already"),
        (lambda d: d["seats"][0].update(buton_pin=3), "unknown key seats[0].buton_pin"),
        (lambda d: d.update(extra={}), "unknown key extra"),
        (lambda d: d["seats"][0].update(button_pin="4"), "seats[0].button_pin = '4': must be int"),
        (lambda d: d["seats"][0].update(button_pin=40),
         "seats[0].button_pin = 40: must be between"),
        (lambda d: d["seats"][0].update(seat=True), "seats[0].seat = True: must be int"),
        (lambda d: d["seats"][0].update(colour="red"), "seats[0].colour = 'red': must be one of"),
        (lambda d: d["seats"][1].update(seat=1), "seats[1].seat = 1: seat listed twice"),
        (lambda d: d["board"].update(factory="pigpio"), "board.factory = 'pigpio'"),
        (lambda d: d["slap"].update(holdoff_ms=-1), "slap.holdoff_ms = -1"),
        (lambda d: d.update(seats=d["seats"][:1]), "lists 1 seats"),
        (lambda d: d["seats"][0].pop("button_pin"), "missing key seats[0].button_pin"),
        (lambda d: d["pad"].update(enabled="yes"), "pad.enabled = 'yes': must be bool"),
        (lambda d: d["slap"].update(holdoff_ms=float("nan")), "slap.holdoff_ms = nan: must be"),
        (lambda d: d["slap"].update(holdoff_ms=200, timeout_ms=200),
         "slap.holdoff_ms = 200 must be shorter than slap.timeout_ms = 200"),
        (lambda d: d["seats"][3].update(colour="orange"),
         "seats[3].colour = 'orange': seat 1 has that colour already"),
    ],
)
def test_bad_config_names_key_and_value(tmp_path, change, fragment):
    path = tmp_path / "bad.toml"
    with pytest.raises(ConfigError) as err:
        parse_config(mutate(change), path)
    assert str(path) in str(err.value)
    assert fragment in str(err.value)


def test_not_utf8(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"\xff\xfe[board]\n")
    with pytest.raises(ConfigError, match="not a text file in UTF-8"):
        load_config(bad)


def test_not_toml_and_missing_file(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[seats\n")
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_config(bad)
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path / "missing.toml")
