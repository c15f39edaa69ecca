"""What a tap on the Crazy Time screen means, without Kivy.

``CrazyTimeControl`` holds everything half-entered on the Crazy Time screen: which flow
is open (a temporal flaw asked question by question, the players who erred in order,
the "Tick, Tock" metronome, who is looking at the laws, the new law typed between
rounds), the answers given so far, the law's fields and the one field being typed, the
sentence a refusal left in the law's form, and the message to call the absent player
back. It builds every action from the rulebook (a wrong accusation picks up the accuser,
"others played since" charges the last to play, several mistakes charge the last one),
checks a new law against the engine before recording it (its refusal is shown in the
form, next to the field to fix, and leaves when that field is typed in), and turns the
game into one immutable ``CrazyView`` for the screen to show.

Wiring: the screen makes one ``CrazyTimeControl(app)`` and calls it from its
handlers; each call returns the view to show. ``app`` is a port, duck-typed: it uses
``app.session`` (the open ``GameSession``: ``rules``, ``state``, ``can_undo``),
``app.act(action) -> bool`` (refusals are the app's to say), ``app.undo() -> bool``,
``app.undo_label()``, ``app.play(cue)``, ``app.end_game(ask=False)`` and ``app.cfg``
(seat colours). The game is read through ``presenters.crazy_time_view.view(state,
None)`` only (a player's own view once they said who is looking), so no secret law text
reaches the shared screen. No Kivy, no clock: the metronome is driven by the frame
times the screen passes to ``frame(now_ns)``. What the state did since the last view
(an action, an undo, from this screen, the slap pad or anywhere) is read from the
session each time a view is asked for (``view()``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from companion.games import crazy_time
from companion.games.base import check
from companion.palette import seat_rgba
from companion.ui.presenters import crazy_time as cp
from companion.ui.presenters.crazy_time_view import view as game_view

GREY = (0.5, 0.5, 0.5, 1)
#: The law's fields: key, label, the hint in an empty field, the most letters typed.
FIELDS = (("name", "Name", "Everyone will know the name", 30),
          ("when", "When?", "When the law applies (secret)", 90),
          ("what", "What?", "What must be done (secret)", 90))
UNDO_WORDS = 22  # an Undo label longer than this drops the name ("Undo: pickup")


@dataclass(frozen=True)
class Option:
    """One answer: a seat (its badge and name) or words (``seat`` 0)."""

    text: str
    seat: int = 0
    colour: tuple = GREY
    selected: bool = False


@dataclass(frozen=True)
class Question:
    title: str
    hint: str
    options: tuple[Option, ...]
    cols: int
    ends: tuple[str, ...]  # the buttons under the answers (extra ones, then Cancel)


@dataclass(frozen=True)
class Row:
    """A line about one seat (0: nobody) in a seat's colour."""

    seat: int
    colour: tuple
    text: str


@dataclass(frozen=True)
class Field:
    key: str
    label: str
    text: str
    hint: str
    most: int


@dataclass(frozen=True)
class LawForm:
    title: str
    fields: tuple[Field, ...]
    typing: str  # the key of the field being typed ("": none)
    note: str  # a refusal of the engine, until the table types again


@dataclass(frozen=True)
class EndRow:
    seat: int
    colour: tuple
    name: str
    wins: int
    pickups: int


@dataclass(frozen=True)
class End:
    head: str
    seat: int
    colour: tuple
    rows: tuple[EndRow, ...]
    rounds: tuple[int, ...]
    bars: tuple[cp.Bar, ...]
    bar_colours: tuple[tuple, ...]


@dataclass(frozen=True)
class CrazyView:
    """What the screen shows now. ``page``: "none" (no game), "board", "question",
    "mistakes", "metronome", "laws", "law" (the new law's form) or "end"."""

    page: str
    heading: str
    board: cp.Board | None = None
    lead_colour: tuple = GREY
    #: the first line, beside the badge of who starts at 1 o'clock: what they do now
    #: when the news is theirs ("Dan gathers every discard pile and starts at 1
    #: o'clock"), else who starts; ``notice`` is then the news, on a line of its own
    lead: str = ""
    notice: str = ""
    pickups: tuple[Row, ...] = ()
    laws: str = ""  # "Laws: Time Machine · Synchronisation · High Noon" (the names)
    facts: str = ""  # who won which round; who dealt how many cards, until a pick-up
    undo: str = "Undo"
    can_undo: bool = False
    call_back: str = ""  # the screen's own message (a tap closes it)
    question: Question | None = None
    who: str = ""  # whom the metronome counts at
    word: str = ""  # the metronome's word
    beat: int = -1
    cards: str = ""  # the law cards a player may read (markup, escaped)
    law: LawForm | None = None
    end: End | None = None


