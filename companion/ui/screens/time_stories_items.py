"""The Items panel of the T.I.M.E Stories screen: item cards in play, who holds them.

Opened by the mission screen's "Items" button (``screen.open("items")``) and shown in its
body like the other panels (``time_stories_panels.Panel``). Three views:

- the list: each item with its holder (or "group"), an "Agency" badge for T.I.M.E
  Agency items (kept when a run fails), "Give" and "Used" buttons; "New item" below;
- new item: the name typed in, the holder tapped (a character or "Group"), the Agency
  toggle, "Add item" -> ``gain_item``;
- give: the item's possible new holders as buttons -> ``give_item``.

"Used" -> ``drop_item`` (reason "used up"). Between runs (a failed run) the items a
MISSION FAILED card gives are added here too; they go to the group, since nobody holds a
receptacle until the next run starts. Every change goes through ``app.act`` (logged,
undoable; a refusal shows in the status bar in its rule's words). What is shown comes
from ``companion.ui.presenters.time_stories_items``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput
from kivy.utils import escape_markup

from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters import time_stories_items as pi
from companion.ui.screens.time_stories_panels import (
    Panel,
    Pool,
    _button,
    _fill,
    _row,
    _set,
    _toggle,
    grown_text,
)
from companion.ui.widgets import BodyLabel, TouchInside

load_kv(__file__)


def _app():
    return App.get_running_app()


class ItemRow(TouchInside, BoxLayout):
    """One item: name, holder line, Agency badge, Give / Used (see the .kv); a touch
    outside the row is not walked through its buttons (``TouchInside``)."""

    panel = ObjectProperty(None)
    item_name = StringProperty("")
    detail = StringProperty("")
    agency = BooleanProperty(False)
    active = BooleanProperty(True)  # False while the run is over: nothing can change


class ItemsPanel(Panel):
    """The item cards (see the module doc). Kept (built once): its three views are kept
    widgets; the item rows, the holders and the give targets are drawn from ``Pool``s,
    so a refresh only sets texts and states."""

    KEPT = True
    PAGED = False  # its name field: out of the tree when the panel is not shown

    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        # kept across redraws so a half-typed name survives a tap on a holder
        self.name_in = TextInput(hint_text="item name, e.g. Item 12", font_size=sp(theme.TEXT),
                                 size_hint_y=None, height=64, multiline=False)
        self.reset()
        self.rows: list[ItemRow] = []  # the rows the list shows now
        self.holders: list[str | None] = []  # what the holder toggles stand for now
        self.targets: list[str | None] = []  # what the give buttons stand for now
        self._build()

    def reset(self) -> None:
        """Each opening starts on the list, nothing half added."""
        self.mode = "list"  # "list", "add" or "give"
        self.giving: str | None = None
        self.new_holder: str | None = None  # None = the group
        self.new_agency = False
        self.name_in.text = ""

    def _build(self) -> None:
        """Every widget of the three views, once."""
        self.summary = BodyLabel(font_size=sp(theme.SMALL), size_hint_y=None, height=36,
                             color=theme.ASIDE)
        self.item_rows = Pool(lambda _i: ItemRow(panel=self))
        self.new_button = _button("New item", self.start_add)
        self.next_button = _button("Next run", self.close)
        # adding
        self.agency = _toggle("Agency: no", False, self.toggle_agency, width=210)
        self.agency.background_normal, self.agency.background_down = "", ""
        self.agency.font_size = sp(theme.TEXT)
        self.name_row = _row(self.name_in, self.agency, height=64)
        self.held_by = grown_text(text="Held by (tap one):", font_size=sp(theme.SMALL),
                                  height=34)

        def holder(i):
            t = _toggle("", False, lambda: self.choose_holder(self.holders[i]))
            t.font_size = sp(theme.TEXT)
            return t

        self.holder_toggles = Pool(holder)
        self.holder_row = _row(height=64)
        self.agency_note = BodyLabel(
            text="Agency items (with the T.I.M.E logo) stay when a run fails; the others "
                 "go back to the deck.", font_size=sp(theme.SMALL), size_hint_y=None, height=64,
            color=theme.ASIDE)
        self.add_button = _button("Add item", self.add)
        self.cancel_add = _button("Cancel", self.back_to_list, 140)
        # giving
        self.give_line = BodyLabel(markup=True, size_hint_y=None, height=56)
        self.give_buttons = Pool(lambda i: _button("", lambda: self.give(self.targets[i])))
        self.give_row = _row()
        self.cancel_give = _button("Cancel", self.back_to_list)

    # -- drawing -----------------------------------------------------------------------

    def refresh(self, snap: dict) -> None:
        names = [i["name"] for i in snap.get("items", [])]
        if self.mode == "give" and self.giving not in names:
            self.mode, self.giving = "list", None  # undone, or dropped meanwhile
        if not snap["running"] and (self.mode == "give" or snap["mission_complete"]):
            self.mode = "list"
        {"list": self._list, "add": self._add, "give": self._give}[self.mode](snap)

    def _list(self, snap: dict) -> None:
        top = pi.summary_text(snap)
        if not snap["running"]:
            top = (f"Run {snap['run']} is over: T.I.M.E Agency items stay; add what a "
                   "MISSION FAILED card gives")
        _set(self.summary, text=top)
        shown = pi.item_rows(snap)
        self.rows = self.item_rows.first(len(shown))
        for r, row in zip(shown, self.rows, strict=True):
            _set(row, item_name=r.name, detail=r.detail, agency=r.agency,
                 active=bool(snap["running"]))
        self.show(self.summary, *self.rows)
        if snap["running"]:
            self.footer(self.new_button)
        elif snap["mission_complete"]:
            self.footer(self.next_button)
        else:  # between runs: the MISSION FAILED card's items, then the next run
            self.footer(self.new_button, self.next_button)

    def _add(self, snap: dict) -> None:
        on = self.new_agency
        _set(self.agency, text="Agency: yes" if on else "Agency: no",
             state="down" if on else "normal",
             background_color=theme.ITEM_BADGE if on else theme.BUTTON,
             color=theme.ITEM_BADGE_TEXT if on else theme.WHITE, bold=on)
        choices = pi.holder_choices(snap)
        self.holders = [v for _, v in choices]
        if self.new_holder not in self.holders:
            self.new_holder = None
        toggles = self.holder_toggles.first(len(choices))
        for (label, value), t in zip(choices, toggles, strict=True):
            _set(t, text=label, state="down" if value == self.new_holder else "normal")
        _fill(self.holder_row, toggles)
        self.show(self.name_row, self.held_by, self.holder_row, self.agency_note)
        self.footer(self.add_button, self.cancel_add)

    def _give(self, snap: dict) -> None:
        item = next(i for i in snap["items"] if i["name"] == self.giving)
        _set(self.give_line, text=f"Give [b]{escape_markup(item['name'])}[/b] (now: "
                                  f"{escape_markup(pi.holder_text(item['holder']))}) to:")
        targets = pi.give_targets(snap, item["name"])
        self.targets = [v for _, v in targets]
        buttons = self.give_buttons.first(len(targets))
        for (label, _), b in zip(targets, buttons, strict=True):
            _set(b, text=label)
        _fill(self.give_row, buttons)
        self.show(self.give_line, self.give_row)
        self.footer(self.cancel_give)

    def _redraw(self) -> None:
        snap = self.screen.snapshot()
        if snap is not None:
            self.refresh(snap)

    # -- taps --------------------------------------------------------------------------

    def start_add(self) -> None:
        self.mode = "add"
        self._redraw()

    def back_to_list(self) -> None:
        self.mode, self.giving = "list", None
        self._redraw()

    def toggle_agency(self) -> None:
        self.new_agency = not self.new_agency
        self._redraw()

    def choose_holder(self, holder: str | None) -> None:
        self.new_holder = holder
        self._redraw()

    def add(self) -> None:
        action, why = pi.gain_action(self.name_in.text, self.new_holder, self.new_agency)
        if action is None:
            _app().say(why, error=True)
            return
        self.mode = "list"  # set first: the act's refresh redraws the list
        if _app().act(action):
            self.name_in.text, self.new_agency = "", False
        else:
            self.mode = "add"
            self._redraw()

    def start_give(self, item: str) -> None:
        self.mode, self.giving = "give", item
        self._redraw()

    def give(self, to: str | None) -> None:
        item = self.giving
        self.mode, self.giving = "list", None
        if not _app().act(pi.give_action(item, to)):
            self.mode, self.giving = "give", item
            self._redraw()

    def drop(self, item: str) -> None:
        _app().act(pi.drop_action(item))
