"""Typing names on the kiosk: the screen's own keyboard, laid out inside the screen.

The kiosk has a touchscreen and no keyboard. Kivy's docked keyboard covers the bottom
of the screen, so the app slid the screen up under it at each field, and a tap meant
for one name could land in another; Tab typed a tab; Shift was lost. Here:

* ``NameInput``: a name field that never asks for Kivy's keyboard (``keyboard_mode``
  "managed": no docked keyboard, nothing slides) and refuses letters beyond
  ``NAME_MAX`` as they are typed (``presenters.players.fitting``). A tap on it asks
  its ``on_start`` callback to start typing there.
* ``ScreenKeyboard``: letter keys of at least 64 px, a one-shot Shift (on by itself at
  the start of a word), a 123 key for digits, Space and erase. Every fast tap counts.
  A hardware keyboard, when one is plugged in, types through it too (``attach``).
* ``NameEntry``: the seat being typed (badge, the name as typed with its count of
  letters, Next and Done) above the keyboard; the screen shows it in place of its
  rows while a name is typed, so no button of the screen is ever covered.

Used by ``companion/ui/screens/players.py``; the look is in ``name_entry.kv``.
"""

from __future__ import annotations

from collections.abc import Callable

from kivy.core.window import Window
from kivy.metrics import sp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.textinput import TextInput

from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.presenters.players import NAME_MAX, fitting, shift_for
from companion.ui.widgets import BigButton

load_kv(__file__)

LETTERS = ("qwertyuiop", "asdfghjkl", "zxcvbnm")
DIGITS = "1234567890"
ERASE, SHIFT, SPACE, NUMBERS = "Erase", "Shift", "Space", "123"


class NameInput(TextInput):
    """A name field: no system keyboard, at most ``NAME_MAX`` letters, one line."""

    def __init__(self, on_start: Callable[[NameInput], None] | None = None,
                 **kwargs) -> None:
        kwargs.setdefault("multiline", False)
        kwargs.setdefault("write_tab", False)
        super().__init__(keyboard_mode="managed", **kwargs)
        self.on_start = on_start

    def insert_text(self, substring: str, from_undo: bool = False):
        fits = fitting(self.text, substring, len(self.selection_text))
        return super().insert_text(fits, from_undo=from_undo)

    def on_touch_down(self, touch):
        if self.collide_point(*touch.pos) and self.on_start is not None \
                and not self.disabled:
            self.on_start(self)
            return True
        return super().on_touch_down(touch)


class KeyButton(BigButton):
    """One key: every tap counts however fast (no one-tap guard)."""

    def __init__(self, **kwargs) -> None:
        kwargs.setdefault("repeat_ok", True)
        super().__init__(**kwargs)


