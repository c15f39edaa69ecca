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
from companion.ui.presenters import time_stories as p
from companion.ui.presenters import time_stories_setup as setup
from companion.ui.widgets import BigButton, BodyLabel, SeatBadge, TapToggle, fitting_font

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
    row's (a 72 px button in a 64 px row would stand over the row above)."""
    row = BoxLayout(size_hint_y=None, height=height, spacing=6)
    for w in widgets:
        if w.size_hint_y is None and isinstance(w, ButtonBehavior):
            w.height = height
        row.add_widget(w)
    return row


def _fit_choice(toggle, size) -> None:
    toggle.text_size = (size[0] - 8, None)
    toggle.font_size = fitting_font(toggle.text, max(1, size[0] - 8), size[1] - 4,
                                    [26, 24, 22, 20, 18], 2, False)


def _toggle(text, down, action, width=None, font=None) -> ToggleButton:
    """A choice button; a long name takes two lines and a smaller font, never cut."""
    t = TapToggle(text=text, font_size=sp(theme.SUBHEADING), state="down" if down else "normal",
                  size_hint_y=None, height=64, halign="center", valign="middle")
    t.bind(size=_fit_choice)
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


class Panel(BoxLayout):
    """A body panel: a scrolling content box above a fixed row of buttons.

    A panel with ``KEPT = True`` builds its widgets once and is kept by the screen
    (``screen.open``): opening it again calls ``reset()`` (back to its first choices)
    and ``refresh(snap)`` only sets the properties that changed."""

    screen = ObjectProperty(None)
    KEPT = False

    def reset(self) -> None:
        """Back to the choices a new panel starts with (kept panels override)."""

    def content(self) -> BoxLayout:
        box = self.ids.content
        box.clear_widgets()
        return box

    def footer(self, *buttons) -> None:
        self.ids.footer.clear_widgets()
        for b in buttons + (_button("Undo", self.undo, 120), _button("Mission", self.close, 160)):
            self.ids.footer.add_widget(b)

    def undo(self) -> None:
        _app().undo()

    def close(self) -> None:
        self.screen.show_mission()

    def refresh(self, snap: dict) -> None:  # pragma: no cover - every panel overrides
        raise NotImplementedError


