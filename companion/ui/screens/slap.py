"""The Stop Time slap pad screen ("slap"): every seat button is a slap.

What a person sees: idle, a big red "STOP TIME" face (tap it, or press the captain
button, to arm). Armed, the first slap opens the round; every counted slap lights that
seat's lamp at once, clicks, and appears on the timeline in slap order. At the verdict:
a timeline picture (an axis in ms, one coloured disc with the seat number per slap),
the picker named big in their colour, "False alarm" (nobody should have slapped: the last
one who did picks up) and, when it was too close or several never slapped, one button per
candidate seat on the right so the table decides with one tap; then "Record". The loser's
lamp blinks until the next round; notices (false slaps, held buttons, mashing) go to the
status line. The last rounds are listed on the right, with Undo.

Wiring: the app hands this screen every ``PressEvent`` (``on_press_event``) and calls
``on_frame(now_ns)`` each frame; the screen owns a ``SlapArbiter`` for the seats in play
and shows ``companion.ui.presenters.slap.slap_view``. A frame's seat presses are held
and fed to the arbiter as one batch (``feed_many``) at the start of ``on_frame``, which
the app calls right after handing them over: a slap lights its lamp, and a verdict
shows, in the frame that brought the press. The captain button acts at once (the
presses before it in the frame are fed first, so their order is kept).

Recording: during a Crazy Time game it acts ``{"type": "pickup", "reason":
"slap"|"false_slap", "verdict": ...}`` and goes back to the Crazy Time screen; otherwise it
logs a ``stop_time`` game (see ``ToolSessions``). Another screen opens it armed with
``open_armed(app)``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp
from kivy.metrics import sp as text_px  # (sp is the slap presenter here)
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.events import CAPTAIN_SEAT
from companion.palette import rgba, text_rgba
from companion.slap import view as sp
from companion.slap.arbiter import SlapArbiter
from companion.slap.verdict import CASE_FALSE_ALARM, false_alarm
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel  # noqa: F401  (slap.kv uses it)
from companion.ui.presenters.spoken import slap_line, spoken_names
from companion.ui.screens.slap_widgets import (  # noqa: F401  (kv rules use them)
    WHITE,
    NamedChip,
    RoundRow,
    SeatChip,
    StopFace,
    TimelinePicture,
)
from companion.ui.slap_sessions import ToolSessions
from companion.ui.widgets import BigButton, KeptButton, OneGrid, Page, hold

load_kv(__file__)


PAD_SOURCES = ("pad", "pad-pio")


class SlapScreen(Screen):
    #: The app hands this screen every press even while another screen shows
    #: (``on_background_press``), so its arbiter never misses a release.
    hears_every_press = True
    heading = StringProperty("Stop Time")
    headline = StringProperty("Stop Time")
    detail = StringProperty("")
    headline_colour = ColorProperty(WHITE)
    headline_seat = NumericProperty(0)
    headline_badge = BooleanProperty(False)  # the badge of ``headline_seat`` shows
    side_title = StringProperty("Last rounds")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.phase = sp.IDLE
        self.mode = "tool"
        self.seats: tuple[int, ...] = ()
        self.arbiter: SlapArbiter | None = None
        self.live: dict[int, int] = {}  # seat -> stamp of its counted slap, this round
        self.presses: list = []  # this frame's seat presses, fed at once by ``on_frame``
        self.verdict = None  # as the arbiter gave it
        self.shown = None  # the verdict on screen (the false-alarm one after that tap)
        self.chosen: int | None = None
        self.arm_on_enter, self.arm_at = False, None
        self.for_game = ""  # the board that opened it for its game's slap round (Crazy Time)
        # The round just recorded: (mode, game id, actions after it, picker, verdict), so a
        # slap of it that arrives later can say the recorded verdict may be wrong.
        self.recorded: tuple | None = None
        self.correction = None  # a redone verdict that differs from the recorded one
        self.correct_on_enter = False
        self.tools = ToolSessions()
        self.view: sp.SlapView | None = None
        self._recording = False  # within record's act: the app's refresh waits for it
        self.face = StopFace()
        self.face.bind(on_release=lambda *_: self.arm())
        self.face_holder = AnchorLayout()
        self.face_holder.add_widget(self.face)
        self.picture = TimelinePicture()
        # Built once and updated in place (a tap sets properties, never builds a tree):
        self._seat_chips: dict[int, SeatChip] = {}  # the idle row's seat discs, by seat
        self._named_chips: dict[int, NamedChip] = {}  # "Who picks up?" buttons, by seat
        # the side list's lines, each kept with what it shows (a new round moves the
        # rows down rather than giving each row its neighbour's words)
        self._round_rows: dict[tuple, RoundRow] = {}
        self._side_pages: tuple | None = None  # built with the other pages (``_pages``)
        self._rounds_key = self._rounds_lines = None  # the recorded rounds, read once a change
        self._chips_key = None  # (colours, seats) the idle row's discs show
        self._side_key = self._side_list = None  # (rounds, colours, names) the list shows

    # -- entering and leaving ------------------------------------------------------------

    @staticmethod
    def open_armed(app, at_ns: int | None = None) -> None:
        """From another screen: show the slap pad armed from ``at_ns`` (the stamp of the
        press that opens the round; default: now)."""
        screen = app.sm.get_screen("slap")
        if app.sm.current == "slap":
            screen.arm(at_ns)
            return
        screen.arm_on_enter, screen.arm_at = True, at_ns
        screen.for_game = app.sm.current
        app.navigate("slap")

    def on_pre_enter(self, *_args) -> None:
        app = App.get_running_app()
        session = app.session
        board, self.for_game = self.for_game, ""
        # Crazy Time's own slap round only when its board opened this screen while a
        # round is being played; the Home tile is the stand-alone tool with its own log
        # (a game between rounds, waiting for its new law, can take no pick-up).
        if (board and session is not None and session.rules.GAME.screen_name == board
                and session.state.phase == "playing"):
            self.mode = "crazy"
            seats = tuple(p.seat for p in session.state.players)
        else:
            self.mode = "tool"
            seats = self.tools.enter(app)
        slap = app.cfg.slap
        config = sp.arbiter_config(slap.holdoff_ms, slap.timeout_ms, slap.stuck_ms,
                                   app.pad.resolution_ns if app.pad is not None else None)
        self._feed_presses()  # to the arbiter they came for
        if seats != self.seats or self.arbiter is None or config != self.arbiter.config:
            self.seats = seats
            self.arbiter = SlapArbiter(seats, config)
            self._reset()
        correct, self.correct_on_enter = self.correct_on_enter, False
        if self.arm_on_enter:
            self.arm_on_enter = False
            self.arm(self.arm_at)
        elif self.correction is not None and self.recorded is not None and (
                correct or (self.phase == sp.IDLE and self.recorded[0] == self.mode)):
            self.show_correction()
        self.refresh()

    def on_leave(self, *_args) -> None:
        self._feed_presses()
        if self.phase in (sp.ARMED, sp.OPEN):
            self.arbiter.disarm()
            self._reset()
        if self.mode == "tool":
            self.tools.leave(App.get_running_app())

    def _reset(self) -> None:
        self.phase, self.live, self.verdict, self.shown, self.chosen = sp.IDLE, {}, None, None, None

    # -- the round ---------------------------------------------------------------------

    def arm(self, now_ns: int | None = None) -> None:
        """Ready for a round from ``now_ns`` (the event clock; default: now)."""
        app = App.get_running_app()
        if self.arbiter is None:
            return
        if now_ns is None:
            now_ns = app.table.now_ns()
        self._feed_presses()  # presses before the arm are described as before it
        app.table.lamps.all_off()
        self._reset()
        self.recorded = self.correction = None
        self.phase = sp.ARMED
        self._notices(self.arbiter.arm(now_ns))
        self._watch_pad(app)
        self._show()

    def cancel(self) -> None:
        """Abandon the round (nothing is recorded), or keep the recorded verdict rather
        than the redone one."""
        self.correction = None
        self._feed_presses()
        if self.arbiter is not None:
            self.arbiter.disarm()
        App.get_running_app().table.lamps.all_off()
        self._reset()
        self._show()

    def void_round(self, _why: str = "") -> None:
        """The app calls this when the Pico pad restarted: an open round is void (the
        app has already said why in the status line)."""
        if self.phase in (sp.ARMED, sp.OPEN):
            self.cancel()

    def on_press_event(self, event) -> None:
        """A seat's edge waits for this frame's ``on_frame`` (one batch); the captain
        button arms or records at once."""
        if event.seat == CAPTAIN_SEAT:
            if event.pressed:
                self._feed_presses()
                self._captain(event.t_ns)
            return
        if self.arbiter is not None:
            self.presses.append(event)

    def on_background_press(self, event) -> None:
        """Another screen shows: keep the edge for the arbiter (levels, late slaps of the
        round just recorded); the captain button is that screen's business."""
        if event.seat != CAPTAIN_SEAT and self.arbiter is not None:
            self.presses.append(event)

    def background_frames_wanted(self) -> bool:
        return self.arbiter is not None and (bool(self.presses) or self.arbiter.unsettled)

    def on_background_frame(self, now_ns: int) -> None:
        """Another screen shows: feed the arbiter quietly (no status lines for presses
        meant for that screen); a recorded round redone by a late slap is told."""
        if self.arbiter is None:
            return
        if self.presses:
            batch, self.presses = self.presses, []
            self.arbiter.feed_many(batch)
        self._watch_pad(App.get_running_app())
        verdict = self.arbiter.poll(now_ns)
        self.arbiter.take_notices()
        if verdict is None:
            return
        if self.recorded is not None:
            self._recorded_may_be_wrong(verdict)
        elif self.phase == sp.VERDICT:  # shown when the screen is back, not recorded yet
            self.verdict = self.shown = verdict
            self.chosen = None

    def _watch_pad(self, app) -> None:
        """The Pico pad's watermark to the arbiter, and while a round is on, make it
        wait for the pad if the pad is there (it may hold slaps the round needs)."""
        pad, arbiter = app.pad, self.arbiter
        if pad is None or arbiter is None:
            return
        mark = getattr(pad, "watermark_ns", None)
        if isinstance(mark, int):
            arbiter.confirm("pad", mark)
        if arbiter.armed and not arbiter.expects("pad"):
            status = getattr(getattr(pad, "source", None), "status", None)
            if getattr(status, "state", None) == "ready":
                arbiter.expect("pad", PAD_SOURCES, "The slap pad")

    def _feed_presses(self) -> None:
        """Feed the presses held since the last frame to the arbiter, as one batch."""
        if self.presses:
            batch, self.presses = self.presses, []
            if self.arbiter is not None:
                self._notices(self.arbiter.feed_many(batch))

    def _captain(self, t_ns: int) -> None:
        if self.phase == sp.IDLE:
            self.arm(t_ns)
        elif self.phase == sp.VERDICT and self.view is not None and self.view.can_record:
            self.record()

    def frames_wanted(self) -> bool:
        """Every frame while a round is open (its first slap came), or presses wait to be
        fed: a verdict shows on the frame after it closes. Armed and waiting for the
        first slap, none: the app idles (its slow frames still watch the pad and held
        buttons), and a slap wakes it at once."""
        return self.arbiter is not None and (self.phase == sp.OPEN or bool(self.presses))

    def on_frame(self, now_ns: int) -> None:
        if self.arbiter is None:
            return
        self._feed_presses()
        app = App.get_running_app()
        self._watch_pad(app)
        verdict = self.arbiter.poll(now_ns)
        self._notices([n for n in self.arbiter.take_notices() if n.kind != "verdict"])
        if verdict is not None and self.arbiter.revision:
            if self.recorded is not None:
                self._recorded_may_be_wrong(verdict)
                return
            if self.phase != sp.VERDICT:
                return
            app.say("A slap that arrived late changed the verdict: it is redone below.",
                    seconds=15)
        if verdict is not None:
            self.verdict = self.shown = verdict
            self.chosen = None
            self.phase = sp.VERDICT
            app = App.get_running_app()
            app.play("verdict" if verdict.certain else "too_close")
            self._blink()
            self._show()
            app.speak(slap_line(verdict, spoken_names(self._names(app))))

    def _notices(self, notices) -> None:
        if not notices:
            return
        app = App.get_running_app()
        slapped = False
        for n in notices:
            if n.kind == "slap" and self.phase in (sp.ARMED, sp.OPEN):
                app.table.lamps.on(n.seat)
                self.live[n.seat] = min(n.t_ns, self.live.get(n.seat, n.t_ns))
                self.phase = sp.OPEN
                slapped = True
        if slapped:
            app.play("slap")
        lines = sp.notice_lines(notices, self._names(app))
        if lines:
            app.say(lines[-1])
        self._show()

    # -- the table's decision -------------------------------------------------------------

    def call_false_alarm(self) -> None:
        if self.verdict is None or not self.verdict.ranking:
            return
        self.shown, self.chosen = false_alarm(self.verdict), None
        app = App.get_running_app()
        app.play("verdict" if self.shown.certain else "too_close")
        self._blink()
        self._show()
        app.speak(slap_line(self.shown, spoken_names(self._names(app))))

    def choose(self, seat: int) -> None:
        if self.shown is not None and seat in self.shown.candidates:
            self.chosen = seat
            App.get_running_app().play("tap")
            self._blink()
            self._show()

    def _blink(self) -> None:
        lamps = App.get_running_app().table.lamps
        lamps.all_off()
        picked = sp.decision(self.shown, self.chosen) if self.shown is not None else None
        for seat in ([picked[0]] if picked and picked[0] else self.shown.candidates):
            lamps.blink(seat)

    def record(self) -> bool:
        """Log the round: a Crazy Time pick-up, or a round of the slap pad's own log."""
        app = App.get_running_app()
        picked = sp.decision(self.shown, self.chosen) if self.shown is not None else None
        if picked is None or picked[0] is None:
            app.say("Tap who picks up first", error=True)
            return False
        seat, how = picked
        data = self.shown.to_facts()
        if self.correction is not None and not self._undo_recorded(app):
            return False
        self._recording = True  # the app's refresh while it records: shown once below
        try:
            if self.mode == "crazy":
                ok = app.act({"type": "pickup", "seat": seat, "verdict": data,
                              "reason": "false_slap" if how == "false_alarm" else "slap"})
            else:
                session = self.tools.session_for(app, self.seats)
                ok = session is not None and app.act(
                    {"type": "slap_round", "verdict": data, "picker": seat, "decision": how})
        finally:
            self._recording = False
        if not ok:
            self._show()  # as the refusal left it
            return False
        session = app.session
        self.recorded = (self.mode, session.game_id, session.n_actions, seat, self.shown) \
            if session is not None else None
        self.correction = None
        self._reset()
        app.say(f"Recorded: {self._names(app).get(seat, f'seat {seat}')} picks up")
        if self.mode == "crazy":
            app.back()
            board = app.session.rules.GAME.screen_name
            if app.sm.current != board:
                app.navigate(board)
        else:
            self._show()
        return True

    def undo(self) -> None:
        App.get_running_app().undo()

    # -- a recorded round redone by a late slap ------------------------------------------

    def _recorded_may_be_wrong(self, verdict) -> None:
        """A slap stamped inside the recorded round arrived after it was recorded. If
        the redone verdict could name someone else, say so plainly and offer the
        correction (Undo of the recorded round, then Record again: the normal path)."""
        app = App.get_running_app()
        mode, _game, _n, picker, old = self.recorded
        if old.case == CASE_FALSE_ALARM and verdict.ranking:
            verdict = false_alarm(verdict)  # the table called it off: it still is
        names = self._names(app)
        if verdict.certain and verdict.picker == picker:
            app.say(f"A late slap of the recorded round arrived; the recorded verdict "
                    f"stands ({names.get(picker, f'seat {picker}')} picks up).", seconds=10)
            return
        self.correction = verdict
        who = names.get(picker, f"seat {picker}")
        app.tell(f"A slap of the recorded round arrived after it was recorded: the recorded "
                 f"pick-up ({who}) may be wrong. Redone: "
                 f"{sp.verdict_sentence(verdict, names)} Open the slap pad to correct it.")
        if app.sm.current == self.name:
            self.show_correction()
        elif mode == "crazy" and app.session is not None:  # the board's Stop Time would
            # start a new round: show the correction now, as the board's own slap round
            self.for_game, self.correct_on_enter = app.session.rules.GAME.screen_name, True
            app.navigate(self.name)

    def show_correction(self) -> None:
        """Show the redone verdict of the recorded round; Record replaces that round."""
        if self.correction is None:
            return
        self.verdict = self.shown = self.correction
        self.chosen = None
        self.phase = sp.VERDICT
        self._blink()
        self._show()

    def _undo_recorded(self, app) -> bool:
        """Take the recorded round back (Undo), if it is still the latest action."""
        mode, game, n, _picker, _old = self.recorded or (None, None, None, None, None)
        session = app.session
        if session is None or session.game_id != game or session.n_actions != n:
            app.say("Other actions were recorded after that round: undo back to it first, "
                    "then record it again.", error=True)
            return False
        return bool(app.undo())

    def toggle_seat(self, seat: int) -> None:
        """Standalone tool, between rounds: take a seat in or out of play."""
        if self.mode != "tool" or self.phase != sp.IDLE:
            return
        self._feed_presses()
        seats = self.tools.toggle(seat, App.get_running_app().cfg)
        if seats != self.seats:
            self.seats = seats
            self.arbiter = SlapArbiter(seats, self.arbiter.config)
        self._show()

    # -- drawing -------------------------------------------------------------------------

    def refresh(self) -> None:
        if not self._recording:
            self._show()

    def _rounds(self, app) -> list[sp.RoundLine]:
        """The recorded rounds, read from the game's snapshot only when the game or its
        number of actions changed since the last reading (a tap in a round records
        nothing)."""
        session = app.session if self.mode == "crazy" else self.tools.session
        if session is None:
            return []
        key = (self.mode, id(session), session.game_id, session.n_actions)
        if key != self._rounds_key:
            if self.mode == "crazy":  # its slap rounds are numbered among the pick-ups
                lines = sp.rounds_from_crazy_time(session.snapshot())
            else:  # the pad's own log: only the rounds the list shows
                lines = sp.rounds_from_stop_time(session.snapshot(recent=sp.LAST_ROUNDS))
            self._rounds_key, self._rounds_lines = key, lines
        return self._rounds_lines

    @staticmethod
    def _names(app) -> dict[int, str]:
        """Players' names by seat (the slap pad's own log names seats only: none)."""
        players = getattr(app.session.state, "players", ()) if app.session else ()
        return {p.seat: p.name for p in players if p.name != f"Seat {p.seat}"}

    def _show(self) -> None:
        app = App.get_running_app()
        colours = {s.seat: s.colour for s in app.cfg.seats}
        bound = self.arbiter.config.bound_for(app.table.info.source) / 1e6 \
            if self.arbiter else None
        names = self._names(app)
        view = sp.slap_view(self.phase, self.seats, colours, live=self.live.items(),
                            verdict=self.shown, chosen=self.chosen, rounds=self._rounds(app),
                            bound_ms=bound, choose_seats=self.mode == "tool",
                            names=names)
        self.view = view
        self.heading = "Stop Time: Crazy Time" if self.mode == "crazy" else "Slap pad"
        # the badge first: its width sets the headline's, so the headline's words are
        # drawn once, at the width they will have
        self.headline_badge = bool(view.headline_seat)
        if view.headline_seat:  # (hidden, the badge keeps its number: nothing drawn)
            self.headline_seat = view.headline_seat
        self.headline_colour = text_rgba(view.headline_colour) if view.headline_colour \
            else WHITE
        self.headline, self.detail = view.headline, view.detail
        self._stage(view)
        self._actions(view, colours)
        self._side(view, colours, app, names)

    def _pages(self) -> None:
        """The stage's, the action row's and the side's pages, built once (on the first
        showing) and kept in their ``PageStack`` for good: a change of phase shows
        another page and moves no widget (a box given a new parent lays itself out
        again, and the box it leaves too: arming and recording did both, three times).
        The stage: the face or the timeline; the action row: the idle tool's seat
        discs or the round's buttons; the side: "Who picks up?" (a grid of the
        candidates, a touch going to the one button under it), the last rounds (their
        rows stacked from the top) or "None yet"."""
        if self._side_pages is not None:
            return
        stage, actions, side = self.ids.stage, self.ids.actions, self.ids.side
        self._face_page, self._picture_page = Page(), Page()
        self._face_page.add_widget(self.face_holder)
        self._picture_page.add_widget(self.picture)
        stage.add_page(self._face_page)
        stage.add_page(self._picture_page)
        self._buttons = [
            BigButton(text="False alarm", on_release=lambda *_: self.call_false_alarm()),
            KeptButton(text="Cancel round", size_hint_x=0.8,
                       on_release=lambda *_: self.cancel()),
            BigButton(text="Record", tint=theme.MAIN,
                      on_release=lambda *_: self.record())]
        self._round_row, self._chip_row = Page(spacing=6), Page(spacing=2)
        hold(self._round_row, self._buttons)
        actions.add_page(self._round_row)
        actions.add_page(self._chip_row)
        grid = OneGrid(cols=3, spacing=8, size_hint_y=None, padding=(4, 4))
        grid.bind(minimum_height=grid.setter("height"))
        none_yet = Label(text="None yet", font_size=text_px(theme.SMALL),
                         size_hint_y=None, height=dp(theme.STATUS_H),
                         halign="left", valign="middle",
                         text_size=(dp(theme.SIDE_W) - dp(10), dp(theme.STATUS_H)))
        choices = Page(orientation="vertical")
        hold(choices, [grid, Widget()])
        # no spacing: five rounds of two lines fit the side at 800x480 (with
        # 2 px between them the first spilt 4 px over the title)
        rounds = Page(orientation="vertical")
        nothing = Page(orientation="vertical")
        hold(nothing, [none_yet, Widget()])
        for page in (choices, rounds, nothing):
            side.add_page(page)
        self._grid, self._side_pages = grid, (choices, rounds, nothing)
        # the list's rows and every seat's "Who picks up?" button, built with the side:
        # a verdict or a record never makes one
        for i in range(sp.LAST_ROUNDS):
            self._round_rows[("unused", i)] = RoundRow()
        for seat in App.get_running_app().cfg.seats:
            self._named_chip(seat.seat)

    def _stage(self, view: sp.SlapView) -> None:
        self._pages()
        if view.phase == sp.IDLE:
            self.ids.stage.show(self._face_page)
            return
        picture = self.picture
        marks = list(view.marks)
        colours = [rgba(m.colour) for m in view.marks]
        ticks = list(view.ticks)
        # equal values change nothing; any change redraws it once, before the frame
        picture.marks, picture.colours, picture.ticks = marks, colours, ticks
        picture.empty = "Waiting for the first slap..."
        self.ids.stage.show(self._picture_page)

    def _round_buttons(self) -> list:
        """False alarm | Cancel / Discard | Record: built once (``_pages``), always in
        these places while a round is on (a button that does not apply is disabled, not
        removed), in a page of their own. "Cancel round" and "Discard" come back at
        every round: kept textures (``KeptButton``)."""
        self._pages()
        return self._buttons

    def _seat_chip(self, seat: int) -> SeatChip:
        """The idle row's disc for ``seat`` (taps take it in or out), built once."""
        chip = self._seat_chips.get(seat)
        if chip is None:
            chip = SeatChip(seat=seat, pos_hint={"center_y": 0.5})
            chip.bind(on_release=lambda _w: self.toggle_seat(seat))
            self._seat_chips[seat] = chip
        return chip

    def _actions(self, view: sp.SlapView, colours) -> None:
        """The action row shows one of two pages, each built once and kept whole: the
        idle tool's seat discs, or the round's buttons (arming or recording shows the
        other page, it moves no button)."""
        false_alarm, cancel, record = self._round_buttons()
        if view.phase == sp.IDLE and self.mode == "tool":
            # the discs as they were last set (a record shows the same seats again)
            key = (tuple(colours.items()), self.seats)
            if key != self._chips_key:
                chips = [self._seat_chip(s) for s in sorted(colours)]
                for chip in chips:
                    chip.colour = rgba(colours[chip.seat])
                    chip.lit = chip.seat in self.seats
                hold(self._chip_row, chips)
                self._chips_key = key
            self.ids.actions.show(self._chip_row)
            return
        self.ids.actions.show(self._round_row)
        verdict = view.phase == sp.VERDICT
        false_alarm.disabled = not (verdict and view.can_false_alarm)
        cancel.text = "Discard" if verdict else "Cancel round"
        cancel.disabled = view.phase == sp.IDLE
        record.disabled = not (verdict and view.can_record)

    def _named_chip(self, seat: int) -> NamedChip:
        """The "Who picks up?" button of ``seat``, built once (with the side's pages,
        for every configured seat)."""
        chip = self._named_chips.get(seat)
        if chip is None:
            chip = NamedChip(seat=seat)
            chip.bind(on_release=lambda _w: self.choose(seat))
            self._named_chips[seat] = chip
        return chip

    def _side(self, view: sp.SlapView, colours, app, names) -> None:
        self._pages()
        choices, rounds, nothing = self._side_pages
        session = app.session
        self.ids.undo.disabled = not (session is not None and session.can_undo
                                      and (self.mode == "crazy"  # its board's game
                                           or session.rules.GAME.screen_name == self.name))
        if view.choices:
            self.side_title = "Who picks up?"
            chips = [self._named_chip(c.seat) for c in view.choices]
            for chip, c in zip(chips, view.choices, strict=True):
                chip.colour, chip.name = rgba(c.colour), c.name
                chip.lit = self.chosen in (None, c.seat)
            hold(self._grid, chips)
            self.ids.side.show(choices)
            return
        self.side_title = "Last rounds"
        # the list as it was last set (arming, a slap, a verdict list the same rounds)
        key = (view.rounds, tuple(colours.items()), tuple(names.items()))
        if key != self._side_key:
            lines = []
            for line in view.rounds:
                who = names.get(line.picker, "") if line.picker else ""
                lines.append((line.picker or 0,
                              rgba(colours[line.picker]) if line.picker in colours else WHITE,
                              f"{line.label}: {line.how or 'nobody'}", who))
            rows = self._rows_for(lines)
            if rows:
                hold(rounds, rows)
            self._side_key, self._side_list = key, rounds if rows else nothing
        self.ids.side.show(self._side_list)

    def _rows_for(self, lines: list[tuple]) -> list[RoundRow]:
        """A row per ``(seat, colour, head, who)``: the row that shows it already, else one
        that shows none of ``lines`` given it (the rows are built with the side box, one
        per line the list shows)."""
        kept = self._round_rows
        rows = [kept.get(line) for line in lines]
        spare = [row for key, row in kept.items() if key not in lines]
        for i, line in enumerate(lines):
            if rows[i] is None:
                row = spare.pop() if spare else RoundRow()
                kept.pop(next((k for k, r in kept.items() if r is row), None), None)
                row.seat, row.colour, row.head, row.who = line
                kept[line] = rows[i] = row
        return rows
