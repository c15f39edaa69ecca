"""Panels of the T.I.M.E Stories screen: characters, dice test, TU correction, next run.

Each panel is a widget the mission screen (``time_stories.py``) puts in its body with
``screen.show_panel(panel)``; ``refresh(snap)`` redraws it from the engine snapshot after
every action. Panels only build actions and hand them to ``screen.act`` (``app.act``: a
refusal is said in its rule's words); what they show comes from
``companion.ui.presenters.time_stories``. The setup panel (mission, starting TU, the
characters) is in ``time_stories_setup.py``. Action dice are rolled here with
``companion.dice.roll(n, screen.rng)`` and the faces go into the ``test_roll`` action.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import ObjectProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.togglebutton import ToggleButton  # noqa: F401  (the type _toggle returns)
from kivy.utils import escape_markup

from companion import dice
from companion.palette import rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel
from companion.ui.presenters import time_stories as p
from companion.ui.presenters import time_stories_setup as setup
from companion.ui.widgets import (
    BigButton,
    BodyLabel,
    SeatBadge,
    TapToggle,
    TouchBox,
    TouchInside,
    fitting_font,
)

load_kv(__file__)

SYMBOL_FONT = "DejaVuSans"
SPACES = ("A", "B", "C", "D", "E", "F", "G")
DICE_PER_ROW = 6  # the table's own dice, entered one tile each: 6 fit across 800 px


def _app():
    return App.get_running_app()


def _button(text, action, width=None, **kw) -> BigButton:
    b = BigButton(text=text, **kw)
    if width:
        b.size_hint_x, b.width = None, width
    b.bind(on_release=lambda *_: action())
    return b


def _row(*widgets, height=72) -> BoxLayout:
    """Widgets side by side in a row of ``height``: each of a fixed height takes the
    row's (a 72 px button in a 64 px row would stand over the row above), so they lie
    inside it and a touch elsewhere is not walked through them (``TouchBox``)."""
    row = TouchBox(size_hint_y=None, height=height, spacing=6)
    _fill(row, widgets)
    return row


def _fill(row: BoxLayout, widgets) -> None:
    """``row`` holding exactly ``widgets`` (kept widgets, put back in place), each
    button of a fixed height at the row's height; left alone when it holds them."""
    for w in widgets:
        if w.size_hint_y is None and isinstance(w, ButtonBehavior):
            _set(w, height=row.height)
    show_in(row, widgets)


def show_in(box, widgets) -> None:
    """``box`` holding exactly ``widgets``, in that order (moved from where they were);
    nothing is done when it holds them already (no relayout for an unchanged view)."""
    widgets, now = list(widgets), box.children[::-1]
    if len(now) == len(widgets) and all(a is b for a, b in zip(now, widgets, strict=True)):
        return
    box.clear_widgets()
    for w in widgets:
        if w.parent is not None:
            w.parent.remove_widget(w)
        box.add_widget(w)


class Pool:
    """Widgets of one kind, made on demand and kept: ``first(n)`` gives n of them,
    making one only when more are wanted than ever before (``make(i)`` makes the i-th;
    its taps read what the i-th stands for now from the panel)."""

    def __init__(self, make) -> None:
        self.make, self.made = make, []

    def first(self, n: int) -> list:
        while len(self.made) < n:
            self.made.append(self.make(len(self.made)))
        return self.made[:n]


def _fit_choice(toggle, size) -> None:
    if not toggle.text:  # a kept toggle not given its words yet
        return
    toggle.text_size = (size[0] - 8, None)
    toggle.font_size = fitting_font(toggle.text, max(1, size[0] - 8), size[1] - 4,
                                    [26, 24, 22, 20, 18], 2, False)


def _toggle(text, down, action, width=None, font=None) -> ToggleButton:
    """A choice button; a long name takes two lines and a smaller font, never cut."""
    t = TapToggle(text=text, font_size=sp(theme.SUBHEADING), state="down" if down else "normal",
                  size_hint_y=None, height=64, halign="center", valign="middle")
    t.bind(size=_fit_choice, text=lambda w, _text: _fit_choice(w, w.size))
    if font:
        t.font_name = font
    if width:
        t.size_hint_x, t.width = None, width
    t.bind(on_release=lambda *_: action())
    return t


