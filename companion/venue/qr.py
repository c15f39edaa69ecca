"""The game-over QR code: scan it to open the game's score sheet on the venue page.

``qr_matrix(text)`` is the code as rows of booleans (the ``qrcode`` package, pure
Python; a quiet zone of 4 modules, error correction M). ``QrPanel`` shows it on the
touchscreen as one texture, scaled without smoothing so every module stays sharp, over
the sentence and the address, with a Close button (64 px, like every button on the box).

    QrPanel(url, "Ann won. Scan for the score sheet").open()
"""

from __future__ import annotations

import qrcode


def qr_matrix(text: str) -> list[list[bool]]:
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=4)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def _panel_class():
    """Built on first use: importing this module must not import Kivy (the venue server
    and ``companion export`` use the package without a window)."""
    from kivy.graphics.texture import Texture
    from kivy.uix.boxlayout import BoxLayout
    from kivy.uix.button import Button
    from kivy.uix.image import Image
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    class QrPanel(ModalView):
        def __init__(self, url: str, text: str, **kwargs) -> None:
            super().__init__(size_hint=(0.9, 0.94), auto_dismiss=True, **kwargs)
            self.url = url
            matrix = qr_matrix(url)
            n = len(matrix)
            pixels = bytes(0 if dark else 255 for row in reversed(matrix) for dark in row)
            texture = Texture.create(size=(n, n), colorfmt="luminance")
            texture.blit_buffer(pixels, colorfmt="luminance", bufferfmt="ubyte")
            texture.mag_filter = texture.min_filter = "nearest"
            box = BoxLayout(orientation="horizontal", padding=12, spacing=16)
            box.add_widget(Image(texture=texture, fit_mode="contain", size_hint_x=0.55))
            side = BoxLayout(orientation="vertical", spacing=10)
            side.add_widget(Label(text=text, font_size=28, halign="left", valign="middle",
                                  text_size=(300, None)))
            side.add_widget(Label(text=url, font_size=18, halign="left", valign="top",
                                  text_size=(300, None), color=(0.7, 0.75, 0.85, 1)))
            close = Button(text="Close", font_size=28, size_hint_y=None, height=64)
            close.bind(on_release=lambda _w: self.dismiss())
            side.add_widget(close)
            box.add_widget(side)
            self.add_widget(box)

    return QrPanel


_QR_PANEL = None


def QrPanel(url: str, text: str):  # noqa: N802 - a widget class, built lazily
    global _QR_PANEL
    if _QR_PANEL is None:
        _QR_PANEL = _panel_class()
    return _QR_PANEL(url, text)
