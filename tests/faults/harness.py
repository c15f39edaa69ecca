"""The fault-injection harness for the game log, shared by tests/faults/ and
bench/log_faults.py.

A trial runs ``child.py`` (the kiosk's way of opening the log, then a fixed script of
game actions) with one fault in it, then opens the log again in this process, as the
next start would, and compares what it finds with what the table was told:

* lost: a step the table saw done that is not in the log;
* phantom: a step the table was told was refused (or never saw) that is in the log;
* renamed: a healthy log set aside (``.unreadable-``), or the next start reporting one;
* untold: a traceback instead of a message, or a failure not told as a storage problem.

Faults come from strace (``--inject``: an errno or SIGKILL at the N-th call of one
system call on the log's files), a real full tmpfs, read-only media, or the child
killing itself at its N-th SQL statement.

    base = make_base(tmp / "base")                  # an existing log with one game
    n = positions(tmp / "dry", "fdatasync", base)    # how many calls a clean run makes
    counts = trial(tmp / "t1", strace=inject("fdatasync", 3, error="EIO"), base=base)
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field, fields
from pathlib import Path

CHILD = Path(__file__).with_name("child.py")
REPO = Path(__file__).resolve().parents[2]
LOG_NAME = "games.sqlite3"
#: The child's script, as the model reads it (see child.SCRIPT).
sys.path.insert(0, str(CHILD.parent))
from child import SCRIPT  # noqa: E402

BASE_POINTS = [101, 102]


@dataclass
class Counts:
    """What a set of trials found. Every field but ``trials`` and ``told`` must be 0."""

    trials: int = 0
    lost: int = 0
    phantom: int = 0
    renamed: int = 0
    untold: int = 0
    uncertain: int = 0
    told: int = 0  # trials where the table was told of a storage problem (no failure)
    killed: int = 0  # trials where the child died of a signal (as SIGKILL trials mean to)
    notes: list[str] = field(default_factory=list)

    def add(self, other: Counts) -> Counts:
        for f in fields(self):
            if f.name != "notes":
                setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))
        self.notes += other.notes
        return self

    @property
    def clean(self) -> bool:
        return not (self.lost or self.phantom or self.renamed or self.untold or self.uncertain)

    def line(self, name: str) -> str:
        return (f"{name:<44} trials {self.trials:4}  lost {self.lost}  phantom {self.phantom}"
                f"  renamed {self.renamed}  untold {self.untold}  uncertain {self.uncertain}"
                f"  (storage problem told in {self.told})")


#: Every fault test's counts by name, for the end-of-run summary (conftest.py).
COUNTS: dict[str, Counts] = {}


def record(name: str, counts: Counts) -> Counts:
    """Add ``counts`` to the summary under ``name``; returns the running total."""
    COUNTS.setdefault(name, Counts()).add(counts)
    return COUNTS[name]


def make_base(folder: Path) -> Path:
    """An existing log as a night leaves it: one open game with two actions, closed
    cleanly. Trials on an existing log start from a copy of it."""
    folder.mkdir(parents=True, exist_ok=True)
    code = ("import sys; from companion.store.gamelog import GameLog\n"
            "from companion.session import GameSession\n"
            "from companion.games import get_rules\n"
            f"log = GameLog(sys.argv[1]); s = GameSession.start(log, get_rules('scorepad'), "
            f"{json.dumps(child_setup())})\n"
            f"for p in {BASE_POINTS}: s.do({{'type': 'score', 'seat': 1, 'points': p, "
            "'note': 'base'})\nlog.close()\n")
    path = folder / LOG_NAME
    subprocess.run([sys.executable, "-c", code, str(path)], check=True, env=_env(), cwd=REPO)
    return path


def child_setup() -> dict:
    from child import SETUP

    return SETUP


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(REPO))


def log_paths(folder: Path) -> list[Path]:
    """Every path the log's opening and play touch: strace injects only into these."""
    path = folder / LOG_NAME
    names = [LOG_NAME + s for s in ("", "-wal", "-shm", "-journal", ".new", ".new-journal",
                                    ".new-wal", ".new-shm")]
    return [folder, *(folder / n for n in names)] + [path]


def inject(syscall: str, when: int, error: str | None = None,
           signal: str | None = None) -> list[str]:
    """strace options: fail (or kill) the ``when``-th call of ``syscall`` on the log."""
    what = f"error={error}" if error else f"signal={signal}"
    return ["-e", f"trace={syscall}", "-e", f"inject={syscall}:{what}:when={when}"]


