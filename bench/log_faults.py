"""Break the game log on purpose and count: every write, sync, file creation and read of a
first start and of an existing log's opening, each followed by play, fails in turn with
EIO, ENOSPC and EROFS (strace ``--inject``); SIGKILL comes before every SQL statement of a
first start and at every write and sync; each sync of the -wal file fails while playing.
After each fault the log is opened as the next start would open it.

    python bench/log_faults.py [--sample]

Prints one line per kind of fault: trials, lost (a confirmed step missing), phantom (a
refused step kept), renamed (a healthy log set aside), untold (a traceback, or a failure
not told as a storage problem), uncertain (a refusal that could not be confirmed gone).
Exit status 1 unless all but trials are 0. Needs strace. The same harness runs, sampled,
in ``tests/faults/`` (with a real full tmpfs and read-only media too, as root);
``--sample`` runs that sample here.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from faults.harness import (  # noqa: E402  (the harness lives with the tests)
    KINDS,
    Counts,
    make_base,
    run_kind,
    run_statement_kills,
    run_syscall_kills,
    run_wal_sync,
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", action="store_true",
                        help="the test suite's sample instead of every position and errno")
    args = parser.parse_args()
    if shutil.which("strace") is None:
        print("log_faults: strace is not installed (apt-get install strace)", file=sys.stderr)
        return 1
    root = "/dev/shm" if Path("/dev/shm").is_dir() else None
    work = Path(tempfile.mkdtemp(prefix="companion-log-faults-", dir=root))
    t0 = time.perf_counter()
    lines: list[tuple[str, Counts]] = []
    try:
        base = make_base(work / "base")
        for stage, stage_base in (("first start", None), ("existing log", base)):
            for kind in KINDS:
                counts = run_kind(work, stage_base, stage, kind, everything=not args.sample)
                lines.append((f"{stage}: {kind} errors", counts))
                print(counts.line(lines[-1][0]), flush=True)
        steps = [("existing log: each -wal sync fails (EIO)", lambda: run_wal_sync(work, base)),
                 ("first start: SIGKILL at each SQL statement",
                  lambda: run_statement_kills(work))]
        steps += [(f"first start and play: SIGKILL at {s}",
                   lambda s=s: run_syscall_kills(work, s)) for s in
                  ("fdatasync", "fsync", "pwrite64", "link")]
        for name, run in steps:
            lines.append((name, run()))
            print(lines[-1][1].line(name), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    total = Counts()
    for _, counts in lines:
        total.add(counts)
    print(total.line("all faults"))
    print(f"({time.perf_counter() - t0:.0f} s)")
    for note in total.notes[:20]:
        print("  ", note)
    return 0 if total.clean else 1


if __name__ == "__main__":
    sys.exit(main())
