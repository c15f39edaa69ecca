"""hardware/README.md's pin table must match the default config, row by row."""

from __future__ import annotations

import re
from pathlib import Path

from companion.config import load_config

DOC = Path(__file__).parent.parent / "hardware" / "README.md"


def pin_table() -> dict[str, tuple[str, int, int]]:
    rows = {}
    for line in DOC.read_text().splitlines():
        m = re.match(r"\|\s*(\d+|captain)\s*\|\s*(\w+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|", line)
        if m:
            rows[m[1]] = (m[2], int(m[3]), int(m[4]))
    return rows


def test_pin_table_matches_default_config():
    cfg = load_config()
    expected = {str(s.seat): (s.colour, s.button_pin, s.lamp_pin) for s in cfg.seats}
    table = pin_table()
    captain = table.pop("captain")
    assert table == expected
    assert captain[1:] == (cfg.captain_button_pin, cfg.captain_lamp_pin)
