"""hardware/README.md's pin table must match the default config, row by row, header pins
included (hardware/wiring.svg is checked by tests/test_wiring_svg.py)."""

from __future__ import annotations

import re
from pathlib import Path

from companion.config import load_config
from companion.wiring_svg import HEADER_PIN, lamps

DOC = Path(__file__).parent.parent / "hardware" / "README.md"
ROW = re.compile(r"\|\s*(\d+|captain)\s*\|\s*(\w+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|"
                 r"\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(?:ULN2803A )?(#\d) (\d)B / (\d)C\s*\|")


def pin_table() -> dict[str, tuple]:
    rows = {}
    for line in DOC.read_text().splitlines():
        m = ROW.match(line)
        if m:
            rows[m[1]] = (m[2], int(m[3]), int(m[4]), int(m[5]), int(m[6]), m[7], int(m[8]))
    return rows


def test_pin_table_matches_default_config():
    cfg = load_config()
    drivers = {lamp.gpio: (f"#{lamp.chip}", lamp.channel) for lamp in lamps(cfg)}
    expected = {str(s.seat): (s.colour, s.button_pin, s.lamp_pin, HEADER_PIN[s.button_pin],
                              HEADER_PIN[s.lamp_pin], *drivers[s.lamp_pin]) for s in cfg.seats}
    table = pin_table()
    captain = table.pop("captain")
    assert table == expected
    assert captain[1:] == (cfg.captain_button_pin, cfg.captain_lamp_pin,
                           HEADER_PIN[cfg.captain_button_pin], HEADER_PIN[cfg.captain_lamp_pin],
                           *drivers[cfg.captain_lamp_pin])