def _strace(folder: Path, options: list[str], out: str = "/dev/null",
            only: tuple[str, ...] | None = None) -> list[str]:
    # seccomp-bpf stops the child only at the traced calls (fast), but strace 6 cannot
    # deliver an injected signal with it: SIGKILL trials go without.
    fast = [] if any("signal=" in o for o in options) else ["--seccomp-bpf"]
    cmd = ["strace", "-f", "-qq", *fast, "-o", out, *options]
    paths = log_paths(folder)[:-1] if only is None else [folder / n for n in only]
    for p in paths:
        cmd += ["-P", str(p)]
    return cmd


def run_child(folder: Path, strace: list[str] | None = None, args: tuple = (),
              out: str = "/dev/null", only: tuple[str, ...] | None = None
              ) -> tuple[list[dict], int, str]:
    """Run the child on ``folder``'s log; returns its step lines, exit code and stderr.
    ``only``: the file names strace injects into (default: every file of the log)."""
    cmd = [sys.executable, str(CHILD), str(folder / LOG_NAME), *args]
    if strace is not None:
        cmd = _strace(folder, strace, out, only) + cmd
    done = subprocess.run(cmd, capture_output=True, text=True, env=_env(), cwd=REPO,
                          timeout=120)
    lines = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    return lines, done.returncode, done.stderr


def positions(folder: Path, syscall: str, base: Path | None = None,
              only: tuple[str, ...] | None = None) -> int:
    """How many calls of ``syscall`` on the log files a clean run of the child makes."""
    prepare(folder, base)
    trace = folder.parent / f"{folder.name}.{syscall}.trace"
    run_child(folder, ["-e", f"trace={syscall}"], out=str(trace), only=only)
    n = sum(1 for line in trace.read_text().splitlines() if f"{syscall}(" in line)
    trace.unlink()
    shutil.rmtree(folder)
    return n