def escape(text: str) -> str:
    """Kivy markup's escapes, so a law's name shows as typed."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")


class CrazyTimeControl:
    """The Crazy Time screen's taps and half-entered answers (see the module doc)."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.flow: str | None = None  # accuse, mistakes, guess, won, ticktock, laws, wizard
        self.page = "board"  # within a flow: question, mistakes, metronome, laws, law
        self._question: Question | None = None
        self._values: tuple = ()
        self._on_pick: Callable[[Any], object] | None = None
        self._ends: tuple[Callable[[], object], ...] = ()
        self.order: list[int] = []
        self.order_note = ""
        self.metro: dict | None = None  # {"seat", "start", "beat"} while counting
        self.reader: int | None = None  # who is looking at the laws
        self.draft = {key: "" for key, *_ in FIELDS}
        self.absent: int | None = None
        self.typing = ""
        self.note = ""
        self.call_back: tuple[object, str] | None = None  # (the state it is for, text)

    # -- reading the game --------------------------------------------------------------

    def _game(self) -> dict | None:
        session = self.app.session
        if session is None or session.rules.NAME != crazy_time.NAME:
            return None
        return game_view(session.state, None)

    def _colour(self, seat: int) -> tuple:
        return seat_rgba(self.app.cfg, seat) if seat else GREY

    def _name(self, v: dict, seat: int) -> str:
        return next(p["name"] for p in v["players"] if p["seat"] == seat)

    def _seats(self, v: dict, only: Sequence[int] | None = None,
               leave_out: Sequence[int] = ()) -> list[tuple[Option, int]]:
        return [(Option(p["name"], p["seat"], self._colour(p["seat"])), p["seat"])
                for p in v["players"]
                if p["seat"] not in leave_out and (only is None or p["seat"] in only)]

    def _sync(self, v: dict) -> None:
        """The flow the game's phase asks for: the new law between rounds, the end
        after round 4, the board once play goes on (an undo, a resume)."""
        phase = v["phase"]
        if phase == "new_law" and self.flow not in ("wizard", "laws"):
            self.wizard(v)
        elif phase == "over" and self.flow not in ("end", "laws"):
            self._to("end", "end")
        elif phase == "playing" and self.flow in ("wizard", "end"):
            self.close()

    # -- the view ----------------------------------------------------------------------

    def view(self) -> CrazyView:
        v = self._game()
        if v is None:
            return CrazyView("none", "Crazy Time: no game in progress")
        self._sync(v)
        b = cp.board(v)
        session = self.app.session
        undo = self.app.undo_label()
        if len(undo) > UNDO_WORDS:
            undo = undo.split(" (", 1)[0]
        call_back = ""
        if self.call_back is not None and self.call_back[0] is session.state:
            call_back = self.call_back[1]
        laws = "Laws: " + " · ".join(name for name, _since in b.law_parts)
        page = self.page if self.flow else "board"
        return CrazyView(
            page=page, heading=b.title, board=b,
            lead_colour=self._colour(b.lead.seat) if b.lead else GREY,
            **self._lead(b),
            pickups=tuple(Row(line.seat, self._colour(line.seat), line.text)
                          for line in reversed(b.pickups)),
            laws=laws, facts="\n".join(filter(None, (b.won, "" if b.pickups else b.facts))),
            undo=undo, can_undo=bool(session.can_undo), call_back=call_back,
            question=self._question if page == "question" else
            self._erred(v) if page == "mistakes" else None,
            who=self.metro["who"] if self.metro else "",
            word=cp.TICK_TOCK[self.metro["beat"]] if self.metro and self.metro["beat"] >= 0
            else "",
            beat=self.metro["beat"] if self.metro else -1,
            cards=self._laws_text(v) if page == "laws" else "",
            law=self._law_form(v) if page == "law" else None,
            end=self._end(v) if page == "end" else None)

    @staticmethod
    def _lead(b: cp.Board) -> dict:
        if b.lead is None:
            return {"lead": "", "notice": b.notice}
        if b.notice.startswith(b.lead.text + " "):
            return {"lead": f"{b.notice} and starts at 1 o'clock", "notice": ""}
        return {"lead": f"{b.lead.text} starts at 1 o'clock", "notice": b.notice}

    # -- a question and its answers ---------------------------------------------------

    def _ask(self, flow: str, title: str, options: Sequence[tuple[Option, Any]],
             on_pick: Callable[[Any], object], hint: str = "", cols: int = 3,
             cancel: bool = True, extra: Sequence[tuple[str, Callable]] = ()) -> None:
        ends = [*extra, *((("Cancel", self.close),) if cancel else ())]
        self._question = Question(title, hint, tuple(o for o, _ in options), cols,
                                  tuple(text for text, _ in ends))
        self._values = tuple(value for _, value in options)
        self._on_pick, self._ends = on_pick, tuple(fn for _, fn in ends)
        self._to(flow, "question")

    def _to(self, flow: str, page: str) -> None:
        self.flow, self.page = flow, page

    def pick(self, index: int) -> CrazyView:
        """The answer ``index`` of the question shown was tapped."""
        if self.page == "question" and 0 <= index < len(self._values):
            self._on_pick(self._values[index])
        elif self.page == "mistakes":
            v = self._game()
            options = self._erred(v).options if v is not None else ()
            if 0 <= index < len(options):
                return self.mistake(options[index].seat)
        return self.view()

    def end_button(self, index: int) -> CrazyView:
        """A button under the answers (Cancel, "Undo the win")."""
        if self.page == "question" and 0 <= index < len(self._ends):
            self._ends[index]()
        elif self.page == "mistakes" and 0 <= index < 3:
            return (self.clear_mistakes, self.back, self.mistakes_done)[index]()
        return self.view()

    def press(self, seat: int) -> str:
        """A seat's button was pressed: "slap" when it opens the slap pad (the board is
        shown while a round is played), "answer" when it answered a question or named
        a player who erred, "" when it means nothing here."""
        v = self._game()
        if v is None:
            return ""
        if self.flow is None:
            return "slap" if v["phase"] == "playing" else ""
        if self.page == "mistakes":
            self.mistake(seat)
            return "answer"
        if self.page == "question":
            seats = [o.seat for o in self._question.options]
            if seat in seats:
                self.pick(seats.index(seat))
                return "answer"
        return ""

    def close(self) -> None:
        """Back to the board, nothing recorded."""
        self.flow, self.page, self.metro, self.reader = None, "board", None, None
        self._question, self._values, self._on_pick, self._ends = None, (), None, ()
        self.order, self.order_note = [], ""

    def back(self) -> CrazyView:
        """Cancel, "Stop counting", "Done: hide the laws": the board (or what the phase
        asks for: the new law, the end)."""
        self.close()
        return self.view()

    def _act(self, action: dict) -> bool:
        """Record ``action``; the flow closes when it is recorded (a refusal is said by
        the app and leaves the question up, to answer again)."""
        names = ("flow", "page", "_question", "_values", "_on_pick", "_ends", "order", "metro")
        keep = [getattr(self, name) for name in names]
        self.close()
        if self.app.act(action):
            return True
        for name, value in zip(names, keep, strict=True):
            setattr(self, name, value)
        return False

    # -- the board's buttons ----------------------------------------------------------

    def tap(self, button: str) -> CrazyView:
        """A button of the board: accuse, mistakes, tick_tock, round_won, guess,
        read_laws, undo."""
        v = self._game()
        if v is None:
            return self.view()
        if button == "undo":
            self.app.undo()
            return self.view()
        if v["phase"] == "playing" or button == "read_laws":
            getattr(self, button)(v)
        return self.view()

    def accuse(self, v: dict) -> None:
        self._ask("accuse", "Temporal flaw! Who calls it?", self._seats(v),
                  lambda accuser: self._accused(v, accuser),
                  hint="Tap a seat, or that player presses their button.")

    def _accused(self, v: dict, accuser: int) -> None:
        self._ask("accuse", f"Whom does {self._name(v, accuser)} accuse?",
                  self._seats(v, leave_out=(accuser,)),
                  lambda accused: self._cause(v, accuser, accused))

    def _cause(self, v: dict, accuser: int, accused: int) -> None:
        self._ask("accuse", "Which law or rule was broken?",
                  [(Option(c), c) for c in cp.causes(v)],
                  lambda law: self._verdict(v, accuser, accused, law))

    def _verdict(self, v: dict, accuser: int, accused: int, law: str) -> None:
        a, b = self._name(v, accuser), self._name(v, accused)
        flaw = {"type": "accusation", "accuser": accuser, "accused": accused, "law": law}

        def pick(ok):
            if ok == "later":  # the last one to have played should have seen it
                self._ask("accuse", "Who played last? They should have seen it and "
                          "pick up.", self._seats(v),
                          lambda last: self._act({**flaw, "correct": True,
                                                  "last_played": last}))
            else:
                self._act({**flaw, "correct": ok})

        self._ask("accuse", f"Did {b} break {law}?",
                  [(Option(f"Yes: {b} picks up"), True),
                   (Option("Yes, but others have played since"), "later"),
                   (Option(f"No: {a} was wrong and picks up"), False)], pick, cols=1)

    def mistakes(self, v: dict) -> None:
        self.order, self.order_note = [], ""
        self._to("mistakes", "mistakes")

    def _erred(self, v: dict) -> Question:
        """The seats in the order they erred (the hint), the last one picking up."""
        return Question("Who erred? Tap the seats in the order of their mistakes",
                        self.order_note or self._order_text(v),
                        tuple(Option(o.text, o.seat, o.colour, o.seat in self.order)
                              for o, _ in self._seats(v)), 3, ("Clear", "Cancel", "Next"))

    def _order_text(self, v: dict) -> str:
        if self.flow != "mistakes" or self.page != "mistakes":
            return ""
        if not self.order:
            return "Nobody yet"
        names = [self._name(v, s) for s in self.order]
        return " then ".join(names) + f": {names[-1]} picks up"

    def mistake(self, seat: int) -> CrazyView:
        """A seat tapped or pressed: it erred next."""
        v = self._game()
        if v is not None and self.page == "mistakes" and \
                any(p["seat"] == seat for p in v["players"]):
            self.order.append(seat)
            self.order_note = ""
        return self.view()

    def clear_mistakes(self) -> CrazyView:
        self.order, self.order_note = [], ""
        return self.view()

    def mistakes_done(self) -> CrazyView:
        """"Next": on to what went wrong, or, with nobody chosen yet, say what to do."""
        v = self._game()
        if v is None or self.page != "mistakes":
            return self.view()
        if not self.order:
            self.order_note = "Tap the players who erred, in order"
            return self.view()
        order = list(self.order)

        def pick(law):
            action: dict = {"type": "mistakes", "seats": order}
            if law is None:
                action["reason"] = "false_slap"
            else:
                action["law"] = law
            self._act(action)

        self._ask("mistakes", f"What went wrong? {self._name(v, order[-1])} picks up",
                  [(Option("False slaps"), None), *((Option(c), c) for c in cp.causes(v))],
                  pick)
        return self.view()

    def guess(self, v: dict) -> None:
        self._ask("guess", "Who guesses which law?",
                  [(Option(text), (seat, law)) for text, seat, law in cp.guess_options(v)],
                  lambda pick: self._guess_right(v, *pick), cols=1)

    def _guess_right(self, v: dict, seat: int, law: str) -> None:
        name = self._name(v, seat)
        guess = {"type": "guess", "seat": seat, "law": law}

        def right(ok):
            if not ok:
                self._act({**guess, "correct": False})
                return
            self._ask("guess", f"{name} removes 5 cards. Is their draw pile empty now?",
                      [(Option(f"Yes: {name} wins the round"), True),
                       (Option("No, cards are left"), False)],
                      lambda empty: self._act({**guess, "correct": True, "emptied": empty}),
                      cols=1)

        self._ask("guess", f"Is {name}'s guess for {law} right?",
                  [(Option("Right"), True), (Option("Wrong"), False)], right, cols=2)

    def round_won(self, v: dict) -> None:
        self._ask("won", "Who has no cards left at the end of their turn?", self._seats(v),
                  lambda seat: self._act({"type": "round_won", "seat": seat}))

    def tick_tock(self, v: dict) -> None:
        def start(seat):
            self.metro = {"seat": seat, "start": None, "beat": -1,
                          "who": f"Tick, Tock for {self._name(v, seat)}"}
            self._to("ticktock", "metronome")

        self._ask("ticktock", "Who is slow to play?", self._seats(v), start)

    def frame(self, now_ns: int) -> CrazyView | None:
        """A frame at ``now_ns`` while the metronome counts: a word a second, each with
        its sound; after the fourth word's second "Tick, Tock" is recorded. Returns the
        view when it changed (None: nothing to show anew)."""
        m = self.metro
        if m is None:
            return None
        if m["start"] is None:
            m["start"] = now_ns
        beat, _word, done = cp.metronome(m["start"], now_ns)
        if done and not self._act({"type": "tick_tock", "seat": m["seat"]}):
            self.close()  # refused (said by the app): counted once, not at every frame
        if done:
            return self.view()
        if m["beat"] >= beat:
            return None
        while m["beat"] < beat:
            m["beat"] += 1
            self.app.play(cp.cue(m["beat"]))
        return self.view()

    @property
    def counting(self) -> bool:
        """The metronome runs (the screen wants every frame)."""
        return self.metro is not None

    def read_laws(self, v: dict) -> None:
        """Who is looking? Then the laws as that player may read them."""
        def show(seat):
            self.reader = seat
            self._to("laws", "laws")

        self._ask("laws", "Who is looking? Tap your seat or press your button",
                  self._seats(v), show,
                  hint="New laws are shown only to players who were in the room.")

    def _laws_text(self, v: dict) -> str:
        session = self.app.session
        cards = cp.law_cards(game_view(session.state, self.reader))
        out = [f"[b]Laws of Time, for {escape(self._name(v, self.reader))} "
               f"(seat {self.reader})[/b]"]
        for card in reversed(cards):  # the newest law first
            out.append(f"\n[b]{escape(card.name)}[/b]  ({escape(card.by)})")
            out.append("Hidden from you: you were out of the room. Guess it after "
                       "someone picks up because of it." if card.hidden else
                       f"When? {escape(card.when)}\nWhat? {escape(card.what)}")
        return "\n".join(out)

    # -- between rounds: the new law --------------------------------------------------

    def wizard(self, v: dict) -> None:
        nl = v["new_law"]
        self.absent, self.typing, self.note = None, "", ""
        self._ask("wizard", f"{nl['creator_name']} won round {v['round']}: who leaves the "
                  "room?", self._seats(v, only=nl["absent_choices"]), self._out,
                  hint="That player cannot read the new law. Each player leaves once a "
                  "game.", cancel=False, extra=[("Undo the win", self.app.undo)])

    def _out(self, seat: int) -> None:
        self.absent = seat
        self._to("wizard", "law")

    def _law_form(self, v: dict) -> LawForm:
        nl = v["new_law"] or {}
        title = (f"{self._name(v, self.absent)} is out. "
                 f"{nl.get('creator_name', '')}, write the law for round "
                 f"{nl.get('for_round', '')}:")
        return LawForm(title, tuple(Field(key, label, self.draft[key], hint, most)
                                    for key, label, hint, most in FIELDS),
                       self.typing, self.note)

    def type_field(self, key: str) -> CrazyView:
        """A field of the law tapped: the keyboard types into it."""
        if self.page == "law" and key in self.draft:
            self.typing = key
        return self.view()

    def typed(self, text: str) -> CrazyView:
        """The field being typed now reads ``text``: a refusal about it is answered."""
        if self.page == "law" and self.typing:
            most = next(m for k, *_, m in FIELDS if k == self.typing)
            self.draft[self.typing] = " ".join(text.split("\n"))[:most]
            self.note = ""
        return self.view()

    def next_field(self) -> CrazyView:
        keys = [key for key, *_ in FIELDS]
        if self.typing:
            i = keys.index(self.typing)
            self.typing = keys[i + 1] if i + 1 < len(keys) else ""
        return self.view()

    def stop_typing(self) -> CrazyView:
        self.typing = ""
        return self.view()

    def law_back(self) -> CrazyView:
        """Back to who leaves the room (what was typed is kept)."""
        v = self._game()
        if v is not None and v["phase"] == "new_law":
            self.flow = None
            self.wizard(v)
        return self.view()

    def record(self) -> CrazyView:
        """"Record the law": checked by the engine first; its refusal stays in the form
        until the table types again. Recorded, the absent player is to be called back."""
        session = self.app.session
        v = self._game()
        if v is None or self.page != "law" or v["phase"] != "new_law":
            return self.view()
        nl = v["new_law"]
        action = {"type": "new_law", **self.draft, "creator": nl["creator"],
                  "absent": self.absent}
        self.typing = ""
        refusal = check(session.rules, session.state, action)
        if refusal is not None:
            self.note = refusal.sentence
            return self.view()
        gone = self._name(v, self.absent)
        if self._act(action):
            self.draft = {key: "" for key in self.draft}
            self.call_back = (self.app.session.state,
                              f"Call {gone} back and tell them the new law's name: "
                              f"{' '.join(action['name'].split())}")
        return self.view()

    def close_call_back(self) -> CrazyView:
        """A tap on the message: it goes, for good."""
        self.call_back = None
        return self.view()

    # -- the end -----------------------------------------------------------------------

    def finish(self) -> None:
        self.app.end_game(ask=False)

    def _end(self, v: dict) -> End:
        head = cp.crowning(v)
        gm = v["grand_master"] or {"seat": 0}
        rounds, bars = cp.chart(v)
        return End(head, gm["seat"], self._colour(gm["seat"]),
                   tuple(EndRow(r.seat, self._colour(r.seat), r.name, r.wins, r.pickups)
                         for r in cp.end_rows(v)),
                   tuple(rounds), tuple(bars), tuple(self._colour(b.seat) for b in bars))
