"""The T.I.M.E Stories screen in the real window: captain die, stay, a dice test, runs."""

from __future__ import annotations

import pytest
from fakes import Faces
from samples import ASYLUM

pytestmark = pytest.mark.window

SETUP = ASYLUM



def start(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", SETUP), ui.app.status
    ui.pump()
    assert ui.app.sm.current == "time_stories"
    return ui.app.sm.current_screen


def settle(ui, screen):
    """Frames with a clock well past the animation: the die settles and is logged."""
    screen.on_frame(ui.app.table.now_ns() + 10**9)
    ui.pump(2)


def test_captain_button_rolls_travel_then_stay_and_undo(ui):
    screen = start(ui)
    ui.find("25")
    screen.rng = Faces(2)
    ui.press_seat("spacebar")
    assert screen.rolling, "the die tumbles first"
    assert ui.app.session.snapshot()["tu"] == 25, "nothing is logged before it settles"
    assert screen.die_text != "2", "while tumbling it never shows the rolled face"
    settle(ui, screen)
    snap = ui.app.session.snapshot()
    assert snap["tu"] == 23 and not screen.rolling
    assert snap["log"][-1]["kind"] == "travel" and "captain die 2" in snap["log"][-1]["text"]
    assert ui.app.session.actions[-1] == {"type": "travel", "die": 2, "red": False}
    ui.find("23")
    ui.tap(ui.find("Stay (1 TU)"))
    assert ui.app.session.snapshot()["tu"] == 22
    assert "22" in screen.tu_text and "23 -> 22 TU" in screen.log_text
    path, colours = ui.screenshot("time_stories_mission")
    assert colours > 8
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["tu"] == 23


def test_red_lettered_toggle_adds_two(ui):
    screen = start(ui)
    ui.tap(ui.find("Red-lettered: no"))
    assert screen.red
    screen.rng = Faces(6)
    ui.tap(ui.find("Roll die"))
    settle(ui, screen)
    assert ui.app.session.snapshot()["tu"] == 20  # 3 + 2
    assert not screen.red, "the toggle is for one departure"


def test_cook_example_dice_test_with_odds_and_a_turned_die(ui):
    screen = start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find("Glibness"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Madeleine"))
    for kind in ("blank", "blank", "skull", "blank"):
        ui.tap(ui.find(f" {kind}"))
    ui.screenshot("time_stories_test_setup")
    ui.tap(ui.find("Start: "))
    assert ui.app.session.snapshot()["tests"], ui.app.status
    test = ui.app.session.snapshot()["tests"][0]
    assert (test["space"], test["dice"], test["left"]) == ("B", 4,
                                                           ["blank", "blank", "skull", "blank"])
    ui.find("4 dice: clear 28.0 %")
    ui.find("Marie hurt")
    ui.tap(ui.find("+", kind=__import__("kivy.uix.button").uix.button.Button))
    ui.find("Turn to hit: 1")
    ui.screenshot("time_stories_test_odds")
    screen.rng = Faces(1, 3, 4, 2)
    ui.tap(ui.find("Roll 4 dice"))
    snap = ui.app.session.snapshot()
    assert snap["last_roll"]["outcome"]["turned"] == [0]
    assert snap["tests"][0]["left"] == ["skull", "blank"]
    ui.find("Removed: blank, blank")
    ui.find("Riposte: 2 skulls")
    ui.screenshot("time_stories_test_roll")
    ui.tap(ui.find("Continue (1 TU)"))
    assert ui.app.session.snapshot()["tu"] == 24
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["tu"] == 25


def test_the_tables_own_dice_are_entered_by_their_symbols(ui):
    """The table rolls its own action dice: each die is tapped until it shows what the
    real die shows, and the roll is recorded as the engine reads those symbols."""
    from kivy.uix.button import Button

    start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find("Glibness"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Madeleine"))
    for kind in ("blank", "blank", "skull", "blank"):
        ui.tap(ui.find(f" {kind}"))
    ui.tap(ui.find("Start: "))
    def dice():  # rebuilt after each tap
        return [w for w in ui.app.root.walk()
                if isinstance(w, Button) and w.text.endswith("[/size]")]

    ui.tap(ui.find("Our dice"))
    assert len(dice()) == 4 and all("skull" in d.text for d in dice())
    for i, taps in enumerate((0, 1, 2, 3)):  # skull, blank, 1 hit, 2 hits
        for _ in range(taps):
            ui.tap(dice()[i])
    ui.screenshot("time_stories_our_dice")
    assert ui.app.session.actions[-1]["type"] == "test_start", "nothing rolled before Record"
    ui.tap(ui.find("Record roll"))
    assert ui.app.session.actions[-1] == {"type": "test_roll", "space": "B",
                                          "faces": [1, 3, 4, 6]}
    snap = ui.app.session.snapshot()
    assert snap["last_roll"]["outcome"]["symbols"] == ["skull", "blank", "hit", "double"]
    assert snap["tests"][0]["left"] == ["blank"]  # three hits: three shields gone
    ui.tap(ui.find("Undo"))
    ui.tap(ui.find("Undo"))


def test_run_ends_at_zero_and_run_two_starts_with_thirty(ui):
    screen = start(ui)
    ui.app.act({"type": "gain_item", "item": "Agency badge", "holder": None, "agency": True})
    ui.tap(ui.find("Correct TU"))
    for _ in range(5):
        ui.tap(ui.find("-5"))
    ui.find("->  0")
    ui.tap(ui.find("Apply"))
    ui.pump()
    assert ui.app.session.snapshot()["outcome"] == "failed_time"
    ui.find("Mission failed: time ran out")
    ui.find("Agency badge")
    ui.tap(ui.find("30"))
    ui.screenshot("time_stories_run_over")
    ui.tap(ui.find("Start run 2 (30 TU)"))
    snap = ui.app.session.snapshot()
    assert (snap["run"], snap["tu"], snap["running"]) == (2, 30, True)
    ui.find("Run 2")
    assert screen.tu_text == "30"
    ui.tap(ui.find("Characters"))
    ui.find("Madeleine")
    ui.screenshot("time_stories_characters")
    ui.tap(ui.find("Mission"))
    ui.find("Roll die")


def test_mission_won_shows_the_end_of_run_panel_at_once(ui):
    from companion.ui.screens.time_stories_panels import NextRunPanel

    screen = start(ui)
    ui.tap(ui.find("Correct TU"))
    ui.tap(ui.find("Mission won"))
    snap = ui.app.session.snapshot()
    assert snap["mission_complete"] and snap["outcome"] == "successful"
    assert isinstance(screen.panel, NextRunPanel)
    ui.find("Mission successful!")
    ui.find("End game")
    ui.screenshot("time_stories_mission_won")
    # undo brings the run back, and the mission view with it
    ui.tap(ui.find("Undo"))
    assert ui.app.session.snapshot()["running"] and screen.panel is None
    ui.find("Roll die")


def test_dice_test_refusals_are_plain_sentences_and_nothing_is_logged(ui):
    start(ui)
    ui.tap(ui.find("Dice test"))
    ui.tap(ui.find(" blank"))
    ui.tap(ui.find("Start: "))
    assert ui.app.status == "Choose who takes part in the test at space B." and ui.app.status_error
    ui.tap(ui.find("Clear"))
    ui.tap(ui.find("Marie"))
    ui.tap(ui.find("Start: "))
    assert ui.app.status == "Add the card's shields, left to right."
    ui.screenshot("time_stories_test_refused")
    assert ui.app.session.actions == []
    # a correction of 0 is refused in words as well
    ui.tap(ui.find("Mission"))
    ui.tap(ui.find("Correct TU"))
    ui.tap(ui.find("+1"))
    ui.tap(ui.find("Apply"))
    assert ui.app.status == "A correction of 0 changes nothing."
    assert ui.app.session.actions == []


def test_the_log_rows_follow_the_log_line_by_line(ui):
    """The time log's rows are changed row by row (one in at the top, the oldest out
    when the list is full, the newest out on Undo): they always read as the log does,
    newest first, past the 60 rows kept and back; each row view on screen shows its
    own row (the views follow their rows: ``TimeLogLayout``), scrolled to the top or
    to the bottom."""
    from companion.ui.presenters import time_stories as p
    from companion.ui.screens.time_stories import LOG_ROWS

    screen = start(ui)

    log = screen.ids.log

    def rows_read_as_the_log():
        shown = [d["text"] for d in log.data]
        lines = [p.short_log(e["text"]) for e in ui.app.session.snapshot()["log"]]
        assert shown == lines[::-1][:LOG_ROWS] == screen.log_rows
        ui.pump(1)
        views = log.view_adapter.views
        assert len(views) >= min(3, len(shown))
        layout = screen.ids.log_rows.__self__
        assert set(layout.children) == set(views.values()), "only the rows in sight"
        for i, view in views.items():
            assert view.text == shown[i], (i, view.text, shown[i])
            assert view.parent is layout
            # each at its row's place: newest at the top, rows of the same height
            assert abs(view.top - (layout.top - i * view.height)) < 1, (i, view.top)
            # its text drawn where Kivy's Label puts a middle line, at its box's left,
            # after every move (``LogLine._place``)
            rect, (tw, th), h = view._rect, view.texture_size, view.height
            assert rect.texture is view.texture and tuple(rect.size) == (tw, th)
            assert tuple(rect.pos) == (int(view.x + view.padding[0]), int(
                view.center_y - h / 2.) + h - int((h - th) / 2) - th), (i, rect.pos)

    for i in range(LOG_ROWS + 5):
        assert ui.app.act({"type": "adjust_tu", "delta": 1 if i % 2 else -1,
                           "reason": "card effect"})
        rows_read_as_the_log()
        if i == LOG_ROWS // 2:
            log.scroll_y = 0  # the oldest rows in sight for a while
        if i == LOG_ROWS:
            log.scroll_y = 1
    for _ in range(3):
        ui.tap(ui.find("Undo"))
        rows_read_as_the_log()
    log.scroll_y = 0
    ui.tap(ui.find("Undo"))
    rows_read_as_the_log()
    for i in range(3):  # two lines in one frame, then one
        assert ui.app.act({"type": "adjust_tu", "delta": -1, "reason": "card effect"})
        if i != 1:
            rows_read_as_the_log()


def test_the_log_rows_are_laid_where_kivys_box_layout_puts_them(ui):
    """``TimeLogLayout`` lays out rows that are alike in one pass of its own: each row's
    place and size, the layout's ``minimum_size`` and the positions it finds a row at
    are what Kivy's ``RecycleBoxLayout`` gives, for any number of rows, padding and
    spacing."""
    import copy

    from kivy.uix.recycleboxlayout import RecycleBoxLayout

    from companion.ui.screens.time_stories import TimeLogLayout

    class Alone(TimeLogLayout):  # no RecycleView: no views to take out
        def clear_layout(self):
            self.view_indices = {}

    def laid(layout, lay, data, opts) -> tuple:
        layout.view_opts, layout.minimum_size, layout.height = copy.deepcopy(opts), (0, 0), 3
        lay(layout, data)
        return ([(o["pos"], o["size"]) for o in layout.view_opts], layout.minimum_size,
                layout.height, layout._rv_positions)

    def ours(layout, data):
        assert layout._lay_rows(data, [{}]), "rows alike: laid out in one pass"

    def kivys(layout, data):
        RecycleBoxLayout.compute_layout(layout, data, [{}])

    for padding, spacing in (((0, 0, 0, 0), 0), ((3, 4, 5, 6), 2.5)):
        layout = Alone(orientation="vertical", default_size=(None, 29), spacing=spacing,
                       default_size_hint=(1, None), size_hint_y=None, padding=padding,
                       pos=(10, 20), width=517)
        layout.bind(minimum_height=layout.setter("height"))
        for n in (1, 2, 7, 60):
            data = [{"text": f"line {i}"} for i in range(n)]
            layout.compute_sizes_from_data(data, [{}])
            opts = copy.deepcopy(layout.view_opts)
            assert laid(layout, ours, data, opts) == laid(layout, kivys, data, opts), (
                padding, spacing, n)
    rows_unlike = [{"text": "a"}, {"text": "b", "height": 40}]
    layout.compute_sizes_from_data(rows_unlike, [{}])
    assert not layout._lay_rows(rows_unlike, [{}]), "rows of their own size: Kivy's layout"


def test_the_mission_and_the_kept_panels_come_and_go_without_a_layout(ui, monkeypatch):
    """Opening a kept panel, Apply (the mission back), the characters and back: each is
    a page of the body's ``PageStack`` that stays where it was laid out, so showing
    another lays out no box and moves no widget (the body once took one tree out and
    put the other in: Kivy laid both out again, ~0.5 ms a change here)."""
    import functools

    from kivy.uix.boxlayout import BoxLayout

    screen = start(ui)
    stack = screen.ids.stack.__self__

    def visit():
        ui.tap(ui.find("Correct TU"))
        ui.tap(ui.find("-1"))
        ui.tap(ui.find("Apply"))
        assert screen.panel is None
        ui.tap(ui.find("Characters"))
        ui.tap(ui.find("Mission"))
        assert screen.panel is None

    visit()  # each panel made and laid out once
    ui.pump(2)
    laid = []
    original = BoxLayout.do_layout

    @functools.wraps(original)
    def counting(self, *args):
        laid.append(type(self).__name__)
        return original(self, *args)

    monkeypatch.setattr(BoxLayout, "do_layout", counting)
    parents = {w: w.parent for w in screen.walk(restrict=True)}
    parents.update({w: w.parent for page in stack.children for w in page.walk()})
    visit()
    ui.pump(2)
    assert laid == []
    assert all(w.parent is parent for w, parent in parents.items())
    assert screen.mission.parent is stack and stack.shown is screen.mission


def test_a_log_row_shows_the_line_kivy_would_cut_it_to(ui):
    """A time log row (``LogLine``) reads as Kivy's own ``shorten`` would draw it: whole
    when it fits, else its beginning and "..." (``text`` keeps the whole line)."""
    from kivy.core.text import Label as CoreLabel
    from kivy.metrics import sp

    from companion.ui import theme
    from companion.ui.screens.time_stories import LogLine

    lines = ["turn 3: stay", "turn 12: another turn at the Asylum's west wing, under "
             "the stairs: 1 TU (83 -> 82 TU)", "turn 5: travel: captain die 6 +2 "
             "(red-lettered departure): 5 TU (25 -> 20 TU)"]
    for width in (120, 300, 520, 900):
        for text in lines:
            row = LogLine(text=text, width=width, height=29)
            row.texture_update()
            kivy = CoreLabel(text=text, font_size=sp(theme.SMALL), shorten=True,
                             shorten_from="right", split_str="", text_size=(width, 29))
            assert row._label.text == kivy.shorten(text), (width, text)
            assert row.text == text
            assert row.texture_size[0] <= width, (width, text)
            assert row.is_shortened == (row._label.text != text)


def test_the_run_line_is_drawn_unwrapped_when_it_fits_and_wraps_when_it_does_not(ui):
    """``CentredLine``: a line that fits is measured once and drawn as is (centred), a
    longer one wraps at the width as any label does, never wider than its box."""
    from companion.ui.screens.time_stories import CentredLine

    line = CentredLine(text="Run 1 · turn 9", width=240, height=80, halign="center",
                       text_size=(240, None), font_size=22)
    line.texture_update()
    assert line._label.text_size == (None, None)
    assert 40 < line.texture_size[0] < 240
    line.text = "Run 2 · turn 14, at the Asylum's kitchen, under the stairs"
    line.texture_update()
    assert line._label.text_size == (240, None)
    assert line.texture_size[0] == 240 and line.texture_size[1] > 40  # two lines or more


def test_the_tu_count_is_drawn_from_digits_made_once_at_a_labels_size(ui):
    """``DigitsLabel``: the count takes the size Kivy gives the same number, centred, and
    a new count draws no digit it has drawn before."""
    from kivy.uix.label import Label

    from companion.ui.screens.time_stories import DigitsLabel

    count = DigitsLabel(text="27", font_size=120, bold=True, size=(250, 124))
    count.texture_update()
    made = dict(DigitsLabel._digits)
    for text in ("72", "7", "227", "27"):
        count.text = text
        count.texture_update()
        label = Label(text=text, font_size=120, bold=True)
        label.texture_update()
        assert abs(count.texture_size[0] - label.texture_size[0]) <= 1, text
        assert count.texture_size[1] == label.texture_size[1]
        shown = [r for r in count._rects if r.size[0] > 0]
        assert len(shown) == len(text)
        assert abs(shown[0].pos[0] - (count.center_x - count.texture_size[0] / 2)) <= 1
    assert DigitsLabel._digits == made, "no digit drawn twice"


def test_a_characters_life_that_comes_back_is_not_drawn_again(ui, label_renders):
    """Life - and + bring back the hearts shown a moment before: the life line is a
    ``LifeText`` (``KeptText``) and shows them from their kept textures, drawing
    nothing, and always the character's life as the log has it."""
    from companion.ui import kept_text
    from companion.ui.presenters import time_stories as p
    from companion.ui.screens.time_stories_panels import LifeText

    screen = start(ui)
    screen.open("characters")
    ui.pump(2)
    panel = screen.panel
    row = panel.rows[0]
    life = row.parts[2]
    assert isinstance(life, LifeText)
    renders = label_renders(life)

    def shown():
        return p.life_text(next(c for c in ui.app.session.snapshot()["characters"]
                                if c["name"] == row.character))

    first = life.text
    try:
        for delta in (-1, 1):
            panel.life(row.character, delta)
            ui.pump(2)
            assert life.text == shown()
        assert life.text == first
        renders.clear()
        for delta in (-1, 1, -1, 1):
            panel.life(row.character, delta)
            ui.pump(2)
            assert life.text == shown() and life.texture.size[0] > 0
        assert renders == []
    finally:
        kept_text.forget_all()


def test_the_die_and_its_caption_come_back_from_kept_textures(ui, label_renders):
    """A second roll of the same face shows the die's face and what it says
    ("Rolling...", "Die 2: ...") from the textures of the first (``DieFace``,
    ``DieCaption``: KeptText), drawing none of them, and still says the roll's own
    words."""
    from companion.ui import kept_text
    from companion.ui.presenters import time_stories as p
    from companion.ui.screens.time_stories import DieCaption, DieFace

    screen = start(ui)
    die = next(w for w in screen.walk() if isinstance(w, DieFace))
    caption = next(w for w in screen.walk() if isinstance(w, DieCaption))
    renders = label_renders(die, caption)

    def roll(face):
        screen.rng = Faces(face)
        screen.roll_captain()
        ui.pump(1)
        assert caption.text == "Rolling..."
        settle(ui, screen)
        assert (die.text, caption.text) == (str(face), p.captain_text(face, False))

    try:
        for face in "123456":  # every face the tumble may show, once
            screen.die_text = face
            ui.pump(1)
        roll(2)
        roll(3)
        renders.clear()
        roll(2)
        roll(3)
        assert renders == []
    finally:
        kept_text.forget_all()


def test_the_red_lettered_toggle_shows_its_two_texts_from_kept_textures(ui, label_renders):
    """The red-lettered toggle says "no" or "+2" again at every tap on it and after each
    red departure: from the texture drawn the first time (``RedToggle``: KeptText)."""
    from companion.ui import kept_text
    from companion.ui.screens.time_stories import RedToggle

    screen = start(ui)
    toggle = next(w for w in screen.walk() if isinstance(w, RedToggle))
    renders = label_renders(toggle)
    try:
        for _ in range(2):  # each text shown once
            ui.tap(ui.find("Red-lettered: no"))
            ui.tap(ui.find("Red-lettered: +2"))
        renders.clear()
        ui.tap(ui.find("Red-lettered: no"))
        assert screen.red and toggle.text == "Red-lettered: +2"
        screen.rng = Faces(2)
        ui.tap(ui.find("Roll die"))
        settle(ui, screen)  # a red departure: the toggle goes back to "no"
        assert not screen.red and toggle.text == "Red-lettered: no"
        assert ui.app.session.actions[-1] == {"type": "travel", "die": 2, "red": True}
        assert renders == []
    finally:
        kept_text.forget_all()
