"""Time After Time: the host records placements, ghosts, draws and discards.

Tap a player, tap the hour drawn, tap a slot: only the legal slots are enabled (green).
Problems in a row (from ``check_row``) are shown red. When the chosen row is stuck,
"Emergency" opens the emergency-move flow (tap a card, tap the free slot beside it, at
most two cards, then "Confirm move"). Once the draw pile is gone, "Pile −1" gives way to
"Hand empty". The view data comes from ``companion.ui.presenters.time_after_time``;
this screen only builds widgets and acts.

A seat button pressed at the table picks that player's row, like a tap on the name
(``on_press_event``); the captain button and presses during an emergency move do nothing.

A complete row with a ghost possibly in hand: the title bar asks that player (their
lamp lights) "is a ghost still in your hand?"; their own seat button is yes (play goes
on), the "No ghost" button is no (they win); every other control waits. A won game is
closed in the log by the session and no longer offered for resume.

Layout for up to 4 rows of 64 px on the 800×480 screen: a 44 px title bar with the game,
what to do now (the ghost question too, on two lines if need be) and the pile, the rows, the 17
hour keys (two rows of 9 for 2-3 players; in place, disabled, while a question or an
emergency move waits; the result instead at the end) and the 64 px bar: Back, then the
moves, the emergency move's Cancel/Confirm or "No ghost" in the same place, then Undo.

Four players: four rows leave no room for two rows of 64 px keys at 800x480 (one row of
17 would be 46 px wide), so the hour is entered on a pad of big keys (17 hours and Close,
three rows of six) laid over the rows. Choosing a player (their name or their seat
button) opens it, the hour tapped closes it and the rows come back with that player's
legal slots green: the same three taps as with the keys. Tapping the chosen name again
reopens it (another hour); the bar stays in reach under it (a ghost drawn: Ghost +1,
and the pad waits for the second card).

The rows and keys are built once (the rows when the seats change) and updated in place,
only what changed: a text, colour or state set again only when it differs, the hidden
set of hour keys left alone until it shows.
"""

from __future__ import annotations

from kivy.app import App
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, OptionProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.screenmanager import Screen

from companion.palette import rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptText
from companion.ui.presenters import time_after_time as view
from companion.ui.screens import still_scroll  # noqa: F401 - StillScroll in the kv
from companion.ui.screens.set_changed import set_changed
from companion.ui.widgets import (
    BigButton,
    FitLabel,
    SeatBadge,
    SteadyText,
    TapButton,
    TouchBox,
    fitting_font,
)

load_kv(__file__)

EMPTY, FILLED, LEGAL = theme.KEY, theme.FILLED, theme.LEGAL
PROBLEM, SELECTED, MOVED = theme.OUT_OF_ORDER, theme.PICKED, theme.MOVED


class TatSlot(KeptText, SteadyText, TapButton):
    """A slot of a row or an hour key: dimmed as a whole when it takes no tap, its text
    not drawn again for that (an hour picked disables most of a row, a card laid enables
    it again, at every turn). Its look is its own flat rule (time_after_time.kv): a
    change of state redraws nothing but its opacity, set here rather than by a kv rule
    (a card laid changes some twenty of them). A card's hour ("14H", "?") is drawn once
    and shown again from its kept texture in any slot (``KeptText``)."""

    def on_disabled(self, _widget, disabled: bool) -> None:
        self.opacity = 0.45 if disabled else 1


class TatPrompt(KeptText, FitLabel):
    """The title bar's line of what to do now: the same few sentences come back at every
    turn ("Ann: tap the hour drawn"), shown again from their kept textures."""

    kept_looks = 128  # per player: the hour drawn, a green slot for each hour, ...


class TatBarButton(BigButton):
    """A move in the bar (Ghost +1, Pile −1, ...): dimmed as a whole when it takes no
    tap, its text not drawn again for that."""


class TatHourPad(GridLayout):
    """Four players' hour entry over the rows: takes the taps on its box while ``shown``,
    none at all (not even its keys') while hidden, so the rows under it answer."""

    shown = BooleanProperty(False)

    def on_touch_down(self, touch):
        if not self.shown:
            return False
        super().on_touch_down(touch)
        return self.collide_point(*touch.pos)

    def on_touch_move(self, touch):
        if not self.shown:
            return False
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if not self.shown:
            return False
        super().on_touch_up(touch)
        return self.collide_point(*touch.pos)  # the rows under it are not walked


