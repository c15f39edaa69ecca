"""Benchmark of the Stop Time slap arbiter on synthetic press streams.

Run: ``python bench/slap_arbiter.py [--rounds N] [--seed S] [--jitter]``.

Each round has 4-8 seats on one press source (gpio, gpio-userspace, pad, keyboard,
mock). Slap delays are random, with the last two often closer than the source's bound
and sometimes on the same timestamp; every press has a bounce train of 1-8 edges within
6 ms, a release with its own bounce, and sometimes a second press later (mashing). Some
seats never slap (or only after the timeout), some are held down since before the arm,
some slap falsely before the arm, unknown seats press, and the arrival order of all the
round's events is shuffled. Each round is driven through ``SlapArbiter`` (arm, feed every
event, poll) and its verdict compared with the ground truth the generator knows.

By default stamps are exact (the ground truth is each press's first edge), so the
arbiter's own logic is measured: slaps at least the bound apart must be called right,
closer ones must be "too close to call". ``--jitter`` delays each press's stamps by up to
the bound (the model behind the bounds): then only gaps of twice the bound are sure to be
called, and a certain verdict must still never be wrong.

Cost: each round is also ranked by ``minimal_ranking`` below, the least a correct
answer takes (per seat: sort its edges, take the first press after the arm that is not
bounce; leave out held seats; drop slaps after the timeout; sort; name the last or the
non-slappers, "too close" within the bound), in the same run, interleaved round by round
so both see the same machine. Printed: the verdict cost of the arbiter fed edge by edge
(``feed``) and fed one frame's batch at a time (``feed_many``, as the slap screen feeds
it), each as a median and p99 in µs and as a ratio to the baseline's median; and that
the baseline agrees with the arbiter on every round (so it is correct and the comparison
fair). Goal: every one within 5x of the baseline (a round then costs about a tenth of a
millisecond, once: no frame notices it).

Exits 1 if any certain verdict or any ordering of slaps further apart than the bound was
wrong, or the baseline disagrees with the arbiter.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass, field

from companion.events import PressEvent
from companion.slap import DEFAULT_RESOLUTION_NS, ArbiterConfig, SlapArbiter

MS = 1_000_000
SOURCES = tuple(sorted(DEFAULT_RESOLUTION_NS))


@dataclass
class Tally:
    rounds: int = 0
    events: int = 0
    apart: int = 0
    apart_right: int = 0
    close: int = 0
    close_called: int = 0
    close_covered: int = 0
    close_certain_right: int = 0
    non_slapper_rounds: int = 0
    non_slapper_right: int = 0
    pairs: int = 0
    pairs_right: int = 0
    wrong_certain: int = 0
    wrong_excluded: int = 0
    no_verdict: int = 0
    disagree: int = 0
    costs_ns: list[int] = field(default_factory=list)
    ordered_ns: list[int] = field(default_factory=list)
    batch_ns: list[int] = field(default_factory=list)
    base_ns: list[int] = field(default_factory=list)


@dataclass
class Round:
    seats: list[int]
    source: str
    arm_ns: int
    events: list[PressEvent]
    slaps: dict[int, int]  # true first edges of counted slaps
    stamps: dict[int, int]  # what the arbiter sees for those
    never: set[int]  # seats in play that never slapped in time
    held: set[int]


def _train(rng: random.Random, seat: int, t: int, src: str, start_pressed: bool,
           n: int) -> list[PressEvent]:
    """``n`` bounce edges within 6 ms after ``t``, ending in the state the edge left."""
    times = sorted(rng.randint(1_000, 6 * MS) for _ in range(n))
    out, state = [], not start_pressed
    for dt in times:
        out.append(PressEvent(seat, t + dt, src, state))
        state = not state
    if out and out[-1].pressed != start_pressed:
        out.append(PressEvent(seat, t + 6 * MS + 1_000, src, start_pressed))
    return out


def _press(rng, seat, t, src, out) -> int:
    """A press with bounce and a bounced release; returns the release time."""
    out.append(PressEvent(seat, t, src, True))
    out += _train(rng, seat, t, src, True, rng.randint(1, 8))
    release = t + rng.randint(40, 400) * MS
    out.append(PressEvent(seat, release, src, False))
    out += _train(rng, seat, release, src, False, rng.randint(0, 4))
    return release


def make_round(rng: random.Random, index: int, config: ArbiterConfig, jitter: bool) -> Round:
    seats = sorted(rng.sample(range(1, 9), rng.randint(4, 8)))
    src = rng.choice(SOURCES)
    bound = config.bound_for(src)
    arm = 10**12 + index * 60_000 * MS
    free = seats[:]
    rng.shuffle(free)
    held = {free.pop()} if rng.random() < 0.05 else set()
    n_never = rng.choices((0, 1, 2), weights=(80, 12, 8))[0]
    never = {free.pop() for _ in range(n_never)}
    first = arm + rng.randint(100, 2000) * MS
    delays = sorted([0] + [rng.randint(0, 1200 * MS) for _ in range(len(free) - 1)])
    if len(delays) > 1:
        roll = rng.random()
        if roll < 0.05:
            delays[-1] = delays[-2]
        elif roll < 0.45:
            delays[-1] = delays[-2] + rng.randint(0, 2 * bound)
        if rng.random() < 0.3:
            i = rng.randrange(1, len(delays) - 1) if len(delays) > 2 else 1
            delays[i] = delays[i - 1] + rng.randint(0, 2 * bound)
            delays = sorted(delays)
    events: list[PressEvent] = []
    slaps, stamps = {}, {}
    for seat, d in zip(free, delays, strict=True):
        shift = rng.randrange(bound) if jitter and bound else 0
        mine: list[PressEvent] = []
        t = first + d
        release = _press(rng, seat, t, src, mine)
        if rng.random() < 0.3:
            _press(rng, seat, release + rng.randint(30, 300) * MS, src, mine)
        events += [PressEvent(e.seat, e.t_ns + shift, e.source, e.pressed) for e in mine]
        slaps[seat], stamps[seat] = t, t + shift
    for seat in held:
        events.append(PressEvent(seat, arm - rng.randint(100, 2000) * MS, src, True))
    for seat in never:
        if rng.random() < 0.2:  # slaps only after the timeout
            _press(rng, seat, first + config.timeout_ns + rng.randint(100, 500) * MS, src, events)
    if rng.random() < 0.1:  # a false slap before the arm
        _press(rng, rng.choice(free), arm - rng.randint(500, 1500) * MS, src, events)
    if rng.random() < 0.05:  # the captain button or an unwired seat
        events.append(PressEvent(rng.choice((0, 9)), first + rng.randint(0, 500) * MS, src))
    rng.shuffle(events)
    return Round(seats, src, arm, events, slaps, stamps, never, held)


def judge(r: Round, verdict, config: ArbiterConfig, jitter: bool, tally: Tally) -> None:
    """Compare one verdict with the ground truth and count it."""
    if verdict is None:
        tally.no_verdict += 1
        return
    bound = config.bound_for(r.source)
    sure = 2 * bound if jitter else max(bound, 1)
    if set(verdict.excluded_seats) != r.held:
        tally.wrong_excluded += 1
    order = sorted(r.slaps, key=lambda s: r.slaps[s])
    rank = {s: i for i, s in enumerate(verdict.slappers)}
    for i, a in enumerate(order):
        for b in order[i + 1:]:
            if r.slaps[b] - r.slaps[a] >= sure:
                tally.pairs += 1
                tally.pairs_right += rank.get(a, -1) < rank.get(b, -1)
    if r.held:  # a held seat cannot be timed: always a candidate, so never certain
        tally.wrong_certain += verdict.certain
        tally.wrong_excluded += not r.held <= set(verdict.candidates)
        return
    if r.never:
        tally.non_slapper_rounds += 1
        truth = tuple(sorted(r.never))
        right = verdict.candidates == truth and not verdict.too_close
        tally.non_slapper_right += right
        many = len(r.never) > 1
        tally.wrong_certain += verdict.certain and (many or verdict.picker not in r.never)
        return
    last, *rest = sorted(r.slaps, key=lambda s: -r.slaps[s])
    gap = r.slaps[last] - max((r.slaps[s] for s in rest), default=-(10**18))
    if verdict.certain and (gap <= 0 or verdict.picker != last):
        tally.wrong_certain += 1
    if gap >= sure:
        tally.apart += 1
        tally.apart_right += verdict.picker == last
    elif gap < bound or gap == 0:
        tally.close += 1
        tally.close_called += verdict.too_close
        tally.close_covered += last in verdict.candidates or gap == 0
        tally.close_certain_right += verdict.picker == last and gap > 0


def minimal_ranking(events, seats, arm_ns: int, config: ArbiterConfig, bound: int):
    """The least a correct ranking of one round takes: (ranking as (seat, t), picker,
    candidates, too_close, excluded). Plain Python, sort-based, no notices, no checks."""
    holdoff = config.holdoff_ns
    per_seat: dict[int, list] = {}
    for e in events:
        per_seat.setdefault(e.seat, []).append((e.t_ns, e.pressed))
    slaps, held = {}, []
    for seat in seats:
        edges = per_seat.get(seat)
        if not edges:
            continue
        edges.sort()
        prev, down = None, False
        for t, pressed in edges:
            if t >= arm_ns and pressed and (prev is None or t - prev > holdoff):
                slaps[seat] = t
                break
            if t < arm_ns:
                down = pressed
            if t != prev:
                prev = t
        if down and seat not in slaps:
            held.append((seat, edges))
    if not slaps:
        return None
    first = min(slaps.values())
    slaps = {s: t for s, t in slaps.items() if t <= first + config.timeout_ns}
    excluded = tuple(seat for seat, edges in held
                     if not any(not p and arm_ns <= t < first for t, p in edges))
    order = sorted((t, s) for s, t in slaps.items())
    ranking = tuple((s, t) for t, s in order)
    never = tuple(s for s in seats if s not in slaps and s not in excluded)
    held_why = tuple((s, "held") for s in sorted(excluded))
    if never:  # a held seat could have slapped at any time: always a candidate
        cands = tuple(sorted(never + excluded))
        return ranking, (cands[0] if len(cands) == 1 else None), cands, False, held_why
    last = order[-1][0]
    near = tuple(sorted(s for t, s in order if last - t < max(bound, 1)))
    cands = tuple(sorted(near + excluded))
    return ranking, (cands[0] if len(cands) == 1 else None), cands, len(near) > 1, held_why


def _agrees(verdict, base) -> bool:
    if verdict is None or base is None:
        return verdict is None and base is None
    ranking, picker, candidates, too_close, excluded = base
    return (tuple((e.seat, e.t_ns) for e in verdict.ranking), verdict.picker,
            verdict.candidates, verdict.too_close, verdict.excluded) == (
        ranking, picker, candidates, too_close, excluded)


def _by_time(event: PressEvent) -> int:
    return event.t_ns


def simulate(rounds: int, seed: int, jitter: bool = False,
             config: ArbiterConfig | None = None) -> Tally:
    """Run ``rounds`` synthetic rounds; the core of ``main`` and of its test."""
    config = config or ArbiterConfig()
    rng = random.Random(seed)
    tally = Tally()
    clock = time.perf_counter_ns
    for index in range(rounds):
        r = make_round(rng, index, config, jitter)
        done = max(r.stamps.values()) + config.settle_ns
        timeout = min(r.stamps.values()) + config.timeout_ns + config.settle_ns
        start = clock()
        base = minimal_ranking(r.events, r.seats, r.arm_ns, config, config.bound_for(r.source))
        tally.base_ns.append(clock() - start)
        arbiter = SlapArbiter(r.seats, config)
        arbiter.arm(r.arm_ns)
        start = clock()
        for event in r.events:
            arbiter.feed(event)
        verdict = arbiter.poll(done)
        if verdict is None:
            verdict = arbiter.poll(timeout)
        tally.costs_ns.append(clock() - start)
        in_order = sorted(r.events, key=_by_time)  # as one source per seat delivers them
        ordered = SlapArbiter(r.seats, config)
        ordered.arm(r.arm_ns)
        start = clock()
        for event in in_order:
            ordered.feed(event)
        again_ordered = ordered.poll(done) or ordered.poll(timeout)
        tally.ordered_ns.append(clock() - start)
        batched = SlapArbiter(r.seats, config)
        batched.arm(r.arm_ns)
        start = clock()
        batched.feed_many(r.events)
        again = batched.poll(done)
        if again is None:
            again = batched.poll(timeout)
        tally.batch_ns.append(clock() - start)
        tally.disagree += (not _agrees(verdict, base) or again != verdict
                           or again_ordered != verdict)
        tally.rounds += 1
        tally.events += len(r.events)
        judge(r, verdict, config, jitter, tally)
    return tally


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:6.2f} %" if d else "   n/a  "


def _cost(values: list[int]) -> tuple[float, float]:
    values = sorted(values)
    if not values:
        return 0.0, 0.0
    return values[len(values) // 2] / 1000, values[min(len(values) - 1,
                                                       int(len(values) * 0.99))] / 1000


def report(t: Tally, seed: int, jitter: bool, config: ArbiterConfig) -> str:
    median, p99 = _cost(t.costs_ns)
    batch, batch99 = _cost(t.batch_ns)
    ordered, ordered99 = _cost(t.ordered_ns)
    base, base99 = _cost(t.base_ns)
    per_event = sum(t.costs_ns) / max(t.events, 1) / 1000
    sure = "2x the bound" if jitter else "the bound"
    bounds = ", ".join(f"{s} {config.bound_for(s) / MS:g} ms" for s in SOURCES)
    return "\n".join([
        f"slap arbiter bench: {t.rounds} rounds, seed {seed}, "
        + ("stamps delayed by up to the bound (--jitter)" if jitter else "exact stamps"),
        f"events fed: {t.events} (bounce, releases, mashing, false and late slaps, held "
        "buttons, unknown seats; arrival order shuffled)",
        f"{f'last two >= {sure.strip()} apart:':34}{t.apart:6d} rounds; verdict = truth: "
        f"{_pct(t.apart_right, t.apart)}",
        f"{'last two < the bound apart:':34}{t.close:6d} rounds; too close to call: "
        f"{_pct(t.close_called, t.close)}; certain and right: "
        f"{_pct(t.close_certain_right, t.close)}; true last among candidates: "
        f"{_pct(t.close_covered, t.close)}",
        f"{'with non-slappers:':34}{t.non_slapper_rounds:6d} rounds; verdict = truth: "
        f"{_pct(t.non_slapper_right, t.non_slapper_rounds)}",
        f"pairs >= {sure} apart ranked in true order: {t.pairs_right}/{t.pairs} "
        f"({_pct(t.pairs_right, t.pairs).strip()})",
        f"held seats reported wrongly: {t.wrong_excluded}; rounds without a verdict: "
        f"{t.no_verdict}",
        f"wrong certain verdicts: {t.wrong_certain} ({_pct(t.wrong_certain, t.rounds).strip()})",
        f"baseline (minimal sort-based ranking) agrees with the arbiter: "
        f"{t.rounds - t.disagree}/{t.rounds} rounds",
        f"verdict cost, whole round (median, p99): baseline {base:.1f} / {base99:.1f} µs; "
        f"arbiter fed edge by edge in shuffled order {median:.1f} / {p99:.1f} µs "
        f"({median / base if base else 0:.2f}x the baseline, {per_event:.2f} µs per event); "
        f"edge by edge in time order {ordered:.1f} / {ordered99:.1f} µs "
        f"({ordered / base if base else 0:.2f}x); per frame batch (feed_many) {batch:.1f} / "
        f"{batch99:.1f} µs ({batch / base if base else 0:.2f}x the baseline)",
        f"resolution bounds: {bounds}",
    ])


def failed(t: Tally) -> bool:
    return bool(t.wrong_certain or t.pairs != t.pairs_right or t.no_verdict or t.wrong_excluded
                or t.disagree)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jitter", action="store_true",
                        help="delay each press's stamps by up to the source's bound")
    args = parser.parse_args(argv)
    config = ArbiterConfig()
    tally = simulate(args.rounds, args.seed, args.jitter, config)
    print(report(tally, args.seed, args.jitter, config))
    return 1 if failed(tally) else 0


if __name__ == "__main__":
    sys.exit(main())
