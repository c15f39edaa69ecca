"""The T.I.M.E Stories Items panel in the real window: add, give, use up, a failed run."""

from __future__ import annotations

import pytest
from samples import ASYLUM

pytestmark = pytest.mark.window

SETUP = ASYLUM


def open_items(ui):
    ui.goto_home()
    assert ui.app.start_game("time_stories", SETUP), ui.app.status
    ui.pump()
    screen = ui.app.sm.current_screen
    ui.tap(ui.find("Items"))
    ui.find("No items yet")
    return screen, screen


def type_name(ui, screen, name):
    """The name typed on the screen's own keyboard (a tap on the field, keys, Done)."""
    ui.tap(ui.find("item name"))
    keyboard = screen.entry.keyboard
    for letter in name:
        keyboard.shift = letter.isupper()
        keyboard.press("Space" if letter == " " else letter.lower())
    ui.pump(1)
    ui.tap(ui.find("Done"))


def add_item(ui, panel, name, holder, agency):
    from kivy.uix.button import Button

    ui.tap(ui.find("New item"))
    type_name(ui, panel, name)
    ui.tap(ui.find(holder, kind=Button))
    if agency:
        ui.tap(ui.find("Agency: no"))
        ui.find("Agency: yes")
    ui.find(name)  # a tap must not lose the typed name
    ui.tap(ui.find("Add item"))
    assert panel.control.item_mode == "list", panel.v.message


def row(panel, name):
    return next(w for w in panel.walk() if getattr(w, "detail", None) is not None
                and w.name == name)


def button(row_widget, text):
    return next(w for w in row_widget.walk() if getattr(w, "text", None) == text)


def items(ui):
    return {i["name"]: (i["holder"], i["agency"]) for i in ui.app.session.snapshot()["items"]}


def test_add_give_use_and_a_failed_run_keeps_the_agency_item(ui):
    screen, panel = open_items(ui)
    add_item(ui, panel, "Agency badge", "Group", agency=True)
    add_item(ui, panel, "Item 12", "Marie", agency=False)
    add_item(ui, panel, "Lamp oil", "Madeleine", agency=False)
    assert items(ui) == {"Agency badge": (None, True), "Item 12": ("Marie", False),
                         "Lamp oil": ("Madeleine", False)}
    assert ui.app.session.actions[-1] == {"type": "gain_item", "item": "Lamp oil",
                                          "holder": "Madeleine", "agency": False}
    ui.find("3 items in play, 1 T.I.M.E Agency")
    assert row(panel, "Agency badge").agency and not row(panel, "Item 12").agency
    ui.find("Agency")

    # a blank name is refused in the status bar, nothing is logged
    n = len(ui.app.session.actions)
    ui.tap(ui.find("New item"))
    ui.tap(ui.find("Add item"))
    assert len(ui.app.session.actions) == n and "name" in panel.v.message
    ui.find(panel.v.message)
    ui.tap(ui.find("Cancel"))

    # the Agency badge goes from the group to Madeleine
    ui.tap(button(row(panel, "Agency badge"), "Give"))
    ui.find("Agency badge[/b] (now: group) to:")
    ui.screenshot("time_stories_items_give")
    ui.tap(ui.find("Madeleine", kind=__import__("kivy.uix.button").uix.button.Button))
    ui.pump(1)
    assert items(ui)["Agency badge"] == ("Madeleine", True)
    assert ui.app.session.actions[-1] == {"type": "give_item", "item": "Agency badge",
                                          "to": "Madeleine"}
    ui.find("Madeleine · kept if the run fails")

    # lamp oil is used up; undo brings it back
    ui.tap(button(row(panel, "Lamp oil"), "Used"))
    assert "Lamp oil" not in items(ui)
    ui.tap(ui.find("Undo"))
    assert items(ui)["Lamp oil"] == ("Madeleine", False)
    ui.tap(button(row(panel, "Lamp oil"), "Used"))
    assert "Lamp oil" not in items(ui)
    ui.screenshot("time_stories_items")

    # time runs out: only the Agency item stays
    assert ui.app.act({"type": "adjust_tu", "delta": -25, "reason": "card effect"})
    ui.pump()
    snap = ui.app.session.snapshot()
    assert snap["outcome"] == "failed_time"
    assert snap["items"] == [{"name": "Agency badge", "holder": "Madeleine", "agency": True}]
    ui.find("Run 1 is over")
    assert [r["name"] for r in panel.v.rows if r["viewclass"] == "TsItem"] == ["Agency badge"]
    assert button(row(panel, "Agency badge"), "Give").disabled
    ui.find("Next run")
    ui.screenshot("time_stories_items_run_over")

    # undo the failure: Item 12 is back with Marie, the run goes on
    ui.tap(ui.find("Undo"))
    snap = ui.app.session.snapshot()
    assert snap["running"] and snap["tu"] == 25
    assert items(ui) == {"Agency badge": ("Madeleine", True), "Item 12": ("Marie", False)}
    ui.tap(ui.find("Mission"))
    assert screen.v.panel == "mission"
    ui.find("Roll die")


def test_add_screen_look(ui):
    _screen, panel = open_items(ui)
    ui.tap(ui.find("New item"))
    type_name(ui, panel, "Item 12")
    ui.tap(ui.find("Marie", kind=__import__("kivy.uix.button").uix.button.Button))
    ui.tap(ui.find("Agency: no"))
    ui.screenshot("time_stories_items_add")
    ui.tap(ui.find("Add item"))
    assert items(ui) == {"Item 12": ("Marie", True)}
