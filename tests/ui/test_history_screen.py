"""The history screen in the real window: games listed, statistics drawn, export written."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def test_history_lists_games_and_exports_them(ui):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Bo", "seat": 2}]})
    ui.app.act({"type": "score", "seat": 2, "points": 4})
    ui.app.act({"type": "finish"})
    ui.app.end_game(ask=False)
    ui.pump()
    ui.tap(ui.find("History"))
    assert ui.app.sm.current == "history"
    ui.find("Won by Bo")
    path, colours = ui.screenshot("history")
    assert colours > 8
    ui.tap(ui.find("Export"))
    exports = ui.app.log.path.parent / "exports"
    files = sorted(p.suffix for p in exports.iterdir())
    assert files == [".csv", ".jsonl"]
