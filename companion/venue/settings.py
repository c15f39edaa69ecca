"""The ``[venue]`` section of a box's config: where its games are published.

Opt-in: without the section nothing is published and nothing connects anywhere. Every
key is checked when the config is loaded, like the rest of the file, and a mistake
names the file and the key::

    [venue]
    host = "192.168.1.20"            # the MQTT broker (Mosquitto) on the venue's network
    port = 8883                      # default 1883, or 8883 with tls = true
    venue = "Chronos Café"           # several venues may share a broker (default "venue")
    table = "Table 3"                # what the venue page calls this box
    username = "table3"              # optional, with password_file
    password_file = "/etc/companion/mqtt-password"   # one line; chmod 600
    tls = true
    ca_file = "/etc/companion/venue-ca.pem"          # the CA that signed the broker
    cert_file = "/etc/companion/table3.pem"          # optional client certificate
    key_file = "/etc/companion/table3.key"
    page_url = "http://192.168.1.20:8080"            # the venue page, for the QR code
    fingerprint = "3f2a-91bc-07de-55a1-c0fe"         # the venue's, as its page shows it

``parse_venue`` is called by ``companion.config.parse_config``.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.errors import ConfigError
from companion.tomltable import TableReader

KEYS = {"host", "port", "venue", "table", "username", "password_file", "tls", "ca_file",
        "cert_file", "key_file", "page_url", "fingerprint"}
NAME_MAX = 40


@dataclass(frozen=True, slots=True)
class VenueConfig:
    host: str
    port: int
    venue: str
    table: str
    username: str | None = None
    password_file: Path | None = None
    tls: bool = False
    ca_file: Path | None = None
    cert_file: Path | None = None
    key_file: Path | None = None
    page_url: str | None = None
    #: the venue's key fingerprint (``identity.fingerprint``): the only venue this box
    #: believes; None: confirmed once on the box's screen instead (``Publisher``)
    fingerprint: str | None = None

    def password(self) -> str | None:
        """The password, read now (the file may change without a restart)."""
        if self.password_file is None:
            return None
        try:
            return self.password_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"venue.password_file {self.password_file}: cannot read "
                              f"it ({exc})") from exc

    def page_base(self) -> str:
        """The venue page's address: ``page_url``, or the broker's host on port 8080."""
        return (self.page_url or f"http://{self.host}:8080").rstrip("/")


def parse_venue(raw: Any, path: Path) -> VenueConfig | None:
    """Validate the ``[venue]`` table (None when the config has none)."""
    if raw is None:
        return None
    r = TableReader(path, raw, "venue", KEYS)
    host = r.get("host", str)
    if not host.strip() or any(c.isspace() or c in "/@" for c in host.strip()):
        raise r.fail("host", "must be a host name or an address, like 192.168.1.20")
    tls = r.get("tls", bool, False)
    port = r.get("port", int, 8883 if tls else 1883, lo=1, hi=65535)
    venue = _name(r, "venue", "venue")
    table = _name(r, "table", ...)
    username = r.get("username", str, None)
    if username is not None and not username.strip():
        raise r.fail("username", "must not be empty (leave the key out for no login)")
    password_file = _file(r, path, "password_file", secret=True)
    if password_file is not None and username is None:
        raise r.fail("password_file", "needs venue.username as well")
    files = {k: _file(r, path, k) for k in ("ca_file", "cert_file", "key_file")}
    for key, value in files.items():
        if value is not None and not tls:
            raise r.fail(key, "needs venue.tls = true")
    if (files["cert_file"] is None) != (files["key_file"] is None):
        key = "cert_file" if files["cert_file"] is None else "key_file"
        raise ConfigError(f"{path}: venue.cert_file and venue.key_file go together; "
                          f"venue.{key} is missing")
    page_url = r.get("page_url", str, None)
    if page_url is not None and not page_url.startswith(("http://", "https://")):
        raise r.fail("page_url", "must start with http:// or https://")
    fingerprint = r.get("fingerprint", str, None)
    if fingerprint is not None:
        from companion.venue.identity import normal_fingerprint

        fingerprint = normal_fingerprint(fingerprint)
        if fingerprint is None:
            raise r.fail("fingerprint", "must be the venue's fingerprint as its page shows "
                                        "it: 20 hex digits, like 3f2a-91bc-07de-55a1-c0fe")
    return VenueConfig(host.strip(), port, venue, table, username, password_file, tls,
                       files["ca_file"], files["cert_file"], files["key_file"], page_url,
                       fingerprint)


def _name(r, key: str, default: Any) -> str:
    value = r.get(key, str, default)
    text = " ".join(value.split())
    if not text:
        raise r.fail(key, "must not be empty")
    if len(text) > NAME_MAX:
        raise r.fail(key, f"is {len(text)} characters; at most {NAME_MAX} fit the page")
    if any(not c.isprintable() for c in text):
        raise r.fail(key, "has a control character")
    return text


def _file(r, path: Path, key: str, secret: bool = False) -> Path | None:
    value = r.get(key, str, None)
    if value is None:
        return None
    file = Path(value).expanduser()
    if not file.is_absolute():
        file = path.parent / file
    try:
        info = file.stat()
    except OSError as exc:
        raise r.fail(key, f"cannot be read ({exc.strerror})") from exc
    if not stat.S_ISREG(info.st_mode):
        raise r.fail(key, "is not a file")
    if secret and info.st_mode & 0o077:
        raise r.fail(key, f"can be read by others (mode {stat.S_IMODE(info.st_mode):03o}); "
                          f"run chmod 600 {file}")
    return file
