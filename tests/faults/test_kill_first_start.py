"""SIGKILL at every SQL statement of a first start (opening a log that does not exist yet,
and the first game), and at write and sync system calls of it: the next start always
finds either no log or a whole one, never "another program's database", nothing set
aside, and nothing confirmed lost."""

from __future__ import annotations

import pytest
from faults.harness import run_statement_kills, run_syscall_kills

pytestmark = [pytest.mark.slow]


def test_sigkill_before_each_sql_statement_of_a_first_start(fast_dir):
    counts = run_statement_kills(fast_dir)
    assert counts.killed == counts.trials - 1 > 10, counts
    assert counts.clean, counts.line("kill at statements") + "\n" + "\n".join(counts.notes[:8])


@pytest.mark.usefixtures("strace_ok")
@pytest.mark.parametrize("syscall", ["fdatasync", "fsync", "pwrite64", "link"])
def test_sigkill_at_each_write_and_sync_of_a_first_start(fast_dir, syscall):
    counts = run_syscall_kills(fast_dir, syscall, stride=2 if syscall == "pwrite64" else 1)
    assert counts.trials > 0 and counts.killed == counts.trials, counts
    assert counts.clean, counts.line(syscall) + "\n" + "\n".join(counts.notes[:8])
