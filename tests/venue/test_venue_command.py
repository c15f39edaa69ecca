"""`companion venue` as a person starts it: it prints where the page is, serves it, and
stops cleanly on SIGTERM; wrong arguments are one clear line."""

from __future__ import annotations

import re
import signal
import socket
import subprocess
import sys

import httpx
import pytest
from venue_helpers import needs_mosquitto

from companion.cli import main

pytestmark = needs_mosquitto


def test_the_venue_command_serves_the_page_and_stops_on_sigterm(tmp_path, broker):
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "venue", "--broker", "127.0.0.1", "--port",
         str(broker.port), "--venue", "Chronos Café", "--listen", "127.0.0.1",
         "--http-port", "0", "--db", str(tmp_path / "v.sqlite3"), "--for", "60"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        line = proc.stdout.readline()
        url = re.search(r"venue page: (http://127\.0\.0\.1:\d+)", line).group(1)
        assert "topics companion/chronos-cafe/#" in line
        page = httpx.get(url + "/", timeout=10)
        assert page.status_code == 200 and "<h1>Chronos Café</h1>" in page.text
        assert httpx.get(url + "/game/0a0a0a0a/1", timeout=10).status_code == 404
        fingerprint = re.search(r"venue fingerprint: (\S+)", proc.stdout.readline()).group(1)
        assert f"fingerprint: {fingerprint}</p>" in page.text  # for a box's confirmation
        operator = re.search(r"operator page .*: (http://\S+)", proc.stdout.readline()
                             ).group(1)
        assert operator.startswith(url + "/operator/") and len(operator) > len(url) + 30
        assert "Operator page" in httpx.get(operator, timeout=10).text
        assert httpx.get(url + "/operator/guess", timeout=10).status_code == 404
        assert "Operator page" not in page.text
        # its client id is not made from anything on the page (nobody can take it over)
        ids = re.findall(r" as (companion-venue-\S+)", "".join(broker.output))
        assert ids and all(re.fullmatch(r"companion-venue-[0-9a-f]{16}", i) for i in ids)
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(20) == 0
        proc.stdout.close()


def test_wrong_arguments_are_one_clear_line(tmp_path, capsys):
    pw = tmp_path / "pw"
    pw.write_text("x")
    pw.chmod(0o644)
    assert main(["venue", "--username", "v", "--password-file", str(pw)]) == 2
    assert "can be read by others (mode 644); run chmod 600" in capsys.readouterr().err
    assert main(["venue", "--ca-file", str(pw)]) == 2
    assert "need --tls" in capsys.readouterr().err
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        with pytest.raises(SystemExit):
            main(["venue", "--http-port", "x"])
        assert main(["venue", "--listen", "127.0.0.1", "--http-port", str(port), "--db",
                     str(tmp_path / "v.sqlite3"), "--for", "0"]) == 2
        assert f"cannot serve the venue page on 127.0.0.1:{port}" in capsys.readouterr().err


def test_the_page_listens_on_this_machine_only_unless_host_says_otherwise():
    from companion.venue.server import parser

    assert parser().parse_args([]).listen == "127.0.0.1"
    assert parser().parse_args(["--host", "0.0.0.0"]).listen == "0.0.0.0"
    assert parser().parse_args(["--listen", "192.168.1.20"]).listen == "192.168.1.20"
