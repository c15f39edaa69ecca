"""The outbox crash test's child: crash_child's game with venue mode's outbox hook
installed, printing a line after each committed operation. Run: LOG SEED."""

from __future__ import annotations

import sys

from crash_child import main

from companion.venue.outbox import OutboxHook

if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), outbox_hook=OutboxHook())