def grown_text(height: float = 0, **kw) -> BodyLabel:
    """A panel's line of text: it wraps, and its box grows with it, so a long name or
    sentence is never cut (``height``: the least it takes, as short lines had)."""
    label = BodyLabel(size_hint_y=None, height=height, **kw)
    label.bind(texture_size=lambda w, size: setattr(w, "height", max(height, size[1] + 6)))
    return label


def _heading(text: str) -> BodyLabel:
    """A row's heading, at its left (the rows keep their height: nothing scrolls away)."""
    label = BodyLabel(text=text, font_size=sp(theme.SMALL), bold=True, size_hint_x=None, width=132,
                      color=theme.NEWS, halign="left", valign="middle")
    label.bind(size=lambda w, size: setattr(w, "text_size", size))
    return label


def _set(widget, **values) -> None:
    """Set only the properties whose value changed (an equal value still costs a
    property dispatch and, for a text, a new texture)."""
    for name, value in values.items():
        if getattr(widget, name) != value:
            setattr(widget, name, value)


class Panel(TouchInside, BoxLayout):
    """A body panel: a scrolling content box above a fixed row of buttons (touches
    outside it, on the screen's header, are not walked through it: ``TouchInside``).

    A panel with ``KEPT = True`` builds its widgets once and is kept by the screen
    (``screen.open``): opening it again calls ``reset()`` (back to its first choices)
    and ``refresh(snap)`` only sets the properties that changed; it stays a page of the
    screen's body (``PAGED``)."""

    screen = ObjectProperty(None)
    KEPT = False
    #: a kept panel is a page of the screen's body of its own (``screen._body``), off
    #: the window while another shows; False for one holding a text field (an unseen
    #: field still focused would take the keys): it leaves the body's tree instead
    PAGED = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.ends: tuple | None = None  # Undo and Mission, made once, end every footer

    def reset(self) -> None:
        """Back to the choices a new panel starts with (kept panels override)."""

    def content(self) -> BoxLayout:
        box = self.ids.content
        box.clear_widgets()
        return box

    def show(self, *widgets) -> None:
        """The content box holding exactly ``widgets`` (kept ones: nothing is made)."""
        show_in(self.ids.content, widgets)

    def footer(self, *buttons) -> None:
        """The footer: ``buttons``, then Undo and Mission (left alone when unchanged)."""
        if self.ends is None:
            self.ends = (_button("Undo", self.undo, 120), _button("Mission", self.close, 160))
        show_in(self.ids.footer, buttons + self.ends)

    def undo(self) -> None:
        _app().undo()

    def close(self) -> None:
        self.screen.show_mission()

    def refresh(self, snap: dict) -> None:  # pragma: no cover - every panel overrides
        raise NotImplementedError


# ----------------------------------------------------------------- the next run
class NextRunPanel(Panel):
    """The run is over: its outcome, the Agency items kept, the next run's starting TU.

    Kept (built once); the starting TU chosen is kept while the same run is over, a
    new run's end offers the usual 25 again."""

    KEPT = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.tu = 25
        self.for_run: tuple | None = None  # (game, run) the choice of ``tu`` is for
        self.outcome = grown_text(markup=True, font_size=sp(theme.PANEL_HEADING), height=56)
        self.kept_line = grown_text(height=76)
        self.card_note = grown_text(text="A MISSION FAILED card gives items? Add them under "
                                         "Items before the next run.",
                                    font_size=sp(theme.SMALL), height=40)
        self.next_line = grown_text(text="Next run starts with:", height=44)
        self.choices = {n: _toggle(str(n), False, lambda n=n: self.choose(n))
                        for n in p.STARTING_TU_CHOICES}
        self.choice_row = _row(*self.choices.values())
        self.start_button = _button("", self.start)
        self.items_button = _button("Items", lambda: self.screen.open("items"), 120)
        self.end_button = _button("End game", lambda: _app().end_game(ask=False))

    def refresh(self, snap: dict) -> None:
        if snap["running"]:  # undone, or started: back to the mission
            self.screen.show_mission()
            return
        app = _app()
        run = (app.session.game_id if app.session else None, snap["run"])
        if run != self.for_run:
            self.for_run, self.tu = run, 25
        v = p.mission_view(snap)
        _set(self.outcome, text=f"[b]{v.outcome_text}[/b]  (run {snap['run']})")
        _set(self.kept_line, text=f"T.I.M.E Agency items kept: {', '.join(v.kept_items) or 'none'}")
        if v.mission_complete:
            self.show(self.outcome, self.kept_line)
            self.footer(self.end_button)
            return
        for n, toggle in self.choices.items():
            _set(toggle, state="down" if n == self.tu else "normal")
        self.show(self.outcome, self.kept_line, self.card_note, self.next_line, self.choice_row)
        _set(self.start_button, text=f"Start run {snap['run'] + 1} ({self.tu} TU)")
        self.footer(self.start_button, self.items_button)

    def choose(self, tu: int) -> None:
        self.tu = tu
        self.refresh(self.screen.snapshot())

    def start(self) -> None:
        self.screen.act({"type": "start_run", "starting_tu": self.tu})


