"""How quickly the kiosk reaches its first screen: ``companion run`` from process start
to the ``READY=1`` it sends systemd after its first frame (the same signal the unit
waits for), against a minimal Kivy app (one label, one button) that sends the same
signal after its first frame, started in turn with it in the same run. Needs a display:
``make bench`` runs it under Xvfb when there is none.

    python bench/startup.py [--runs N]

Prints the median and the slowest start in seconds of both and their ratio (goal: 2 at
most); a start that never becomes ready within the limit fails the bench (exit status
1).

Both start from compiled bytecode, as on the box after its first start (nothing there
stops Python writing it): an untimed start of each fills a cache of the bench's own
(``PYTHONPYCACHEPREFIX``), also when the shell says ``PYTHONDONTWRITEBYTECODE``.
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
GOAL_RATIO = 2.0

#: The minimal app: Kivy set up as the companion sets it up (``kivy_env.prepare``), one
#: label and one button, READY=1 on the socket once its first frame is swapped.
MINIMAL = """
import os, socket, sys
from pathlib import Path
sys.path.insert(0, sys.argv[1])
from companion.ui.kivy_env import prepare
prepare(Path(os.environ["COMPANION_DATA_DIR"]) / "kivy")
from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label

def ready(*_):
    Window.unbind(on_flip=ready)
    def send(_dt):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        s.sendto(b"READY=1", os.environ["NOTIFY_SOCKET"])
    Clock.schedule_once(send, 0)

class Minimal(App):
    def build(self):
        root = BoxLayout(orientation="vertical")
        root.add_widget(Label(text="0", font_size=28))
        root.add_widget(Button(text="Tap", font_size=28))
        Window.bind(on_flip=ready)
        return root

Minimal().run()
"""

HERE = Path(__file__).resolve().parents[1]  # this checkout's companion


#: the bytecode both apps start from (filled by an untimed start of each)
PYCACHE = Path(tempfile.mkdtemp(prefix="companion-bench-pycache-"))


def one_start(workdir: Path, minimal: bool = False) -> float:
    sock_path = workdir / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    env = dict(os.environ, NOTIFY_SOCKET=str(sock_path), COMPANION_DATA_DIR=str(workdir),
               KIVY_NO_ARGS="1", KIVY_NO_CONSOLELOG="1", SDL_AUDIODRIVER="dummy")
    t0 = time.perf_counter()
    env["PYTHONPATH"] = str(HERE)
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if minimal:  # a file: Kivy looks for an app's kv file beside its source
        (workdir / "minimal.py").write_text(MINIMAL)
        command = [str(workdir / "minimal.py"), str(HERE)]
    else:
        command = ["-m", "companion", "run"]
    proc = subprocess.Popen([sys.executable, *command], env=env, cwd=HERE,
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
    times: list[float] = []
    floor: list[float] = []
    try:
        for minimal in (True, False):  # untimed: the bytecode cache filled
            with tempfile.TemporaryDirectory() as tmp:
                one_start(Path(tmp), minimal=minimal)
        for i in range(args.runs):  # in turn, so both see the same load
            with tempfile.TemporaryDirectory() as tmp:
                floor.append(one_start(Path(tmp), minimal=True))
            with tempfile.TemporaryDirectory() as tmp:
                times.append(one_start(Path(tmp)))
            print(f"  start {i + 1}: companion {times[-1]:.2f} s, minimal Kivy app "
                  f"{floor[-1]:.2f} s")
    except RuntimeError as exc:
        print(f"startup bench: {exc}")
        return 1
    ratio = statistics.median(times) / statistics.median(floor)
    print(f"kiosk start to first screen: median {statistics.median(times):.2f} s, "
          f"slowest {max(times):.2f} s over {len(times)} starts "
          "(each from a fresh data folder, so Kivy writes its config every time)")
    print(f"minimal Kivy app, same run: median {statistics.median(floor):.2f} s, "
          f"slowest {max(floor):.2f} s; ratio {ratio:.2f} "
          f"({'ok' if ratio <= GOAL_RATIO else 'OVER'}: goal {GOAL_RATIO:.0f} at most)")
    return 0


if __name__ == "__main__":
    from box_python import as_the_box

    as_the_box()
    sys.exit(main())
