"""``companion venue``: the venue's listener, its own copy of the games, and the live page.

Runs on any machine with Python next to the café's TV (or on one of the Pis): subscribes
to the venue's topics on the broker, keeps every table's games in its own SQLite file,
and serves the page on ``--host``:``--http-port`` (default 127.0.0.1:8080, this
machine only: the page shows every name and box id, so opening it to the venue's network
is a choice, ``--host 0.0.0.0``). Stops on Ctrl-C / SIGTERM, or
by itself after ``--for SECONDS``.

At start it prints the page's address, the venue's key fingerprint (each box's
``venue.fingerprint``) and the operator page's address, where boxes waiting to be
admitted are admitted by their fingerprints (docs/venue.md, "Who is believed").

    companion venue --broker 192.168.1.20 --venue "Chronos Café"
    companion venue --broker mqtt.local --port 8883 --tls --ca-file ca.pem \\
        --username venue --password-file /etc/companion/venue-password
"""

from __future__ import annotations

import argparse
import signal
import stat
import sys
import threading
from pathlib import Path

from companion.errors import CompanionError
from companion.venue.accounts import BrokerAccounts
from companion.venue.mqtt import BrokerSettings
from companion.venue.receiver import VenueStore
from companion.venue.subscriber import Subscriber
from companion.venue.web import Hub, WebServer, create_app


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="companion venue", description=__doc__.splitlines()[0])
    p.add_argument("--broker", default="127.0.0.1", help="MQTT broker host (default: this one)")
    p.add_argument("--port", type=int, help="broker port (1883, or 8883 with --tls)")
    p.add_argument("--venue", default="venue", help="the venue name the boxes use")
    p.add_argument("--host", "--listen", dest="listen", default="127.0.0.1",
                   help="address of the page (default 127.0.0.1: this machine only; "
                        "0.0.0.0 opens it to the venue's network)")
    p.add_argument("--http-port", type=int, default=8080, help="port of the page (0: any)")
    p.add_argument("--db", help="the venue's copy (default: venue.sqlite3 in the data dir)")
    p.add_argument("--username")
    p.add_argument("--password-file", help="one line, readable by its owner only")
    p.add_argument("--tls", action="store_true")
    p.add_argument("--ca-file")
    p.add_argument("--cert-file")
    p.add_argument("--key-file")
    p.add_argument("--broker-passwd", help="Mosquitto's password file: admitting a box "
                   "makes its account there (companion/venue/accounts.py)")
    p.add_argument("--broker-reload", help="a command that makes the broker read its "
                   "password file again, e.g. 'systemctl reload mosquitto'")
    p.add_argument("--for", dest="seconds", type=float, help="stop after this many seconds")
    return p


def _secret(path: str | None) -> Path | None:
    if path is None:
        return None
    file = Path(path)
    try:
        mode = file.stat().st_mode
    except OSError as exc:
        raise CompanionError(f"--password-file {path}: {exc.strerror}") from exc
    if mode & 0o077:
        raise CompanionError(f"--password-file {path} can be read by others (mode "
                             f"{stat.S_IMODE(mode):03o}); run chmod 600 {path}")
    return file


def main(argv: list[str]) -> int:
    args = parser().parse_args(argv)
    try:
        return run(args)
    except CompanionError as exc:
        print(f"companion venue: {exc}", file=sys.stderr)
        return 2


def run(args: argparse.Namespace) -> int:
    secret = _secret(args.password_file)
    if secret is not None and not args.username:
        raise CompanionError("--password-file needs --username")
    if (args.ca_file or args.cert_file) and not args.tls:
        raise CompanionError("--ca-file and --cert-file need --tls")
    if args.broker_reload and not args.broker_passwd:
        raise CompanionError("--broker-reload needs --broker-passwd")
    accounts = BrokerAccounts(args.broker_passwd, args.broker_reload) \
        if args.broker_passwd else None
    if args.db:
        db = Path(args.db)
    else:
        from companion.paths import data_dir

        db = data_dir() / "venue.sqlite3"
    store = VenueStore(db, args.venue)
    settings = BrokerSettings(
        args.broker, args.port or (8883 if args.tls else 1883), store.client_id,
        args.username,
        (lambda: secret.read_text(encoding="utf-8").strip()) if secret else None, args.tls,
        Path(args.ca_file) if args.ca_file else None,
        Path(args.cert_file) if args.cert_file else None,
        Path(args.key_file) if args.key_file else None, clean_session=False)
    hub = Hub()
    sub = Subscriber(store, settings, on_change=hub.poke)
    try:
        web = WebServer(create_app(store, hub, status=lambda: sub.status,
                                   accounts=accounts), args.listen, args.http_port, hub)
    except CompanionError:
        store.close()
        raise
    stop = threading.Event()
    previous = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM,
                                                                     signal.SIGINT)}
    web.start()
    sub.start()
    try:
        web.wait_started()
        print(f"venue page: {web.url}  (broker {settings.where}, topics "
              f"{store.topics.everything}, copy {db})", flush=True)
        print(f"venue fingerprint: {store.key.fingerprint}  (write it as venue.fingerprint "
              "in each box's config)", flush=True)
        print(f"operator page (admits boxes; keep this address to yourself): "
              f"{web.url}/operator/{store.operator_token}", flush=True)
        stop.wait(args.seconds)
    finally:
        sub.stop()
        web.stop()
        store.close()
        for s, handler in previous.items():
            signal.signal(s, handler)
    return 0
