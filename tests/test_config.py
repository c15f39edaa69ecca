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


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("x = " + "{a = " * 5000 + "1" + "}" * 5000 + "\n", "nested too deeply"),
        ("[board]\nfactory = 1979-13-45\n", "not valid TOML"),
    ],
    ids=["arrays", "inline-tables", "bad-date"],
)
def test_any_parser_failure_names_the_file(tmp_path, text, fragment):
    bad = tmp_path / "deep.toml"
    bad.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_config(bad)
    assert str(err.value).startswith(f"{bad}: ") and fragment in str(err.value)


def test_a_huge_value_is_cut_to_a_readable_length(tmp_path):
    bad = tmp_path / "big.toml"
    huge = "x" * 100_000
    bad.write_text(DEFAULT_CONFIG.read_text().replace('factory = "auto"', f'factory = "{huge}"'))
    with pytest.raises(ConfigError) as err:
        load_config(bad)
    message = str(err.value)
    assert "board.factory = 'xxxx" in message and "(100002 characters)" in message
    assert len(message) < 400
    key = tmp_path / "key.toml"
    key.write_text(DEFAULT_CONFIG.read_text() + f"\n[{'k' * 50_000}]\n")
    with pytest.raises(ConfigError) as err:
        load_config(key)
    assert "unknown key" in str(err.value) and len(str(err.value)) < 400


def test_a_file_bigger_than_any_config_is_refused_unread(tmp_path):
    big = tmp_path / "big.toml"
    big.write_bytes(b"# " + b"x" * 2_000_000 + b"\n")
    with pytest.raises(ConfigError, match="larger than"):
        load_config(big)
    with pytest.raises(ConfigError, match="/dev/zero: larger than"):
        load_config("/dev/zero")


def test_doctor_names_the_config_file_when_its_pin_factory_cannot_start(tmp_path):
    from companion.doctor import doctor

    cfg = tmp_path / "pi.toml"
    cfg.write_text(DEFAULT_CONFIG.read_text().replace('factory = "auto"', 'factory = "lgpio"'))
    try:
        import lgpio  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("lgpio is installed here: the factory may well start")
    with pytest.raises(ConfigError) as err:
        doctor(str(cfg), out=lambda _line: None)
    assert str(err.value).startswith(f"{cfg}: board.factory = 'lgpio'")