class TimeAfterTimeScreen(Screen):
    heading = StringProperty("Time After Time")
    prompt = StringProperty("")
    result = StringProperty("")
    band = OptionProperty("hours", options=["hours", "emergency", "over", "ask"])
    question = StringProperty("")
    no_label = StringProperty("")
    pile_out = BooleanProperty(False)
    hour_pad = BooleanProperty(False)  # four players: the hour on the pad, not on keys
    pad_shown = BooleanProperty(False)  # the pad lies over the rows

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.pick = view.Pick()
        self._lamp = None  # the seat whose lamp is lit for the ghost question
        self._seats: tuple | None = None  # the seats the rows were built for
        self._rows: list = []  # per row: (name button, its 7 slot buttons)
        self.pad_open = False  # four players: a player chosen, their hour not yet
        self._band_keys: list = []  # the 17 hour keys under the rows (2-3 players)
        self._pad_keys: list = []  # the 17 on the pad (4 players)
        self._drawn: tuple | None = None  # (state, pick, pad_open) the last refresh showed

    def on_pre_enter(self, *_args) -> None:
        self.pick = view.Pick()
        self._lamp = None
        self.pad_open = False
        self.refresh()

    def _show(self) -> None:
        """Refresh unless the app's refresh after an action showed this state and pick
        already (an action recorded refreshes the screen shown: once is enough)."""
        if self._drawn != (self._state(), self.pick, self.pad_open):
            self.refresh()

    def on_leave(self, *_args) -> None:
        if self._lamp is not None:
            App.get_running_app().table.lamps.all_off()
            self._lamp = None

    # -- state -------------------------------------------------------------------------

    def _state(self):
        app = App.get_running_app()
        if app.session is None or app.session.rules.GAME.screen_name != self.name:
            return None
        return app.session.state

    def refresh(self) -> None:
        """Update the rows, hour keys and bar in place from the view data (the rows are
        built when the seats change, the hour keys once)."""
        state = self._state()
        self._drawn = (state, self.pick, self.pad_open)
        if state is None:
            self.heading, self.prompt, self.result = "", "No game", ""
            self.pad_shown = False
            self._build_rows(())
            return
        app = App.get_running_app()
        if self.pick.emergency and not view.is_stuck(state, self.pick.seat):
            self.pick = view.cancel_emergency(self.pick)  # e.g. after an undo
        self.heading = view.header(state)
        self.question, self.no_label = view.question(state), view.no_label(state)
        self.prompt = self.question or view.prompt(state, self.pick)
        self.result = view.result(state)
        self.band = ("over" if state.over else "ask" if self.question else
                     "emergency" if self.pick.emergency else "hours")
        self._ask_lamp(app, state)
        seats = tuple(s.player.seat for s in state.seats)
        self.hour_pad = len(seats) > 3
        self.pad_shown = (self.hour_pad and self.pad_open and self.band == "hours"
                          and self.pick.seat is not None)
        self._build_rows(seats)
        if not self.pad_shown:  # under the pad they wait until it closes
            for widgets, row in zip(self._rows, view.rows(state, self.pick), strict=True):
                self._show_row(widgets, row)
        self._build_keys()
        if self.pad_shown or not self.hour_pad:  # the hidden set waits till it shows
            keys = self._pad_keys if self.hour_pad else self._band_keys
            off = self.band != "hours"
            for b, h in zip(keys, view.hour_buttons(state, self.pick), strict=True):
                set_changed(b, disabled=not h["enabled"] or off,
                          background_color=SELECTED if h["selected"] else EMPTY)
        c = view.controls(state, self.pick)
        self.pile_out = c["show_hand_empty"]
        for key in ("ghost_plus", "ghost_minus", "draw", "discard", "emergency", "hand_empty"):
            set_changed(self.ids[key], disabled=not c[key] or self.pick.emergency
                      or (key == "draw" and self.pile_out))
        set_changed(self.ids.em_confirm, disabled=not c["confirm"])
        set_changed(self.ids.no_ghost, disabled=self.band != "ask")
        set_changed(self.ids.undo, disabled=not app.session.can_undo)

    def _build_keys(self) -> None:
        """The 17 hour keys under the rows and the pad's 17 and Close, made once."""
        if self._band_keys:
            return
        for hour in view.HOURS:
            b = TatSlot(text=str(hour), size_hint=(1, None), height=dp(theme.TOUCH))
            b.bind(on_release=lambda _w, hour=hour: self.choose_hour(hour))
            self.ids.hours.add_widget(b)
            self._band_keys.append(b)
            b = TatSlot(text=str(hour), size_hint=(1, 1), font_size=sp(theme.HEADING))
            b.bind(on_release=lambda _w, hour=hour: self.choose_hour(hour))
            self.ids.hour_pad.add_widget(b)
            self._pad_keys.append(b)
        close = TatSlot(text="Close", size_hint=(1, 1), background_color=theme.BUTTON)
        close.bind(on_release=lambda _w: self.close_pad())
        self.ids.hour_pad.add_widget(close)

    def _ask_lamp(self, app, state) -> None:
        """The asked player's lamp is lit while the question is open."""
        asking = state.asking if not state.over else None
        if asking == self._lamp:
            return
        app.table.lamps.all_off()
        if asking is not None:
            app.table.lamps.on(asking)
        self._lamp = asking

    def _build_rows(self, seats: tuple) -> None:
        """A row per seat (badge, name, 7 slots), made when the seats change."""
        if seats == self._seats:
            return
        self._seats = seats
        self.ids.rows.clear_widgets()
        self._rows = []
        app = App.get_running_app()
        for seat in seats:
            box = TouchBox(size_hint_y=None, height=dp(theme.TOUCH), spacing=dp(2))
            box.add_widget(SeatBadge(seat=seat, colour=rgba(app.cfg.seat(seat).colour),
                                     pos_hint={"center_y": 0.5}))
            name = TapButton(markup=True, font_size=sp(theme.TEXT), halign="left",
                             valign="middle", background_normal="")
            name.bind(size=lambda w, s: setattr(w, "text_size", (s[0] - dp(8), None)))
            name.bind(size=self._fit_name)
            name.bind(on_release=lambda _w, seat=seat: self.choose_seat(seat))
            box.add_widget(name)
            slots = []
            for i in range(7):
                b = TatSlot()
                b.bind(on_release=lambda _w, seat=seat, i=i: self.tap_slot(seat, i))
                box.add_widget(b)
                slots.append(b)
            self.ids.rows.add_widget(box)
            self._rows.append((name, slots))

    @staticmethod
    def _fit_name(name, *_args) -> None:
        """The name (and its ghosts) whole: smaller, then on two lines, never cut (fitted
        again only when the name or the button's size changed)."""
        plain = getattr(name, "plain", "")
        if not plain or name.width <= 1:
            return
        key = (plain, name.width, name.height)
        if getattr(name, "fitted", None) != key:
            name.fitted = key
            name.font_size = fitting_font(plain, name.width - dp(8), name.height,
                                          [sp(s) for s in (28, 24, 22, 20, 18)], 2, False)

    def _show_row(self, widgets, row: dict) -> None:
        """The row as ``row`` says, setting only what differs from what it shows."""
        name, slots = widgets
        looks = (row["label"], row["name"], row["ghosts"],
                 self.pick.emergency and not row["selected"], row["selected"],
                 tuple((slot["text"], slot["enabled"], self._slot_colour(slot))
                       for slot in row["slots"]))
        if getattr(name, "looks", None) == looks:
            return  # a tap elsewhere: nothing of this row changed
        name.looks = looks
        plain = row["name"] + (f"  {row['ghosts']} ghosts" if row["ghosts"] else "")
        if getattr(name, "plain", None) != plain:
            name.plain = plain
            self._fit_name(name)
        set_changed(name, text=row["label"], disabled=looks[3],
                    background_color=SELECTED if row["selected"] else theme.PANEL)
        for b, (text, enabled, colour) in zip(slots, looks[5], strict=True):
            set_changed(b, text=text, disabled=not enabled, background_color=colour)

    @staticmethod
    def _slot_colour(slot: dict):
        return (SELECTED if slot["moving"] else PROBLEM if slot["problem"]
                else LEGAL if slot["legal"] else MOVED if slot["moved"]
                else EMPTY if slot["text"] == "?" else FILLED)

    # -- handlers ----------------------------------------------------------------------

    def on_press_event(self, event) -> None:
        """A seat button: choose that player (their row), as a tap on the name would."""
        state = self._state()
        if state is None or not event.pressed or self.pick.emergency:
            return
        if state.asking is not None and not state.over:
            action = view.yes_action(state, event.seat)
            if action is not None and App.get_running_app().act(action):
                App.get_running_app().say(f"{view.asked_name(state)} plays on")
                self._show()
            return
        if any(s.player.seat == event.seat for s in state.seats):
            self.choose_seat(event.seat)

    def choose_seat(self, seat: int) -> None:
        """That player's row is chosen (four players: the hour pad opens for them)."""
        self.pick = self.pick.with_seat(seat)
        self.pad_open = not self.pick.emergency
        self.refresh()

    def choose_hour(self, hour: int) -> None:
        self.pick = self.pick.with_hour(hour)
        self.pad_open = self.pick.hour is None  # an hour picked: back to the rows
        self.refresh()

    def close_pad(self) -> None:
        """The pad's Close: back to the rows, the player still chosen."""
        self.pad_open = False
        self.refresh()

    def tap_slot(self, seat: int, slot: int) -> bool:
        """Place the picked hour in ``slot`` of ``seat``'s row (tapping another player's
        row first picks that player)."""
        app = App.get_running_app()
        state = self._state()
        if state is None:
            return False
        if seat != self.pick.seat:
            if not self.pick.emergency:
                self.choose_seat(seat)
            return False
        if self.pick.emergency:
            self.pick = view.emergency_tap(state, self.pick, slot)
            self.refresh()
            return False
        action, reason = view.place_action(state, self.pick, slot)
        if action is None:
            app.say(reason, error=True)
            return False
        # Nobody is chosen after a card is laid: the next card cannot land in this row
        # by mistake; the next player taps their name or presses their button. Set
        # before the action, so the app's refresh after it shows that at once.
        pick, self.pick = self.pick, view.Pick()
        if app.act(action):
            self._show()
            return True
        self.pick = pick  # refused: the choice stays (nothing was shown anew)
        return False

    def ghost(self, delta: int) -> bool:
        state = self._state()
        action = None if state is None else view.ghost_action(state, self.pick, delta)
        return action is not None and App.get_running_app().act(action)

    def draw(self) -> bool:
        action = {"type": "draw_pile", "count": 1}
        if self.pick.seat is not None:
            action["seat"] = self.pick.seat
        return App.get_running_app().act(action)

    def discard(self) -> bool:
        if self.pick.seat is None or self.pick.hour is None:
            return False
        action = {"type": "discard", "seat": self.pick.seat, "hour": self.pick.hour}
        self.pick = view.Pick(seat=self.pick.seat)
        ok = App.get_running_app().act(action)
        self._show()
        return ok

    def start_emergency(self) -> None:
        state = self._state()
        if state is not None:
            self.pick = view.start_emergency(state, self.pick)
            self.pad_open = False
            self.refresh()

    def cancel_emergency(self) -> None:
        self.pick = view.cancel_emergency(self.pick)
        self.refresh()

    def confirm_emergency(self) -> bool:
        """Send the moves chosen as one emergency_move; the flow closes if accepted."""
        action = view.emergency_action(self.pick)
        if action is None:
            return False
        pick, self.pick = self.pick, view.cancel_emergency(self.pick)
        if App.get_running_app().act(action):  # the flow closes as the move shows
            self._show()
            return True
        self.pick = pick  # refused: the moves chosen stay
        return False

    def hand_empty(self) -> bool:
        state = self._state()
        action = None if state is None else view.hand_empty_action(state, self.pick)
        return action is not None and App.get_running_app().act(action)

    def no_ghost(self) -> bool:
        """The asked player has no ghost in hand: their complete row wins."""
        state = self._state()
        action = None if state is None else view.no_action(state)
        if action is None or not App.get_running_app().act(action):
            return False
        self._show()
        return True

    def undo(self) -> None:
        """Take back the last step; whatever was half-chosen goes with it
        (``view.after_undo``), set first so the refresh after the undo shows it."""
        self.pick, self.pad_open = view.after_undo(self.pick), False
        App.get_running_app().undo()
        self._show()
