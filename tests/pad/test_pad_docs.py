"""The udev rule and the pad wiring document agree with the firmware."""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
TOKEN = re.compile(r'^([A-Z_]+(?:\{[^}]+\})?)(==|!=|\+=|:=|=)"([^"]*)"$')
# Physical Pico pin of each GPIO (GP0..GP22).
PICO_PIN = dict(zip(range(23), [1, 2, 4, 5, 6, 7, 9, 10, 11, 12, 14, 15, 16, 17, 19, 20, 21,
                                22, 24, 25, 26, 27, 29], strict=True))


def rules():
    lines = (ROOT / "systemd" / "99-slap-pad.rules").read_text().splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_udev_rule_names_the_pico_and_keeps_modemmanager_off():
    [rule] = rules()
    tokens = {}
    for token in rule.split(", "):
        match = TOKEN.match(token.strip())
        assert match, f"not a udev key/operator/value: {token!r}"
        tokens[match[1]] = (match[2], match[3])
    assert tokens["SUBSYSTEM"] == ("==", "tty")
    assert tokens["ATTRS{idVendor}"] == ("==", "2e8a")
    assert tokens["ATTRS{idProduct}"] == ("==", "0005")
    assert tokens["SYMLINK"] == ("+=", "slap-pad")
    assert tokens["ENV{ID_MM_DEVICE_IGNORE}"] == ("=", "1")


def _hal_constants():
    tree = ast.parse((ROOT / "firmware" / "hal.py").read_text())
    return {t.id: node.value.value for node in tree.body if isinstance(node, ast.Assign)
            for t in node.targets if isinstance(t, ast.Name)
            and isinstance(node.value, ast.Constant)}


def test_pin_table_matches_the_firmware():
    hal = _hal_constants()
    text = (ROOT / "hardware" / "pico-pad.md").read_text()
    rows = re.findall(r"^\| (\d) \| GP(\d+) \| (\d+) \| GP(\d+) \| (\d+) \|$", text, re.M)
    assert len(rows) == hal["SEATS"] == 8
    for seat, button, button_pin, lamp, lamp_pin in (tuple(map(int, r)) for r in rows):
        assert button == hal["SEAT_BASE_PIN"] + seat - 1
        assert lamp == hal["LAMP_BASE_PIN"] + seat - 1
        assert (PICO_PIN[button], PICO_PIN[lamp]) == (button_pin, lamp_pin)
