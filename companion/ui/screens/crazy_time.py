"""The Crazy Time screen ("crazy_time"): the board of a game in progress and its flows.

What a person sees: the round, the deal size, the dealer and who leads at 1 o'clock (seat
badges), the engine's reminder of what to do now (e.g. round winners turn up a card
first), this round's pick-ups, the laws in force by name and the round winners. Buttons:
"Stop Time!" (the slap pad, armed), "Temporal flaw" (accuser, accused, law, right or
wrong), "Mistakes" (several erred: seats in order), "Tick, Tock" (a one-word-a-second
metronome at a slow player, then recorded), "Round won", "Guess a law" (only while a
guess is open), "Laws" (asks "who is looking?" and shows the secret text only to a player
who may read it) and Undo. Between rounds the new-law wizard takes over (who leaves the
room, then name / When? / What? typed by the winner); after round 4 the Grand Master of
Time and a bar chart of the game. A seat button pressed on the board is a slap: it opens
the slap pad with that press as the first slap; the captain button opens it armed.

Wiring: the board reads only ``crazy_time_view.view(state, None)`` (through
``companion.ui.presenters.crazy_time``); a player's own view is asked for only after
they said who is looking. Every answer becomes one action through ``app.act``. The
metronome is driven by ``on_frame(now_ns)``; the panels are in ``crazy_time_panels.py``.
"""

from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.recycleview import views as recycled_views
from kivy.uix.recycleview.views import RecycleDataAdapter
from kivy.uix.relativelayout import RelativeLayout
from kivy.uix.screenmanager import Screen
from kivy.uix.widget import Widget
from kivy.utils import escape_markup

from companion.errors import CompanionError
from companion.events import CAPTAIN_SEAT
from companion.palette import rgba, text_rgba
from companion.ui import theme
from companion.ui.app import load_kv
from companion.ui.kept_text import KeptLabel
from companion.ui.presenters import crazy_time as cp
from companion.ui.presenters.crazy_time_view import view
from companion.ui.screens.crazy_time_panels import (
    ChoicePanel,
    EndPanel,
    EndRow,
    LawsPanel,
    MetronomePanel,
    MistakesPanel,
    NewLawPanel,
)
from companion.ui.screens.slap import SlapScreen
from companion.ui.widgets import BigButton, Page, TouchInside, hold, undo_words

load_kv(__file__)

GREY = theme.FADED_TEXT


class LineRow(RelativeLayout):
    """A list line about one seat: its badge and the text. A ``RelativeLayout``: moved
    in the list (it grows at every pick-up, and rows are placed from its top), or taken
    out of it and put back, it lays nothing out again (only its translation changes)."""

    seat = NumericProperty(0)
    colour = ColorProperty(GREY)
    text = StringProperty("")
    font_size = NumericProperty(28)
    wrap = BooleanProperty(False)  # the newest line wraps on two lines; older ones shorten


