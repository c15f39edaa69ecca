"""A box's broker account, made by the venue when the operator admits the box.

What it is for: behind the shipped broker wall (``deploy/mosquitto``: a password file and
an ACL whose ``pattern`` lines take the account name as the box's topic level) every box
logs in with an account of its own, named like its table's level ("table-3"). When
``companion venue`` is started with ``--broker-passwd FILE`` (Mosquitto's password file),
admitting a box on the operator page makes that account: a fresh random password is put
into FILE by Mosquitto's own ``mosquitto_passwd -b`` (no hash is written here), then
``--broker-reload CMD`` runs (``systemctl reload mosquitto``: Mosquitto reads its password
file again on SIGHUP) so the box can log in at once. The operator page shows the password
once, never in an address; the operator writes it into the box's
``venue.password_file`` (docs/venue.md, "The broker's own wall").

Wiring: ``server.run`` builds ``BrokerAccounts`` from the options and gives it to
``web.create_app``, whose admit route calls ``make(level)`` after ``VenueStore.admit``.
"""

from __future__ import annotations

import re
import secrets
import shlex
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

from companion.errors import CompanionError

#: What the shipped ACL can give a box: its topic level as an account name.
ACCOUNT = re.compile(r"^[a-z0-9][a-z0-9-]{0,39}$")
#: The venue page's own account in the shipped ACL: never a box's.
VENUE_ACCOUNT = "venue-page"
TIMEOUT_S = 15


class BrokerAccounts:
    """Makes (or remakes, with a new password) a box's account in Mosquitto's password
    file and has the broker read it again."""

    def __init__(self, passwd_file: Path | str, reload: Sequence[str] | str | None = None,
                 run: Callable[..., subprocess.CompletedProcess] = subprocess.run) -> None:
        self.passwd_file = Path(passwd_file)
        self.reload = shlex.split(reload) if isinstance(reload, str) else \
            (list(reload) if reload else None)
        self._run = run

    def make(self, account: str) -> str:
        """The account ``account`` with a new password, which is returned; the broker has
        read it (when a reload command was given). CompanionError names what failed."""
        if not ACCOUNT.match(account) or account == VENUE_ACCOUNT:
            raise CompanionError(f"no broker account can be made for {account!r}: a box's "
                                 "account is its table's topic level (a-z, 0-9 and '-')")
        password = secrets.token_urlsafe(18)  # 144 bits, typed once into the box
        self._call(["mosquitto_passwd", "-b", str(self.passwd_file), account, password],
                   f"writing the account {account} into {self.passwd_file}")
        if self.reload:
            self._call(self.reload, "having the broker read its password file again")
        return password

    def _call(self, command: list[str], doing: str) -> None:
        try:
            done = self._run(command, capture_output=True, text=True, timeout=TIMEOUT_S)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise CompanionError(f"{doing} failed: {exc}") from exc
        if done.returncode != 0:
            said = (done.stderr or done.stdout or "").strip().splitlines()
            raise CompanionError(f"{doing} failed ({command[0]} exited "
                                 f"{done.returncode}{': ' + said[-1] if said else ''})")
