"""The app's shared work per tap, in the real window: the Undo label is worded once per
state of the game (and still follows a state the screen made itself), the status bar's
lamp dots follow the lamps, a banner with nothing in it is not cleared again."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window

TWO = [{"name": "Ann", "seat": 1}, {"name": "Bob", "seat": 2}]


def test_the_undo_label_is_worded_once_per_state(ui, monkeypatch):
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    worded = []
    label = ui.app.controller.undo_label
    monkeypatch.setattr(ui.app.controller, "undo_label",
                        lambda: worded.append(1) or label())
    assert ui.app.act({"type": "score", "seat": 2, "points": 3})
    ui.pump(3)  # the refresh worded it; the frames after see the same state
    assert len(worded) == 1 and ui.app.undo_text == "Undo: score (Bob)"
    # a state the screen made without the controller: the next frame words it
    ui.app.session.do({"type": "score", "seat": 1, "points": 1})
    ui.pump(1)
    assert len(worded) == 2 and ui.app.undo_text == "Undo: score (Ann)"
    assert ui.app.undo()
    ui.pump(2)
    assert len(worded) == 3 and ui.app.undo_text == "Undo: score (Bob)"
    ui.app.end_game("abandoned", ask=False)
    ui.pump(1)
    assert ui.app.undo_text == "Undo"


def test_only_the_shown_screen_s_undo_follows_each_action(ui):
    """Every game screen has an Undo button; an action words only the shown one's, and
    a screen that shows later says the words of the moment."""
    from companion.ui.widgets import UndoButton

    ui.app.sm.build_all()
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    buttons = [w for s in ui.app.sm.screens for w in s.walk(restrict=True)
               if isinstance(w, UndoButton)]
    shown = [b for b in buttons if b.get_root_window() is not None]
    assert len(buttons) >= 5 and len(shown) == 1
    worded = []
    for b in buttons:
        b.fbind("words", lambda w, _v: worded.append(w))
    assert ui.app.act({"type": "score", "seat": 2, "points": 3})
    ui.pump(2)
    assert worded == shown and shown[0].text == "Undo: score (Bob)"
    ui.app.navigate("timer")  # a screen without one: the score pad's is hidden
    ui.pump(2)
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    ui.pump(2)
    assert ui.app.undo_text == "Undo: score (Ann)" and shown[0].words == "Undo: score (Bob)"
    ui.app.back()  # shown again: the words of the moment
    ui.pump(2)
    assert shown[0].text == "Undo: score (Ann)"
    ui.app.end_game("abandoned", ask=False)


def test_the_lamp_dots_follow_the_lamps(ui):
    from companion.palette import seat_rgba
    from companion.ui import theme

    ui.goto_home()
    lamps = ui.app.table.lamps
    lamps.on(3)
    ui.pump(1)
    dots = ui.app.root.lamp_colours
    seats = [s.seat for s in ui.app.cfg.seats]
    assert tuple(dots[seats.index(3)]) == tuple(seat_rgba(ui.app.cfg, 3))
    assert tuple(dots[seats.index(2)]) == tuple(theme.LAMP_OFF)
    lamps.off(3)
    lamps.on(2)
    ui.pump(1)
    dots = ui.app.root.lamp_colours
    assert tuple(dots[seats.index(3)]) == tuple(theme.LAMP_OFF)
    assert tuple(dots[seats.index(2)]) == tuple(seat_rgba(ui.app.cfg, 2))
    lamps.all_off()
    ui.pump(1)
    assert all(tuple(d) == tuple(theme.LAMP_OFF) for d in ui.app.root.lamp_colours)


def test_clearing_an_empty_banner_sets_nothing(ui, monkeypatch):
    ui.goto_home()
    ui.app.say("Nobody plays at seat 7 in this game.", error=True)
    assert ui.app.banner_text
    ui.app.clear_banner()
    assert not ui.app.banner_text and ui.app.status == ""
    shown = []
    monkeypatch.setattr(ui.app.banner, "show", lambda *args: shown.append(args))
    ui.app.status = "a line of its own"  # not the banner's: it stays
    ui.app.clear_banner()  # what every recorded action does first
    assert shown == [] and ui.app.status == "a line of its own"
    ui.app.status = ""


def test_a_refusal_and_its_clearing_draw_neither_hint_again(ui):
    """The status bar's key hint and the banner's "Tap to close" keep their words: a
    refusal shown and then cleared by the next recorded action hides and shows them,
    and draws neither again (each text drawn is a new texture)."""
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    ids = ui.app.root.ids
    hint, close, line = ids.status_hint, ids.close_hint, ids.status_line
    drawn = (hint.texture, close.texture)
    assert hint.text and hint.opacity == 1 and close.opacity == 0 and line.text == ""
    assert not ui.app.act({"type": "score", "seat": 7, "points": 1})  # refused
    ui.pump(2)
    assert ui.app.banner_text and close.opacity == 1 and close.text == "Tap to close"
    assert line.text == "" and hint.opacity == 1  # the refusal is the banner's alone
    assert ui.app.act({"type": "score", "seat": 1, "points": 1})
    ui.pump(2)
    assert not ui.app.banner_text and close.opacity == 0 and hint.opacity == 1
    ui.app.say("Scores saved.")  # news: over the hint, which hides
    ui.pump(2)
    assert line.text == "Scores saved." and hint.opacity == 0
    ui.app.status = ""
    ui.pump(2)
    assert hint.opacity == 1
    assert (hint.texture, close.texture) == drawn and hint.texture is drawn[0] \
        and close.texture is drawn[1]
    ui.app.end_game("abandoned", ask=False)


def test_undo_words_said_again_are_not_drawn_again(ui):
    """The Undo button's words come back at every turn: words it has drawn lately are
    shown from the texture they were drawn into (the same texture object), words new
    to it, or the same words in another box, are drawn anew."""
    ui.goto_home()
    assert ui.app.start_game("scorepad", {"players": TWO})
    ui.pump(2)
    undo = next(w for w in ui.app.sm.current_screen.walk()
                if type(w).__name__ == "UndoButton")
    drawn = {}
    for seat in (1, 2, 1, 2, 1):
        assert ui.app.act({"type": "score", "seat": seat, "points": 1})
        ui.pump(2)
        name = TWO[seat - 1]["name"]
        assert undo.text == f"Undo: score ({name})"
        texture = drawn.setdefault(undo.text, (undo.texture, tuple(undo.texture_size)))
        assert undo.texture is texture[0] and tuple(undo.texture_size) == texture[1]
    assert drawn[f"Undo: score ({TWO[0]['name']})"][0] is not \
        drawn[f"Undo: score ({TWO[1]['name']})"][0], "each words in a texture of its own"
    size = undo.font_size
    undo.font_size = size - 2  # the same words at another size: drawn again
    ui.pump(2)
    assert undo.texture is not drawn[undo.text][0]
    undo.font_size = size
    ui.pump(2)
    assert undo.texture is drawn[undo.text][0]
    box = tuple(undo.text_size)
    undo.text_size = (box[0] - 40, None)  # the same words in a narrower box: drawn again
    ui.pump(2)
    assert undo.texture is not drawn[undo.text][0]
    assert undo.texture_size[0] == drawn[undo.text][1][0] - 40
    undo.text_size = box
    ui.pump(2)
    assert undo.texture is drawn[undo.text][0]
    from companion.ui import kept_text

    kept_text.forget_all()  # the GL context made again: every Undo draws anew
    ui.pump(2)
    assert undo.texture is not drawn[undo.text][0] and undo.texture_size[0] > 0
    ui.app.end_game("abandoned", ask=False)
