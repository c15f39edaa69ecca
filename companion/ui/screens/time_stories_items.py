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
from companion.ui.screens.time_stories_panels import Panel, _button, _row, _toggle, grown_text
from companion.ui.widgets import BodyLabel

load_kv(__file__)


def _app():
    return App.get_running_app()


class ItemRow(BoxLayout):
    """One item: name, holder line, Agency badge, Give / Used (see the .kv)."""

    panel = ObjectProperty(None)
    item_name = StringProperty("")
    detail = StringProperty("")
    agency = BooleanProperty(False)
    active = BooleanProperty(True)  # False while the run is over: nothing can change


class ItemsPanel(Panel):
    def __init__(self, **kw) -> None:
        super().__init__(**kw)
        self.mode = "list"  # "list", "add" or "give"
        self.giving: str | None = None
        self.new_holder: str | None = None  # None = the group
        self.new_agency = False
        # kept across redraws so a half-typed name survives a tap on a holder
        self.name_in = TextInput(hint_text="item name, e.g. Item 12", font_size=sp(theme.TEXT),
                                 size_hint_y=None, height=64, multiline=False)

    # -- drawing -----------------------------------------------------------------------

    def refresh(self, snap: dict) -> None:
        names = [i["name"] for i in snap.get("items", [])]
        if self.mode == "give" and self.giving not in names:
            self.mode, self.giving = "list", None  # undone, or dropped meanwhile
        if not snap["running"] and (self.mode == "give" or snap["mission_complete"]):
            self.mode = "list"
        {"list": self._list, "add": self._add, "give": self._give}[self.mode](snap)

    def _list(self, snap: dict) -> None:
        box = self.content()
        top = pi.summary_text(snap)
        if not snap["running"]:
            top = (f"Run {snap['run']} is over: T.I.M.E Agency items stay; add what a "
                   "MISSION FAILED card gives")
        box.add_widget(BodyLabel(text=top, font_size=sp(theme.SMALL), size_hint_y=None, height=36,
                                 color=theme.ASIDE))
        self.rows = []
        for r in pi.item_rows(snap):
            row = ItemRow(panel=self, item_name=r.name, detail=r.detail, agency=r.agency,
                          active=bool(snap["running"]))
            self.rows.append(row)
            box.add_widget(row)
        if snap["running"]:
            self.footer(_button("New item", self.start_add))
        elif snap["mission_complete"]:
            self.footer(_button("Next run", self.close))
        else:  # between runs: the MISSION FAILED card's items, then the next run
            self.footer(_button("New item", self.start_add), _button("Next run", self.close))

    def _add(self, snap: dict) -> None:
        box = self.content()
        agency = _toggle("Agency: yes" if self.new_agency else "Agency: no", self.new_agency,
                         self.toggle_agency, width=210)
        agency.background_normal, agency.background_down = "", ""
        agency.background_color = (theme.ITEM_BADGE if self.new_agency
                                   else theme.BUTTON)
        agency.color = theme.ITEM_BADGE_TEXT if self.new_agency else theme.WHITE
        agency.bold = self.new_agency
        agency.font_size = sp(theme.TEXT)
        if self.name_in.parent is not None:
            self.name_in.parent.remove_widget(self.name_in)
        box.add_widget(_row(self.name_in, agency, height=64))
        box.add_widget(grown_text(text="Held by (tap one):", font_size=sp(theme.SMALL), height=34))
        living = [v for _, v in pi.holder_choices(snap)]
        if self.new_holder not in living:
            self.new_holder = None
        holders = [_toggle(label, value == self.new_holder,
                           lambda v=value: self.choose_holder(v))
                   for label, value in pi.holder_choices(snap)]
        for t in holders:
            t.font_size = sp(theme.TEXT)
        box.add_widget(_row(*holders, height=64))
        box.add_widget(BodyLabel(
            text="Agency items (with the T.I.M.E logo) stay when a run fails; the others "
                 "go back to the deck.", font_size=sp(theme.SMALL), size_hint_y=None, height=64,
            color=theme.ASIDE))
        self.footer(_button("Add item", self.add), _button("Cancel", self.back_to_list, 140))

    def _give(self, snap: dict) -> None:
        box = self.content()
        item = next(i for i in snap["items"] if i["name"] == self.giving)
        box.add_widget(BodyLabel(text=f"Give [b]{escape_markup(item['name'])}[/b] (now: "
                                      f"{escape_markup(pi.holder_text(item['holder']))}) to:",
                                 markup=True, size_hint_y=None, height=56))
        box.add_widget(_row(*[_button(label, lambda v=value: self.give(v))
                              for label, value in pi.give_targets(snap, item["name"])]))
        self.footer(_button("Cancel", self.back_to_list))

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
