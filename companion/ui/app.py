"""The Kivy application: window, screens, navigation, overlays and the one frame loop.

``CompanionApp`` is built from parts it is given (config, game log, table, sound cues),
so tests can hand it a temporary log and a mock table. The game in progress and every
step on it (start, resume, act, undo, end, abandon, the Undo label, what the table hears)
are the ``SessionController``'s (``session_controller.py``, no Kivy, tested without a
window); the app is its front (``play``, ``speak``, ``say``, ``refuse``, ``clear_banner``,
``refresh``) and keeps ``app.act``, ``app.undo``, ``app.start_game``… as one-line
delegations for the screens. Once per frame, on the UI thread,
it drains the table's press events and hands each to the current screen's
``on_press_event(event)``, then calls the screen's ``on_frame(now_ns)``: that is the only
place state changes, so no lock is needed anywhere. A screen that must see every edge
whatever shows (``hears_every_press``: the slap screen, so a hand lifted while another
screen shows is never "held") gets ``on_background_press`` / ``on_background_frame``
while another screen is current.

Screens are named; ``navigate(name)`` is the one way to move between them and ``back()``
returns along the way you came. Every change of screen turns the seat lamps off and
clears the banner, so nothing lit or said for one screen lingers on the next.

Messages: one notice area, the status band under every screen (``Banner``), where no
screen has a control. ``say`` puts a line of news there; a refusal (``error=True``)
shows as a red notice in its stead until the next recorded action or a tap on it.
``tell`` shows a message that needs the table's action (amber) until it is tapped away
(or the screen changes, or the next action is recorded); a line that leaves by itself
never takes the place of one of those. ``ask`` puts a question with big answer buttons
over the screen (ending a game, putting an open game aside).
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

from kivy.app import App
from kivy.base import ExceptionHandler, ExceptionManager
from kivy.clock import Clock, mainthread
from kivy.core.window import Window
from kivy.lang import Builder
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition
from kivy.uix.textinput import TextInput

from companion.errors import CompanionError
from companion.events import PressEvent
from companion.games import info
from companion.palette import seat_rgba
from companion.session import GameSession
from companion.sound import SoundCues
from companion.speech import Line, Voice
from companion.store import integrity
from companion.store.gamelog import GameLog
from companion.table import Table
from companion.ui import storage_problem, theme
from companion.ui.frame_pacer import IDLE_FPS, FramePacer
from companion.ui.lazy_screens import LazyScreens
from companion.ui.modal import Modal
from companion.ui.screen_list import screens
from companion.ui.session_controller import SessionController
from companion.watchdog import Watchdog

log = logging.getLogger(__name__)
HERE = Path(__file__).parent



def load_kv(py_file: str) -> None:
    """Load the ``.kv`` file that sits beside a screen's ``.py`` file (once)."""
    path = str(Path(py_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


class Root(BoxLayout):
    """The screen manager (under any question or sheet) above the status band: the lamp
    dots, then the news line or a notice in its stead (``Banner``)."""

    lamp_colours = ListProperty([])


class Layer(FloatLayout):
    """Where the screens and a question or sheet lie on top of each other."""


class Banner(BoxLayout):
    """The one notice area, in the status band under every screen (app.kv): a refusal
    (red) or something the table must do or know (amber), on two lines at most. It lies
    where no screen has a control, so it covers nothing: a notice of one line takes the
    status band's usual height, one of two lines makes the band ``theme.NOTICE_H`` high
    (the screens have 20 px less while it shows: their bottom rises), and one longer
    than two lines beside the lamp dots takes the band's whole width. A tap on it
    puts it away (a notice cut to two lines is shown whole first, in a question, by
    ``reader``); when empty it is invisible and takes no taps. ``cause`` names what
    fixes a notice ("pad": the pad is back); ``until`` (a ``time.monotonic()``, 0 for
    none) when an informative line leaves by itself."""

    text = StringProperty("")
    kind = StringProperty("")  # "refusal" or "notice"
    cause = StringProperty("")
    until = NumericProperty(0.0)
    shown = StringProperty("")  # ``text``, or its first words and "..." on two lines
    lines = NumericProperty(1)  # the lines ``shown`` takes: the band grows for two
    wide = BooleanProperty(False)  # it takes the band's whole width (the dots give way)
    full = NumericProperty(0)  # the band's width for words (app.kv)
    #: ``reader(text)``: shows a cut notice whole (the app: a question with "Close")
    reader = None
    #: ``closer()``: puts the notice away when tapped (the app: ``clear_banner``, which
    #: takes its words out of the status line too); None: the banner empties itself
    closer = None

    def show(self, text: str, kind: str, cause: str = "", until: float = 0.0) -> None:
        """Show ``text`` (the same words again change nothing: shown once)."""
        self.kind, self.cause, self.until, self.text = kind, cause, until, text

    def on_text(self, *_args) -> None:
        self._fit()

    def on_full(self, *_args) -> None:
        self._fit()

    def _fit(self) -> None:
        """One line beside the lamp dots, else two; else two lines of the band's whole
        width (``wide``: the dots give way while it shows); else cut there."""
        from kivy.metrics import dp, sp

        from companion.ui.widgets import fits

        px, one, two = sp(theme.SMALL), dp(theme.STATUS_H) - dp(4), dp(theme.NOTICE_H) - dp(4)
        room = self.full - 2 * self.padding[0] - self.spacing - dp(theme.NOTICE_CLOSE_W)
        narrow = room - 8 * dp(theme.LAMP_DOT_STEP) - dp(theme.GAP)
        text = self.text
        if not text or fits(text, narrow, one, px):
            self.shown, self.lines, self.wide = text, 1, False
        elif fits(text, narrow, two, px, 2):
            self.shown, self.lines, self.wide = text, 2, False
        else:
            self.shown, self.lines, self.wide = two_lines(text, room, two, px), 2, True

    def on_touch_down(self, touch):
        if not self.text or not self.collide_point(*touch.pos):
            return False
        whole = self.text if self.shown != self.text else ""
        if self.closer is not None:
            self.closer()
        else:
            self.show("", "")
        if whole and self.reader is not None:
            self.reader(whole)
        return True


def two_lines(text: str, width: float, height: float, px: float) -> str:
    """``text`` if it is whole on two lines of ``width`` x ``height``; else as many of
    its first words as are, and "..."."""
    from companion.ui.widgets import fits

    if not text or width < 1 or fits(text, width, height, px, 2):
        return text
    words = text.split()
    lo, hi = 0, len(words)  # words[:lo] + "..." fits; words[:hi] + "..." does not
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fits(" ".join(words[:mid]) + " ...", width, height, px, 2):
            lo = mid
        else:
            hi = mid
    return " ".join(words[:lo]) + " ..."


class Question(Modal, FloatLayout):
    """A question over the whole screen with one big button per answer; nothing under
    it takes a tap until it is answered."""

    text = StringProperty("")

    def __init__(self, text: str, answers, **kwargs) -> None:
        super().__init__(**kwargs)
        from companion.ui.widgets import BigButton

        self.text = text
        for label, fn, tint in answers:
            b = BigButton(text=label, tint=tint or theme.BUTTON, halign="center")
            b.bind(size=lambda w, size: setattr(w, "text_size", (size[0] - 12, None)))
            b.bind(on_release=lambda _w, f=fn: self.answer(f))
            self.ids.answers.add_widget(b)

    def answer(self, fn) -> None:
        app = App.get_running_app()
        if app.question is self:
            app.question = None
        self.close()
        if fn is not None:
            fn()


class CompanionApp(App):
    #: The frame rate while nothing moves (None: always full rate); see ``FramePacer``.
    idle_fps: float | None = IDLE_FPS
    #: False: a frame on every turn of Kivy's loop, unpaced. Only for tests, which pump
    #: the loop by hand (with the interrupt clock, the kiosk's loop would never sleep).
    frame_pacing = True
    muted = BooleanProperty(False)
    status = StringProperty("")
    status_error = BooleanProperty(False)
    #: 'Log in BG Stats' (``bgstats_panel``): the game-over button and the code on show
    game_over_button = None
    bgstats_panel = None
    undo_text = StringProperty("Undo")  # what Undo would take back, for every Undo button
    clock_note = StringProperty("")  # "Timer running": a clock that goes on off its screen
    title = "Table companion"

    def __init__(self, config, game_log: GameLog, table: Table, cues: SoundCues,
                 pad=None, watchdog: Watchdog | None = None, voice: Voice | None = None,
                 **kwargs) -> None:
        super().__init__(**kwargs)
        self.cfg, self.log, self.table, self.cues, self.pad = config, game_log, table, cues, pad
        self.watchdog = watchdog or Watchdog(None)
        self.muted = cues.muted
        try:
            cues.volume = max(0.0, min(1.0, float(game_log.get_setting("volume", 100)) / 100))
        except (TypeError, ValueError):
            cues.volume = 1.0
        self.voice = voice or Voice()  # records lines only, unless the kiosk gives a real one
        self.voice.muted = self.muted
        self._unsaid: list[Line] = []  # handed to the voice once their frame is on screen
        # the game in progress and every step on it; this app is its front
        self.controller = SessionController(game_log, self, keep_alive=self.keep_alive)
        self._history: list[str] = []
        self._status_until = 0.0
        self._undo_for: tuple | None = None  # (session, state) the Undo label was made for
        self._lamps_lit: tuple | None = None  # which lamps the status bar's dots show lit
        self.question: Question | None = None
        self.clock_watch = None  # () -> clock_note, while a timer runs off its screen

    # -- building ------------------------------------------------------------------

    def build(self):
        load_kv(str(HERE / "widgets.py"))
        load_kv(__file__)
        # home at once, the others on first use or in the background after the first frame
        self.sm = LazyScreens(transition=NoTransition())
        self.sm.know(screens())
        root = Root()
        self.sm.pos_hint = {"x": 0, "y": 0}
        # strong references: ids are weak proxies, and ``is`` must see the widgets
        self.layer, self.banner = root.ids.holder.__self__, root.ids.banner.__self__
        self.layer.add_widget(self.sm, index=len(self.layer.children))  # under a question
        self.banner.reader = lambda text: self.ask(text, [("Close", None, None)])
        self.banner.closer = self.clear_banner
        from companion.ui.bgstats_panel import GameOverButton

        # 'Log in BG Stats' over a game that is over (issue 37), laid on the layer then
        self.game_over_button = GameOverButton()
        self.layer.bind(pos=self.game_over_button.place, size=self.game_over_button.place)
        Window.bind(on_key_down=self._on_key_down, on_key_up=self._on_key_up,
                    on_flip=self._after_flip)
        self.pacer = FramePacer(Clock, frame=self._frame, wanted=self._frames_wanted,
                                idle_fps=self.idle_fps)
        if self.frame_pacing:
            self.pacer.start()
            for source in (self.table, self.pad):  # presses arrive on other threads
                queue = getattr(source, "queue", None)
                if queue is not None:
                    queue.on_post = self.pacer.wake
            Window.bind(on_touch_down=self._on_touch)
        else:
            Clock.schedule_interval(self._frame, 0)
        Window.bind(on_flip=self._first_frame)
        if self.log.recovered:
            self.say(self.log.recovered, seconds=30)
        if self.log.recovered:  # the log was set aside: offer the last export on a USB stick
            Clock.schedule_once(lambda _dt: storage_problem.offer_restore(
                self, self.log.recovered), 0)
        self._tell_interrupted_round()
        if getattr(self.log, "unchecked", False):  # too large to check whole at start
            integrity.check_in_background(self.log.path, mainthread(self.log_checked))
        return root

    def _tell_interrupted_round(self, game_id: int | None = None) -> None:
        """A slap round was on when the box last stopped (the slap screen keeps it,
        ``SlapRound.journal``, with the game it was for): the table hears that it was
        not recorded, at the start, and again when that game is resumed (the start's
        banner goes with the change of screen). Then it is forgotten."""
        from companion.slap.round import KEPT_ROUND, interrupted_text

        kept = self.log.get_setting(KEPT_ROUND)
        if not isinstance(kept, dict):
            if kept is not None:
                self.log.set_setting(KEPT_ROUND, None)
            return
        self.tell(interrupted_text(kept), cause="slap round")
        game = kept.get("game")
        if game is None or game_id == game or game not in {
                g.id for g in self.log.open_games()}:
            self.log.set_setting(KEPT_ROUND, None)

    def _first_frame(self, *_args) -> None:
        """The first frame is being swapped onto the display: tell systemd (through the
        kiosk's relay) on the next clock tick, once the swap is done. READY=1 then means
        the home screen is on the screen, not that a window was asked for."""
        Window.unbind(on_flip=self._first_frame)
        Clock.schedule_once(lambda _dt: self.watchdog.ready(), 0)

    def log_checked(self, verdict: str) -> None:
        """The background integrity check's answer (on the UI thread). A failed one has
        marked the log: the next start checks it whole and saves what can be read."""
        if verdict == "ok":
            return
        self.tell(f"The game log failed SQLite's check ({verdict}). Everything recorded "
                  "is kept. Restart the companion when the game allows: it will set the "
                  "damaged file aside and save every game it can read.")

    def on_start(self) -> None:
        from companion.ui import collector
        from companion.ui.kivy_env import fill_display

        fill_display()
        collector.settle()  # the screens are built: the collector walks them no more

    def on_stop(self) -> None:
        if self.pad is not None:
            self.pad.stop()
        self.table.lamps.all_off()
        self.voice.close()

    # -- navigation ----------------------------------------------------------------

    def has_screen(self, name: str) -> bool:
        return self.sm.has_screen(name)

    def navigate(self, name: str) -> None:
        if not self.sm.has_screen(name):
            self.say(f"No screen called {name!r}")
            return
        if self.sm.current != name:
            self._history.append(self.sm.current)
            self.switch(name)

    def back(self) -> None:
        target = self._history.pop() if self._history else "home"
        if target == "home":
            self._history.clear()
            self._leave_game()
        self.switch(target)

    def home(self) -> None:
        self._history.clear()
        self._leave_game()
        self.switch("home")

    def switch(self, name: str) -> None:
        """Show screen ``name``: what the last screen lit or said does not follow."""
        self.table.lamps.all_off()
        self.clear_banner()
        self._close_question()
        if self.bgstats_panel is not None:  # a BG Stats code stays with its screen
            self.bgstats_panel.dismiss(animation=False)
            self.bgstats_panel = None
        self._show_undo()  # never another game's (a tool, after End)
        if name == "home":
            self.status, self.status_error = "", False
        if self.sm.current == name:  # shown again: let it read the log afresh
            self.sm.current_screen.dispatch("on_pre_enter")
        else:
            self.sm.current = name
        if self.game_over_button is not None:
            self.game_over_button.update(self)

    def _leave_game(self) -> None:
        """Going home: a game nobody played yet leaves no trace, and a game that is over
        is closed, so neither is offered for resume (``SessionController.leave``)."""
        self.controller.leave()

    # -- the game in progress: steps are the controller's; the app shows them ------------

    @property
    def session(self) -> GameSession | None:
        """The game in progress (None: none), held by the controller."""
        return self.controller.session

    @session.setter
    def session(self, session: GameSession | None) -> None:
        self.controller.session = session

    @property
    def pending_game(self) -> str | None:
        """The game the player setup is for (chosen on the home screen)."""
        return self.controller.pending_game

    @pending_game.setter
    def pending_game(self, kind: str | None) -> None:
        self.controller.pending_game = kind

    def choose_game(self, kind: str) -> None:
        """From the home screen: set up the players for a new game of ``kind``."""
        self.pending_game = kind
        self.navigate("players")

    def abandon_game(self, game_id: int) -> None:
        """Close an open game for good without a result ("abandoned": not counted)."""
        self.controller.abandon(game_id)

    def start_game(self, kind: str, setup: dict) -> bool:
        if not self.controller.start(kind, setup):
            return False
        self._show_game()
        return True

    def resume_game(self, game_id: int) -> bool:
        if not self.controller.resume(game_id):
            return False
        self._show_game()
        self._tell_interrupted_round(game_id)
        return True

    def keep_alive(self, _done: int = 0) -> None:
        """Tell the watchdog the UI thread lives while it is busy for seconds on end
        (a huge game replaying); the frame loop does it otherwise."""
        self.watchdog.ping(time.monotonic())

    def _show_game(self) -> None:
        game = info(self.session.rules.NAME)
        screen = game.screen_name if game is not None else "game"
        self._history = ["home"]
        self._show_undo()
        self.switch(screen if self.sm.has_screen(screen) else "game")

    def act(self, action: dict, cue: str | None = "tap") -> bool:
        """Apply an action to the game in progress: logged first, then shown
        (``SessionController.act``: ``cue`` confirms it, None for screens that play
        their own; a refusal is said in red in the rule's own words)."""
        return self.controller.act(action, cue)

    def amend_setup(self, setup: dict) -> bool:
        """Change the game's setup before anything has happened (a setup screen)."""
        return self.controller.amend_setup(setup)

    def undo(self) -> bool:
        return self.controller.undo()

    def undo_label(self) -> str:
        """The Undo button's words: what it would take back ("Undo: pickup (Dan)")."""
        return self.controller.undo_label()

    def _show_undo(self) -> None:
        """``undo_text`` for the game's state now: worded again only when the game in
        progress or its state changed since it was last worded (each state is a new
        object: a do, an undo, a new setup, another session)."""
        session = self.session
        state = session.state if session is not None else None
        done = self._undo_for
        if done is not None and done[0] is session and done[1] is state:
            return
        self._undo_for = (session, state)
        self.undo_text = self.undo_label()

    def end_game(self, status: str = "finished", ask: bool = True) -> bool:
        """Close the game in progress; it is then no longer offered for resume.

        With ``ask`` (what an "End game" button does) a question over the screen asks
        first, so one stray tap never ends a game; a game its rules have already ended
        (``is_over``) has nothing left to lose and ends at once. Returns True when the
        game was ended.
        """
        if ask and self.session is not None and not self.controller.over:
            self.ask("End this game? It can then no longer be resumed.",
                     [("Keep playing", None, None),
                      ("End the game", lambda: self.end_game(status, ask=False), theme.ALARM)])
            return False
        self.controller.end(status)
        self.home()
        return True

    def refresh(self) -> None:
        """The game's state changed: the Undo label and the screen show it (and, once the
        game is over, 'Log in BG Stats')."""
        self._show_undo()
        if self.game_over_button is not None:
            self.game_over_button.update(self)
        screen = self.sm.current_screen
        if hasattr(screen, "refresh"):
            screen.refresh()

    def refuse(self, sentence: str, exc: CompanionError | None = None) -> None:
        """A step was refused (nothing recorded): the sentence in red, in the banner; a
        failing SD card (``exc``) covers the screen with what to do."""
        self.say(sentence, error=True)
        if exc is not None:
            storage_problem.tell(exc)

    # -- sound, messages, settings ----------------------------------------------------

    def play(self, cue: str) -> None:
        self.cues.play(cue)

    def speak(self, line: Line | None) -> None:
        """Say a line aloud (``companion.ui.presenters.spoken``); returns at once.

        The line goes to the voice right after this frame is on screen, so starting the
        speech engine never delays what the frame shows (``bench/speech.py``).
        """
        if line is not None:
            self._unsaid.append(line)

    def _after_flip(self, *_args) -> None:
        lines, self._unsaid = self._unsaid, []
        for line in lines:
            self.voice.say(line)

    def toggle_mute(self) -> None:
        muted = not self.muted
        self.cues.muted = self.voice.muted = muted  # before anything bound to app.muted runs
        self.muted = muted
        self.log.set_setting("muted", muted)

    def say(self, text: str, error: bool = False, seconds: float = 6,
            cause: str = "") -> None:
        """A line in the status band, for a few seconds. A refusal (``error``) is a
        notice instead (with a sound) until the next recorded action or a tap on it, and
        so is a line longer than the news line (for ``seconds``): each is shown once,
        in one place. ``cause`` names what a notice is about
        ("pad", "venue"): a newer line about it takes the older one's banner away (the
        pad is back: its "lost" notice goes)."""
        self.fixed(cause)
        self.status, self.status_error = text, error  # the status line hides it when
        self._status_until = time.monotonic() + seconds  # the banner shows it (app.kv)
        if error:
            log.info("refused: %s", text)
            self._banner(text, "refusal", cause)
            self.play("error")
        elif text and not self._fits_status(text):
            self._banner(text, "notice", cause, until=self._status_until)

    def tell(self, text: str, cause: str = "") -> None:
        """A message the table must act on, in the notice area under the screen; it
        stays until tapped away, the next recorded action, a change of screen, or (with
        ``cause``) until its cause is fixed (``fixed(cause)``, a newer ``say`` of it)."""
        self._banner(text, "notice", cause)

    def fixed(self, cause: str) -> None:
        """What ``cause`` was about is fixed: its notice leaves the banner."""
        banner = getattr(self, "banner", None)
        if cause and banner is not None and banner.text and banner.cause == cause:
            self.clear_banner()

    def _fits_status(self, text: str) -> bool:
        """Whether ``text`` is whole on the status line as it is laid out now."""
        from companion.ui.widgets import fits

        line = self.root.ids.status_line if self.root is not None else None
        if line is None:
            return True
        return fits(text, line.width, line.height, line.font_size)

    def _banner(self, text: str, kind: str, cause: str = "", until: float = 0.0) -> None:
        """Show ``text`` in the banner. A line that leaves by itself (``until``: a long
        informative one) never covers a message that waits for the table (a refusal, a
        ``tell``) about something else: it stays in the status line."""
        banner = getattr(self, "banner", None)
        if banner is None:
            return
        if until and banner.text and not banner.until and banner.cause != cause:
            return
        banner.show(text, kind, cause, until)

    def clear_banner(self) -> None:
        """The banner goes, and with it its words in the status line (never shown
        again below once fixed)."""
        banner = getattr(self, "banner", None)
        if banner is not None and (banner.text or banner.kind or banner.cause
                                   or banner.until):  # else: nothing to clear
            if banner.text and self.status == banner.text:
                self.status, self.status_error = "", False
            banner.show("", "", "", 0.0)

    @property
    def banner_text(self) -> str:
        banner = getattr(self, "banner", None)
        return banner.text if banner is not None else ""

    def ask(self, text: str, answers) -> None:
        """A question over the screen: ``answers`` are ``(label, fn or None, tint or
        None)``; the tapped answer closes it and calls its ``fn``. A sheet under it
        (a score sheet asking before it deletes) stays; an earlier question goes."""
        if self.question is not None:
            self.question.close()
        self.question = Question(text, answers)
        self.question.show()

    def lay(self, widget) -> None:
        """Lay a sheet or question over exactly the screen area (not the status bar);
        it goes with the next change of screen."""
        widget.size_hint, widget.pos_hint = (1, 1), {"x": 0, "y": 0}
        self.layer.add_widget(widget)

    def _close_question(self) -> None:
        """Take away a question and any sheet a screen laid over the layer."""
        self.question = None
        layer = getattr(self, "layer", None)
        if layer is None:
            return
        for w in list(layer.children):
            if w is not self.sm and w is not self.banner and w is not self.game_over_button:
                layer.remove_widget(w)

    # -- the frame loop: the one place state changes -------------------------------------

    def _listeners(self, screen) -> list:
        """Screens other than ``screen`` that hear every press (``hears_every_press``:
        the slap screen, whose arbiter must see each release, whatever screen shows)."""
        return [s for s in self.sm.screens if s is not screen
                and getattr(s, "hears_every_press", False)]

    def _frame(self, _dt: float) -> None:
        screen = self.sm.current_screen
        listeners = self._listeners(screen)
        for event in self.table.drain() + (self.pad.drain() if self.pad else []):
            if not isinstance(event, PressEvent):
                self._pad_notice(screen, event)
                continue
            handler = getattr(screen, "on_press_event", None)
            if handler is not None:
                handler(event)
            for other in listeners:
                if other is not self.sm.current_screen:  # (it may have just opened)
                    other.on_background_press(event)
        now_ns = self.table.now_ns()
        for other in listeners:
            if other is not self.sm.current_screen:
                other.on_background_frame(now_ns)
        tick = getattr(screen, "on_frame", None)
        if tick is not None:
            tick(now_ns)
        self.watchdog.ping(time.monotonic())
        watch = getattr(self, "clock_watch", None)
        if watch is not None:
            self.clock_note = watch()
            if not self.clock_note:
                self.clock_watch = None
        self._show_undo()
        now = time.monotonic()
        if self.status and now > self._status_until:
            self.status, self.status_error = "", False
        if self.banner.until and now > self.banner.until:
            self.clear_banner()
        lamps = self.table.lamps
        lit = tuple(lamps.state(s.seat) for s in self.cfg.seats)
        if lit != self._lamps_lit:  # the dots change only when a lamp does
            self._lamps_lit = lit
            self.root.lamp_colours = [seat_rgba(self.cfg, s.seat) if on else theme.LAMP_OFF
                                      for s, on in zip(self.cfg.seats, lit, strict=True)]

    def _frames_wanted(self) -> bool:
        """Whether the current screen needs every frame now: it says so with
        ``frames_wanted()``; a screen with ``on_frame`` and no such method always does."""
        screen = self.sm.current_screen
        if any(s.background_frames_wanted() for s in self._listeners(screen)):
            return True
        wanted = getattr(screen, "frames_wanted", None)
        if wanted is not None:
            return bool(wanted())
        return hasattr(screen, "on_frame")

    def _on_touch(self, *_args) -> bool:
        self.pacer.poke()
        return False

    def _pad_notice(self, screen, notice) -> None:
        """A link status or a pad reboot: said where the table looks. A reboot voids the
        slap round; a lost or failed link stays in the banner until the pad is back."""
        text = getattr(notice, "text", str(notice))
        if getattr(notice, "voids_round", False):  # the pad restarted, its clock jumped...
            void = getattr(screen, "pad_event", None)
            if void is None or not void(notice):  # a round it voided tells the table itself
                self.say(text, error=True, cause="pad")
        elif getattr(notice, "state", "") in ("lost", "failed"):
            self.fixed("pad")
            self.tell(text, cause="pad")
        else:  # searching, connecting, ready: the line (the banner when it is long)
            self.say(text, seconds=10, cause="pad")

    # -- keyboard: seat buttons in simulation, Escape = back -------------------------------

    def _typing(self) -> bool:
        # a screen typing on its own keyboard (players.py) says so with ``typing``
        return self._focused_input() is not None or \
            bool(getattr(self.sm.current_screen, "typing", False))

    def _focused_input(self) -> TextInput | None:
        return next((w for w in self.root.walk() if isinstance(w, TextInput) and w.focus),
                    None)

    def _on_key_down(self, _window, key, _scancode, codepoint, _mods) -> bool:
        if key == 27:  # Escape
            self.back()
            return True
        if self._typing():
            return False
        name = "spacebar" if key == 32 else (codepoint or "")
        return self.table.key_down(name)

    def _on_key_up(self, _window, key, _scancode) -> bool:
        name = "spacebar" if key == 32 else (chr(key) if 0 < key < 256 else "")
        return self.table.key_up(name)


class KeepPlaying(ExceptionHandler):
    """The UI's top-level catch: an unexpected error in a screen is logged with its
    traceback and told in the status bar, and the table plays on. Nothing is lost by it:
    every action was committed to the game log before it was shown."""

    def __init__(self, app: CompanionApp) -> None:
        super().__init__()
        self.app = app

    def handle_exception(self, exception):
        log.error("unexpected error in the UI", exc_info=exception)
        if isinstance(exception, (KeyboardInterrupt, SystemExit)):
            return ExceptionManager.RAISE
        if storage_problem.tell(exception):  # e.g. ending a game on a full SD card
            return ExceptionManager.PASS
        self.app.say(f"Something went wrong ({exception}); the game is safe in the log.",
                     error=True, seconds=15)
        return ExceptionManager.PASS