class SamePlaces(RecycleDataAdapter):
    """The pick-up list's rows each given back the place it held. New data makes Kivy
    take every row back and deal them out again to the lines in sight, from the end of
    its cache (``invalidate``, then ``get_view`` per line): a row then went to another
    place, the newest row's large size to a small row and back, so each row was sized,
    laid out and given another line's words, size and wrap. Here the row of a place
    keeps it and takes the line now there: after a pick-up each row shows another
    sentence, at the size it already had."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._places: dict = {}  # row -> the index it showed before ``invalidate``

    def invalidate(self) -> None:
        places = {view: index for index, view in self.views.items()}
        for dirty in self.dirty_views.values():
            places.update({view: index for index, view in dirty.items()})
        if places:  # (Kivy invalidates twice per new data: the second time, none left)
            self._places = places
        super().invalidate()

    def get_view(self, index, data_item, viewclass):
        spare = recycled_views._cached_views[viewclass]  # Kivy's get_view pops its end
        places = self._places
        mine = next((i for i in range(len(spare) - 1, -1, -1)
                     if places.get(spare[i]) == index), None)
        if mine is not None:
            spare.append(spare.pop(mine))
        return super().get_view(index, data_item, viewclass)


class PickupLine(KeptLabel):
    """A pick-up's words in the list ("Dan: temporal flaw (Wrong hour)": the newest at
    28 px on two lines, then at 24 px on one). The same sentences come back all game
    (a few players times a few causes), each in those two looks: kept from their first
    showing, in a store of their own (``KeptText``) that the other screens' labels do
    not push them out of."""

    kept_looks = 96
    keep_first_showing = True


class CrazyBoard(TouchInside, BoxLayout):
    facts = StringProperty("")
    dealer_line = StringProperty("")  # "Dealer: Ann"
    deal_line = StringProperty("")  # "15 cards each"
    notice = StringProperty("")
    notice_more = StringProperty("")
    won = StringProperty("")
    laws = StringProperty("")  # markup: names escaped
    lead_seat = NumericProperty(0)
    lead_colour = ColorProperty(GREY)
    lead_name = StringProperty("")
    #: the news lines' size: 1 (28 px), smaller only as far as needed to leave the
    #: pick-up list ``LIST_MIN`` px (its newest row whole and the next in sight)
    scale = NumericProperty(1.0)

    LIST_MIN = 92
    SCALES = (1.0, 0.9, 0.8, 0.72, 0.64)
    FITS_KEPT = 64  # news seen again (the same pick-ups' lines) at their known size

    def _news_key(self) -> tuple:
        return (self.notice, self.notice_more, self.won, self.laws, self.lead_name,
                self.lead_seat, self.ids.column.height,
                *(label.width for label in self.ids.news.walk(restrict=True)))

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self._fits: dict[tuple, float] = {}  # news and room -> the scale found for them
        self.ids.pickups.view_adapter = SamePlaces()
        self._refit = Clock.create_trigger(self._fit_news, -1)
        for name in ("notice", "notice_more", "won", "laws", "lead_name", "lead_seat"):
            self.fbind(name, self._refit)
        self.ids.column.fbind("height", self._refit)
        # the lines' own widths come a layout pass after the column's: a fit made
        # before them measured narrow lines (the same news then fitted at another size)
        for label in self.ids.news.walk(restrict=True):
            label.fbind("width", self._refit)

    def _news_height(self) -> float:
        news = self.ids.news
        for label in news.walk(restrict=True):
            if hasattr(label, "texture_update") and label is not news:
                label.texture_update()  # heights follow their texture at once
        shown = [w for w in news.children if w.height > 0]
        return sum(w.height for w in shown) + news.spacing * max(0, len(shown) - 1)

    def _fit_news(self, *_args) -> None:
        """The largest of ``SCALES`` at which the news leaves the list its room; news
        already fitted in the same room takes its scale at once (no label is drawn at
        the sizes tried before it)."""
        key = self._news_key()
        known = self._fits.get(key)
        if known is not None:
            self.scale = known
            return
        room = self.ids.column.height - self.LIST_MIN - self.ids.column.spacing
        for scale in self.SCALES:
            self.scale = scale
            if self._news_height() <= room:
                break
        if len(self._fits) >= self.FITS_KEPT:
            self._fits.pop(next(iter(self._fits)))
        self._fits[key] = self.scale


#: The board's buttons, in their fixed places (a button that does not apply now is
#: disabled, never taken away, so nothing moves under a finger).
BOARD_BUTTONS = (("Stop Time!", "open_slap_pad"), ("Temporal flaw", "accuse"),
                 ("Mistakes", "mistakes"), ("Tick, Tock", "tick_tock"),
                 ("Round won", "round_won"), ("Guess a law", "guess"),
                 ("Laws", "read_laws"), ("Undo", "undo"))


class CrazyTimeScreen(Screen):
    heading = StringProperty("Crazy Time")

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.board_w = CrazyBoard()
        self.panel = None
        # the stage's pages, kept for good: the board, the one question panel (made on
        # the first question) and the page of the panel made for its flow (the
        # mistakes, the metronome, the laws, the new law, the end). Showing another
        # moves no widget (taken out and put back at every question, the board and the
        # panel walked their whole trees for it, and the stage was laid out again).
        self._board_page, self._choices_page, self._other_page = Page(), Page(), Page()
        self._board_page.add_widget(self.board_w)
        for page in (self._board_page, self._choices_page, self._other_page):
            self.ids.stage.add_page(page)
        self._choices: ChoicePanel | None = None  # made on the first question, then kept
        self._pickups_shown: tuple | None = None  # what the pick-up list's data is for
        # the shared view and board of one game state (states are new objects after
        # each action): a refresh and the question after it read them once
        self._seen: tuple | None = None  # (state, view, board)
        self._undo_shown: tuple | None = None  # (words, width, height) Undo was fitted to
        self.flow: str | None = None
        self.metro: dict | None = None  # {"seat", "start", "beat"} while counting
        self.buttons: dict[str, BigButton] = {}
        grid = self.board_w.ids.buttons
        for text, method in BOARD_BUTTONS:
            btn = BigButton(text=text, halign="center", valign="middle", height=64,
                            on_release=lambda *_, m=method: getattr(self, m)())
            # wrapped on two lines at most (a long Undo text is cut with "…" first)
            btn.bind(size=lambda b, size: setattr(b, "text_size", (size[0] - 8, None)),
                     text=lambda b, text: setattr(b, "font_size", 28 if len(text) <= 14
                                                  else 22))
            if text == "Stop Time!":
                btn.tint = theme.ALARM
            self.buttons[method] = btn
            grid.add_widget(btn)
        self.buttons["undo"].bind(size=self._fit_undo)

    def undo(self) -> None:
        App.get_running_app().undo()

    def _fit_undo(self, *_args) -> None:
        """Undo's words whole ("Undo: pickup (Dan)", else "Undo: pickup"), never cut
        (fitted again only when the words or the button's size changed)."""
        undo = self.buttons["undo"]
        key = (getattr(self, "_undo_full", "Undo"), undo.width, undo.height)
        if key == self._undo_shown:
            return
        self._undo_shown = key
        undo.text, undo.font_size = undo_words(key[0], undo.width - 8, undo.height - 4)

    # -- plumbing ----------------------------------------------------------------------

    def _v(self, viewer: int | None = None) -> dict | None:
        session = App.get_running_app().session
        if session is None or session.rules.GAME.screen_name != self.name:
            return None
        if viewer is not None:
            return view(session.state, viewer)
        return self._seen_state(session.state)[0]

    def _seen_state(self, state) -> tuple:
        """``(view, board)`` of the shared screen for ``state``, made once per state."""
        if self._seen is None or self._seen[0] is not state:
            v = view(state, None)
            self._seen = (state, v, cp.board(v))
        return self._seen[1:]

    def _colour(self, seat: int, text: bool = False):
        """A seat's colour (``text``: lightened for text on the dark screen)."""
        try:
            name = App.get_running_app().cfg.seat(seat).colour
        except (CompanionError, KeyError):
            return GREY
        return text_rgba(name) if text else rgba(name)

    def _seats(self, v: dict, only=None, leave_out=()) -> list:
        return [(p["name"], p["seat"], p["seat"], self._colour(p["seat"]))
                for p in v["players"]
                if p["seat"] not in leave_out and (only is None or p["seat"] in only)]

    def _name(self, v: dict, seat: int) -> str:
        return next(p["name"] for p in v["players"] if p["seat"] == seat)

    def _open(self, flow: str, panel) -> None:
        self.flow, self.panel = flow, panel
        if panel is self._choices:
            self._let_go()
            self.ids.stage.show(self._choices_page)
            return
        hold(self._other_page, [panel])
        self.ids.stage.show(self._other_page)

    def _let_go(self) -> None:
        """A panel made for its flow leaves the window with it (as it did before the
        pages: its text fields give up the keyboard), its page left empty."""
        if self._other_page.children:
            self._other_page.clear_widgets()

    def _ask(self, flow: str, title: str, options, on_pick, hint: str = "", cols: int = 3,
             cancel: bool = True, extra=()) -> None:
        if self._choices is None:
            self._choices = ChoicePanel()
            self._choices_page.add_widget(self._choices)
        # the one panel asks each question: answers are given to its kept buttons
        self._choices.ask(title, options, on_pick, self.close if cancel else None,
                          hint=hint, cols=cols, extra=extra)
        self._open(flow, self._choices)

    def close(self) -> None:
        """Back to the board (nothing is recorded)."""
        self.flow, self.panel, self.metro = None, None, None
        self.refresh()

    def _act(self, action: dict) -> bool:
        app = App.get_running_app()
        if not app.act(action):
            return False
        self.close()
        return True

    # -- the screen's life ----------------------------------------------------------------

    def on_pre_enter(self, *_args) -> None:
        if self.flow not in ("wizard", "end"):
            self.flow, self.panel, self.metro = None, None, None
        self.refresh()

    def refresh(self) -> None:
        v = self._v()
        if v is None:
            self.heading = "Crazy Time: no game in progress"
            self.ids.stage.show(None)
            return
        b = self._seen_state(App.get_running_app().session.state)[1]
        self.heading = b.title
        if b.phase == "new_law" and self.flow not in ("wizard", "laws"):
            self.wizard(v)
        elif b.phase == "over" and self.flow != "laws":
            self.end(v)
        elif b.phase == "playing" and self.flow in ("wizard", "end"):
            self.flow, self.panel = None, None
        if self.panel is None:
            self._board(b)

    def _board(self, b: cp.Board) -> None:
        app = App.get_running_app()
        w = self.board_w
        w.facts = b.facts.replace("  ·  ", "\n")  # two lines under the buttons
        w.dealer_line, _, w.deal_line = b.facts.partition("  ·  ")
        w.notice, w.notice_more, w.won = b.notice, b.notice_more, b.won
        w.laws = "  ·  ".join(escape_markup(name) + (f"[size=22] ({since})[/size]" if since else "")
                              for name, since in b.law_parts)
        w.lead_seat = b.lead.seat if b.lead else 0
        w.lead_colour = self._colour(b.lead.seat) if b.lead else GREY
        w.lead_name = b.lead.text if b.lead else ""
        # RecycleView data: one dict per pick-up, the newest first and large; an action
        # changes the list of dicts, not the widget tree, and only when the pick-ups
        # changed (closing a question or another action leaves the rows as they are).
        colours = {seat: self._colour(seat) for seat in {line.seat for line in b.pickups}}
        key = tuple(b.pickups), tuple(sorted((s, tuple(c)) for s, c in colours.items()))
        if key != self._pickups_shown:
            self._pickups_shown = key
            rows = self._pickup_rows(b, colours)
            self._list_height(w.ids.pickups.layout_manager, rows)
            w.ids.pickups.data = rows
        self.buttons["guess"].disabled = not b.can_guess
        self.buttons["undo"].disabled = not (app.session and app.session.can_undo)
        self._undo_full = app.undo_label()
        self._fit_undo()
        self._let_go()
        self.ids.stage.show(self._board_page)

    @staticmethod
    def _list_height(box, rows: list[dict]) -> None:
        """The list's box as tall as ``rows`` make it, set with its data: Kivy finds its
        new height (``minimum_height``) while it lays the rows out, then lays the whole
        list out again for it, at every pick-up (the rows' heights are the data's)."""
        box.height = (sum(row["row_size"][1] for row in rows) + box.padding[1]
                      + box.padding[3] + box.spacing * max(0, len(rows) - 1))

    def _pickup_rows(self, b: cp.Board, colours: dict) -> list[dict]:
        return [
            {"seat": line.seat, "colour": colours[line.seat], "text": line.text,
             "font_size": 28 if i == 0 else 24, "wrap": i == 0,
             "row_size": (None, 84 if i == 0 else 46)}
            for i, line in enumerate(reversed(b.pickups))
        ] or [{"seat": 0, "colour": GREY, "text": "No pick-ups yet this round",
               "font_size": 24, "wrap": False, "row_size": (None, 46)}]

    # -- buttons on the table ------------------------------------------------------------------

    def on_press_event(self, event) -> None:
        app = App.get_running_app()
        if app.sm.current == "slap":  # an earlier press of this frame opened the slap pad
            app.sm.get_screen("slap").on_press_event(event)
            return
        if not event.pressed:
            return
        if self.panel is not None:
            if event.seat != CAPTAIN_SEAT and hasattr(self.panel, "on_seat"):
                self.panel.on_seat(event.seat)
            return
        v = self._v()
        if v is None or v["phase"] != "playing" or not app.has_screen("slap"):
            return
        # On the board a seat button is a slap: it opens the round it belongs to, and
        # counts in it; the captain button arms one.
        if event.seat == CAPTAIN_SEAT:
            SlapScreen.open_armed(app, by="captain")
        else:
            SlapScreen.open_armed(app, event)

    def open_slap_pad(self) -> None:
        app = App.get_running_app()
        if app.has_screen("slap"):
            SlapScreen.open_armed(app)

    # -- flows ---------------------------------------------------------------------------

    def accuse(self) -> None:
        v = self._v()
        self._ask("accuse", "Temporal flaw! Who calls it?", self._seats(v),
                  lambda accuser: self._accused(v, accuser),
                  hint="Tap a seat, or that player presses their button.")

    def _accused(self, v, accuser: int) -> None:
        self._ask("accuse", f"Whom does {self._name(v, accuser)} accuse?",
                  self._seats(v, leave_out=(accuser,)),
                  lambda accused: self._cause(v, accuser, accused))

    def _cause(self, v, accuser: int, accused: int) -> None:
        options = [(c, c, 0, None) for c in cp.causes(v)]
        self._ask("accuse", "Which law or rule was broken?", options,
                  lambda law: self._verdict(v, accuser, accused, law), cols=3)

    def _verdict(self, v, accuser: int, accused: int, law: str) -> None:
        a, b = self._name(v, accuser), self._name(v, accused)
        options = [(f"Yes: {b} picks up", True, 0, None),
                   ("Yes, but others have played since", "later", 0, None),
                   (f"No: {a} was wrong and picks up", False, 0, None)]

        def pick(ok):
            if ok == "later":  # the rulebook: the last one to have played should have seen it
                self._ask("accuse", "Who played last? They should have seen it and pick up.",
                          self._seats(v), lambda last: self._act(
                              {"type": "accusation", "accuser": accuser, "accused": accused,
                               "law": law, "correct": True, "last_played": last}))
                return
            self._act({"type": "accusation", "accuser": accuser, "accused": accused,
                       "law": law, "correct": ok})

        self._ask("accuse", f"Did {b} break {law}?", options, cols=1, on_pick=pick)

    def mistakes(self) -> None:
        v = self._v()
        app = App.get_running_app()
        self._open("mistakes", MistakesPanel(
            self._seats(v), lambda order: self._why(v, order), self.close,
            on_empty=lambda: app.say("Tap the players who erred, in order", error=True)))

    def _why(self, v, order: list[int]) -> None:
        options = [("False slaps", None, 0, None)] + [(c, c, 0, None) for c in cp.causes(v)]

        def pick(law):
            action = {"type": "mistakes", "seats": order}
            if law is None:
                action["reason"] = "false_slap"
            else:
                action["law"] = law
            self._act(action)

        self._ask("mistakes", f"What went wrong? {self._name(v, order[-1])} picks up", options,
                  pick)

    def guess(self) -> None:
        v = self._v()
        options = [(text, (seat, law), 0, None) for text, seat, law in cp.guess_options(v)]
        self._ask("guess", "Who guesses which law?", options,
                  lambda pick: self._guess_right(v, *pick), cols=1)

    def _guess_right(self, v, seat: int, law: str) -> None:
        name = self._name(v, seat)

        def pick(ok):
            if not ok:
                self._act({"type": "guess", "seat": seat, "law": law, "correct": False})
                return
            self._ask("guess", f"{name} removes 5 cards. Is their draw pile empty now?",
                      [(f"Yes: {name} wins the round", True, 0, None),
                       ("No, cards are left", False, 0, None)], cols=1,
                      on_pick=lambda empty: self._act({"type": "guess", "seat": seat,
                                                       "law": law, "correct": True,
                                                       "emptied": empty}))

        self._ask("guess", f"Is {name}'s guess for {law} right?",
                  [("Right", True, 0, None), ("Wrong", False, 0, None)], pick, cols=2)

    def round_won(self) -> None:
        v = self._v()
        self._ask("won", "Who has no cards left at the end of their turn?", self._seats(v),
                  lambda seat: self._act({"type": "round_won", "seat": seat}))

    def tick_tock(self) -> None:
        v = self._v()

        def start(seat):
            panel = MetronomePanel(who=f"Tick, Tock for {self._name(v, seat)}")
            panel.ids.stop.bind(on_release=lambda *_: self.close())
            self._open("ticktock", panel)
            self.metro = {"seat": seat, "start": None, "beat": -1}

        self._ask("ticktock", "Who is slow to play?", self._seats(v), start)

    def frames_wanted(self) -> bool:
        """Every frame while the "Tick, Tock" metronome runs (the app idles otherwise)."""
        return self.metro is not None

    def on_frame(self, now_ns: int) -> None:
        m = self.metro
        if m is None:
            return
        if m["start"] is None:
            m["start"] = now_ns
        beat, _word, done = cp.metronome(m["start"], now_ns)
        if done:
            self.metro = None
            self._act({"type": "tick_tock", "seat": m["seat"]})
            return
        app = App.get_running_app()
        while m["beat"] < beat:
            m["beat"] += 1
            app.play(cp.cue(m["beat"]))
        self.panel.word, self.panel.beat = cp.TICK_TOCK[m["beat"]], m["beat"]

    def read_laws(self) -> None:
        """Ask who is looking, then show the laws as that player may read them."""
        v = self._v()

        def show(seat):
            cards = cp.law_cards(self._v(seat))
            title = f"Laws of Time, for {self._name(v, seat)} (seat {seat})"
            self._open("laws", LawsPanel(title, cards, self.close))

        self._ask("laws", "Who is looking? Tap your seat or press your button", self._seats(v),
                  show, hint="New laws are shown only to players who were in the room.")

    # -- between rounds and at the end ------------------------------------------------------

    def wizard(self, v: dict) -> None:
        nl = v["new_law"]
        app = App.get_running_app()
        self._ask("wizard", f"{nl['creator_name']} won round {v['round']}: who leaves the room?",
                  self._seats(v, only=nl["absent_choices"]),
                  lambda absent: self._law_text(v, absent), cancel=False,
                  hint="That player cannot read the new law. Each player leaves once a game.",
                  extra=[("Undo the win", app.undo)])

    def _law_text(self, v: dict, absent: int) -> None:
        nl = v["new_law"]
        gone = self._name(v, absent)
        title = (f"{gone} is out of the room. {nl['creator_name']}, write the law for "
                 f"round {nl['for_round']}:")

        def record(name, when, what):  # a refusal is said in the engine's words
            if App.get_running_app().act({"type": "new_law", "name": name, "when": when,
                                          "what": what, "creator": nl["creator"],
                                          "absent": absent}):
                App.get_running_app().tell(f"Call {gone} back and tell them the new "
                                           f"law's name: {' '.join(name.split())}")

        self._open("wizard", NewLawPanel(title, record, lambda: self.wizard(v)))

    def end(self, v: dict) -> None:
        app = App.get_running_app()
        head, _lines = cp.end_lines(v)
        gm = v["grand_master"]
        panel = EndPanel(title=head, seat=gm["seat"], colour=self._colour(gm["seat"]),
                         text_colour=self._colour(gm["seat"], text=True))
        rows = cp.end_rows(v)
        for row in rows:
            panel.ids.rows.add_widget(EndRow(seat=row.seat, colour=self._colour(row.seat),
                                             name=row.name, wins=row.wins,
                                             pickups=row.pickups))
        for _ in range(len(rows), 6):  # few players: rows keep their height at the top
            panel.ids.rows.add_widget(Widget())
        rounds, bars = cp.chart(v)
        chart = panel.ids.chart
        chart.rounds, chart.colours = rounds, [self._colour(b.seat) for b in bars]
        chart.bars = bars
        for text, fn, share in (("Undo", app.undo, 0.8), ("Laws", self.read_laws, 0.8),
                                ("Finish game", lambda: app.end_game(ask=False), 1.4)):
            panel.ids.buttons.add_widget(BigButton(text=text, size_hint_x=share,
                                                   on_release=lambda *_, f=fn: f()))
        self._open("end", panel)
