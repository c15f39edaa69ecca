"""Sample game setups shared by several test files (importable: tests/ is on the path).

The T.I.M.E Stories pair is the rulebook's Asylum example: Marie and Madeleine, with the
characteristics it gives them (in our own notation)."""

from __future__ import annotations

MARIE = {"name": "Marie", "player_seat": 1, "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1}}
MADELEINE = {"name": "Madeleine", "player_seat": 2, "life": 3, "resistance": 2,
             "characteristics": {"Deftness": 1, "Glibness": 1, "Combat": 2}}

ASYLUM = {
    "players": [{"name": "Ann", "seat": 1}, {"name": "Bea", "seat": 2}],
    "mission": "Asylum",
    "characters": [MARIE, MADELEINE],
}
