"""Read-only media (a tmpfs remounted read-only, needs root): the kiosk says so and renames
nothing; export, doctor and replay still read the log, the newest actions included when
the -wal file can be read, and say what to do when it cannot."""

from __future__ import annotations

import json
import os
import select
import socket
import subprocess
import sys
import time

import pytest
from faults.harness import LOG_NAME, REPO, Counts, make_base, record, run_child
from logfiles import fingerprint

from companion.cli import main

pytestmark = [pytest.mark.slow]


def _night(tmpfs, fast_dir, variant: str):
    """A data folder on a tmpfs holding a log, then made read-only. ``variant``: "closed"
    (the kiosk was shut down), "hot" (it was switched off mid-game: -wal and -shm left),
    "hot-no-shm" (the -wal without its index)."""
    point = tmpfs.mount(2048)
    folder = point / "data"
    folder.mkdir()
    base = make_base(fast_dir / "base")
    (folder / LOG_NAME).write_bytes(base.read_bytes())
    if variant != "closed":
        lines, code, _ = run_child(folder)  # plays on, then dies without closing
        assert code == 0 and all("done" in x for x in lines), lines
        if variant == "hot-no-shm":
            (folder / f"{LOG_NAME}-shm").unlink()
    tmpfs.remount(point, "ro")
    return folder


@pytest.mark.parametrize("variant", ["closed", "hot", "hot-no-shm"])
def test_read_only_media(tmpfs, fast_dir, monkeypatch, capsys, tmp_path, variant):
    folder = _night(tmpfs, fast_dir, variant)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(folder))
    before = fingerprint(folder)
    counts = Counts(trials=1)

    lines, code, err = run_child(folder)  # the kiosk's way of opening it
    assert code == 0 and lines == [{"step": -1, "refused": "readonly", "uncertain": False}], \
        (lines, err)
    counts.told = 1

    out = tmp_path / "night.jsonl"
    doctor = main(["doctor"])
    export = main(["export", "-o", str(out)])
    text = capsys.readouterr()
    if variant == "hot-no-shm":
        assert (doctor, export) == (1, 2)
        assert "copy the folder to writable storage" in text.out + text.err
    else:
        assert (doctor, export) == (0, 0), text
        points = [json.loads(x)["action"]["points"] for x in out.read_text().splitlines()[1:]]
        # the child's script: +1, undo, +2 (see tests/faults/child.py)
        assert points == ([101, 102] if variant == "closed" else [101, 102, 2])
        assert main(["replay", str(out)]) == 0
    counts.renamed = sum(".unreadable" in name for name in fingerprint(folder))
    assert fingerprint(folder) == before
    record(f"read-only media ({variant})", counts)


@pytest.mark.window
@pytest.mark.skipif(not os.environ.get("DISPLAY"), reason="needs a display")
def test_the_kiosk_on_read_only_media_shows_the_problem_and_keeps_answering_systemd(
        tmpfs, fast_dir, tmp_path):
    folder = _night(tmpfs, fast_dir, "closed")
    before = fingerprint(folder)
    sock_path = tmp_path / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(sock_path))
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("KIVY_")}
    env.update(HOME=str(home), COMPANION_DATA_DIR=str(folder), NOTIFY_SOCKET=str(sock_path),
               KIVY_HOME=str(tmp_path / "kivy"), WATCHDOG_USEC="1500000",
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(REPO))
    proc = subprocess.Popen([sys.executable, "-m", "companion", "run"], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    heard: list[bytes] = []
    try:
        deadline = time.monotonic() + 60
        while heard.count(b"WATCHDOG=1") < 2 and time.monotonic() < deadline \
                and proc.poll() is None:
            if select.select([sock], [], [], 0.5)[0]:
                heard.append(sock.recv(64))
        assert proc.poll() is None, proc.stderr.read()
        assert heard[:1] == [b"READY=1"] and heard.count(b"WATCHDOG=1") >= 2, heard
    finally:
        proc.terminate()
        proc.wait(10)
        sock.close()
    err = proc.stderr.read()
    assert "STORAGE PROBLEM: The SD card is read-only" in err
    assert "Traceback" not in err
    assert fingerprint(folder) == before
    record("kiosk on read-only media", Counts(trials=1, told=1))