def prepare(folder: Path, base: Path | None) -> None:
    """A fresh folder: empty (a first start) or holding a copy of the base log."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    if base is not None:
        shutil.copy2(base, folder / LOG_NAME)


def trial(folder: Path, strace: list[str] | None = None, base: Path | None = None,
          args: tuple = (), killed: bool = False, name: str = "",
          only: tuple[str, ...] | None = None) -> Counts:
    """One trial: prepare, run the child with its fault, then check the log."""
    prepare(folder, base)
    lines, code, err = run_child(folder, strace, args, only=only)
    counts = check(folder, lines, base is not None, killed=killed or code < 0)
    counts.killed = int(code < 0)
    if code > 0 or "Traceback" in err:
        counts.untold += 1
        counts.notes.append(f"{name}: exit {code}: {err.strip().splitlines()[-1:]}")
    if not counts.clean and not counts.notes:
        counts.notes.append(f"{name}: {lines}")
    shutil.rmtree(folder)
    return counts


def check(folder: Path, lines: list[dict], existing: bool, killed: bool = False) -> Counts:
    """Open the log as the next start does and compare it with what the child said."""
    from companion.errors import LogError
    from companion.store.gamelog import GameLog

    counts = Counts(trials=1)
    counts.renamed += sum(".unreadable-" in p.name for p in folder.iterdir())
    told = {line["step"]: line for line in lines}
    kinds = [line["refused"] for line in lines if "refused" in line]
    counts.told = int(any(k in ("full", "readonly", "io") for k in kinds))
    counts.untold += sum(k not in ("full", "readonly", "io", "rule") for k in kinds)
    counts.uncertain += sum(bool(line.get("uncertain")) for line in lines)
    try:
        log = GameLog(folder / LOG_NAME)
    except LogError as exc:
        counts.lost += 1
        counts.notes.append(f"the log does not open after the fault: {exc}")
        return counts
    try:
        if log.recovered:
            counts.renamed += 1
        games = log.games()
        actual = _state(log, games[0].id) if games else None
    finally:
        log.close()
    # What the log may hold: each step done is in; each step refused is out; the step
    # in flight when the child died (or whose refusal was uncertain) may be either.
    expected = [_initial(existing)]
    for step, op in enumerate(SCRIPT):
        line = told.get(step)
        if line is None and step - 1 in told and not killed:
            break  # the child stopped (open refused): nothing after it happened
        if line is not None and line.get("skipped"):
            continue
        if line is not None and "done" in line:
            expected = [_apply(s, op) for s in expected]
        elif line is None or line.get("uncertain"):
            expected = expected + [_apply(s, op) for s in expected]
            if line is None:
                break  # killed during this step: nothing after it
    if actual in expected:
        return counts
    best = min(expected, key=lambda e: _distance(e, actual))
    lost, phantom = _distance(best, actual, split=True)
    counts.lost += lost
    counts.phantom += phantom
    return counts


def _initial(existing: bool):
    return (tuple(BASE_POINTS), None, "open") if existing else None


def _apply(state, op):
    if op[0] == "new":
        return state if state is not None else ((), None, "open")
    if state is None:
        return None
    points, muted, status = state
    if op[0] == "score":
        return (points + (op[1],), muted, status)
    if op[0] == "undo":
        return (points[:-1], muted, status)
    if op[0] == "setting":
        return (points, True, status)
    return (points, muted, "finished")


def _state(log, game_id: int):
    points = tuple(a["points"] for a in log.actions(game_id))
    return (points, log.get_setting("muted"), log.game(game_id).status)


def _distance(expected, actual, split: bool = False):
    """How many steps the table saw done are missing (lost) and how many it did not see
    done are there (phantom)."""
    if expected is None or actual is None:
        present = actual if expected is None else expected
        n = 1 + (len(present[0]) if present else 0)
        pair = (0, n) if expected is None else (n, 0)
        return pair if split else sum(pair)
    lost = sum((Counter(expected[0]) - Counter(actual[0])).values())
    phantom = sum((Counter(actual[0]) - Counter(expected[0])).values())
    lost += expected[1] is True and actual[1] is not True
    phantom += actual[1] is True and expected[1] is not True
    lost += expected[2] == "finished" and actual[2] != "finished"
    phantom += actual[2] == "finished" and expected[2] != "finished"
    return (lost, phantom) if split else lost + phantom


# -- the plans: which faults at which positions -----------------------------------------

ERRNOS = ("EIO", "ENOSPC", "EROFS")

#: kind -> (system calls, errnos, every errno at every position when sampling, stride)
KINDS = {
    "sync": (("fdatasync", "fsync"), ERRNOS, True, 1),
    "write": (("pwrite64", "ftruncate"), ERRNOS, False, 2),
    "create": (("openat", "link"), ERRNOS, False, 1),
    "read": (("pread64",), ("EIO",), True, 2),
}


def plan(n: int, errnos: tuple[str, ...], every_errno: bool, stride: int,
         everything: bool = False) -> list[tuple[int, str]]:
    """(position, errno) pairs: all of them (``everything``), or a sample that still
    reaches every stage: every ``stride``-th position, with every errno or one in turn."""
    if everything:
        return [(w, e) for w in range(1, n + 1) for e in errnos]
    if every_errno:
        return [(w, e) for w in range(1, n + 1, stride) for e in errnos]
    return [(w, errnos[i % len(errnos)]) for i, w in enumerate(range(1, n + 1, stride))]


def run_kind(folder: Path, base: Path | None, stage: str, kind: str,
             everything: bool = False) -> Counts:
    """Every planned injection of one kind of fault, on a first start or an existing log."""
    syscalls, errnos, every_errno, stride = KINDS[kind]
    counts = Counts()
    for syscall in syscalls:
        n = positions(folder / "dry", syscall, base)
        for when, errno in plan(n, errnos, every_errno, stride, everything):
            counts.add(trial(folder / "t", inject(syscall, when, error=errno), base,
                             name=f"{stage}: {syscall} #{when} {errno}"))
    return record(f"{stage}: {kind} errors", counts)


def run_wal_sync(folder: Path, base: Path) -> Counts:
    """Each sync of the -wal file fails in turn (EIO); the child stops right after."""
    wal = (LOG_NAME + "-wal",)
    n = positions(folder / "dry", "fdatasync", base, only=wal)
    counts = Counts()
    for when in range(1, n + 1):
        counts.add(trial(folder / "t", inject("fdatasync", when, error="EIO"), base,
                         args=("--stop-after-refusal",), name=f"-wal sync #{when}", only=wal))
    return record("existing log: each -wal sync fails (EIO)", counts)


FIRST_START = ("--steps", "1")  # open (creating the log) and start the first game


def run_statement_kills(folder: Path, limit: int = 300) -> Counts:
    """SIGKILL before the 1st, 2nd, ... SQL statement of a first start, until one runs
    through without reaching its statement."""
    counts = Counts()
    for n in range(1, limit + 1):
        c = trial(folder / "t", args=(*FIRST_START, "--kill-at-statement", str(n)),
                  killed=True, name=f"SIGKILL before statement {n}")
        counts.add(c)
        if not c.killed:
            break
    return record("first start: SIGKILL at each SQL statement", counts)


def run_syscall_kills(folder: Path, syscall: str, stride: int = 1) -> Counts:
    """SIGKILL at each call of ``syscall`` during a first start and play."""
    n = positions(folder / "dry", syscall)
    counts = Counts()
    for when in range(1, n + 1, stride):
        counts.add(trial(folder / "t", inject(syscall, when, signal="KILL"), killed=True,
                         name=f"SIGKILL at {syscall} #{when}"))
    return record(f"first start and play: SIGKILL at {syscall}", counts)
