"""How quickly the kiosk reaches its first screen: ``companion run`` from process start
to the ``READY=1`` it sends systemd after its first frame (the same signal the unit
waits for). Needs a display: ``make bench`` runs it under Xvfb when there is none.

    python bench/startup.py [--runs N]

Prints the median and the slowest start in seconds; a start that never becomes ready
within the limit fails the bench (exit status 1).
"""

from __future__ import annotations

import argparse
import os
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LIMIT_S = 60.0


def one_start(workdir: Path) -> float:
    sock_path = workdir / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path), COMPANION_DATA_DIR=str(workdir),
               KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", SDL_AUDIODRIVER="dummy")
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        while True:
            left = LIMIT_S - (time.perf_counter() - t0)
            if left <= 0 or proc.poll() is not None:
                raise RuntimeError("the companion never reported READY=1")
            ready, _, _ = select.select([sock], [], [], min(left, 0.5))
            if ready and sock.recv(64) == b"READY=1":
                return time.perf_counter() - t0
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        sock.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY"):
        print("startup bench: no DISPLAY (run it under xvfb-run, as `make bench` does)")
        return 1
    times = []
    try:
        for i in range(args.runs):
            with tempfile.TemporaryDirectory() as tmp:
                times.append(one_start(Path(tmp)))
            print(f"  start {i + 1}: {times[-1]:.2f} s")
    except RuntimeError as exc:
        print(f"startup bench: {exc}")
        return 1
    print(f"kiosk start to first screen: median {statistics.median(times):.2f} s, "
          f"slowest {max(times):.2f} s over {len(times)} starts "
          "(each from a fresh data folder, so Kivy writes its config every time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
