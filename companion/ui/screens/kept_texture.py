"""Labels that keep the textures of what they showed, so showing it again draws nothing.

A label whose text, size, weight or colour changes is drawn anew into a texture (Kivy
measures every word and renders the line), even when it shows again something it
showed a moment ago: the Professor Tempus strip's names, bold while on turn and plain
after; the header's "Ann's turn" and Undo's few words coming back every round.
``KeptTexture`` keeps, per label class,
the textures of the last ``KEPT`` looks (the text with every option that shapes its
picture); a look seen again takes its kept texture and nothing is drawn.

A look not seen yet is drawn at once (Kivy would draw it when it is first shown, in the
window's drawing): worth it where nearly every look comes back (names, turns), not
where many are new (Crazy Time's questions: "Did Bob break ...?" for every law and
seat made its taps dearer in an A/B of bench/ui_actions.py).

Wiring: mix it in first, ``class RowText(KeptTexture, Label)``, and in kv use that
class. Plain labels only (a markup label keeps its links and anchors: drawn as usual).
"""

from __future__ import annotations

from collections import OrderedDict

from kivy.core.text import Label as CoreLabel


def _look(label) -> tuple:
    """What shapes the picture of a core label: its text, its box and its options."""
    return (label.text, tuple(label.text_size or ()),
            tuple(tuple(v) if isinstance(v, list) else v for v in label.options.values()))


class KeptTexture:
    """Mix in before a ``Label`` class: its textures kept by look, ``KEPT`` per class
    (the oldest look seen goes first)."""

    KEPT = 64

    def texture_update(self, *largs) -> None:
        core = self._label
        if core.__class__ is not CoreLabel or not core.text:
            super().texture_update(*largs)
            return
        kept = self.__class__.__dict__.get("_kept")
        if kept is None:
            kept = OrderedDict()
            type.__setattr__(self.__class__, "_kept", kept)
        look = _look(core)
        hit = kept.get(look)
        if hit is not None:
            kept.move_to_end(look)
            texture, shortened = hit
            self.texture = texture
            self.texture_size = list(texture.size)
            self.is_shortened = shortened
            return
        # a texture of its own, drawn now: the core label draws a texture when it is
        # first used, with what it holds then, and would reuse it for the next look
        core.texture = None
        super().texture_update(*largs)
        texture = self.texture
        if texture is not None and texture is core.texture \
                and texture is not core.texture_1px:
            texture.bind()
            kept[look] = (texture, self.is_shortened)
            core.texture = None
            if len(kept) > self.KEPT:
                kept.popitem(last=False)
