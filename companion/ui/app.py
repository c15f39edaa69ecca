"""The Kivy application: window, screens, the one frame loop, and the game in progress.

``CompanionApp`` is built from parts it is given (config, game log, table, sound cues),
so tests can hand it a temporary log and a mock table. Once per frame, on the UI thread,
it drains the table's press events and hands each to the current screen's
``on_press_event(event)``, then calls the screen's ``on_frame(now_ns)``: that is the only
place state changes, so no lock is needed anywhere. A screen that must see every edge
whatever shows (``hears_every_press``: the slap screen, so a hand lifted while another
screen shows is never "held") gets ``on_background_press`` / ``on_background_frame``
while another screen is current.

Screens are named; ``navigate(name)`` is the one way to move between them and ``back()``
returns along the way you came. Every change of screen turns the seat lamps off and
clears the banner, so nothing lit or said for one screen lingers on the next.

Messages: ``say`` puts a line in the status bar; a refusal (``error=True``) also shows in
the banner at the top of the screen, where the table looks, until the next recorded
action or a tap on it. ``tell`` shows a message that needs the table's action in the
banner until it is tapped away (or the screen changes, or the next action is recorded);
``ask`` puts a question with big answer buttons over the screen (ending a game, putting
an open game aside).
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
from kivy.properties import BooleanProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.screenmanager import NoTransition
from kivy.uix.textinput import TextInput
from kivy.uix.vkeyboard import VKeyboard

from companion.errors import CompanionError, MalformedAction
from companion.events import PressEvent
from companion.games import get_rules, info
from companion.games.base import is_over
from companion.palette import rgba
from companion.session import GameSession
from companion.sound import SoundCues
from companion.speech import Line, Voice
from companion.store import integrity
from companion.store.gamelog import GameLog
from companion.table import Table
from companion.ui import storage_problem, theme
from companion.ui.frame_pacer import IDLE_FPS, FramePacer
from companion.ui.lazy_screens import LazyScreens
from companion.ui.presenters.spoken_games import action_line
from companion.ui.screen_list import screens
from companion.watchdog import Watchdog

log = logging.getLogger(__name__)
HERE = Path(__file__).parent



def describe(action: dict, setup: dict) -> str:
    """An action in a few words for the status line: 'pickup (Dan)', 'score (Ann)'."""
    words = str(action.get("type", "action")).replace("_", " ")
    names = {p.get("seat"): p.get("name") for p in setup.get("players", [])}
    seat = action.get("seat")
    return f"{words} ({names[seat]})" if seat in names else words


def load_kv(py_file: str) -> None:
    """Load the ``.kv`` file that sits beside a screen's ``.py`` file (once)."""
    path = str(Path(py_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


class Root(BoxLayout):
    """The screen manager (under the banner and any question) above a status bar of lamp
    dots and messages."""

    lamp_colours = ListProperty([])


class Layer(FloatLayout):
    """Where the screens, the banner and a question lie on top of each other."""


class Banner(BoxLayout):
    """A message at the top of the screen: a refusal (red) or something the table must
    do (amber). A tap on it puts it away; when empty it is invisible and takes no taps."""

    text = StringProperty("")
    kind = StringProperty("")  # "refusal" or "notice"

    def on_touch_down(self, touch):
        if not self.text or not self.collide_point(*touch.pos):
            return False
        self.text = ""
        return True


class Question(FloatLayout):
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
        if self.parent is not None:
            self.parent.remove_widget(self)
        if fn is not None:
            fn()

    def on_touch_down(self, touch):
        super().on_touch_down(touch)
        return True

    def on_touch_move(self, touch):
        super().on_touch_move(touch)
        return True

    def on_touch_up(self, touch):
        super().on_touch_up(touch)
        return True


class CompanionApp(App):
    #: The frame rate while nothing moves (None: always full rate); see ``FramePacer``.
    idle_fps: float | None = IDLE_FPS
    #: False: a frame on every turn of Kivy's loop, unpaced. Only for tests, which pump
    #: the loop by hand (with the interrupt clock, the kiosk's loop would never sleep).
    frame_pacing = True
    muted = BooleanProperty(False)
    status = StringProperty("")
    status_error = BooleanProperty(False)
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
        self.session: GameSession | None = None
        self.pending_game: str | None = None  # the game the player setup is for
        self._history: list[str] = []
        self._status_until = 0.0
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
        self.layer.add_widget(self.sm, index=len(self.layer.children))  # under the banner
        from companion.ui.widgets import TableKeyboard

        Window.set_vkeyboard_class(TableKeyboard)  # keys of 56 px at least
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
        if getattr(self.log, "unchecked", False):  # too large to check whole at start
            integrity.check_in_background(self.log.path, mainthread(self.log_checked))
        return root

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
        if name == "home":
            self.status, self.status_error = "", False
        if self.sm.current == name:  # shown again: let it read the log afresh
            self.sm.current_screen.dispatch("on_pre_enter")
            return
        self.sm.current = name

    def _leave_game(self) -> None:
        """Going home: a game nobody played yet leaves no trace (a setup backed out
        of), and a game that is over is closed, so neither is offered for resume."""
        session = self.session
        if session is None:
            return
        try:
            if not session.n_actions:
                self.log.delete_untouched(session.game_id)
                self.session = None
            elif is_over(session.rules, session.state):
                session.finish("finished")
                self.session = None
        except CompanionError as exc:
            self.say(str(exc), error=True)
            storage_problem.tell(exc)

    # -- the game in progress --------------------------------------------------------

    def choose_game(self, kind: str) -> None:
        """From the home screen: set up the players for a new game of ``kind``."""
        self.pending_game = kind
        self.navigate("players")

    def abandon_game(self, game_id: int) -> None:
        """Close an open game for good without a result ("abandoned": not counted)."""
        try:
            self.log.finish(game_id, "abandoned")
        except CompanionError as exc:
            self.say(str(exc), error=True)
            storage_problem.tell(exc)
            return
        if self.session is not None and self.session.game_id == game_id:
            self.session = None

    def start_game(self, kind: str, setup: dict) -> bool:
        try:
            self.session = GameSession.start(self.log, get_rules(kind), setup)
        except CompanionError as exc:
            self.say(str(exc), error=True)
            storage_problem.tell(exc)
            return False
        self._show_game()
        return True

    def resume_game(self, game_id: int) -> bool:
        try:
            self.session = GameSession.resume(self.log, game_id, progress=self.keep_alive)
        except CompanionError as exc:
            self.say(f"Cannot resume game {game_id}: {exc}", error=True)
            storage_problem.tell(exc)
            return False
        self._show_game()
        return True

    def keep_alive(self, _done: int = 0) -> None:
        """Tell the watchdog the UI thread lives while it is busy for seconds on end
        (a huge game replaying); the frame loop does it otherwise."""
        self.watchdog.ping(time.monotonic())

    def _show_game(self) -> None:
        game = info(self.session.rules.NAME)
        screen = game.screen_name if game is not None else "game"
        self._history = ["home"]
        self.undo_text = self.undo_label()
        self.switch(screen if self.sm.has_screen(screen) else "game")

    def act(self, action: dict, cue: str | None = "tap") -> bool:
        """Apply an action to the game in progress: logged first, then shown.

        A recorded action is confirmed with ``cue`` (a short tap by default; None for
        screens that play their own); a refused one is said in red with the error cue, in
        the words of the rule that refused it (``RuleError.sentence``). What the table
        should hear about it is said aloud (``spoken_games``).
        """
        if self.session is None:
            self.say("No game in progress", error=True)
            return False
        before = self.session.state
        try:
            self.session.do(action)
        except MalformedAction as exc:  # a bug in the screen that built it: keep the trace
            log.error("malformed action %r", action, exc_info=exc)
            self.say(f"That could not be recorded ({exc}).", error=True)
            return False
        except CompanionError as exc:  # a refusal: the rule's own sentence
            self.say(str(exc), error=True)
            storage_problem.tell(exc)  # a failed SD card: full-screen, with what to do
            return False
        self.clear_banner()
        if cue:
            self.play(cue)
        self.refresh()
        self._speak_action(before, action)
        return True

    def _speak_action(self, before, action: dict) -> None:
        session = self.session
        try:
            line = action_line(session.rules, before, action, session.state)
        except Exception:  # noqa: BLE001 - a sentence must never cost the table its action
            log.exception("no spoken line for %r", action.get("type"))
            return
        self.speak(line)

    def amend_setup(self, setup: dict) -> bool:
        """Change the game's setup before anything has happened (a setup screen)."""
        if self.session is None:
            return False
        try:
            self.session.amend_setup(setup)
        except CompanionError as exc:
            self.say(str(exc), error=True)
            storage_problem.tell(exc)
            return False
        return True

    def undo(self) -> bool:
        if self.session is None:
            return False
        try:
            removed = self.session.undo()
        except CompanionError as exc:
            self.say(str(exc), error=True)
            storage_problem.tell(exc)
            return False
        self.clear_banner()
        self.say(f"Undone: {describe(removed, self.session.setup)}")
        self.refresh()
        return True

    def undo_label(self) -> str:
        """The Undo button's words: what it would take back ("Undo: pickup (Dan)")."""
        session = self.session
        if session is None or not session.can_undo:
            return "Undo"
        return f"Undo: {describe(session.last_action, session.setup)}"

    def end_game(self, status: str = "finished", ask: bool = True) -> bool:
        """Close the game in progress; it is then no longer offered for resume.

        With ``ask`` (what an "End game" button does) a question over the screen asks
        first, so one stray tap never ends a game; a game its rules have already ended
        (``is_over``) has nothing left to lose and ends at once. Returns True when the
        game was ended.
        """
        if ask and self.session is not None and not is_over(self.session.rules,
                                                             self.session.state):
            self.ask("End this game? It can then no longer be resumed.",
                     [("Keep playing", None, None),
                      ("End the game", lambda: self.end_game(status, ask=False), theme.ALARM)])
            return False
        if self.session is not None:
            self.session.finish(status)
            self.session = None
        self.home()
        return True

    def refresh(self) -> None:
        self.undo_text = self.undo_label()
        screen = self.sm.current_screen
        if hasattr(screen, "refresh"):
            screen.refresh()

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

    def say(self, text: str, error: bool = False, seconds: float = 6) -> None:
        """A line in the status bar, for a few seconds; a refusal also in the banner
        (with a sound) until the next recorded action or a tap on it."""
        self.status = text
        self.status_error = error
        self._status_until = time.monotonic() + seconds
        if error:
            log.info("refused: %s", text)
            self._banner(text, "refusal")
            self.play("error")

    def tell(self, text: str) -> None:
        """A message the table must act on, in the banner at the top of the screen; it
        stays until tapped away, the next recorded action, or a change of screen."""
        self._banner(text, "notice")

    def _banner(self, text: str, kind: str) -> None:
        banner = getattr(self, "banner", None)
        if banner is not None:
            banner.kind, banner.text = kind, text

    def clear_banner(self) -> None:
        banner = getattr(self, "banner", None)
        if banner is not None:
            banner.text = ""

    @property
    def banner_text(self) -> str:
        banner = getattr(self, "banner", None)
        return banner.text if banner is not None else ""

    def ask(self, text: str, answers) -> None:
        """A question over the screen: ``answers`` are ``(label, fn or None, tint or
        None)``; the tapped answer closes it and calls its ``fn``."""
        self._close_question()
        self.question = Question(text, answers)
        self.lay(self.question)

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
            if w is not self.sm and w is not self.banner:
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
        self._keep_field_above_keyboard()
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
        session = self.session
        undo_key = (session.game_id, session.n_actions) if session is not None else None
        if undo_key != getattr(self, "_undo_key", None):
            self._undo_key = undo_key
            self.undo_text = self.undo_label()
        if self.status and time.monotonic() > self._status_until:
            self.status, self.status_error = "", False
        self.root.lamp_colours = [
            rgba(s.colour) if self.table.lamps.state(s.seat) else theme.LAMP_OFF
            for s in self.cfg.seats
        ]

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
        """A link status or a pad reboot: say it; a reboot voids the slap round."""
        text = getattr(notice, "text", str(notice))
        if getattr(notice, "voids_round", False):  # the pad restarted, its clock jumped...
            self.say(text, error=True, seconds=15)
            void = getattr(screen, "void_round", None)
            if void is not None:
                void(text)
        else:
            self.say(text, seconds=10)

    # -- keyboard: seat buttons in simulation, Escape = back -------------------------------

    def _typing(self) -> bool:
        # a screen typing on its own keyboard (players.py) says so with ``typing``
        return self._focused_input() is not None or \
            bool(getattr(self.sm.current_screen, "typing", False))

    def _focused_input(self) -> TextInput | None:
        return next((w for w in self.root.walk() if isinstance(w, TextInput) and w.focus),
                    None)

    def _keep_field_above_keyboard(self) -> None:
        """Slide the whole screen up while the docked on-screen keyboard would cover the
        field being typed in (the kiosk has no other keyboard); back down after."""
        keyboard_top = max((w.top for w in Window.children if isinstance(w, VKeyboard)),
                           default=0)
        field = self._focused_input() if keyboard_top else None
        shift = 0.0
        if field is not None:
            bottom = field.to_window(field.x, field.y)[1] - self.root.y
            shift = max(0.0, keyboard_top + 8 - bottom)
        if self.root.y != shift:
            self.root.y = shift

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