# ----------------------------------------------------------------- the next run
class NextRunPanel(Panel):
    """The run is over: its outcome, the Agency items kept, the next run's starting TU."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.tu = 25

    def refresh(self, snap: dict) -> None:
        if snap["running"]:  # undone, or started: back to the mission
            self.screen.show_mission()
            return
        v = p.mission_view(snap)
        box = self.content()
        box.add_widget(grown_text(text=f"[b]{v.outcome_text}[/b]  (run {snap['run']})",
                                 markup=True, font_size=sp(theme.PANEL_HEADING), height=56))
        kept = ", ".join(v.kept_items) or "none"
        box.add_widget(grown_text(text=f"T.I.M.E Agency items kept: {kept}", height=76))
        if v.mission_complete:
            self.footer(_button("End game", lambda: _app().end_game(ask=False)))
            return
        box.add_widget(grown_text(text="A MISSION FAILED card gives items? Add them under Items "
                                 "before the next run.", font_size=sp(theme.SMALL), height=40))
        box.add_widget(grown_text(text="Next run starts with:", height=44))
        choices = [_toggle(str(n), n == self.tu, lambda n=n: self.choose(n))
                   for n in p.STARTING_TU_CHOICES]
        box.add_widget(_row(*choices))
        self.footer(_button(f"Start run {snap['run'] + 1} ({self.tu} TU)", self.start),
                    _button("Items", lambda: self.screen.open("items"), 120))

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
                self.screen.show_panel(NextRunPanel(screen=self.screen))

    def step(self, d: int) -> None:
        self.delta += d
        self.refresh(self.screen.snapshot())

    def pick(self, reason: str) -> None:
        self.reason = reason
        self.refresh(self.screen.snapshot())

    def apply(self) -> None:
        if self.screen.act({"type": "adjust_tu", "delta": self.delta,
                            "reason": self.reason.lower()}) and self.screen.panel is self:
            self.close()


# ----------------------------------------------------------------- characters
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
        life = Label(font_name=SYMBOL_FONT, text_size=(250, None), halign="center",
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
    the same start with ``new_turn``, so the group pays that turn with it."""

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.space, self.characteristic, self.who = "B", None, []
        self.shields: list[str] = []
        self.locked, self.turn_to_hit = False, 0
        self.dismissed: int | None = None  # the action count when "New test" put a roll away
        self.offer: dict | None = None  # a refused start another turn would allow
        self.entering: list[str] | None = None  # the table's own dice, as set so far

    def refresh(self, snap: dict) -> None:
        tests = snap["tests"]
        n, last = self.screen.last_action()
        news = p.roll_is_news(last, n, self.dismissed) and snap["last_roll"] is not None
        if not snap["running"] and not news:
            self.screen.show_panel(NextRunPanel(screen=self.screen))
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
        box = self.content()
        alive = [c for c in snap["characters"] if not c["dead"]]
        traits = sorted({k for c in alive for k in c["characteristics"]})
        if self.characteristic not in traits:
            self.characteristic = traits[0] if traits else None
        box.add_widget(_row(_heading("Space"),
                            *[_toggle(s, s == self.space, lambda s=s: self.set("space", s))
                              for s in SPACES], height=64))
        lock = _toggle("Locked" if self.locked else "Unlocked", self.locked,
                       lambda: self.set("locked", not self.locked), width=150)
        box.add_widget(_row(_heading("Tested"), *[_toggle(t, t == self.characteristic,
                                      lambda t=t: self.set("characteristic", t))
                              for t in traits], lock, height=64))
        box.add_widget(_row(_heading("Who rolls"), *[_toggle(c["name"], c["name"] in self.who,
                                      lambda n=c["name"]: self.pick(n)) for c in alive],
                            height=64))
        adds = [_button(f"{p.SHIELD_LOOK[k][0]} {k}", lambda k=k: self.add_shield(k),
                        font_name=SYMBOL_FONT, repeat_ok=True)
                for k in ("blank", "skull", "heart", "tu")]
        box.add_widget(_row(_heading("Shields, in order"), *adds,
                            _button("Clear", lambda: self.set("shields", []), 110),
                            height=64))
        if self.offer is not None:
            self.footer(_button("Stay (1 TU) and start", self.start_paid),
                        _button("Cancel", lambda: self.set("offer", None), 140))
            return
        self.footer(_button(f"Start: {p.shields_text(self.shields)}", self.start,
                            font_name=SYMBOL_FONT))

    def _open(self, t: dict) -> None:
        box = self.content()
        lock = " · locked" if t["locked"] else ""
        box.add_widget(grown_text(text=f"[b]Space {t['space']}[/b]: {t['characteristic']} "
                                  f"({escape_markup(', '.join(t['characters']))}){lock}",
                                  markup=True, height=48))
        box.add_widget(grown_text(text=f"Shields left: {p.shields_text(t['left'])}",
                                 font_name=SYMBOL_FONT, font_size=sp(theme.SYMBOL_TEXT), height=48))
        if t["status"] == "ready":
            if t.get("abilities"):  # the sheets' abilities for this characteristic
                box.add_widget(grown_text(text="; ".join(t["abilities"]), height=40))
            odds = p.odds_lines(t["odds"]) if not self.turn_to_hit else p.odds_lines(
                self._odds(t["space"]))
            for line in odds:
                box.add_widget(grown_text(text=line, height=40))
            box.add_widget(_row(BodyLabel(text=f"Turn to hit: {self.turn_to_hit}"),
                                _button("-", lambda: self.set("turn_to_hit",
                                                              max(0, self.turn_to_hit - 1)), 80,
                                        repeat_ok=True),
                                _button("+", lambda: self.set("turn_to_hit",
                                                              self.turn_to_hit + 1), 80,
                                        repeat_ok=True)))
            self.footer(_button(f"Roll {t['dice']} dice", lambda: self.roll(t)),
                        _button("Our dice", lambda: self.set(
                            "entering", [p.DIE_SYMBOLS[0]] * t["dice"]), 170))
        else:
            self._continue_footer(t)

    def _enter_dice(self, t: dict) -> None:
        """The table rolled its own action dice: each die's tile steps through the
        symbols on a tap (skull, blank, 1 hit, 2 hits) until it shows what the die does."""
        box = self.content()
        box.add_widget(grown_text(text=f"Space {t['space']}: tap each die to match yours",
                                  height=44))
        tiles = []
        for i, sym in enumerate(self.entering):
            mark, words, colour = p.FACE_LOOK[sym]
            tile = _button(f"{mark}\n[size=22]{words}[/size]", lambda i=i: self.turn_die(i),
                           120, markup=True, font_name=SYMBOL_FONT, halign="center",
                           font_size=sp(theme.SYMBOL_KEY), repeat_ok=True, background_color=colour)
            tile.height = 112 if len(self.entering) <= DICE_PER_ROW else 84
            tiles.append(tile)
        for first in range(0, len(tiles), DICE_PER_ROW):  # more dice: more rows
            box.add_widget(_row(*tiles[first:first + DICE_PER_ROW], height=tiles[0].height))
        if self.turn_to_hit:
            box.add_widget(grown_text(text=f"Turn to hit: {self.turn_to_hit}", height=40))
        self.footer(_button("Record roll", lambda: self.record_dice(t)),
                    _button("Cancel", lambda: self.set("entering", None), 140))

    def turn_die(self, i: int) -> None:
        symbols = p.DIE_SYMBOLS
        self.entering[i] = symbols[(symbols.index(self.entering[i]) + 1) % len(symbols)]
        self.refresh(self.screen.snapshot())

    def record_dice(self, t: dict) -> None:
        faces, self.entering = p.faces_for(self.entering), None
        self._roll(t, faces)

    def _results(self, snap: dict, tests: list) -> None:
        box = self.content()
        tiles = []
        for sym in p.face_symbols(snap["last_roll"]):
            mark, words, colour = p.FACE_LOOK[sym]
            tile = Label(text=f"{mark}\n[size=20]{words}[/size]", markup=True,
                         font_name=SYMBOL_FONT, font_size=sp(theme.BIG_SYMBOL), halign="center",
                         size_hint_x=None, width=96)
            tile.bg = colour
            tiles.append(tile)
        box.add_widget(_row(*tiles, height=84))
        for tile in tiles:
            tile.canvas.before.clear()
            from kivy.graphics import Color, RoundedRectangle

            with tile.canvas.before:
                Color(*tile.bg)
                tile._rect = RoundedRectangle(radius=[10])
            tile.bind(pos=self._place, size=self._place)
        for line in p.roll_lines(snap["last_roll"]):
            box.add_widget(grown_text(text=line, height=34))
        space = snap["last_roll"]["space"]
        still = [t for t in tests if t["space"] == space]
        if not snap["running"]:
            self.footer(_button("Run over", lambda: self.screen.show_panel(
                NextRunPanel(screen=self.screen))))
        elif still and still[0]["status"] == "rolled":
            self._continue_footer(still[0])
        else:
            self.footer(_button("New test", lambda: self.set(
                "dismissed", self.screen.last_action()[0])))

    @staticmethod
    def _place(tile, *_args) -> None:
        tile._rect.pos, tile._rect.size = tile.pos, tile.size

    def _continue_footer(self, t: dict) -> None:
        cost = f" ({t['continue_cost']} TU)" if t["continue_cost"] else ""
        abandon = _button("Abandon", lambda: self.act({"type": "test_abandon",
                                                       "space": t["space"]}))
        abandon.disabled = t["locked"]
        self.footer(_button(f"Continue{cost}", lambda: self.act(
            {"type": "test_continue", "space": t["space"]})), abandon)

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
