"""'Log in BG Stats' on the touch screen: a finished game's createPlay link as a QR code.

``show_play(app, game_id)`` opens ``BgStatsPanel`` over whatever is on screen: the code
of ``bgstats.link`` (error correction L, the most data per module: a 7-player play is
about 1.7 kB, a version-30 code), drawn black on white at a whole number of pixels per
module (3 on the 800×480 screen), as large as the screen allows, so a phone's camera
held over the box reads it; beside it what the play says and a Close button. A game that
is not a play (the slap pad, an unfinished game) or does not replay is one sentence in
the status line instead.

"Add a note" beside it types the game's note in History first (``note_in_history``),
so it goes into the play's comments. Two doors lead here: the score sheet's "BG Stats"
button in History (any finished game), and ``GameOverButton``, which the app shows over
the game's own screen once the game in progress is over by its rules
(``CompanionApp.refresh``), whichever game it is: no game screen needs to know.

    show_play(app, 12)                          # from History
    app.game_over_button.update(app)            # after every recorded action
"""

from __future__ import annotations

import logging

import qrcode
from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.errors import CompanionError
from companion.export.bgstats import exported, link, log_play
from companion.games.base import is_over
from companion.ui import theme
from companion.ui.widgets import BigButton

log = logging.getLogger(__name__)

INK = (0.0, 0.0, 0.0, 1)
PAPER = (1.0, 1.0, 1.0, 1)


