"""EIO, ENOSPC and EROFS injected (strace) at each write, sync, file creation and read of
the game log, during a first start and play, and during the opening of an existing log
and play. After each: nothing confirmed lost, nothing refused kept, nothing healthy set
aside, every failure told as a storage problem.

By default every sync position gets every errno, and writes, file creations and reads
are sampled (every second position, the errno rotating) so the suite stays short on a
shared machine; ``COMPANION_FAULTS=all`` (or ``bench/log_faults.py``) runs every position
with every errno.
"""

from __future__ import annotations

import os

import pytest
from faults.harness import KINDS, make_base, run_kind, run_wal_sync

pytestmark = [pytest.mark.slow, pytest.mark.usefixtures("strace_ok")]

EVERYTHING = os.environ.get("COMPANION_FAULTS") == "all"


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("stage", ["first start", "existing log"])
def test_injected_storage_errors(fast_dir, stage, kind):
    base = make_base(fast_dir / "base") if stage == "existing log" else None
    counts = run_kind(fast_dir, base, stage, kind, EVERYTHING)
    assert counts.trials > 0
    assert counts.clean, counts.line(f"{stage}: {kind}") + "\n" + "\n".join(counts.notes[:8])
    assert counts.told > 0, "no trial hit a fault: the injection did not reach the log"


def test_a_failed_wal_sync_never_brings_the_refused_action_back(fast_dir):
    """The case that used to come back 7 times out of 7: each sync of the -wal file
    during play fails in turn, the child stops right after the refusal without closing
    (the box switched off), and the next start looks."""
    counts = run_wal_sync(fast_dir, make_base(fast_dir / "base"))
    assert counts.told == counts.trials, "each failed sync refuses its action"
    assert counts.clean, counts.line("wal sync") + "\n" + "\n".join(counts.notes[:8])
