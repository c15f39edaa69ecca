"""Where the kiosk's own lines are in the journal, and the one command that shows them.

The unit opens a logind session for the kiosk (``PAMName=``), and logind moves the
launcher, cage, Xwayland and the app into that session's scope. The journal files their
lines by the scope they were written from, so ``journalctl -u table-companion`` shows only
systemd's own lines about the unit (started, failed, restarted), while the kiosk's lines
carry the unit's log identifier, ``companion``. ``companion logs`` asks the journal for
both at once, in one stream; every message that tells a person where to look names it
(``LOGS_COMMAND``).

Wiring: ``companion logs [journalctl options]`` (``cli.cmd_logs``) runs ``journalctl``
with ``journal_args()``: this boot by default; ``-f``, ``-n 50``, ``-b -1`` and the like
are passed through.
"""

from __future__ import annotations

UNIT = "table-companion.service"
#: The unit's log identifier (ExecStart's program name), on every kiosk line.
IDENTIFIER = "companion"
#: What every message names when it sends a person to the log.
LOGS_COMMAND = "companion logs"


def journal_args(extra: list[str] | None = None) -> list[str]:
    """journalctl's command line: systemd's lines about the unit, or the kiosk's own."""
    extra = list(extra or [])
    boot = [] if any(a == "-b" or a.startswith(("-b", "--boot")) for a in extra) else ["-b"]
    return ["journalctl", *boot, "--no-hostname", *extra,
            f"_SYSTEMD_UNIT={UNIT}", "+", f"UNIT={UNIT}", "_PID=1",
            "+", f"SYSLOG_IDENTIFIER={IDENTIFIER}"]
