"""The Stop Time slap pad screen ("slap"): shows a ``SlapRound`` and passes taps on.

What a person sees: idle, a big red "STOP TIME" face (tap it, press the captain button,
or just slap). Each counted slap lights its seat's lamp, clicks and goes on the timeline.
At the verdict: the picker named big in their colour, "False alarm", one button per
candidate when the table decides, "Record"; the last rounds on the right, with Undo.

Everything the round decides is ``companion.slap.round.SlapRound``: this screen hands it
presses, pad notices and taps, has its ``Effect``s carried out (``ui.slap_effects``) and
shows its ``view``. Recording goes through the session (``slap_sessions.record_round``):
a Crazy Time pick-up when its board opened the screen (``open_armed``), else a round of
the slap pad's own log."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.anchorlayout import AnchorLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget

from companion.events import CAPTAIN_SEAT, PressEvent
from companion.palette import rgba, text_rgba
from companion.slap import view as sv
from companion.slap.round import SlapRound
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.screens.slap_widgets import (  # noqa: F401  (kv rules use them)
    WHITE,
    NamedChip,
    RoundRow,
    SeatChip,
    StopFace,
    TimelinePicture,
    choice_grid,
    round_rows,
    show_only,
)
from companion.ui.slap_effects import carry_out
from companion.ui.slap_sessions import (
    ToolSessions,
    players_named,
    record_round,
    recorded_rounds,
)
from companion.ui.widgets import BigButton

load_kv(__file__)


class SlapScreen(Screen):
    #: The app hands this screen every press even while another screen shows, so the
    #: round never misses a release or a late slap of the round just recorded.
    hears_every_press = True
    heading = StringProperty("Stop Time")
    headline = StringProperty("Stop Time")
    detail = StringProperty("")
    headline_colour = ColorProperty(WHITE)
    headline_seat = NumericProperty(0)
    headline_badge = BooleanProperty(False)
    side_title = StringProperty("Last rounds")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.app = App.get_running_app()  # what this screen shows and acts through
        self.mode = "tool"  # or "crazy": the Crazy Time board's own round
        self.round: SlapRound | None = None
        self.tools = ToolSessions()
        self.opening: object = None  # how the next entry opens a round (``open_armed``)
        self.for_game = ""  # the board that opened the screen for its game's round
        self.view: sv.SlapView | None = None
        self.face = StopFace()
        self.face.bind(on_release=lambda *_: self.arm())
        self.face_holder = AnchorLayout()
        self.face_holder.add_widget(self.face)
        self.picture = TimelinePicture(empty="Waiting for the first slap...")
        self._chips: dict[int, SeatChip] = {}
        self.buttons = [
            BigButton(text="False alarm", on_release=lambda *_: self.call_false_alarm()),
            BigButton(text="Cancel", size_hint_x=0.8, on_release=lambda *_: self.cancel()),
            BigButton(text="Record", tint=theme.MAIN, on_release=lambda *_: self.record())]

    # -- entering and leaving ------------------------------------------------------------

    @staticmethod
    def open_armed(app, opener: PressEvent | None = None, by: str = "referee") -> None:
        """From another screen: show the slap pad with a round open, armed now ``by``
        the referee or the captain, or opened by the slap ``opener`` (it counts)."""
        screen = app.sm.get_screen("slap")
        screen.opening = opener or by
        if app.sm.current == "slap":
            screen._open()
            return
        screen.for_game = app.sm.current
        app.navigate("slap")

    def on_pre_enter(self, *_args) -> None:
        app = self.app
        session = app.session
        board, self.for_game = self.for_game, ""
        # Crazy Time's own round only when its board opened this screen while a round of
        # the game is played; the Home tile is the stand-alone tool with its own log.
        if (board and session is not None and session.rules.GAME.screen_name == board
                and session.state.phase == "playing"):
            self.mode, seats = "crazy", tuple(p.seat for p in session.state.players)
        else:
            self.mode, seats = "tool", self.tools.enter(app)
        slap, pad = app.cfg.slap, app.pad
        config = sv.arbiter_config(slap.holdoff_ms, slap.timeout_ms, slap.stuck_ms,
                                   getattr(pad, "resolution_ns", None),
                                   getattr(pad, "longest_hold_ns", None))
        if self.round is None or self.round.seats != seats or self.round.config != config:
            self.round = SlapRound(seats, config)
        self.round.names = players_named(app)
        if self.opening is not None:
            self._open()
        elif self.round.correction is not None and self.round.phase == sv.IDLE:
            self.round.show_correction()
        self._after()

    def on_leave(self, *_args) -> None:
        if self.round is not None and self.round.phase in (sv.ARMED, sv.OPEN):
            self.round.cancel()
            self._after()
        if self.mode == "tool":
            self.tools.leave(self.app)

    def _open(self) -> None:
        opening, self.opening = self.opening, None
        if isinstance(opening, PressEvent):
            self.round.press(opening)  # nothing armed: the slap arms the round and counts
        else:
            self.round.arm(self.app.table.now_ns(), by=opening)
        self._after()

    # -- what the table does -----------------------------------------------------------

    def arm(self, now_ns: int | None = None) -> None:
        """The STOP TIME face: a round from ``now_ns`` (the presses' clock; default now)."""
        if self.round is not None:
            app = self.app
            self.round.arm(app.table.now_ns() if now_ns is None else now_ns, by="referee")
            self._after()

    def cancel(self) -> None:
        self._step(self.round.cancel)

    def call_false_alarm(self) -> None:
        self._step(self.round.call_false_alarm)

    def choose(self, seat: int) -> None:
        self._step(self.round.choose, seat)

    def _step(self, step, *args) -> None:
        step(*args)
        self._after()

    def undo(self) -> None:
        self.app.undo()

    def refresh(self) -> None:  # the game changed (an undo): its rounds shown again
        if self.round is not None:
            self._show()

    def toggle_seat(self, seat: int) -> None:
        """Stand-alone tool, between rounds: take a seat in or out of play."""
        if self.mode != "tool" or self.round.phase != sv.IDLE:
            return
        seats = self.tools.toggle(seat, self.app.cfg)
        if seats != self.round.seats:
            self.round = SlapRound(seats, self.round.config, names=players_named(self.app))
        self._show()

    def record(self) -> bool:
        """Log the round (``record_round``); the board's round goes back to the board."""
        app = self.app
        ok = record_round(app, self.round, self.mode == "crazy", self.tools)
        self._after()
        if ok and self.mode == "crazy":
            app.back()
            board = app.session.rules.GAME.screen_name
            if app.sm.current != board:
                app.navigate(board)
        return ok

    # -- presses, the pad and frames ----------------------------------------------------

    def on_press_event(self, event) -> None:
        """A seat's edge goes to the round (fed at this frame's ``on_frame``); the
        captain button arms an idle round or records a decided verdict."""
        if event.seat != CAPTAIN_SEAT:
            self.round.press(event)
        elif event.pressed and self.round.captain(event.t_ns):
            self.record()
        elif event.pressed:
            self._after()

    def on_background_press(self, event) -> None:
        """Another screen shows: the edge keeps the buttons' levels (a release) or is a
        late slap of the round just recorded; it never opens a round."""
        if event.seat != CAPTAIN_SEAT and self.round is not None:
            self.round.press(event, opens=False)

    def pad_event(self, notice) -> bool:
        """A pad notice that voids rounds: True when it voided this screen's round (the
        round told the table; the app need not)."""
        if self.round is None:
            return False
        voided = self.round.pad_event(notice, self.app.table.now_ns())
        self._after()
        return voided

    def frames_wanted(self) -> bool:  # (a slap wakes an idle app at once)
        return self.round is not None and self.round.busy

    background_frames_wanted = frames_wanted

    def on_background_frame(self, now_ns: int) -> None:
        if self.round is not None:
            self._pad(self.app)
            self.round.tick(now_ns, quiet=True)
            self._after(quiet=True)

    def on_frame(self, now_ns: int) -> None:
        if self.round is not None:
            self._pad(self.app)
            self.round.tick(now_ns)
            self._after()

    def _pad(self, app) -> None:
        status = getattr(getattr(app.pad, "source", None), "status", None)
        if app.pad is not None:
            self.round.pad_state(getattr(status, "state", None) == "ready",
                                 getattr(app.pad, "watermark_ns", None))

    def _after(self, quiet: bool = False) -> None:
        """Carry out what the round asks of the box, then show it. A recorded round that
        may be wrong is shown at once, here or (the board's round) by coming back here."""
        app = self.app
        redone = carry_out(app, self.round.take_effects(), self.round.names, quiet)
        if redone is not None and app.sm.current == self.name:
            self.round.show_correction()
        elif redone is not None and self.mode == "crazy" and app.session is not None:
            self.for_game = app.session.rules.GAME.screen_name  # (its Stop Time would
            app.navigate(self.name)  # start a new round)
        if app.sm.current == self.name:
            self._show()

    # -- drawing -------------------------------------------------------------------------

    def _show(self) -> None:
        app, rnd = self.app, self.round
        colours = {s.seat: s.colour for s in app.cfg.seats}
        bound = rnd.config.bound_for(app.table.info.source) / 1e6
        rounds = recorded_rounds(app, self.mode == "crazy", self.tools)
        view = self.view = rnd.view(colours, rounds, bound_ms=bound,
                                    choose_seats=self.mode == "tool")
        self.heading = "Stop Time: Crazy Time" if self.mode == "crazy" else "Slap pad"
        self.headline_badge = bool(view.headline_seat)
        self.headline_seat = view.headline_seat or 0
        self.headline_colour = text_rgba(view.headline_colour) if view.headline_colour else WHITE
        self.headline, self.detail = view.headline, view.detail
        idle = view.phase == sv.IDLE
        pic = self.picture
        pic.marks, pic.ticks = list(view.marks), list(view.ticks)
        pic.colours = [rgba(m.colour) for m in view.marks]
        show_only(self.ids.stage, [self.face_holder if idle else self.picture])
        if idle and self.mode == "tool":
            show_only(self.ids.actions, [self._seat_chip(s, colours) for s in sorted(colours)])
        else:
            false_alarm, cancel, record = self.buttons
            false_alarm.disabled = not view.can_false_alarm
            cancel.text, cancel.disabled = ("Discard" if view.phase == sv.VERDICT
                                            else "Cancel"), idle
            record.disabled = not view.can_record
            show_only(self.ids.actions, self.buttons)
        self._side(view, colours, app)

    def _seat_chip(self, seat: int, colours) -> SeatChip:
        """The idle tool's disc of ``seat`` (a tap takes it in or out), built once."""
        chip = self._chips.get(seat)
        if chip is None:
            chip = self._chips[seat] = SeatChip(seat=seat, pos_hint={"center_y": 0.5})
            chip.bind(on_release=lambda _w: self.toggle_seat(seat))
        chip.colour, chip.lit = rgba(colours[seat]), seat in self.round.seats
        return chip

    def _side(self, view: sv.SlapView, colours, app) -> None:
        session = app.session
        self.ids.undo.disabled = not (session is not None and session.can_undo and (
            self.mode == "crazy" or session.rules.GAME.screen_name == self.name))
        if view.choices:
            self.side_title = "Who picks up?"
            show_only(self.ids.side, [choice_grid(view.choices, self.round.chosen,
                                                  self.choose), Widget()])
        else:
            self.side_title = "Last rounds"
            show_only(self.ids.side, [*round_rows(view.rounds, colours, self.round.names),
                                      Widget()])