# ----------------------------------------------------------------- TU correction
class CorrectPanel(Panel):
    """A hand correction of the tracker (delta + reason), or the mission's success."""

    REASONS = ("Card effect", "Item used", "Fix a mistake")

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.delta, self.reason = -1, self.REASONS[0]
        self.applying = False  # its correction is being recorded: the panel then goes

    KEPT = True

    def reset(self) -> None:
        self.delta, self.reason = -1, self.REASONS[0]

    def _build(self) -> None:
        """Its widgets, once: the change line, the steps, the reasons, the buttons."""
        box = self.content()
        self.change = grown_text(markup=True, font_size=sp(theme.HEADING), height=56)
        box.add_widget(self.change)
        box.add_widget(_row(*[_button(f"{d:+d}", lambda d=d: self.step(d), repeat_ok=True)
                              for d in (-5, -1, 1, 5)]))
        self.reasons = {r: _toggle(r, False, lambda r=r: self.pick(r)) for r in self.REASONS}
        box.add_widget(_row(*self.reasons.values()))
        self.footer(_button("Apply", self.apply), _button("Mission won", self.won))

    def refresh(self, snap: dict) -> None:
        if not hasattr(self, "change"):
            self._build()
        if self.applying:  # recorded: the mission shows next, this line is not seen
            return
        _set(self.change, text=f"TU {snap['tu']}  change: [b]{self.delta:+d}[/b]"
                               f"  ->  {max(0, snap['tu'] + self.delta)}")
        for r, toggle in self.reasons.items():
            _set(toggle, state="down" if r == self.reason else "normal")

    def won(self) -> None:
        """The mission's success card: the run ends and the end-of-run panel says so."""
        if self.screen.act({"type": "end_run", "outcome": "successful",
                            "reason": "mission successful"}):
            _app().say("Mission successful!")
            if not isinstance(self.screen.panel, NextRunPanel):
                self.screen.show_next_run()

    def step(self, d: int) -> None:
        self.delta += d
        self.refresh(self.screen.snapshot())

    def pick(self, reason: str) -> None:
        self.reason = reason
        self.refresh(self.screen.snapshot())

    def apply(self) -> None:
        """Record the correction and go back to the mission (a refused one stays, with
        the rule's sentence said)."""
        self.applying = True
        try:
            done = self.screen.act({"type": "adjust_tu", "delta": self.delta,
                                    "reason": self.reason.lower()})
        finally:
            self.applying = False
        if done and self.screen.panel is self:
            self.close()


# ----------------------------------------------------------------- characters
class LifeText(KeptLabel):
    """A character's life (hearts, or "5/8 LP", or when the dead come back): a handful
    of texts per character that come back at every - and +, each drawn once and shown
    again from its kept texture (``kept_text.KeptText``), kept from its first showing."""

    keep_first_showing = True


