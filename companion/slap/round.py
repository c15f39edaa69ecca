"""One Stop Time round at a time, from its arm to its record: the slap round as a plain object.

What it is for: everything a slap round decides at the table, with no Kivy, no clock reads
and no I/O, so that a plain test can play every edge of it:

* **Armed** by the referee (the STOP TIME face), the captain button, or the first slap
  from any source while nothing is armed. A round opened by a slap starts a round's
  length (the arbiter's ``timeout_ns``) before it, though never before the last press of
  the round before could truly have been (a pad press's stamp plus its clock-sync doubt,
  so that press never straddles the start and leaves its seat untimed): nobody armed it,
  so the slaps that came before the opener's (a pad press that arrived after a button's,
  held back by its link) are that round's first, and a pad press whose clock-sync doubt
  straddles its own stamp is never "too close to the start" of the round it opened.
* **Fed** every seat edge (``press``), the Pico pad's state each frame (``pad_state``:
  ready or not, how far its stream is complete) and its notices (``pad_event``): a pad
  restart, clock jump, flood or untimed stretch during a round voids it and says so in
  words a player understands; the next slap opens the next round (never "false"); a pad
  that is reconnecting holds the round (bounded: ``PAD_PATIENCE_NS``).
* **Told the time** once a frame (``tick``): the round's ``SlapArbiter`` closes it when it
  can be judged, and redoes a verdict (shown or recorded) when a slap of it arrives late.
* **Decided** by the table (``choose``, ``call_false_alarm``), **recorded** through the
  session by the screen (``action`` gives what to act, ``recorded`` is told it was logged),
  or **cancelled**.

What the screen shows is ``view(...)`` (``companion.slap.view.slap_view``). What the box
must do besides showing is listed as ``Effect``s (``take_effects``): lamps, sounds, a line
for the status bar, a message the table must act on, the verdict to speak, the round to
keep for a restart (``journal``), a recorded round that may be wrong.

Wiring (``companion/ui/screens/slap.py``)::

    rnd = SlapRound(seats, config, names={1: "Ann"})
    rnd.arm(now_ns, by="referee")      # or a slap does it: rnd.press(event)
    rnd.press(event)                   # every PressEvent of a seat, whatever shows
    rnd.pad_state(ready, mark_ns)      # each frame while a pad is there
    rnd.pad_event(notice, now_ns)      # PadRebooted / PadVoid from the pad link
    rnd.tick(now_ns)                   # feeds the presses, may close or redo the round
    for effect in rnd.take_effects(): ...   # companion/ui/slap_effects.py carries them out
    show(rnd.view(colours, rounds))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from companion.events import CAPTAIN_SEAT, PressEvent
from companion.slap.arbiter import ArbiterConfig, Notice, SlapArbiter
from companion.slap.verdict import CASE_FALSE_ALARM, Verdict, false_alarm
from companion.slap.view import (
    ARMED,
    IDLE,
    OPEN,
    VERDICT,
    RoundLine,
    SlapView,
    decision,
    notice_lines,
    slap_view,
    verdict_sentence,
)

MS = 1_000_000
#: The game log's setting that keeps the round on across a crash (``SlapRound.journal``).
KEPT_ROUND = "slap_round"
#: How long after its first slap a round waits for a slap pad that is reconnecting (a
#: replug, a link that lost its way): the pad keeps the presses it has not delivered.
PAD_PATIENCE_NS = 10_000 * MS
PAD_AWAY = "The slap pad is reconnecting: waiting for its slaps..."
#: The pad sources the round waits for when a pad is plugged in (see ``pad_state``).
PAD_SOURCES = ("pad", "pad-pio")

#: What a voided round tells the table when the pad's notice has no words of its own (the
#: link's are in ``companion.pad.linkevents.VOID_WORDS``).
VOID_OTHER = "The slap pad had a problem: this round does not count. Slap again."

#: ``Effect.kind``s, and what ``value`` holds for each.
EFFECTS = {
    "lamps_off": "None: every seat lamp off",
    "lamp": "a seat whose lamp goes on (its slap counted)",
    "blink": "the seats whose lamps blink (the picker, or the candidates)",
    "sound": "a cue name: slap, verdict, too_close, tap",
    "say": "a line for the status bar",
    "tell": "a message the table must act on (the banner, until tapped away)",
    "speak": "the Verdict to say aloud",
    "keep": "the round to keep for a restart (``journal``), or None when none is open",
    "correction": "the redone Verdict of the recorded round (it may be wrong)",
}


@dataclass(frozen=True, slots=True)
class Effect:
    """Something the box does besides showing the view; see ``EFFECTS``."""

    kind: str
    value: object = None


@dataclass(frozen=True, slots=True)
class LevelOnly(PressEvent):
    """An edge known by its level, not its time (the arbiter reads ``untimed`` edges so):
    a pad button's release the pad could not send (it restarted first), so a seat that
    was down then is not taken for held in the next round; or a pad press that reached
    the box after a void yet is stamped before it (a fresh clock fit that is off), so
    its seat is left to the table rather than taken for a false slap."""

    untimed: ClassVar[bool] = True


#: Pad notices after which the pad's buttons that were down are up as far as anyone knows
#: (their releases, if any, were lost with the pad's queue).
LOSES_RELEASES = ("reboot", "replug", "clock_jump")


@dataclass(frozen=True, slots=True)
class Recorded:
    """The round last recorded: the screen's ``key`` for that logged action (game and
    number of actions, to undo it again), who picked up and the verdict as shown."""

    key: object
    picker: int
    verdict: Verdict


class SlapRound:
    """The table's Stop Time round; see the module docstring."""

    def __init__(self, seats: Iterable[int], config: ArbiterConfig | None = None, *,
                 names: Mapping[int, str] | None = None) -> None:
        self.arbiter = SlapArbiter(seats, config)
        self.seats = self.arbiter.seats
        #: Players' names by seat ("Seat 3" where none): lines and sentences use them.
        self.names: dict[int, str] = dict(names or {})
        self.phase = IDLE
        self.opened_by = ""  # "referee", "captain" or "slap"
        self.live: dict[int, int] = {}  # seat -> stamp of its counted slap, this round
        self.verdict: Verdict | None = None  # as the arbiter gave it
        self.shown: Verdict | None = None  # on screen (the false-alarm one after that tap)
        self.chosen: int | None = None
        self.note = ""  # why a round was voided (until the next slap), or what it waits for
        self.last: Recorded | None = None  # the round last recorded
        self.correction: Verdict | None = None  # its redone verdict, when it differs
        self._verdict_ns: int | None = None  # when the round on screen was judged
        # The latest a press that belongs to no round to come (the rounds before, the
        # presses between them) may truly have been, its stamp plus its sync doubt, and
        # the same for the round on: see ``opened_at``.
        self._floor_ns = self._round_ns = -(1 << 62)
        self._pad_down: set[int] = set()  # seats whose latest pad edge was a press
        self._dead_boots: set[int] = set()  # pad boots that restarted (``_stale``)
        self._void_ns: int | None = None  # when the pad last voided a round
        self._pad_back_ns: int | None = None  # the pad came back during the round then
        self._pad_away = False  # the pad the round waits for is reconnecting
        self._inbox: list[PressEvent] = []
        self._effects: list[Effect] = []
        self._kept: dict | None = None

    @property
    def config(self) -> ArbiterConfig:
        return self.arbiter.config

    @property
    def waiting(self) -> bool:
        """Presses wait for the next ``tick``."""
        return bool(self._inbox)

    @property
    def busy(self) -> bool:
        """Every frame matters: a round is open, presses wait, or a judged round got
        something ``tick`` has not weighed yet."""
        return self.phase == OPEN or bool(self._inbox) or self.arbiter.unsettled

    def take_effects(self) -> list[Effect]:
        out, self._effects = self._effects, []
        return out

    def _do(self, kind: str, value: object = None) -> None:
        self._effects.append(Effect(kind, value))

    def _name(self, seat: int) -> str:
        return self.names.get(seat) or f"Seat {seat}"

    # -- arming ----------------------------------------------------------------------------

    def arm(self, now_ns: int, by: str = "referee") -> None:
        """Ready for a round from ``now_ns`` (the presses' clock); any round on is left."""
        self._feed()  # presses before the arm are described as before it
        self._reset(ARMED)
        self.opened_by, self._verdict_ns = by, None
        self._pad_away, self._pad_back_ns = False, None
        self.last = self.correction = None
        self._do("lamps_off")
        self._notices(self.arbiter.arm(now_ns))
        self._keep()

    def press(self, event: PressEvent, opens: bool = True) -> None:
        """A seat's edge. While nothing is armed a press of a seat in play opens the
        round and counts in it (``opens``: the slap screen shows; a press while another
        screen shows only keeps the buttons' levels), unless it is a late slap of the
        round just judged (stamped before that verdict): that one may redo it."""
        if event.seat == CAPTAIN_SEAT:
            return
        if self._stale(event):  # a report of the pad's boot before it restarted
            if event.pressed:
                return  # no slap of any round to come
            event = LevelOnly(event.seat, event.t_ns, event.source, False)
        elif (self._void_ns is not None and event.source in PAD_SOURCES
              and event.t_ns <= self._void_ns and not getattr(event, "untimed", False)):
            event = LevelOnly(event.seat, event.t_ns, event.source, event.pressed)
        if (opens and self.phase == IDLE and event.pressed and event.seat in self.seats
                and not getattr(event, "untimed", False)
                and (self._verdict_ns is None or event.t_ns > self._verdict_ns)):
            self.arm(self.opened_at(event), by="slap")
        if event.source in PAD_SOURCES:
            (self._pad_down.add if event.pressed else self._pad_down.discard)(event.seat)
        # A pad stamp may be off by its sync doubt: a round that opens after this press
        # must start after the latest it may truly have been, or the press straddles the
        # start and its seat cannot be timed in the round it opens.
        latest = event.t_ns + max(0, getattr(event, "uncertainty_ns", 0))
        if event.pressed and self.phase == IDLE:  # a press that is no slap of a round
            self._floor_ns = max(self._floor_ns, latest)
        elif event.pressed:
            self._round_ns = max(self._round_ns, latest)
        self._inbox.append(event)

    def _stale(self, event: PressEvent) -> bool:
        """A pad press stamped in the clock of a pad boot that has since restarted (it
        reached the box after the restart was told): its time means nothing now."""
        clock = getattr(event, "clock", None)
        boot = clock[1] if isinstance(clock, tuple) and len(clock) > 1 else None
        return isinstance(boot, tuple) and bool(boot) and boot[0] in self._dead_boots

    def opened_at(self, opener: PressEvent) -> int:
        """When a round opened by the slap ``opener`` starts: a round's length before it,
        never before the last press of the rounds before (or a void), and always before
        the opener itself, whatever its doubt (see the module docstring)."""
        doubt = max(0, getattr(opener, "uncertainty_ns", 0)) + \
            max(0, getattr(opener, "resolution_ns", 0))
        start = max(opener.t_ns - max(self.config.timeout_ns, doubt + 1), self._floor_ns + 1)
        return min(start, opener.t_ns - doubt - 1)  # the opener counts, whatever came before

    def captain(self, t_ns: int) -> bool:
        """The captain button: arms an idle round; True when it should record the
        verdict on screen (the screen records, through its session)."""
        if self.phase == IDLE:
            self.arm(t_ns, by="captain")
            return False
        return self.phase == VERDICT and self.decided is not None

    # -- the pad ---------------------------------------------------------------------------

    def pad_state(self, ready: bool, mark_ns: int | None) -> None:
        """The pad's stream is complete up to ``mark_ns`` (host clock); a round on while
        the pad is ready waits for it (it may hold slaps the round needs)."""
        arbiter = self.arbiter
        if isinstance(mark_ns, int):
            arbiter.confirm("pad", mark_ns)
        if ready and arbiter.armed and not arbiter.expects("pad"):
            arbiter.expect("pad", PAD_SOURCES, "The slap pad")
        if arbiter.armed and arbiter.expects("pad") and ready == self._pad_away:
            self._pad_away = not ready  # gone, or back (``tick`` notes when)
            self._pad_back_ns = -1 if ready else None

    def _waits_for_pad(self, now_ns: int) -> bool:
        """The round waits for a pad that is reconnecting, and once it is back until its
        stream is complete past the round's deadline (a reconnected link may first hold
        the pad's resent presses for a new clock fit); at most ``PAD_PATIENCE_NS`` after
        the first slap, then the arbiter leaves the pad's unheard seats to the table."""
        arbiter = self.arbiter
        first = arbiter.first_slap_ns if arbiter.armed else None
        if first is None or now_ns > first + PAD_PATIENCE_NS:
            return False
        if self._pad_back_ns == -1:
            self._pad_back_ns = now_ns
        back, mark = self._pad_back_ns, arbiter.watermark("pad")
        complete = mark is not None and mark >= first + self.config.timeout_ns
        waits = self._pad_away or (back is not None and not complete)
        self.note = PAD_AWAY if self._pad_away else ""
        return waits

    def pad_event(self, notice: object, now_ns: int) -> bool:
        """A notice of the pad link. One that voids rounds (``voids_round``) voids a round
        on and tells the table why (the notice's ``text``, with who had slapped); the next
        slap opens the next round (it starts from that slap, in the new clock of a pad
        that restarted, never at a moment of the old one). True when it voided a round
        (the app need not say the notice again)."""
        old_boot = getattr(notice, "old_nonce", None)
        if isinstance(old_boot, int) and old_boot:
            self._dead_boots.add(old_boot)
        if getattr(notice, "reason", "reboot") in LOSES_RELEASES and self._pad_down:
            self._feed()  # (before the lost releases)
            for seat in sorted(self._pad_down):
                self._inbox.append(LevelOnly(seat, now_ns, PAD_SOURCES[0], False))
            self._pad_down.clear()
        if not getattr(notice, "voids_round", False) or self.phase not in (ARMED, OPEN):
            return False
        self._feed()  # the presses before the notice belong to the voided round
        words = getattr(notice, "text", "") or VOID_OTHER
        slapped = [self._name(s) for s in sorted(self.live, key=self.live.get)]
        self.arbiter.disarm()
        self._reset(IDLE)  # the next slap opens the round: never a "false slap"
        self._floor_ns = max(self._floor_ns, now_ns)  # nothing before it is the next's
        self._void_ns = now_ns
        self._verdict_ns = None
        self._do("lamps_off")
        self._keep()
        self.note = words
        self._do("tell", words if not slapped else
                 f"{words} (Slapped before it: {', '.join(slapped)}.)")
        return True

    # -- the frame -------------------------------------------------------------------------

    def tick(self, now_ns: int, quiet: bool = False) -> None:
        """Feed the presses held since the last tick, then let the round close or be
        redone. ``quiet``: another screen shows (no lines about presses meant for it)."""
        self._feed(quiet)
        arbiter = self.arbiter
        if self._waits_for_pad(now_ns):
            return
        verdict = arbiter.poll(now_ns)
        notices = [n for n in arbiter.take_notices() if n.kind != "verdict"]
        if not quiet:
            self._notices(notices)
        if verdict is None:
            return
        if arbiter.revision:
            if self.last is not None:
                self._late_for_recorded(verdict)
                return
            if self.phase != VERDICT:
                return
            self._do("say", "A slap that arrived late changed the verdict: it is redone "
                     "below.")
        self._verdict_ns = now_ns
        self._show(verdict)

    def _show(self, verdict: Verdict) -> None:
        self.verdict = self.shown = verdict
        self.chosen = None
        self.phase = VERDICT
        self._do("sound", "verdict" if verdict.certain else "too_close")
        self._blink()
        self._do("speak", verdict)
        self._keep()

    def _feed(self, quiet: bool = False) -> None:
        if self._inbox:
            batch, self._inbox = self._inbox, []
            notices = self.arbiter.feed_many(batch)
            if not quiet:
                self._notices(notices)

    def _notices(self, notices: list[Notice]) -> None:
        slapped = False
        for n in notices:
            if n.kind == "slap" and self.phase in (ARMED, OPEN):
                self._do("lamp", n.seat)
                self.live[n.seat] = min(n.t_ns, self.live.get(n.seat, n.t_ns))
                self.phase, self.note, slapped = OPEN, "", True
        if slapped:
            self._do("sound", "slap")
            self._keep()
        lines = notice_lines(notices, self.names)
        if lines:
            self._do("say", lines[-1])

    # -- the table's decision --------------------------------------------------------------

    def call_false_alarm(self) -> None:
        """Nobody should have slapped: the last one who did picks up."""
        if self.phase != VERDICT or self.verdict is None or not self.verdict.ranking:
            return
        self.shown, self.chosen = false_alarm(self.verdict), None
        self._do("sound", "verdict" if self.shown.certain else "too_close")
        self._blink()
        self._do("speak", self.shown)

    def choose(self, seat: int) -> None:
        """The table taps who picks up among the candidates."""
        if self.phase == VERDICT and self.shown is not None and seat in self.shown.candidates:
            self.chosen = seat
            self._do("sound", "tap")
            self._blink()

    def _blink(self) -> None:
        self._do("lamps_off")
        picked = self.decided
        self._do("blink", (picked[0],) if picked else tuple(self.shown.candidates))

    @property
    def decided(self) -> tuple[int, str] | None:
        """``(picker, how)`` the round would record now, or None (the table must tap)."""
        if self.phase != VERDICT or self.shown is None:
            return None
        picked = decision(self.shown, self.chosen)
        return picked if picked is not None and picked[0] is not None else None

    def action(self, for_game: bool) -> dict | str:
        """What to act in the session: a Crazy Time pick-up (``for_game``) or a round of
        the slap pad's own log; or why nothing can be recorded yet."""
        picked = self.decided
        if picked is None:
            return "Tap who picks up first"
        seat, how = picked
        facts = self.shown.to_facts()
        if for_game:
            return {"type": "pickup", "seat": seat, "verdict": facts,
                    "reason": "false_slap" if how == "false_alarm" else "slap"}
        return {"type": "slap_round", "verdict": facts, "picker": seat, "decision": how}

    def recorded(self, key: object) -> None:
        """The session logged ``action()``: the round is over; a slap of it that arrives
        later is weighed against what was recorded (``key``: the screen's, to undo it)."""
        seat = self.decided[0]
        self.last = Recorded(key, seat, self.shown)
        self.correction = None
        self._do("say", f"Recorded: {self._name(seat)} picks up")
        self._reset(IDLE)
        self._keep()

    def cancel(self) -> None:
        """Abandon the round (nothing is recorded), or keep the recorded verdict rather
        than its redone one."""
        self._feed()
        self.arbiter.disarm()
        self.correction = self._verdict_ns = None
        self._do("lamps_off")
        self._reset(IDLE)
        self._keep()

    def _reset(self, phase: str) -> None:
        self.phase, self.live, self.verdict, self.shown, self.chosen = phase, {}, None, None, None
        self.note = ""
        self._floor_ns = max(self._floor_ns, self._round_ns)  # the round on is over

    # -- a recorded round redone by a late slap ----------------------------------------------

    def _late_for_recorded(self, verdict: Verdict) -> None:
        """A slap stamped inside the recorded round arrived after it was recorded. If the
        redone verdict could name someone else, say so and offer the correction."""
        last = self.last
        if last.verdict.case == CASE_FALSE_ALARM and verdict.ranking:
            verdict = false_alarm(verdict)  # the table called it off: it still is
        if verdict.certain and verdict.picker == last.picker:
            self._do("say", f"A late slap of the recorded round arrived; the recorded verdict "
                     f"stands ({self._name(last.picker)} picks up).")
            return
        self.correction = verdict
        self._do("tell", f"A slap of the recorded round arrived after it was recorded: the "
                 f"recorded pick-up ({self._name(last.picker)}) may be wrong. Redone: "
                 f"{verdict_sentence(verdict, self.names)} Open the slap pad to correct it.")
        self._do("correction", verdict)

    def show_correction(self) -> None:
        """Show the redone verdict of the recorded round: recording it replaces that round
        (the screen undoes the recorded one first, ``last.key``)."""
        if self.correction is None or self.last is None:
            return
        self.verdict = self.shown = self.correction
        self.chosen, self.phase = None, VERDICT
        self._blink()

    # -- what the screen shows, and what a restart is told -----------------------------------

    def view(self, colours: Mapping[int, str], rounds: tuple[RoundLine, ...] = (), *,
             bound_ms: float | None = None, choose_seats: bool = False) -> SlapView:
        """The whole screen's data (``companion.slap.view.slap_view``)."""
        return slap_view(self.phase, self.seats, colours, live=self.live.items(),
                         verdict=self.shown, chosen=self.chosen, rounds=rounds,
                         bound_ms=bound_ms, choose_seats=choose_seats, names=self.names,
                         note=self.note)

    def journal(self) -> dict | None:
        """The round on, as plain data to keep across a crash: who had slapped and when,
        and the verdict shown (not yet recorded); None when no round is on."""
        if self.phase == IDLE:
            return None
        return {"phase": self.phase, "seats": list(self.seats),
                "slapped": [[s, t] for s, t in sorted(self.live.items(), key=lambda x: x[1])],
                "names": {str(s): n for s, n in self.names.items()},
                "picker": self.decided[0] if self.decided else None}

    def _keep(self) -> None:
        kept = self.journal()
        if kept != self._kept:
            self._kept = kept
            self._do("keep", kept)


def interrupted_text(kept: Mapping) -> str:
    """What the table is told after a restart that stopped a round on (``journal``)."""
    names = {int(s): n for s, n in (kept.get("names") or {}).items()}
    slapped = [names.get(s) or f"Seat {s}" for s, _t in kept.get("slapped") or ()]
    if kept.get("phase") == VERDICT and kept.get("picker") is not None:
        who = names.get(kept["picker"]) or f"Seat {kept['picker']}"
        return (f"The box stopped before the slap round was recorded ({who} was to pick "
                "up): nothing was recorded. Slap again, or give {who} the pick-up by hand.")
    if slapped:
        return (f"The box stopped during a slap round ({', '.join(slapped)} had slapped): "
                "that round does not count. Slap again.")
    return "The box stopped while a slap round was armed: slap again."
