"""History in the real window: a finished game's note typed on the screen's own keyboard
(kept in the log, shown on the sheet and in the list), and the statistics page with the
sections that have data only; each state walked by the layout check at 800x480."""

from __future__ import annotations

import pytest
from layout_check import problems

from companion.ui.presenters.history import recent_summaries

pytestmark = pytest.mark.window


def _check(ui, name):
    from companion.ui.modal import Modal

    ui.pump(3)
    ui.screenshot(name)
    modals = [w for w in ui.app.layer.children if isinstance(w, Modal)]
    found = problems(modals[0] if modals else ui.app.root, min_target=64)
    assert not found, "\n".join(found)


def _sheet(ui):
    from companion.ui.screens.history import ScoreSheet

    return next(w for w in ui.app.layer.children if isinstance(w, ScoreSheet))


def _button(root, text):
    return next(w for w in root.walk() if getattr(w, "text", None) == text
                and w.opacity > 0)


def _finished_game(ui, names=("Ann", "Bo"), winner=2):
    ui.app.start_game("scorepad", {"players": [{"name": n, "seat": i + 1}
                                               for i, n in enumerate(names)]})
    ui.app.act({"type": "score", "seat": winner, "points": 4})
    ui.app.act({"type": "finish"})
    gid = ui.app.session.game_id
    ui.app.end_game(ask=False)
    ui.pump()
    return gid


def test_a_note_typed_on_the_box_keyboard_is_kept_and_shown(ui):
    ui.goto_home()
    gid = _finished_game(ui)
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    ui.tap(ui.find(f"#{gid} "))
    ui.tap(_button(_sheet(ui), "Note"))
    assert screen.typing and screen.note_game == gid
    assert not any(w for w in ui.app.layer.children if type(w).__name__ == "ScoreSheet")
    keyboard = screen.ids.keyboard
    assert keyboard.shift  # a note begins with a capital
    for key in ["b", "o", "Space", "w", "o", "n", "."]:
        ui.tap(keyboard.keys[key], after_s=0.05)
    assert screen.ids.note_input.text == "Bo won."
    assert not keyboard.shift  # "won": no capital at every word
    ui.tap(keyboard.keys["Space"], after_s=0.05)
    assert keyboard.shift  # a new sentence: a capital again
    ui.tap(keyboard.keys["h"], after_s=0.05)
    ui.tap(keyboard.keys["i"], after_s=0.05)
    assert screen.ids.note_input.text == "Bo won. Hi"
    _check(ui, "history_note_typing")
    ui.tap(ui.find("Keep note"))
    assert not screen.typing
    assert ui.app.log.game(gid).note == "Bo won. Hi"
    sheet = _sheet(ui)  # the sheet again, with the note on it
    assert "Note: Bo won. Hi" in [d["text"] for d in sheet.ids.lines.data]
    _check(ui, "history_sheet_with_note")
    sheet.close()
    ui.pump()
    ui.find('Note: "Bo won. Hi"')  # in the list too
    # Cancel leaves the note as it was
    ui.tap(ui.find(f"#{gid} "))
    ui.tap(_button(_sheet(ui), "Note"))
    ui.tap(keyboard.keys["Erase"], after_s=0.05)
    ui.tap(ui.find("Cancel"))
    assert ui.app.log.game(gid).note == "Bo won. Hi"
    _sheet(ui).close()
    ui.pump()


def test_an_open_game_takes_no_note_from_its_sheet(ui):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Oli", "seat": 1}]})
    ui.app.act({"type": "score", "seat": 1, "points": 1})
    gid = ui.app.session.game_id
    ui.app.session = None
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    screen.open_sheet(gid)
    ui.pump()
    assert _button(_sheet(ui), "Note").disabled
    _sheet(ui).close()
    ui.app.abandon_game(gid)


def test_the_statistics_page_shows_the_sections_with_data(ui):
    ui.goto_home()
    _finished_game(ui, ("Anne-Sophie Lefebvre", "Bartholomew Jamesons"), winner=1)
    _finished_game(ui, ("Anne-Sophie Lefebvre", "Bartholomew Jamesons"), winner=2)
    ui.app.navigate("history")
    ui.pump()
    screen = ui.app.sm.current_screen
    assert screen.has_stats
    ui.tap(ui.find("Statistics"))
    assert screen.page == "stats"
    texts = [d["text"] for d in screen.ids.stats.data]
    assert "Head-to-head (competitive" in texts
    assert "Bests" in texts
    coop = any(g.kind == "time_stories" and g.status == "finished"
               for g in recent_summaries(ui.app.log, 100_000))
    assert any(t.startswith("Cooperative") for t in texts) == coop  # only with data
    assert all(len(t) <= 30 for t in texts)  # wrapped by the view: no line cut
    _check(ui, "history_statistics")
    ui.tap(ui.find("Games"))
    assert screen.page == "games"


def test_a_note_from_the_game_over_code_goes_into_its_comments(ui):
    from companion.export.bgstats import link, log_play

    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Uma", "seat": 1},
                                               {"name": "Vic", "seat": 2}]})
    ui.app.act({"type": "score", "seat": 1, "points": 3})
    ui.app.act({"type": "finish"})
    ui.pump()
    gid = ui.app.session.game_id
    ui.tap(ui.app.game_over_button)
    panel = ui.app.bgstats_panel
    ui.pump(3)
    ui.screenshot("bgstats_panel_with_note_button")
    assert not problems(panel, min_target=64)
    ui.tap(_button(panel, "Add a note"))
    assert panel.parent is None and ui.app.sm.current == "history"
    screen = ui.app.sm.current_screen
    assert screen.typing and screen.note_game == gid
    for key in ["u", "m", "a"]:
        ui.tap(screen.ids.keyboard.keys[key], after_s=0.05)
    ui.tap(ui.find("Keep note"))
    assert ui.app.log.game(gid).note == "Uma"
    ui.tap(_button(_sheet(ui), "BG Stats"))  # the code again, the note in its comments
    assert ui.app.bgstats_panel.url == link(log_play(ui.app.log, gid))
    assert "Uma." in log_play(ui.app.log, gid).comments
    ui.tap(_button(ui.app.bgstats_panel, "Close"))
    _sheet(ui).close()
    ui.tap(ui.find("< Back"))
    assert ui.app.sm.current != "history"
    ui.app.end_game(ask=False)
    ui.pump()