class CharactersPanel(Panel):
    """Each character's life (hearts), resistance, death and revival; +/- life; add."""

    KEPT = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.rows: list[BoxLayout] = []  # a pool: one row per character, reused
        self.shown = None  # (rows, note, aside) the content box holds
        self.footer_key = None
        self.note = grown_text(height=50)
        self.aside = grown_text(text="New characters can come in at the start of the next "
                                     "run.", font_size=sp(theme.SMALL), height=40)

    def _new_row(self) -> BoxLayout:
        life = LifeText(font_name=SYMBOL_FONT, text_size=(250, None), halign="center",
                        size_hint_x=None, width=250)
        name = BodyLabel(markup=True)
        badge = SeatBadge(pos_hint={"center_y": 0.5})
        row = _row(badge, name, life,
                   _button("-", lambda: self.life(row.character, -1), 70, repeat_ok=True),
                   _button("+", lambda: self.life(row.character, 1), 70, repeat_ok=True),
                   height=76)
        row.character, row.parts = "", (badge, name, life)
        # a long name wraps: its row grows with it, over nothing around it
        name.bind(texture_size=lambda _w, size: setattr(row, "height", max(76, size[1] + 8)))
        return row

    def refresh(self, snap: dict) -> None:
        chars = snap["characters"]
        colours = {s.seat: s.colour for s in _app().cfg.seats}
        while len(self.rows) < len(chars):
            self.rows.append(self._new_row())
        for row, c in zip(self.rows, chars, strict=False):
            badge, name, life = row.parts
            row.character = c["name"]
            _set(badge, seat=c["seat"], colour=rgba(colours.get(c["seat"], "grey")))
            _set(name, text=f"[b]{escape_markup(c['name'])}[/b]\n"
                            f"[size=22]{escape_markup(p.traits_text(c))}[/size]")
            _set(life, text=p.life_text(c),
                 font_size=sp(theme.TEXT if c["dead"] else theme.HEADING),
                 color=theme.LIFE if not c["dead"] else theme.DEAD_TEXT)
        early = setup.nothing_happened(snap)
        if early:
            note = ("No characters yet." if not chars else
                    "Nothing has happened in this run yet: the cast can still change.")
        else:
            note = "" if chars else "This run goes on without characters."
        _set(self.note, text=note)
        shape = (len(chars), bool(note), not early)
        if self.shown != shape:  # another cast or another note: the rows again, in order
            box = self.content()
            for row in self.rows[:len(chars)]:
                box.add_widget(row)
            if note:
                box.add_widget(self.note)
            if not early:
                box.add_widget(self.aside)
            self.shown = shape
        key = (early, bool(chars))
        if key != self.footer_key:
            self.footer_key = key
            if early:
                label = "Change characters" if chars else "Add characters"
                self.footer(_button(label, lambda: self.screen.open("setup")))
            else:
                self.footer()

    def life(self, name: str, delta: int) -> None:
        action = ({"type": "heal", "character": name, "amount": 1} if delta > 0 else
                  {"type": "damage", "character": name, "amount": 1, "reason": "card effect"})
        self.screen.act(action)


# ----------------------------------------------------------------- dice test
#: refusals of a test start that another turn (1 TU) answers: the panel offers it
PAY_A_TURN = ("time_stories.another_space", "time_stories.retry_needs_turn")


