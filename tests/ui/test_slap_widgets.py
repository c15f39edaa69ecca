"""The slap pad's widgets in the real window: a KeptLabel draws a text that comes back
from the texture it kept, and never shows a texture made for other words or another
width."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def test_a_kept_label_draws_a_text_that_comes_back_once(ui, monkeypatch):
    from companion.ui.kept_text import KeptLabel

    label = KeptLabel(text="Armed: slap!", font_size=28)
    drawn = []
    core_class = type(label._label)
    refresh = core_class.refresh

    def counted(core):  # the label's core label may be a copy by now
        if core is label._label:
            drawn.append(core.text)
        return refresh(core)

    monkeypatch.setattr(core_class, "refresh", counted)

    def show(text, text_size=None):
        label.text = text
        if text_size is not None:
            label.text_size = text_size
        label.texture_update()
        return label.texture

    show("Armed: slap!")
    waiting = show("Waiting for the others...")
    armed = show("Armed: slap!")  # its second showing: drawn, and kept from now on
    assert armed is not waiting
    assert show("Waiting for the others...") is not armed  # a texture of its own
    assert show("Armed: slap!") is armed and show("Armed: slap!") is armed
    assert drawn == ["Armed: slap!", "Waiting for the others...", "Armed: slap!",
                     "Waiting for the others..."]
    wide = tuple(armed.size)
    narrow = show("Armed: slap!", text_size=(60, None))  # another box: drawn anew
    assert narrow is not armed and narrow.width <= 61 and tuple(narrow.size) != wide
    assert drawn[-1] == "Armed: slap!" and len(drawn) == 5
    label.text_size = (None, None)
    assert show("Armed: slap!") is armed  # the first box again: its kept texture
