"""Labels that keep their textures (``screens/kept_texture.py``: Professor Tempus's names,
turn line and Undo) in the real window: a look seen
again takes its kept texture, and what it shows is what a freshly drawn label shows."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.window


def test_a_kept_texture_shows_what_a_fresh_label_draws(ui):
    from kivy.uix.label import Label

    from companion.ui.screens.kept_texture import KeptTexture

    class Kept(KeptTexture, Label):
        pass

    kept, fresh = Kept(font_size=28), Label(font_size=28)
    shown = {}
    for text in ("Ann's turn", "Bob's turn", "Ann's turn"):
        kept.text = fresh.text = text
        kept.texture_update()
        fresh.texture_update()
        fresh.texture.bind()  # drawn now, as the window would before showing it
        assert kept.texture.size == fresh.texture.size
        assert kept.texture.pixels == fresh.texture.pixels
        shown.setdefault(text, kept.texture)
    # the look seen again took its kept texture; another look has its own
    assert kept.texture is shown["Ann's turn"]
    assert shown["Bob's turn"] is not shown["Ann's turn"]
    kept.bold = True  # another look of the same words: drawn anew
    kept.texture_update()
    assert kept.texture is not shown["Ann's turn"]
