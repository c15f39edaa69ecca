"""The real app in a real window (Xvfb in CI): tapped through like a host would."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


@pytest.mark.arm64
def test_home_to_player_setup_and_back(ui):
    ui.goto_home()
    for g in ui.app.log.open_games():
        ui.app.log.finish(g.id)  # through the log: its row's checksum with it
    ui.app.home()
    path, colours = ui.screenshot("home")
    assert path.exists() and colours > 8, "the home screen rendered blank"
    ui.find("Crazy Time")  # every game has a tile
    ui.find("Professor Tempus")
    ui.find("Slap pad")  # and the tools
    ui.find("Captain die")
    ui.tap(ui.find("Crazy Time"))
    assert ui.app.sm.current == "players"
    assert "Crazy Time" in ui.app.sm.current_screen.heading
    path, colours = ui.screenshot("players")
    assert colours > 8
    ui.tap(ui.find("< Back"))
    assert ui.app.sm.current == "home"


def test_score_pad_game_with_seat_buttons_undo_and_resume(ui):
    ui.goto_home()
    ui.app.choose_game("scorepad")
    ui.pump()
    for seat, row in ui.app.sm.current_screen.rows.items():
        row.name_input.text = {1: "Ann", 2: "Bo", 3: "Cy", 4: "Di"}.get(seat, "")
        row.toggle.state = "down" if seat <= 4 else "normal"
    ui.tap(ui.find("Start"))
    assert ui.app.sm.current == "game", ui.app.status
    game_id = ui.app.session.game_id
    ui.press_seat("2")
    ui.press_seat("2")
    ui.tap(ui.find("+5"))  # the first row's +5: seat 1
    assert ui.app.session.snapshot()["totals"] == {"1": 5, "2": 2, "3": 0, "4": 0}
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["totals"]["1"] == 0
    ui.screenshot("scorepad")
    ui.goto_home()
    assert ui.find("Resume Score pad") is not None
    ui.tap(ui.find("Resume", kind=__import__("kivy.uix.button").uix.button.Button))
    assert ui.app.session.game_id == game_id
    assert ui.app.session.snapshot()["totals"]["2"] == 2


def test_mute_switch_is_remembered(ui):
    ui.goto_home()
    before = ui.app.muted
    ui.tap(ui.find("Sound"))
    assert ui.app.muted is not before
    assert ui.app.log.get_setting("muted") is ui.app.muted
    ui.tap(ui.find("Sound"))


def test_an_unexpected_error_is_told_and_the_table_plays_on(ui, caplog):
    from kivy.base import ExceptionManager

    from companion.ui.app import KeepPlaying

    handler = KeepPlaying(ui.app)
    try:
        raise RuntimeError("a screen tripped")
    except RuntimeError as exc:
        assert handler.handle_exception(exc) == ExceptionManager.PASS
    assert "a screen tripped" in ui.app.status and "safe in the log" in ui.app.status
    assert "a screen tripped" in caplog.text
    assert handler.handle_exception(KeyboardInterrupt()) == ExceptionManager.RAISE


def test_home_settings_and_sound_answer_taps_with_and_without_a_resume_banner(ui):
    ui.goto_home()
    for g in ui.app.log.open_games():  # nothing to resume
        ui.app.log.finish(g.id)  # through the log: its row's checksum with it
    ui.app.home()
    ui.app.sm.current_screen.dispatch("on_pre_enter")
    ui.pump()
    assert ui.app.sm.current_screen.resume_text.startswith("No unfinished game")
    before = ui.app.muted
    ui.tap(ui.find("Sound"))
    assert ui.app.muted is not before
    ui.tap(ui.find("Sound"))
    ui.tap(ui.find("Settings"))
    assert ui.app.sm.current == "settings"
    ui.app.back()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Bo", "seat": 2}]})
    ui.app.act({"type": "score", "seat": 1, "points": 1})
    ui.app.home()
    ui.pump()
    assert ui.app.sm.current_screen.resume_text.startswith("Resume Score pad")
    ui.tap(ui.find("Settings"))
    assert ui.app.sm.current == "settings"


def test_end_game_asks_before_it_ends_a_game(ui):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                               {"name": "Bo", "seat": 2}]})
    game_id = ui.app.session.game_id
    ui.pump()
    ui.tap(ui.find("End game"))
    assert ui.app.sm.current == "game" and ui.app.question is not None
    assert "End this game?" in ui.find("End this game?").text  # over the screen, whole
    ui.tap(ui.find("Keep playing"))
    assert ui.app.question is None and ui.app.session.game_id == game_id
    ui.tap(ui.find("End game"))
    ui.tap(ui.find("End the game"))
    assert ui.app.sm.current == "home" and ui.app.session is None
    assert ui.app.log.game(game_id).status == "finished"


def test_every_field_types_on_the_box_s_own_keyboard(ui):
    """One keyboard: no field of any screen asks for Kivy's docked keyboard (it covered
    the buttons under it and typed a tab for Tab); each types on the keys its screen
    lays out in place of its rows."""
    from kivy.uix.textinput import TextInput

    ui.app.sm.build_all()
    fields = [w for screen in ui.app.sm.screens for w in screen.walk(restrict=True)
              if isinstance(w, TextInput)]
    assert fields, "the screens have fields to type in"
    assert all(f.keyboard_mode == "managed" for f in fields), \
        [type(f).__name__ for f in fields if f.keyboard_mode != "managed"]


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
def test_the_key_hint_is_shown_in_simulation_only(ui, monkeypatch, size):
    """The status bar names the keyboard's seat keys when the buttons are simulated; a
    real box says nothing of keys, however wide its status bar."""
    from dataclasses import replace

    hint = ui.app.root.ids.status_hint
    ui.resize(size)
    assert hint.text.startswith(("Simulation: keys 1-8", "Keys 1-8"))
    table = ui.app.table
    monkeypatch.setattr(table, "info", replace(table.info, simulated=False))
    ui.resize((size[0] - 20, size[1]))  # the hint worded again
    assert hint.text == ""
    monkeypatch.undo()
    ui.resize((800, 480))
    assert hint.text
