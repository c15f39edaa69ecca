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


EIGHT = ["Maximilienne", "Bartholomew", "Cara", "Dan", "Evangelina", "Fred", "Gwendolyn",
         "Hildegardine"]  # the last is 12 letters too


def test_wins_chart_shows_eight_players_with_twelve_letter_names(ui):
    from kivy.uix.label import Label

    from companion.ui.screens.history import chart_name

    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": n, "seat": i + 1}
                                               for i, n in enumerate(EIGHT)]})
    ui.app.act({"type": "score", "seat": 1, "points": 9})  # the two 12-letter names win,
    ui.app.act({"type": "score", "seat": 8, "points": 9})  # so they lead the chart
    ui.app.act({"type": "finish"})
    ui.app.end_game(ask=False)
    ui.pump()
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    chart = screen.ids.chart
    shown = [w for w in chart.children if isinstance(w, Label)]
    texts = {w.text for w in shown}
    stats = chart.stats[:8]
    assert len(stats) == 8  # earlier tests' players may be here too: 8 rows at most
    for s in stats:
        assert chart_name(s.name) in texts
    assert {"Maximilienne", "Hildegardine"} <= texts
    assert chart_name("Wilhelminaxyz") == "Wilhelminax…"
    for w in shown:  # every label inside the chart, and its text not wider than its box
        w.texture_update()
        assert chart.y - 1 <= w.y and w.top <= chart.top + 1
        assert w.texture_size[0] <= w.width + 1 and not w.shorten
    line = ui.find("Won by Maximilienne and Hildegardine", Label)  # a shared win, not a team
    assert line.texture_size[1] <= line.height + 1  # the long game line is not cut
    ui.screenshot("history_eight_players")


def test_a_game_is_deleted_from_its_sheet_after_a_question(ui):
    from companion.ui.app import Question
    from companion.ui.modal import Modal
    from companion.ui.screens.history import ScoreSheet

    ui.goto_home()
    ids = []
    for points in (3, 7):
        ui.app.start_game("scorepad", {"players": [{"name": "Delia", "seat": 1},
                                                   {"name": "Oswin", "seat": 2}]})
        ui.app.act({"type": "score", "seat": 1, "points": points})
        ids.append(ui.app.session.game_id)
        ui.app.end_game(ask=False)
    ui.pump()
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    line = ui.find(f"#{ids[1]} ")
    ui.tap(line)
    sheet = next(w for w in ui.app.layer.children if isinstance(w, ScoreSheet))
    assert isinstance(sheet, Modal)
    ui.tap(next(w for w in sheet.walk() if getattr(w, "text", "") == "Delete"))
    question = ui.app.question
    assert isinstance(question, Question) and f"#{ids[1]}" in question.text
    ui.screenshot("history_delete_question")
    # "Keep it": nothing changes
    ui.tap(next(w for w in question.walk() if getattr(w, "text", "") == "Keep it"))
    assert ui.app.log.deleted_games() & set(ids) == set()
    ui.tap(next(w for w in sheet.walk() if getattr(w, "text", "") == "Delete"))
    ui.tap(next(w for w in ui.app.question.walk() if getattr(w, "text", "") == "Delete it"))
    ui.pump()
    assert ids[1] in ui.app.log.deleted_games()
    assert not any(isinstance(w, Modal) for w in ui.app.layer.children)
    shown = [g.game_id for g in screen.summaries()]
    assert ids[1] not in shown and ids[0] in shown
    texts = [getattr(w, "text", "") for w in screen.walk()]
    assert not any(t.startswith(f"#{ids[1]} ") for t in texts)
    assert ui.app.log.actions(ids[1])  # kept in the log


def test_history_reads_the_log_again_only_when_it_changed(ui, monkeypatch):
    from companion.ui.screens import history

    ui.goto_home()
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    reads = []
    real = history.recent_summaries
    monkeypatch.setattr(history, "recent_summaries",
                        lambda *a, **k: reads.append(1) or real(*a, **k))
    ui.tap(ui.find("< Back"))
    ui.app.navigate("history")
    ui.pump()
    assert reads == []  # nothing changed: nothing read again
    ui.tap(ui.find("< Back"))
    assert ui.app.start_game("scorepad", {"players": [{"name": "Iris", "seat": 1}]})
    assert ui.app.act({"type": "score", "seat": 1, "points": 6})
    ui.app.navigate("history")  # a game in progress: shown as it is now
    ui.pump()
    assert len(reads) == 1 and ui.find("Iris")
    ui.app.navigate("home")
    ui.pump()
    ui.app.session.do({"type": "score", "seat": 1, "points": 1})  # its state moved on
    ui.app.navigate("history")
    ui.pump()
    assert len(reads) == 2
    assert screen._view.games[0]["game_id"] == ui.app.session.game_id
    assert "(2 actions)" in screen._view.games[0]["text"]
    ui.app.end_game("abandoned", ask=False)


def _ink(widget) -> int:
    """How many distinct colours the window shows inside ``widget``'s box (1: blank)."""
    from kivy.graphics.opengl import GL_RGBA, GL_UNSIGNED_BYTE, glReadPixels

    x, y = (int(v) for v in widget.to_window(*widget.pos))
    w, h = max(int(widget.width), 1), max(int(widget.height), 1)
    data = glReadPixels(x, y, w, h, GL_RGBA, GL_UNSIGNED_BYTE)
    return len({data[i:i + 3] for i in range(0, len(data), 4)})


def test_wins_chart_names_and_counts_are_drawn_beside_the_bars(ui):
    """The chart's names and counts reach the screen, not only the widget tree: a bar
    without a name says nothing to the table. Drawn again (a new game, a resize), they
    stay."""
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Inka", "seat": 1},
                                               {"name": "Jory", "seat": 2}]})
    ui.app.act({"type": "score", "seat": 1, "points": 5})
    ui.app.act({"type": "finish"})
    ui.app.end_game(ask=False)
    ui.pump()
    ui.app.navigate("history")
    ui.pump()
    chart = ui.app.sm.current_screen.ids.chart
    chart._draw()  # a second drawing (on_size/on_pos/show) must keep the labels too
    ui.screenshot("history_chart_labels")
    for name, count in zip(chart.children[::-2], chart.children[-2::-2], strict=True):
        if not name.text:
            continue
        assert _ink(name) > 2, f"the name {name.text!r} is not drawn"
        assert _ink(count) > 2, f"the count {count.text!r} is not drawn"
