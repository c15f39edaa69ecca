"""Set on a widget only the values that differ from what it was last given here.

A screen update sets many properties to the value they already hold (a slot's colour, a
key's state); Kivy converts and compares each such value again, and a text set anew is
measured and drawn again. ``set_changed`` remembers, on the widget, what it last set
through it and skips what is equal:

    set_changed(button, text="14H", disabled=False, background_color=theme.LEGAL)

Only for properties a screen sets through it alone (a kv rule or another writer changing
the same property behind its back would not be seen).
"""

from __future__ import annotations


def set_changed(widget, **values) -> None:
    shown = getattr(widget, "set_values", None)
    if shown is None:
        shown = widget.set_values = {}
    for key, value in values.items():
        if key not in shown or shown[key] != value:
            shown[key] = value
            setattr(widget, key, value)
