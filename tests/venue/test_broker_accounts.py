"""A box's broker account, made when the operator admits the box: before, the shipped
broker wall refuses its login; after, it logs in with the password the venue made and
writes its own table's topics. Through a real Mosquitto running the shipped
configuration (TLS, password file, ACL) and Mosquitto's own ``mosquitto_passwd``."""

from __future__ import annotations

import queue
import ssl
import subprocess

import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion
from venue_helpers import needs_mosquitto, walled_broker

from companion.errors import CompanionError
from companion.venue.accounts import BrokerAccounts

BASE = "companion/chronos-cafe"


def login(port: int, user: str, password: str, ca) -> tuple[mqtt.Client, object]:
    """A TLS client logged in as ``user``: (client, the broker's answer to the login)."""
    answers: queue.Queue = queue.Queue()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"test-{user}",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set(user, password)
    client.tls_set(ca_certs=str(ca), cert_reqs=ssl.CERT_REQUIRED)
    client.on_connect = lambda _c, _u, _f, rc, _p: answers.put(rc)
    client.connect("127.0.0.1", port)
    client.loop_start()
    return client, answers.get(timeout=15)


def close(client: mqtt.Client) -> None:
    client.disconnect()
    client.loop_stop()


@needs_mosquitto
@pytest.mark.slow
def test_admitting_a_box_makes_its_account_and_the_broker_takes_it_at_once(tmp_path):
    with walled_broker(tmp_path, {"venue-page": "venue-pw"}) as (broker, ca):
        accounts = BrokerAccounts(broker.folder / "passwd",
                                  ["kill", "-HUP", str(broker.proc.pid)])
        client, answer = login(broker.port, "table-3", "a guess", ca)
        close(client)
        assert answer.is_failure, "a box with no account logged in"
        password = accounts.make("table-3")
        assert len(password) >= 24
        heard: queue.Queue = queue.Queue()
        venue, answer = login(broker.port, "venue-page", "venue-pw", ca)
        venue.on_message = lambda _c, _u, m: heard.put((m.topic, m.payload))
        venue.subscribe(f"{BASE}/#", qos=1)
        box, answer = login(broker.port, "table-3", password, ca)
        try:
            assert not answer.is_failure, answer
            box.publish(f"{BASE}/table-4/live", b"another table's", qos=1).wait_for_publish(10)
            box.publish(f"{BASE}/table-3/live", b"its own", qos=1).wait_for_publish(10)
            assert heard.get(timeout=15) == (f"{BASE}/table-3/live", b"its own")
        finally:
            close(box)
            close(venue)
        again = accounts.make("table-3")  # re-admitted: a new password, the old one gone
        client, answer = login(broker.port, "table-3", password, ca)
        close(client)
        assert again != password and answer.is_failure


@pytest.mark.parametrize("name", ["Table 3", "venue-page", "", "-x", "a" * 41])
def test_no_account_is_made_for_what_is_no_box_level(tmp_path, name):
    calls = []
    accounts = BrokerAccounts(tmp_path / "passwd", run=lambda *a, **k: calls.append(a))
    with pytest.raises(CompanionError, match="no broker account"):
        accounts.make(name)
    assert calls == []


def test_a_failing_password_tool_is_named(tmp_path):
    def run(command, **_kw):
        return subprocess.CompletedProcess(command, 1, "", "Error: Unable to open file")

    accounts = BrokerAccounts(tmp_path / "missing" / "passwd", "systemctl reload mosquitto",
                              run=run)
    with pytest.raises(CompanionError, match="mosquitto_passwd exited 1: Error: Unable"):
        accounts.make("table-3")