def qr_modules(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of modules (True: dark), at error correction L,
    without its quiet zone (the panel's white margin is the quiet zone)."""
    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
    code.add_data(text)
    code.make(fit=True)
    return [list(row) for row in code.get_matrix()]


def module_px(n: int, room: float) -> int:
    """Pixels per module for an ``n``-module code in ``room`` pixels, keeping a quiet
    zone of 4 modules each side: the largest whole number, at least 1."""
    return max(1, int(room // (n + 8)))


class BgStatsPanel(ModalView):
    """The QR code of a play's link, white on the left half of the screen, what it holds
    and Close on the right. ``url`` is the link shown; ``px`` its pixels per module."""

    def __init__(self, url: str, text: str, on_note=None, **kwargs) -> None:
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, overlay_color=(0, 0, 0, 0.6),
                         **kwargs)
        from kivy.core.window import Window

        self.url = url
        matrix = qr_modules(url)
        n = len(matrix)
        self.px = module_px(n, min(Window.height, Window.width * 0.62))
        side = (n + 8) * self.px
        pixels = bytes(0 if dark else 255 for row in reversed(matrix) for dark in row)
        texture = Texture.create(size=(n, n), colorfmt="luminance")
        texture.blit_buffer(pixels, colorfmt="luminance", bufferfmt="ubyte")
        texture.mag_filter = texture.min_filter = "nearest"
        box = BoxLayout(orientation="horizontal", spacing=dp(theme.GAP) * 2)
        paper = BoxLayout(size_hint=(None, 1), width=side, padding=4 * self.px)
        with paper.canvas.before:
            Color(*PAPER)
            sheet = Rectangle()
        paper.bind(pos=lambda w, p: setattr(sheet, "pos", p),
                   size=lambda w, s: setattr(sheet, "size", s))
        self.code = Image(texture=texture, size_hint=(None, None), size=(n * self.px,) * 2,
                          fit_mode="fill")
        paper.add_widget(self.code)
        box.add_widget(paper)
        words = BoxLayout(orientation="vertical", spacing=dp(theme.GAP),
                          padding=(0, dp(theme.GAP) * 2, dp(theme.GAP) * 2, dp(theme.GAP)))
        title = Label(text="Log in BG Stats", font_size=sp(theme.TEXT), bold=True,
                      size_hint_y=None, height=dp(theme.TOUCH), halign="left",
                      valign="middle", color=theme.TEXT_COLOUR)
        title.bind(size=lambda w, s: setattr(w, "text_size", s))
        words.add_widget(title)
        about = Label(text=text, font_size=sp(theme.SMALL), halign="left", valign="top",
                      color=theme.TEXT_COLOUR)
        about.bind(size=lambda w, s: setattr(w, "text_size", s))
        words.add_widget(about)
        if on_note is not None:  # the game's note first: it goes into the comments
            note = BigButton(text="Add a note", size_hint_y=None, height=dp(theme.BUTTON_H))
            note.bind(on_release=lambda _w: on_note())
            words.add_widget(note)
        close = BigButton(text="Close", size_hint_y=None, height=dp(theme.BUTTON_H))
        close.bind(on_release=lambda _w: self.dismiss(animation=False))
        words.add_widget(close)
        box.add_widget(words)
        self.add_widget(box)


def play_text(play) -> str:
    """What the panel says beside the code: the game, who won, how BG Stats takes it."""
    winners = [p.name for p in play.players if p.winner]
    if play.cooperative:
        result = "Won together" if winners else "Not won (yet)"
    else:
        result = "Won by " + ", ".join(winners) if winners else "No winner"
    return (f"{play.title}, {play.play_date[:16]}, {play.duration_min} min. {result}.\n\n"
            "Scan with the phone's camera: BG Stats opens this play to save. It asks once "
            "which of its players each name is. Scanning again finds the same play.")


def show_play(app, game_id: int, state=None) -> BgStatsPanel | None:
    """Open the BG Stats code of finished game ``game_id`` (``state``: its final state,
    when the game is in memory); a sentence in the status line when it cannot be."""
    try:
        play = log_play(app.log, game_id, state=state)
    except CompanionError as exc:
        app.say(f"Game {game_id} cannot go to BG Stats: {exc}", error=True)
        return None
    panel = BgStatsPanel(link(play), play_text(play),
                         on_note=lambda: note_in_history(app, game_id))
    panel.open(animation=False)  # at once: the code is read the moment it is there
    app.bgstats_panel = panel
    return panel


def note_in_history(app, game_id: int) -> None:
    """"Add a note": the code closes and the game's note is typed in History (its sheet,
    and this code with the note in its comments, come back once it is kept)."""
    if app.bgstats_panel is not None:
        app.bgstats_panel.dismiss(animation=False)
        app.bgstats_panel = None
    app.navigate("history")
    app.sm.get_screen("history").start_note(game_id)


def _screen_of(app) -> str:
    """The screen that plays the game in progress (as ``CompanionApp`` shows it)."""
    name = app.session.rules.GAME.screen_name
    return name if app.sm.has_screen(name) else "game"


class GameOverButton(BigButton):
    """'Log in BG Stats' over the top right of the game's screen while the game in
    progress is over by its rules; off the app's layer on any other screen or game. Tapping it shows
    the code (``show_play`` with the state in memory: nothing replayed)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(text="Log in BG Stats", size_hint=(None, None), tint=theme.GO,
                         width=dp(theme.SOUND_W) + dp(60), height=dp(theme.BAR_H) - dp(8),
                         opacity=0, disabled=True, **kwargs)
        self.game_id: int | None = None
        self.bind(on_release=lambda _w: self.show())

    def update(self, app) -> None:
        """Shown when the game in progress is over and its own screen is on show."""
        session = app.session
        wanted = (session is not None and is_over(session.rules, session.state)
                  and exported(session.rules.NAME) and app.sm.current == _screen_of(app))
        self.game_id = session.game_id if wanted else None
        self.opacity, self.disabled = (1, False) if wanted else (0, True)
        # on the layer only while shown: a hidden button would still take the taps there
        layer = app.layer
        if wanted and self.parent is None:
            layer.add_widget(self, index=max(len(layer.children) - 1, 0))  # over the screens
        elif not wanted and self.parent is not None:
            self.parent.remove_widget(self)
        self.place()

    def place(self, *_args) -> None:
        """Top right of the layer it lies on (the app's, over the screens)."""
        parent = self.parent
        if parent is not None:
            self.pos = (parent.right - self.width - dp(4), parent.top - self.height - dp(4))

    def show(self) -> None:
        from kivy.app import App

        app = App.get_running_app()
        session = app.session
        if self.game_id is None or session is None or session.game_id != self.game_id:
            return
        show_play(app, self.game_id, state=session.state)


__all__ = ["BgStatsPanel", "GameOverButton", "module_px", "note_in_history", "play_text",
           "qr_modules", "show_play"]