class ScreenKeyboard(BoxLayout):
    """Four rows of keys typing into ``target`` (a ``NameInput``).

    Built once; Shift and 123 change the keys' words, never the keys. ``on_enter`` /
    ``on_tab`` are called for Enter and Tab on a hardware keyboard."""

    shift = BooleanProperty(True)
    digits = BooleanProperty(False)

    def __init__(self, **kwargs) -> None:
        super().__init__(orientation="vertical", spacing=4, **kwargs)
        self.target: NameInput | None = None
        self.on_enter: Callable[[], None] | None = None
        self.on_tab: Callable[[], None] | None = None
        self.letter_keys: list[tuple[KeyButton, str]] = []
        self.keys: dict[str, KeyButton] = {}
        rows = [list(LETTERS[0]), [*LETTERS[1], ERASE],
                [SHIFT, *LETTERS[2], "-", "'"], [NUMBERS, SPACE, "."]]
        for keys in rows:
            row = BoxLayout(spacing=4)
            for key in keys:
                button = KeyButton(text=key, font_size=sp(theme.KEY_TEXT if len(key) == 1
                                                           else theme.MEDIUM))
                if key == SPACE:
                    button.size_hint_x = 6
                elif key in (SHIFT, NUMBERS, ERASE):
                    button.size_hint_x = 1.6
                button.bind(on_release=lambda _w, k=key: self.press(k))
                row.add_widget(button)
                self.keys[key] = button
                if key.isalpha() and len(key) == 1:
                    self.letter_keys.append((button, key))
            self.add_widget(row)
        self._digit_keys = [self.keys[k] for k in LETTERS[0]]
        self.bind(shift=self._show_keys, digits=self._show_keys)
        self._show_keys()

    def _show_keys(self, *_args) -> None:
        for button, key in self.letter_keys:
            button.text = key.upper() if self.shift else key
        if self.digits:
            for button, digit in zip(self._digit_keys, DIGITS, strict=True):
                button.text = digit
        self.keys[SHIFT].tint = theme.MAIN if self.shift else theme.BUTTON
        self.keys[NUMBERS].text = "abc" if self.digits else NUMBERS

    def type_into(self, target: NameInput | None) -> None:
        self.target = target
        self.shift = shift_for(target.text) if target is not None else True

    def press(self, key: str) -> None:
        """What a key does: type its letter (a capital after Shift), erase, Shift,
        123/abc, or a space."""
        target = self.target
        if key == SHIFT:
            self.shift = not self.shift
            return
        if key == NUMBERS:
            self.digits = not self.digits
            return
        if target is None:
            return
        if key == ERASE:
            target.do_backspace()
        else:
            if key == SPACE:
                text = " "
            elif self.digits and key in LETTERS[0]:
                text = DIGITS[LETTERS[0].index(key)]
            else:
                text = key.upper() if self.shift else key
            target.insert_text(text)
        self.shift = shift_for(target.text)

    # -- a hardware keyboard, when one is plugged in ------------------------------------

    def attach(self) -> None:
        Window.bind(on_textinput=self._on_textinput, on_key_down=self._on_key_down)

    def detach(self) -> None:
        Window.unbind(on_textinput=self._on_textinput, on_key_down=self._on_key_down)

    def _on_textinput(self, _window, text: str) -> bool:
        if self.target is None:
            return False
        self.target.insert_text(text)
        self.shift = shift_for(self.target.text)
        return True

    def _on_key_down(self, _window, key, _scancode, _codepoint, _mods) -> bool:
        if self.target is None:
            return False
        if key == 8:  # backspace
            self.press(ERASE)
            return True
        if key == 9 and self.on_tab is not None:  # Tab: the next name
            self.on_tab()
            return True
        if key in (13, 271) and self.on_enter is not None:  # Enter
            self.on_enter()
            return True
        return False


class NameEntry(BoxLayout):
    """The name being typed (its seat, the letters, Next and Done) over the keyboard."""

    seat = NumericProperty(0)
    colour = ColorProperty(theme.WHITE)
    shown = StringProperty("")  # the name as typed
    count = StringProperty("")  # "7/20"
    limit = NumericProperty(NAME_MAX)

    def __init__(self, on_next: Callable[[], None], on_done: Callable[[], None],
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.ids.next.bind(on_release=lambda _w: on_next())
        self.ids.done.bind(on_release=lambda _w: on_done())
        self.keyboard = self.ids.keyboard
        self.keyboard.on_tab, self.keyboard.on_enter = on_next, on_done
        self._target: NameInput | None = None

    def edit(self, seat: int, colour, target: NameInput) -> None:
        if self._target is not None:
            self._target.unbind(text=self._show)
        self.seat, self.colour, self._target = seat, colour, target
        target.bind(text=self._show)
        self._show(target, target.text)
        self.keyboard.type_into(target)

    def stop(self) -> None:
        if self._target is not None:
            self._target.unbind(text=self._show)
        self._target = None
        self.keyboard.type_into(None)

    def _show(self, _w, text: str) -> None:
        self.shown, self.count = text, f"{len(text)}/{NAME_MAX}"
