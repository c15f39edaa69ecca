"""Labels that show a text they drew before from the texture they drew it into.

Kivy draws a label's text anew whenever the text, or anything that shapes its picture
(size, weight, colour, box, alignment, font), changes: it measures every word and renders
the line into a texture. A table's screens show the same texts again and again: whose
turn it is, the Undo words, a player's name bold on turn and plain after, "Armed: slap!"
at every round. ``KeptText`` keeps, per label class, the textures of the looks that came
back (a look is the text with every option of its picture), so the next time one comes
back nothing is measured or drawn.

How it keeps a texture honest:
- A look is kept from its second showing on: a text new at every tap (a delay in ms, a
  time) is drawn as Kivy draws it and costs nothing more. A class whose texts nearly
  all come back (the Undo words) keeps them from the first: ``keep_first_showing``.
- Kivy fills a label's texture when the window first draws it, from what its core
  label holds then. A kept texture keeps the core label that drew it, never changed
  again, and the label draws its next text with a copy: nothing later draws over a
  kept texture, and it is filled in the window's drawing as any other.
- When the GL context is made again (textures lose their pixels), every kept look is
  forgotten and every ``KeptText`` label draws its text anew.
- Plain labels only: a markup label (its links and anchors) is drawn as Kivy draws it.

Wiring: use ``KeptLabel`` in kv where a plain Label would do, or mix ``KeptText`` in
first, ``class RowText(KeptText, FitLabel)``, and use that class in kv.
A class that shows many different texts that come back can keep more:
``kept_looks = 128``.
"""

from __future__ import annotations

import copy
import weakref
from collections import OrderedDict

from kivy.core.text import Label as CoreLabel
from kivy.graphics.context import get_context
from kivy.uix.label import Label


class KeptText:
    """Mix in before a ``Label`` class: its looks that come back are shown from kept
    textures (``kept_looks`` per class, the least recently shown dropped first)."""

    kept_looks = 64  # textures kept per class
    seen_looks = 256  # looks remembered per class, to know one that comes back
    keep_first_showing = False  # True: kept at once, not from its second showing

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        _SHOWING.add(self)

    def texture_update(self, *largs) -> None:
        core = self._label
        if core.__class__ is not CoreLabel or not core.text:
            super().texture_update(*largs)
            return
        kept, seen = _stores(type(self))
        key = look(core)
        hit = kept.get(key)
        if hit is not None:
            kept.move_to_end(key)
            texture, size, shortened = hit
            if self.texture is not texture:
                self.texture = texture
            self.texture_size = list(size)
            self.is_shortened = shortened
            return
        super().texture_update(*largs)
        texture = self.texture
        if texture is None or texture is core.texture_1px:
            return  # nothing drawn (blank text)
        if key not in seen and not self.keep_first_showing:
            seen[key] = None  # first showing: drawn as Kivy draws it
            if len(seen) > self.seen_looks:
                seen.popitem(last=False)
            return
        # The core label that drew these words keeps them: it fills the texture when the
        # window first draws it, from what it holds then, so it never changes again; the
        # label draws its next text with a copy of it.
        self._label = fresh = copy.copy(core)
        fresh.options = {k: list(v) if isinstance(v, list) else v
                         for k, v in core.options.items()}
        fresh._cached_lines = []
        fresh.texture = None
        kept[key] = (texture, tuple(self.texture_size), self.is_shortened)
        if len(kept) > self.kept_looks:
            kept.popitem(last=False)


class KeptLabel(KeptText, Label):
    """A ``Label`` whose looks that come back are shown from kept textures."""


def look(core) -> tuple:
    """What shapes a core label's picture: its text, its box (``text_size``: the options
    hold the box of its last drawing only) and every other option (lists made tuples).
    The options in their own order, not sorted: every core label holds them in the order
    Kivy's Label makes them (a copy keeps it), and a differing order could only miss."""
    return (core.text, tuple(core.text_size or ()),
            *[(k, tuple(v) if isinstance(v, list) else v)
              for k, v in core.options.items() if k not in _NOT_OPTIONS])


#: Options ``look`` takes from the core label itself instead, and the font's file, which
#: the core label works out from the font's name, weight and slant (all in the look) at
#: each drawing: until then it may still name the file of the look drawn before.
_NOT_OPTIONS = frozenset(("text", "text_size", "font_name_r"))


def _stores(cls: type) -> tuple[OrderedDict, OrderedDict]:
    """The kept textures and the seen looks of one label class."""
    stores = _STORES.get(cls)
    if stores is None:
        stores = _STORES[cls] = (OrderedDict(), OrderedDict())
    return stores


_STORES: dict[type, tuple[OrderedDict, OrderedDict]] = {}
_SHOWING: weakref.WeakSet = weakref.WeakSet()


def forget_all(*_args) -> None:
    """Forget every kept look and draw every ``KeptText`` label's text anew: called when
    the GL context is made again (kept textures lost their pixels)."""
    _STORES.clear()
    for label in list(_SHOWING):
        label._label.texture = None
        label._trigger_texture()


get_context().add_reload_observer(forget_all)
