"""Keys whose text is not drawn again when they are enabled or disabled.

Kivy draws a label's text into a texture in its colour; a button that is disabled or
enabled again is redrawn in ``disabled_color`` or ``color``. Keys that change state at
every tap (a row's slots as an hour is picked, the even values for a joker, the holders
for a kind of move) give their text one colour instead, ``disabled_color`` equal to
``color``, and look off by being dimmed as a whole in their kv rule:

    class TatSlot(SteadyText, TapButton): ...
    <TatSlot>:
        disabled_color: self.color
        opacity: 0.45 if self.disabled else 1

Then a change of state alone draws nothing again (a change of text or colour still does).
"""

from __future__ import annotations


class SteadyText:
    """Mix in before the Label or Button class (see the module's docstring)."""

    def _trigger_texture_update(self, name=None, source=None, value=None):
        if name == "disabled" and source is not None and self.color == self.disabled_color:
            return  # the same text in the same colour
        super()._trigger_texture_update(name, source, value)
