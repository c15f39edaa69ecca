"""Clock jumps the link reports on a virtual pad whose clock never jumps, under CPU load.

Run: ``python bench/pad_clock_jumps.py [--seconds S] [--threads N] [--switch-ms M]
[--heartbeat-ms H]`` (8 s, 2 threads, 1 ms, 10 ms by default).

Path measured: the virtual pad (the real firmware on ``FakeHal``, stepped by this thread)
on a pseudo-terminal, ``PadSource`` reading it with real pyserial on its own thread, and
``N`` pure-Python threads burning the CPU beside them with a switch interval of ``M`` ms
(the GIL changes hands often, so any thread may be held up between two lines). The pad
keeps one boot and one rate all along: every jump the link reports is a phantom.

Printed: heartbeat replies (clock-sync samples), how many the pad stamped before the host
sent their heartbeat or after the host got them (the virtual pad's clock is known, so each
stamp's true host time is), the worst such stamp, and the link's clock jumps and voids.
Exits 1 if any reply broke causality or any jump was reported.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

from companion.events import EventQueue
from companion.pad.link import LinkTiming, PadVoid
from companion.pad.source import PadSource
from companion.pad.transport import Backoff
from companion.pad.virtual import VirtualPad


def burn(stop: threading.Event) -> None:
    x = 0
    while not stop.is_set():
        for i in range(2000):
            x += i * i


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--threads", type=int, default=2, help="CPU-bound Python threads")
    parser.add_argument("--switch-ms", type=float, default=1.0, help="sys.setswitchinterval")
    parser.add_argument("--heartbeat-ms", type=float, default=10.0)
    args = parser.parse_args(argv)
    stop = threading.Event()
    old_switch = sys.getswitchinterval()
    samples: list[tuple[int, int, int]] = []
    events: list[object] = []
    with tempfile.TemporaryDirectory() as folder:
        pad = VirtualPad(seats=4, link=Path(folder) / "slap-pad", seed=1)
        queue = EventQueue()
        source = PadSource(pad.path, queue.post, backoff=Backoff(0.02, 0.2),
                           timing=LinkTiming(heartbeat_ns=round(args.heartbeat_ms * 1e6)))
        real_add = source.link.clock.add

        def add(sent: int, recv: int, pad_ns: int) -> str:
            samples.append((sent, recv, pad_ns))
            return real_add(sent, recv, pad_ns)

        source.link.clock.add = add
        burners = [threading.Thread(target=burn, args=(stop,), daemon=True)
                   for _ in range(args.threads)]
        try:
            sys.setswitchinterval(args.switch_ms / 1000)
            for t in burners:
                t.start()
            source.start()
            end = time.monotonic() + args.seconds
            while time.monotonic() < end:
                pad.step()
                events += queue.drain()
                pad.wait(0.002)
        finally:
            stop.set()
            sys.setswitchinterval(old_switch)
            source.stop()
            pad.close()
        events += queue.drain()

    def true_host(pad_ns: int) -> float:  # the pad clock is steady: base + rate * host
        return pad._mono0 + (pad_ns / 1000 - pad._base_us) * 1000 / pad._rate

    early = [s - true_host(p) for s, _r, p in samples if true_host(p) < s - 2000]
    late = [true_host(p) - r for _s, r, p in samples if true_host(p) > r + 2000]
    jumps = source.link.stats["clock_jumps"]
    voids = sum(isinstance(e, PadVoid) for e in events)
    print(f"{args.seconds:g} s, {args.threads} CPU-bound threads, switch interval "
          f"{args.switch_ms:g} ms, heartbeat every {args.heartbeat_ms:g} ms")
    print(f"  heartbeat replies: {len(samples)}; stamped before the send: {len(early)} "
          f"(worst {max(early, default=0) / 1000:.0f} µs); after the receipt: {len(late)}")
    print(f"  clock jumps reported: {jumps}; rounds voided: {voids} (the pad's clock never "
          "jumped: want 0)")
    return 0 if not (early or late or jumps) else 1


if __name__ == "__main__":
    sys.exit(main())
