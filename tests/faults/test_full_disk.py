"""A real full disk (a small tmpfs, needs root) at every stage: the free space is swept
from nothing to enough for the whole script, so the disk fills during the first start,
during the opening of an existing log, and at each step of play. Then space is freed and
the next start must find everything confirmed, nothing refused, nothing set aside.
An export to a full disk leaves no file behind."""

from __future__ import annotations

import os

import pytest
from faults.harness import LOG_NAME, Counts, check, make_base, prepare, record, run_child

pytestmark = [pytest.mark.slow]

PAGE = 4096
SWEEP_STEP = PAGE  # tmpfs counts whole pages: every stage falls in a step


def fill(point, leave: int) -> None:
    """Leave about ``leave`` bytes free on the tmpfs at ``point``."""
    st = os.statvfs(point)
    free = st.f_bavail * st.f_frsize
    if free > leave:
        with open(point / "filler", "ab") as f:
            f.write(b"\0" * (free - leave))


def sweep(point, base_source, stage: str) -> Counts:
    counts = Counts()
    leave = 0
    while True:
        folder = point / "night"
        prepare(folder, base_source)
        fill(point, leave)
        lines, code, err = run_child(folder)
        (point / "filler").unlink(missing_ok=True)  # space is freed: the next start looks
        c = check(folder, lines, base_source is not None)
        wrong = [x for x in lines if x.get("refused") not in (None, "full", "rule")]
        if wrong:  # a full disk must be told as a full disk
            c.untold += 1
            c.notes.append(f"{leave} bytes free: told as {wrong[0]}")
        if code != 0 or "Traceback" in err:
            c.untold += 1
            c.notes.append(f"{leave} bytes free: exit {code}: {err.strip()[-300:]}")
        counts.add(c)
        if not c.told:
            break  # the whole script fit: every stage before this one ran out of space
        leave += SWEEP_STEP
    record(f"{stage}: full disk (tmpfs)", counts)
    return counts


@pytest.mark.parametrize("stage", ["first start", "existing log"])
def test_a_full_disk_at_every_stage_loses_and_renames_nothing(tmpfs, fast_dir, stage):
    point = tmpfs.mount(1024)
    base = make_base(fast_dir / "base") if stage == "existing log" else None
    counts = sweep(point, base, stage)
    assert counts.trials > 5 and counts.told == counts.trials - 1, counts
    assert counts.clean, counts.line(stage) + "\n" + "\n".join(counts.notes[:8])


def test_an_export_to_a_full_disk_is_a_message_and_leaves_no_file(tmpfs, data_dir, capsys):
    from companion.cli import main
    from companion.games import get_rules
    from companion.paths import log_path
    from companion.session import GameSession
    from companion.store.gamelog import GameLog

    log = GameLog(log_path())
    game = GameSession.start(log, get_rules("scorepad"), {"players": [
        {"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]})
    for i in range(200):
        game.do({"type": "score", "seat": 1, "points": i, "note": "x" * 200})
    log.close()
    point = tmpfs.mount(64)
    fill(point, 8 * PAGE)
    target = point / "night.jsonl"
    assert main(["export", "-o", str(target)]) == 2
    err = capsys.readouterr().err
    assert "cannot write" in err and "No space left" in err and "nothing was written" in err
    assert sorted(p.name for p in point.iterdir()) == ["filler"]
    counts = Counts(trials=1, told=1)
    record("export to a full disk", counts)


def test_the_log_itself_fills_the_disk_at_open(tmpfs, fast_dir):
    """An existing log on a disk with no room for its -wal and -shm: a storage message."""
    point = tmpfs.mount(1024)
    base = make_base(fast_dir / "base")
    folder = point / "night"
    prepare(folder, base)
    fill(point, 0)
    before = (folder / LOG_NAME).read_bytes()
    lines, code, _ = run_child(folder)
    assert code == 0 and lines[0].get("refused") == "full", lines
    assert not [p for p in folder.iterdir() if ".unreadable" in p.name]
    assert (folder / LOG_NAME).read_bytes() == before