class DiceTestPanel(Panel):
    """Set up a test, see the odds, roll, read what happened; continue or abandon.

    A start refused because its characters already rolled at another space this turn
    (or the test was given up this turn) is offered again as "Stay (1 TU) and start":
    the same start with ``new_turn``, so the group pays that turn with it.

    Kept (built once): its four views (the setup, an open test, the table's own dice
    being entered, a roll's result) are kept widgets put in the body as the state
    asks; the lists that vary (characteristics, characters, odds lines, dice, result
    lines) draw from ``Pool``s, so a refresh only sets texts and states."""

    KEPT = True

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.reset()
        self.traits: list[str] = []  # what the setup's toggles stand for now
        self.alive: list[str] = []
        self.test: dict | None = None  # the test the open view shows
        self._build()

    def reset(self) -> None:
        """The choices a first opening starts with (each opening starts so; a roll the
        log ends on shows again, as "New test" put it away only for that opening)."""
        self.space, self.characteristic, self.who = "B", None, []
        self.shields: list[str] = []
        self.locked, self.turn_to_hit = False, 0
        self.dismissed: int | None = None  # the action count when "New test" put a roll away
        self.offer: dict | None = None  # a refused start another turn would allow
        self.entering: list[str] | None = None  # the table's own dice, as set so far

    def _build(self) -> None:
        """Every widget of the four views, once."""
        # the setup
        self.spaces = {s: _toggle(s, False, lambda s=s: self.set("space", s)) for s in SPACES}
        self.space_row = _row(_heading("Space"), *self.spaces.values(), height=64)
        self.tested = _heading("Tested")
        self.trait_toggles = Pool(lambda i: _toggle(
            "", False, lambda: self.set("characteristic", self.traits[i])))
        self.lock = _toggle("", False, lambda: self.set("locked", not self.locked), width=150)
        self.trait_row = _row(height=64)
        self.who_heading = _heading("Who rolls")
        self.who_toggles = Pool(lambda i: _toggle("", False, lambda: self.pick(self.alive[i])))
        self.who_row = _row(height=64)
        adds = [_button(f"{p.SHIELD_LOOK[k][0]} {k}", lambda k=k: self.add_shield(k),
                        font_name=SYMBOL_FONT, repeat_ok=True)
                for k in ("blank", "skull", "heart", "tu")]
        self.shield_row = _row(_heading("Shields, in order"), *adds,
                               _button("Clear", lambda: self.set("shields", []), 110), height=64)
        self.start_button = _button("", self.start, font_name=SYMBOL_FONT)
        self.paid_button = _button("Stay (1 TU) and start", self.start_paid)
        self.no_offer_button = _button("Cancel", lambda: self.set("offer", None), 140)
        # an open test
        self.test_line = grown_text(markup=True, height=48)
        self.left_line = grown_text(font_name=SYMBOL_FONT, font_size=sp(theme.SYMBOL_TEXT),
                                    height=48)
        self.abilities = grown_text(height=40)
        self.odds = Pool(lambda _i: grown_text(height=40))
        self.turn_label = BodyLabel()
        self.turn_row = _row(self.turn_label,
                             _button("-", lambda: self.set("turn_to_hit",
                                                           max(0, self.turn_to_hit - 1)), 80,
                                     repeat_ok=True),
                             _button("+", lambda: self.set("turn_to_hit",
                                                           self.turn_to_hit + 1), 80,
                                     repeat_ok=True))
        self.roll_button = _button("", lambda: self.roll(self.test))
        self.our_dice = _button("Our dice", lambda: self.set(
            "entering", [p.DIE_SYMBOLS[0]] * self.test["dice"]), 170)
        self.continue_button = _button("", lambda: self.act(
            {"type": "test_continue", "space": self.test["space"]}))
        self.abandon = _button("Abandon", lambda: self.act(
            {"type": "test_abandon", "space": self.test["space"]}))
        # the table's own dice
        self.enter_line = grown_text(height=44)
        self.die_tiles = Pool(lambda i: _button(
            "", lambda: self.turn_die(i), 120, markup=True, font_name=SYMBOL_FONT,
            halign="center", font_size=sp(theme.SYMBOL_KEY), repeat_ok=True))
        self.tile_rows = Pool(lambda _i: _row(height=112))
        self.enter_turn = grown_text(height=40)
        self.record_button = _button("Record roll", lambda: self.record_dice(self.test))
        self.no_entry_button = _button("Cancel", lambda: self.set("entering", None), 140)
        # a roll's result
        self.face_tiles = Pool(self._face_tile)
        self.face_row = _row(height=84)
        self.result_lines = Pool(lambda _i: grown_text(height=34))
        self.run_over = _button("Run over", lambda: self.screen.show_next_run())
        self.new_test = _button("New test", lambda: self.set(
            "dismissed", self.screen.last_action()[0]))

    def refresh(self, snap: dict) -> None:
        tests = snap["tests"]
        n, last = self.screen.last_action()
        news = p.roll_is_news(last, n, self.dismissed) and snap["last_roll"] is not None
        if not snap["running"] and not news:
            self.screen.show_next_run(snap)
            return
        if self.entering is not None and tests and tests[0]["status"] == "ready":
            self._enter_dice(tests[0])
        elif news:
            self._results(snap, tests)
        elif tests:
            self._open(tests[0])
        else:
            self._setup(snap)

    def _setup(self, snap: dict) -> None:
        alive = [c for c in snap["characters"] if not c["dead"]]
        self.traits = sorted({k for c in alive for k in c["characteristics"]})
        self.alive = [c["name"] for c in alive]
        if self.characteristic not in self.traits:
            self.characteristic = self.traits[0] if self.traits else None
        for s, toggle in self.spaces.items():
            _set(toggle, state="down" if s == self.space else "normal")
        traits = self.trait_toggles.first(len(self.traits))
        for t, toggle in zip(self.traits, traits, strict=True):
            _set(toggle, text=t, state="down" if t == self.characteristic else "normal")
        _set(self.lock, text="Locked" if self.locked else "Unlocked",
             state="down" if self.locked else "normal")
        _fill(self.trait_row, [self.tested, *traits, self.lock])
        who = self.who_toggles.first(len(self.alive))
        for name, toggle in zip(self.alive, who, strict=True):
            _set(toggle, text=name, state="down" if name in self.who else "normal")
        _fill(self.who_row, [self.who_heading, *who])
        self.show(self.space_row, self.trait_row, self.who_row, self.shield_row)
        if self.offer is not None:
            self.footer(self.paid_button, self.no_offer_button)
            return
        _set(self.start_button, text=f"Start: {p.shields_text(self.shields)}")
        self.footer(self.start_button)

    def _open(self, t: dict) -> None:
        self.test = t
        lock = " · locked" if t["locked"] else ""
        _set(self.test_line, text=f"[b]Space {t['space']}[/b]: {t['characteristic']} "
                                  f"({escape_markup(', '.join(t['characters']))}){lock}")
        _set(self.left_line, text=f"Shields left: {p.shields_text(t['left'])}")
        if t["status"] != "ready":
            self.show(self.test_line, self.left_line)
            self._continue_footer(t)
            return
        shown = [self.test_line, self.left_line]
        if t.get("abilities"):  # the sheets' abilities for this characteristic
            _set(self.abilities, text="; ".join(t["abilities"]))
            shown.append(self.abilities)
        odds = p.odds_lines(t["odds"]) if not self.turn_to_hit else p.odds_lines(
            self._odds(t["space"]))
        for line, label in zip(odds, self.odds.first(len(odds)), strict=True):
            _set(label, text=line)
            shown.append(label)
        _set(self.turn_label, text=f"Turn to hit: {self.turn_to_hit}")
        self.show(*shown, self.turn_row)
        _set(self.roll_button, text=f"Roll {p.counted(t['dice'], 'die', 'dice')}")
        self.footer(self.roll_button, self.our_dice)

    def _enter_dice(self, t: dict) -> None:
        """The table rolled its own action dice: each die's tile steps through the
        symbols on a tap (skull, blank, 1 hit, 2 hits) until it shows what the die does."""
        self.test = t
        _set(self.enter_line, text=f"Space {t['space']}: tap each die to match yours")
        tiles = self.die_tiles.first(len(self.entering))
        height = 112 if len(tiles) <= DICE_PER_ROW else 84
        for sym, tile in zip(self.entering, tiles, strict=True):
            mark, words, colour = p.FACE_LOOK[sym]
            _set(tile, text=f"{mark}\n[size=22]{words}[/size]", background_color=colour)
        starts = range(0, len(tiles), DICE_PER_ROW)  # more dice: more rows
        rows = self.tile_rows.first(len(starts))
        for row, first in zip(rows, starts, strict=True):
            _set(row, height=height)
            _fill(row, tiles[first:first + DICE_PER_ROW])
        shown = [self.enter_line, *rows]
        if self.turn_to_hit:
            _set(self.enter_turn, text=f"Turn to hit: {self.turn_to_hit}")
            shown.append(self.enter_turn)
        self.show(*shown)
        self.footer(self.record_button, self.no_entry_button)

    def turn_die(self, i: int) -> None:
        symbols = p.DIE_SYMBOLS
        self.entering[i] = symbols[(symbols.index(self.entering[i]) + 1) % len(symbols)]
        self.refresh(self.screen.snapshot())

    def record_dice(self, t: dict) -> None:
        faces, self.entering = p.faces_for(self.entering), None
        self._roll(t, faces)

    def _face_tile(self, _i: int) -> Label:
        """A big tile of one die of a roll's result, on a rounded face of its colour."""
        from kivy.graphics import Color, RoundedRectangle

        tile = Label(markup=True, font_name=SYMBOL_FONT, font_size=sp(theme.BIG_SYMBOL),
                     halign="center", size_hint_x=None, width=96)
        with tile.canvas.before:
            tile._colour = Color(*theme.WHITE)
            tile._rect = RoundedRectangle(radius=[10])
        tile.bind(pos=self._place, size=self._place)
        return tile

    def _results(self, snap: dict, tests: list) -> None:
        symbols = p.face_symbols(snap["last_roll"])
        tiles = self.face_tiles.first(len(symbols))
        for sym, tile in zip(symbols, tiles, strict=True):
            mark, words, colour = p.FACE_LOOK[sym]
            _set(tile, text=f"{mark}\n[size=20]{words}[/size]")
            if tuple(tile._colour.rgba) != tuple(colour):
                tile._colour.rgba = colour
        _fill(self.face_row, tiles)
        lines = p.roll_lines(snap["last_roll"])
        labels = self.result_lines.first(len(lines))
        for line, label in zip(lines, labels, strict=True):
            _set(label, text=line)
        self.show(self.face_row, *labels)
        space = snap["last_roll"]["space"]
        still = [t for t in tests if t["space"] == space]
        if not snap["running"]:
            self.footer(self.run_over)
        elif still and still[0]["status"] == "rolled":
            self._continue_footer(still[0])
        else:
            self.footer(self.new_test)

    @staticmethod
    def _place(tile, *_args) -> None:
        tile._rect.pos, tile._rect.size = tile.pos, tile.size

    def _continue_footer(self, t: dict) -> None:
        self.test = t
        cost = f" ({t['continue_cost']} TU)" if t["continue_cost"] else ""
        _set(self.continue_button, text=f"Continue{cost}")
        _set(self.abandon, disabled=t["locked"])
        self.footer(self.continue_button, self.abandon)

    # -- actions ---------------------------------------------------------------------

    def _odds(self, space: str) -> dict:
        from companion.games.time_stories import roll_odds_for

        return roll_odds_for(_app().session.state, space,
                             turn_to_hit=self.turn_to_hit).as_dict()

    def set(self, attr: str, value) -> None:
        setattr(self, attr, value)
        if attr != "offer":
            self.offer = None  # another choice: the offer was for the start as it was
        self.refresh(self.screen.snapshot())

    def pick(self, name: str) -> None:
        self.set("who", [n for n in self.who if n != name] if name in self.who
                 else self.who + [name])

    def add_shield(self, kind: str) -> None:
        self.set("shields", self.shields + [kind])

    def act(self, action: dict) -> None:
        self.screen.act(action)

    def start(self) -> None:
        action = {"type": "test_start", "space": self.space,
                  "characteristic": self.characteristic, "characters": list(self.who),
                  "shields": list(self.shields), "locked": self.locked}
        refused = self.screen.refusal(action)
        if refused is not None and refused.code in PAY_A_TURN:
            _app().say(refused.sentence, error=True)
            self.set("offer", action)
            return
        if self.screen.act(action):
            self.shields, self.turn_to_hit = [], 0

    def start_paid(self) -> None:
        """The offered start, with the turn it needs paid first (1 TU, logged as a stay)."""
        action, self.offer = self.offer, None
        if action is not None and self.screen.act(action | {"new_turn": True}):
            self.shields, self.turn_to_hit = [], 0
        elif action is not None:
            self.refresh(self.screen.snapshot())

    def roll(self, t: dict) -> None:
        self._roll(t, list(dice.roll(t["dice"], self.screen.rng)))

    def _roll(self, t: dict, faces: list[int]) -> None:
        action = {"type": "test_roll", "space": t["space"], "faces": faces}
        if self.turn_to_hit:
            action["modifiers"] = {"turn_to_hit": self.turn_to_hit}
        if self.screen.act(action):  # the result shows because the log ends on the roll
            _app().play("dice")
            self.turn_to_hit = 0
