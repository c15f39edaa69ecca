"""What the Stop Time slap screen shows, as plain data (no Kivy, no clock).

``slap_view(...)`` turns the screen's situation (phase, the slaps counted so far, the
arbiter's ``Verdict``, the seat the table chose, the recorded rounds) into a ``SlapView``:
the big line (who picks up, in their colour, or "Too close to call: seat 3 or seat 5 —
tap who picks up"), a smaller line under it, the timeline picture's marks (one per slap:
seat, colour name, delay in ms, x from 0 to 1 on an axis scaled to the slowest slap, and
a row so that close marks do not cover each other), the axis ticks, the non-slappers,
the candidate buttons, which buttons are live, and the last rounds as sentences.

``decision(verdict, chosen)`` says what a recorded round stores (picker + decision);
``notice_lines`` picks the arbiter notices worth the status line; ``rounds_from_*`` read
the recorded rounds back from a ``stop_time`` or ``crazy_time`` snapshot.

Wiring: ``companion.slap.round.SlapRound.view`` calls ``slap_view`` for the slap screen;
``arbiter_config`` builds the arbiter's tuning from the ``[slap]`` config (milliseconds)
so the screen holds no arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from companion.slap.arbiter import DEFAULT_RESOLUTION_NS, ArbiterConfig, Notice
from companion.slap.verdict import CASE_FALSE_ALARM, WHY_WORDS, Verdict

IDLE, ARMED, OPEN, VERDICT = "idle", "armed", "open", "verdict"
PHASES = (IDLE, ARMED, OPEN, VERDICT)

#: Notice kinds worth a line in the status bar (the rest is bounce or shown elsewhere).
SHOWN_NOTICES = ("false_slap", "held", "stuck", "mash", "late", "flood", "unknown_seat",
                 "unknown_source", "backwards", "invalid", "chatter", "unsure_start",
                 "quiet", "untimed")
#: Pixels between a mark's disc and its label, and between two marks' room on a row.
MARK_GAP_PX = 4
LAST_ROUNDS = 5


@dataclass(frozen=True)
class Mark:
    """One slap on the timeline (``pack`` places it on a row, its label beside it)."""

    seat: int
    colour: str
    delay_ms: float
    x: float  # 0 (first slap) .. 1 (slowest slap)
    label: str  # "+41.0 ms"


@dataclass(frozen=True)
class Place:
    """Where ``pack`` puts a mark: its row (0 on the axis, up from there), its label
    left of the disc (near the axis's end) or right, or no label (no room anywhere)."""

    row: int
    label_left: bool
    labelled: bool


@dataclass(frozen=True)
class SeatChip:
    seat: int
    colour: str
    name: str = ""  # the player's name, shown under the disc ("" when nobody named it)


@dataclass(frozen=True)
class RoundLine:
    """One recorded round for the list: ``label`` ("Round 3"), who picked up, and why
    ("+180 ms", "table's call", "false alarm", "never slapped")."""

    label: str
    picker: int | None
    how: str

    @property
    def text(self) -> str:
        return self.text_for({})

    def text_for(self, names: Mapping[int, str]) -> str:
        """"Slap 3: Ann (+41.0 ms)", with the player's name where one is known."""
        if self.picker is None:
            return f"{self.label}: nobody picked up"
        return f"{self.label}: {names.get(self.picker) or f'seat {self.picker}'} ({self.how})"


@dataclass(frozen=True)
class SlapView:
    phase: str
    headline: str
    headline_seat: int | None  # the seat the big line is about (drawn as its badge)
    headline_colour: str | None
    detail: str
    marks: tuple[Mark, ...]
    ticks: tuple[tuple[float, str], ...]  # (x, "50 ms") along the axis
    span_ms: float
    non_slappers: tuple[SeatChip, ...]
    choices: tuple[SeatChip, ...]  # one button per candidate when the table decides
    can_false_alarm: bool
    can_record: bool
    rounds: tuple[RoundLine, ...]


def arbiter_config(holdoff_ms: float, timeout_ms: float, stuck_ms: float,
                   pad_resolution_ns: int | None = None,
                   pad_hold_ns: int | None = None) -> ArbiterConfig:
    """The arbiter's tuning from the config's ``[slap]`` values in milliseconds.

    ``pad_resolution_ns`` is what the Pico pad link measured (its worst recent scan gap):
    it can only widen the pad's documented bound, never narrow it. ``pad_hold_ns``: how
    long the pad's link may hold a press back (``PadBridge.longest_hold_ns``): a round
    waits that long for the pad before it leaves the pad's seats to the table, so a slap
    the link held is never left out of the first verdict.
    """
    resolution = dict(DEFAULT_RESOLUTION_NS)
    if pad_resolution_ns:
        resolution["pad"] = max(resolution["pad"], int(pad_resolution_ns))
    quiet = max(ArbiterConfig.quiet_ns, int(pad_hold_ns or 0))
    return ArbiterConfig(holdoff_ns=round(holdoff_ms * 1e6), timeout_ns=round(timeout_ms * 1e6),
                         stuck_ns=round(stuck_ms * 1e6), resolution_ns=resolution,
                         quiet_ns=quiet)


def fmt_ms(ms: float) -> str:
    if ms == 0:
        return "0 ms"
    return f"+{ms:.1f} ms" if ms < 1000 else f"+{ms:.0f} ms"


def seat_list(seats: Sequence[int], joiner: str = "or",
              names: Mapping[int, str] | None = None) -> str:
    """"Ann", "Ann or Bob", "Ann, Bob or Cara" (a seat nobody named: "seat 3")."""
    names = names or {}
    words = [names.get(s) or f"seat {s}" for s in seats]
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + f" {joiner} " + words[-1]


def left_out_text(verdict: Verdict, names: Mapping[int, str] | None = None) -> str:
    """The seats the round could not time, by name and why: "Cara (button already held
    down), Dan (its source went quiet)"; "" when none."""
    names = names or {}
    return ", ".join(f"{names.get(s) or f'seat {s}'} ({WHY_WORDS.get(w, w)})"
                     for s, w in verdict.excluded)


def verdict_sentence(verdict: Verdict, names: Mapping[int, str] | None = None) -> str:
    """The verdict as one sentence with the players' names (for notices and banners):
    "Bo picks up (last, +41.0 ms).", "The table decides between Ann and Cara (Cara: its
    source went quiet)."."""
    names = names or {}
    left = left_out_text(verdict, names)
    if verdict.picker is not None:
        who = names.get(verdict.picker) or f"Seat {verdict.picker}"
        if verdict.picker in dict(verdict.excluded):
            return f"{who} picks up (could not be timed, and nobody else could pick up)."
        if verdict.picker in verdict.non_slappers:
            return f"{who} picks up (never slapped)."
        return f"{who} picks up (last, {fmt_ms(verdict.ranking[-1].delay_first_ns / 1e6)})."
    if not verdict.candidates:
        return "Nobody slapped: nobody picks up."
    who = seat_list(verdict.candidates, "and", names)
    tail = f"; not timed: {left}" if left else ""
    return f"The table decides between {who}{tail}."


def decision(verdict: Verdict, chosen: int | None) -> tuple[int | None, str] | None:
    """``(picker, decision)`` to record, or None while the table still has to choose."""
    if verdict.case == CASE_FALSE_ALARM:
        picker = verdict.picker if verdict.picker is not None else chosen
        if picker is None or picker not in verdict.candidates:
            return None
        return picker, "false_alarm"
    if verdict.picker is not None:
        return verdict.picker, "verdict"
    if chosen is not None and chosen in verdict.candidates:
        return chosen, "table"
    return None


def timeline(verdict_or_slaps: Verdict | Sequence[tuple[int, int]],
             colours: Mapping[int, str]) -> tuple[tuple[Mark, ...], float]:
    """Marks in slap order and the axis span (ms). Accepts a verdict or live
    ``(seat, t_ns)`` slaps (any order)."""
    if isinstance(verdict_or_slaps, Verdict):
        pairs = [(e.seat, e.t_ns) for e in verdict_or_slaps.ranking]
    else:
        pairs = sorted(verdict_or_slaps, key=lambda st: (st[1], st[0]))
    if not pairs:
        return (), 0.0
    first = pairs[0][1]
    delays = [(seat, (t - first) / 1e6) for seat, t in pairs]
    span = max(ms for _, ms in delays)
    return tuple(Mark(seat, colours.get(seat, "grey"), round(ms, 3),
                      ms / span if span > 0 else 0.0, fmt_ms(ms))
                 for seat, ms in delays), span


def pack(marks: Sequence[tuple[float, float]], radius: float, right: float,
         rows: int) -> list[Place]:
    """Rows for the timeline's marks so that no disc or label covers another: ``marks``
    are ``(x, label width)`` in pixels, in x order, on an axis that ends at ``right``;
    ``rows`` is how many rows of discs the picture has room for. A label goes right of
    its disc, or left of it when it would run past the axis's end or has no room on any
    row there; a mark with no room for its label on any row keeps its disc alone (the
    side list says its delay)."""
    ends = [float("-inf")] * max(1, rows)  # the right end of what each row holds
    out = []
    for x, width in marks:
        disc = (x - radius, x + radius)
        right_side = (disc[0], disc[1] + MARK_GAP_PX + width)
        left_side = (disc[0] - MARK_GAP_PX - width, disc[1])
        sides = [(True, left_side)] if right_side[1] > right else \
            [(False, right_side), (True, left_side)]
        place = None
        for row in range(len(ends)):
            for left, (lo, hi) in sides:
                if lo > ends[row] + MARK_GAP_PX:
                    place, ends[row] = Place(row, left, True), hi
                    break
            if place is not None:
                break
        if place is None:  # the disc alone, where it fits best
            row = next((r for r in range(len(ends)) if disc[0] > ends[r] + MARK_GAP_PX),
                       min(range(len(ends)), key=ends.__getitem__))
            place, ends[row] = Place(row, False, False), max(ends[row], disc[1])
        out.append(place)
    return out


def ticks(span_ms: float, most: int = 5) -> tuple[tuple[float, str], ...]:
    """Round-number ticks for an axis from 0 to ``span_ms``."""
    if span_ms <= 0:
        return ((0.0, "0 ms"),)
    step = next((s for s in (0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000)
                 if span_ms / s <= most), 5000)
    out, k = [], 0
    while k * step <= span_ms + 1e-9:
        value = k * step
        out.append((value / span_ms, f"{value:g} ms"))
        k += 1
    return tuple(out)


def slap_view(phase: str, seats: Sequence[int], colours: Mapping[int, str], *,
              live: Iterable[tuple[int, int]] = (), verdict: Verdict | None = None,
              chosen: int | None = None, rounds: Sequence[RoundLine] = (),
              bound_ms: float | None = None, choose_seats: bool = False,
              names: Mapping[int, str] | None = None, note: str = "") -> SlapView:
    """The whole screen's data; see the module docstring. ``choose_seats``: the idle
    screen offers the seats in play (the standalone tool). ``names``: players' names by
    seat, so the verdict names a person ("Ann picks up"), not only a seat. ``note``: why
    the last round was voided (until the next slap opens one) or what the round waits
    for (a pad reconnecting)."""
    names = names or {}
    if phase not in PHASES:
        raise ValueError(f"unknown slap screen phase {phase!r}")
    chip = {s: SeatChip(s, colours.get(s, "grey"), names.get(s, "")) for s in seats}
    base = dict(phase=phase, headline_seat=None, headline_colour=None, marks=(), ticks=(),
                span_ms=0.0, non_slappers=(), choices=(), can_false_alarm=False,
                can_record=False, rounds=tuple(rounds[:LAST_ROUNDS]))
    if phase == IDLE and note:  # a voided round: say why; the next slap opens one
        return SlapView(headline="Slap again!", detail=note, **base)
    if phase == IDLE:
        bound = f" Timing good to {bound_ms:g} ms." if bound_ms is not None else ""
        seats_line = " Tap a seat below to take it in or out." if choose_seats else ""
        return SlapView(headline="Tap STOP TIME to arm", detail="Or press the captain "
                        f"button.{bound}{seats_line}", **base)
    if phase in (ARMED, OPEN) or verdict is None:
        marks, span = timeline(list(live), colours)
        if not marks:
            return SlapView(**{**base, "phase": phase,
                               "headline": "Slap again!" if note else "Armed: slap!",
                               "detail": note or "The first slap opens the round."})
        return SlapView(**{**base, "phase": OPEN, "marks": marks, "span_ms": span,
                           "ticks": ticks(span),
                           "headline": f"{len(marks)} of {len(seats)} slapped",
                           "detail": note or "Waiting for the others..."})
    marks, span = timeline(verdict, colours)
    base.update(marks=marks, span_ms=span, ticks=ticks(span),
                non_slappers=tuple(chip.get(s, SeatChip(s, "grey"))
                                   for s in verdict.non_slappers),
                can_false_alarm=verdict.case != CASE_FALSE_ALARM and bool(verdict.ranking))
    picked = decision(verdict, chosen)
    left = left_out_text(verdict, names)
    not_timed = f"Not timed: {left}." if left else ""
    if picked is None or picked[0] is None:
        cands = verdict.candidates
        base["choices"] = tuple(chip.get(s, SeatChip(s, "grey")) for s in cands)
        if not cands:
            return SlapView(headline="Nobody slapped", detail="Nothing to record.", **base)
        if verdict.excluded:  # a seat not timed may have been last: always a candidate
            left = seat_list([s for s, _ in verdict.excluded], "and", names)
            why = "; ".join(f"{names.get(s) or f'Seat {s}'}: {WHY_WORDS[w]}"
                            for s, w in verdict.excluded)
            out = {s for s, _ in verdict.excluded}
            tied = [s for s in cands if s not in out]
            if verdict.too_close and len(tied) > 1:  # and the timed ones were a tie
                return SlapView(headline=f"{left[:1].upper()}{left[1:]} could not be timed, "
                                f"{seat_list(tied, 'and', names)} too close to call — tap "
                                "who picks up", detail=f"{why}.", **base)
            return SlapView(headline=f"{left[:1].upper()}{left[1:]} could not be timed — "
                            "tap who picks up", detail=f"{why}.", **base)
        if verdict.too_close:
            why = (f"Within {verdict.resolution_ns / 1e6:g} ms: closer than the buttons "
                   "can tell apart.")
            return SlapView(headline=f"Too close to call: {seat_list(cands, names=names)} "
                            "— tap who picks up", detail=why, **base)
        who = seat_list(cands, "and", names)
        return SlapView(headline=f"{who[:1].upper()}{who[1:]} never slapped — "
                        "tap who picks up", detail="Several players never slapped.", **base)
    seat, how = picked
    who = names.get(seat, f"Seat {seat}")
    base.update(headline_seat=seat, headline_colour=chip.get(seat, SeatChip(seat, "")).colour,
                can_record=True)
    extra = f" {not_timed}" if not_timed else ""
    if how == "false_alarm":
        return SlapView(headline=f"False alarm: {who} picks up",
                        detail="Nobody should have slapped: the last one who did picks up."
                        + extra, **base)
    if how == "table":
        return SlapView(headline=f"{who} picks up", detail="The table's call." + extra,
                        **base)
    if seat in dict(verdict.excluded):
        return SlapView(headline=f"{who} picks up", detail=f"{not_timed} Nobody else could "
                        "pick up.", **base)
    if seat in verdict.non_slappers:
        return SlapView(headline=f"{who} picks up", detail="Never slapped." + extra, **base)
    return SlapView(headline=f"{who} picks up",
                    detail=f"Last, {fmt_ms(marks[-1].delay_ms)} after the first "
                           f"(timing ±{verdict.resolution_ns / 1e6:g} ms).{extra}", **base)


def notice_lines(notices: Iterable[Notice],
                 names: Mapping[int, str] | None = None) -> list[str]:
    """The notices a person should read, as sentences, oldest first, with the player's
    name where the arbiter says "Seat 3" ("Cara's button is chattering ...")."""
    names = names or {}
    out = []
    for n in notices:
        if n.kind not in SHOWN_NOTICES:
            continue
        text = n.text
        who = names.get(n.seat) if n.seat is not None else None
        if who and text.startswith(f"Seat {n.seat}"):
            text = who + text[len(f"Seat {n.seat}"):]
        out.append(text.rstrip(".") + ".")
    return out


def _round_line(label: str, picker: int | None, how: str,
                ranking: Sequence[Mapping]) -> RoundLine:
    if picker is None:
        return RoundLine(label, None, "")
    delay = next((r.get("delay_ms", r.get("delay_first_ms")) for r in ranking
                  if r.get("seat") == picker), None)
    tail = {"false_alarm": "false alarm", "table": "table's call"}.get(how)
    if tail is None:
        tail = fmt_ms(delay) if isinstance(delay, (int, float)) else "never slapped"
    return RoundLine(label, picker, tail)


def rounds_from_stop_time(snapshot: Mapping) -> list[RoundLine]:
    """Recorded slap rounds of a ``stop_time`` game, newest first."""
    return [_round_line(f"Round {r['n']}", r["picker"], r["decision"], r["ranking"])
            for r in reversed(snapshot.get("rounds", []))]


def rounds_from_crazy_time(snapshot: Mapping) -> list[RoundLine]:
    """Slap pick-ups of a ``crazy_time`` game (with a verdict), newest first, numbered by
    slap round ("Slap 3", "in round 2" of the game)."""
    out = []
    for p in snapshot.get("pickups", []):
        v = p.get("verdict")
        if p.get("reason") not in ("slap", "false_slap") or not isinstance(v, Mapping):
            continue
        if p["reason"] == "false_slap":
            how = "false_alarm"
        else:  # recorded by the engine (its snapshot derives it from the facts)
            how = p.get("decision") or "table"
        ranking = [{"seat": seat, "delay_ms": ms} for seat, ms in p.get("delays") or []]
        out.append(_round_line(f"Slap {len(out) + 1}", p["seat"], how, ranking))
    return out[::-1]
