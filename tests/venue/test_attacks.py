"""Every attack of issue 35, through a real Mosquitto on 127.0.0.1, by a stranger who can
publish anything anywhere (no ACL here: the signatures and the admission must hold on
their own; tests/venue/test_broker_acl.py shows the broker's wall, test_flood.py the two
together). Boxes are real game logs with real publishers, the venue its real store and
subscriber.

* a forged ``_venue`` then forged acks: the box refuses the stranger's venue, tells the
  table, sends it nothing and forgets nothing;
* first use by a stranger: a stranger signing first under a real box's id is only
  *waiting*; the operator admits the real box's fingerprint and only its games count;
* invented boxes: a thousand made-up ids write nothing and keep the waiting list short;
* a replay after re-admission: the operator re-admits a box whose key changed from the
  page, at once, and its old messages replayed (even queued for the venue while it was
  away) do not undo it;
* an older image restored: a box restored from an older copy of its log delivers its new
  games as new games.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import urllib.parse

import httpx
import paho.mqtt.publish as publish
import paho.mqtt.subscribe as subscribe
import pytest
from simtable import SimTable
from venue_helpers import VENUE_KEY, Venue, needs_mosquitto, venue_config, wait_notice

from companion.venue.identity import Identity
from companion.venue.outbox import Outbox, game_uid
from companion.venue.topics import Topics, encode
from companion.venue.web import Hub, WebServer, create_app

pytestmark = [needs_mosquitto, pytest.mark.slow]
FINISH = [{"type": "score", "seat": 1, "points": 3}, {"type": "finish"}]
TOPICS = Topics("Chronos Café", "Table 1")


def stranger_live(box: str, me: Identity, topic: str = TOPICS.live(), **change) -> bytes:
    """A live state a stranger signs with its own key, naming ``box``."""
    body = {"v": 1, "type": "live", "box": box, "table": "Table 1", "game": 1,
            "uid": "5e" * 16, "rev": 10**6, "seq": 1, "kind": "scorepad",
            "title": "Score pad", "status": "open", "started_at": "2026-12-03T20:00:00",
            "players": [{"name": "Mallory", "seat": 1, "score": 99}], "key": me.public}
    return encode(me.sign(topic, body | change))


def send(port: int, messages: list[tuple[str, bytes, bool]]) -> None:
    """What a stranger publishes, as one client, in order (QoS 1)."""
    publish.multiple([(t, m, 1, r) for t, m, r in messages], hostname="127.0.0.1", port=port)


def unacked(table) -> tuple[int, int]:
    outbox = Outbox(table.path)
    try:
        return outbox.counts()
    finally:
        outbox.close()


def test_a_forged_venue_and_forged_acks_make_no_box_forget_a_result(tmp_path, broker,
                                                                     changes):
    table = SimTable(tmp_path / "box", venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    table.start()
    forger = Identity.generate()
    try:
        table.play_game("scorepad", ["Ann", "Bo"], FINISH)
        wait_notice(table, "connected to")
        status = TOPICS.venue_status
        fake = {"v": 1, "type": "venue", "online": True, "key": forger.public,
                "admitted": {"0a0a0a0a": table.publisher.fingerprint}}
        send(broker.port, [(status, encode(forger.sign(status, fake)), True)])
        text = wait_notice(table, "refused a venue")
        assert forger.fingerprint in text and VENUE_KEY.fingerprint in text
        assert table.publisher.venue_status.startswith("refused a venue")
        outbox = Outbox(table.path)
        try:
            uid = game_uid("0a0a0a0a", outbox.game(1))  # the forger names the right game
        finally:
            outbox.close()
        ack = TOPICS.ack("0a0a0a0a")
        body = {"v": 1, "type": "ack", "game": 1, "rev": 10**6, "uid": uid}
        send(broker.port, [(ack, encode(forger.sign(ack, body)), False),
                           (ack, encode(body), False),
                           (TOPICS.live(), stranger_live("0f0f0f0f", forger), False)])
        wait_notice(table, "also calls itself")  # sent after the acks: they were heard
        assert table.publisher.published == 0  # nothing went to the forger's "venue"
        assert unacked(table)[1] == 1  # the result still waits for the real venue
        venue = Venue(tmp_path / "venue.sqlite3", broker.port, changes)
        try:
            venue.admit(table)
            changes.until(lambda: unacked(table) == (0, 0), what="the real venue's ack")
            assert venue.store.result("0a0a0a0a", 1)["setup"]["players"][0]["name"] == "Ann"
            wait_notice(table, "admitted by the venue")
        finally:
            venue.close()
    finally:
        table.stop()


def test_a_stranger_speaking_first_for_a_real_box_is_only_waiting(tmp_path, broker, venue,
                                                                  changes):
    stranger = Identity.generate()
    result = TOPICS.result()
    game = json.loads(stranger_live("0a0a0a0a", stranger))
    game.update(type="result", status="finished", setup={"players": [
        {"name": "Mallory", "seat": 1}]}, actions=[], finished_at="2026-12-03T20:05:00")
    game.pop("sig")
    send(broker.port, [(TOPICS.live(), stranger_live("0a0a0a0a", stranger), True),
                       (result, encode(stranger.sign(result, game)), False)])
    changes.until(lambda: venue.store.quiet["waiting"] == 2, what="the stranger held")
    table = SimTable(tmp_path / "box", venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    table.start()
    try:
        for _ in range(3):
            table.play_game("scorepad", ["Ann", "Bo"], FINISH)
        text = wait_notice(table, "waiting for the venue to admit this box")
        assert table.publisher.fingerprint in text
        changes.until(lambda: len(venue.store.board()["waiting"]) == 2, what="both waiting")
        board = venue.store.board()
        waiting = {w["fingerprint"]: w["box"] for w in board["waiting"]}
        assert waiting == {stranger.fingerprint: "0a0a0a0a",
                           table.publisher.fingerprint: "0a0a0a0a"}
        assert venue.store.results() == [] and board["tables"] == []
        assert venue.store.counters() == {}  # nothing written for any of it
        # the operator compares the fingerprint on the box's Settings and admits that one
        assert venue.store.admit("0a0a0a0a", table.publisher.fingerprint) is None
        changes.until(lambda: len(venue.store.results()) == 3, what="the real games")
        wait_notice(table, "admitted by the venue")
        changes.until(lambda: unacked(table) == (0, 0), what="the acks")
        held = venue.store.quiet["waiting"]
        send(broker.port, [(TOPICS.live(), stranger_live("0a0a0a0a", stranger), True)])
        changes.until(lambda: venue.store.quiet["waiting"] > held, what="the stranger again")
        names = {p["name"] for r in venue.store.results()
                 for p in r["payload"]["setup"]["players"]}
        assert names == {"Ann", "Bo"} and len(venue.store.results()) == 3
        assert venue.store.admitted() == {"0a0a0a0a": table.publisher.fingerprint}
    finally:
        table.stop()


def test_a_thousand_invented_boxes_write_nothing_and_stay_bounded(tmp_path, broker, venue,
                                                                   changes):
    table = SimTable(tmp_path / "box", venue_config(broker.port, "Table 3"), "3a3a3a3a",
                     max_backoff=0.2)
    table.start()
    try:
        table.play_game("scorepad", ["Ann", "Bo"], FINISH[:1], finish=False)
        wait_notice(table, "waiting for the venue to admit this box")
        changes.until(lambda: len(venue.store.board()["waiting"]) == 1, what="the box heard")
        heard = venue.store.quiet["waiting"]
        me = Identity.generate()
        one_level = [(TOPICS.live(), stranger_live(f"{i:08x}", me), False)
                     for i in range(300)]
        many_levels = []
        for i in range(700):
            topic = Topics("Chronos Café", f"Table {i}").live()
            many_levels.append((topic, stranger_live(f"{i:08x}", me, topic, table=f"Table {i}"),
                                False))
        send(broker.port, one_level + many_levels)
        changes.until(lambda: venue.store.quiet["waiting"] - heard >= 1000,
                      what="a thousand invented boxes screened")
        board = venue.store.board()
        assert venue.store.counters() == {} and board["problems"] == []
        assert venue.store.results() == [] and board["tables"] == []
        assert len(venue.store.waiting) <= venue.store.waiting.total
        level = [w for w in venue.store.waiting.entries() if w.level == "table-1"]
        assert len(level) <= venue.store.waiting.per_level
        # without the broker's wall a stranger may invent levels and push the real box
        # out of the bounded list; it is heard again with its next message
        table.play_game("scorepad", ["Cy", "Di"], FINISH[:1], finish=False)
        changes.until(lambda: "3a3a3a3a" in {w.box for w in venue.store.waiting.entries()},
                      what="the real box on the waiting list")
    finally:
        table.stop()


@pytest.fixture
def operator_page(venue, changes):
    hub = Hub()
    server = WebServer(create_app(venue.store, hub), "127.0.0.1", 0, hub)
    server.start()
    assert server.wait_started()
    yield server
    server.stop()


def test_a_re_admitted_box_cannot_be_undone_by_its_old_messages(tmp_path, broker, venue,
                                                               operator_page, changes):
    old = SimTable(tmp_path / "old", venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    venue.admit(old)
    old.start()
    try:
        old.play_game("scorepad", ["Ann", "Bo"], FINISH)
        changes.until(lambda: unacked(old) == (0, 0), what="the old key's game")
        heard = subscribe.simple(TOPICS.live(), hostname="127.0.0.1", port=broker.port,
                                 retained=True, msg_count=1)
        spy = [(heard.topic, heard.payload)]  # the old key's retained live state, as
        # anyone can read it
    finally:
        old.stop()
    # the box's log is lost: same box id, a new key
    new = SimTable(tmp_path / "new", venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    new.start()
    try:
        new.play_game("scorepad", ["Cy", "Di"], FINISH)
        text = wait_notice(new, "admitted this box with another key")
        assert new.publisher.fingerprint in text
        changes.until(lambda: any(w["fingerprint"] == new.publisher.fingerprint
                                  for w in venue.store.board()["waiting"]), what="waiting")
        page = httpx.get(f"{operator_page.url}/operator/{venue.store.operator_token}")
        assert new.publisher.fingerprint in page.text and "its key changed" in page.text
        assert httpx.get(f"{operator_page.url}/operator/wrong-token").status_code == 404
        form = urllib.parse.urlencode({"box": "0a0a0a0a",
                                       "fingerprint": new.publisher.fingerprint})
        posted = httpx.post(f"{operator_page.url}/operator/{venue.store.operator_token}/admit",
                            content=form, headers={"content-type":
                                                   "application/x-www-form-urlencoded"})
        assert posted.status_code == 303 and "admitted" in urllib.parse.unquote(
            posted.headers["location"])
        changes.until(lambda: len(venue.store.results()) == 2, what="the new key's game, "
                      "without a restart")
        # a stranger replays the old key's message, once to the venue listening and once
        # queued for its persistent session while it is away
        held = venue.store.quiet["waiting"]
        send(broker.port, spy_messages(spy))
        changes.until(lambda: venue.store.quiet["waiting"] > held, what="the replay screened")
        assert venue.store.admitted() == {"0a0a0a0a": new.publisher.fingerprint}
        venue.sub.stop()
        send(broker.port, spy_messages(spy))
        again = Venue(tmp_path / "venue.sqlite3", broker.port, changes)
        try:
            changes.until(lambda: again.store.quiet["waiting"] >= 1, what="the queued replay")
            assert again.store.admitted() == {"0a0a0a0a": new.publisher.fingerprint}
            new.play_game("scorepad", ["Ed", "Flo"], FINISH)
            changes.until(lambda: len(again.store.results()) == 3, what="the box heard on")
        finally:
            again.close()
    finally:
        new.stop()


def spy_messages(spy):
    return [(t, m, False) for t, m in spy]


def test_a_box_restored_from_an_older_image_delivers_its_new_games(tmp_path, broker, venue,
                                                                    changes):
    folder = tmp_path / "box"
    table = SimTable(folder, venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    venue.admit(table)
    table.start()
    image = tmp_path / "image.sqlite3"
    try:
        table.play_game("scorepad", ["Ann", "Bo"], FINISH)
        changes.until(lambda: unacked(table) == (0, 0), what="game 1")
        with sqlite3.connect(image) as copy:
            table.log.db.backup(copy)  # the image: game 1, delivered
        for names in (["Cy", "Di"], ["Ed", "Flo"]):
            table.play_game("scorepad", names, FINISH)
        changes.until(lambda: len(venue.store.results()) == 3, what="games 2 and 3")
    finally:
        table.stop()
    for suffix in ("", "-wal", "-shm"):
        (folder / f"games.sqlite3{suffix}").unlink(missing_ok=True)
    shutil.copy(image, folder / "games.sqlite3")
    restored = SimTable(folder, venue_config(broker.port), "0a0a0a0a", max_backoff=0.2)
    restored.start()
    try:
        for names in (["Gus", "Hal"], ["Ida", "Jo"]):  # games 2 and 3 again, by number
            restored.play_game("scorepad", names, FINISH)
        changes.until(lambda: len(venue.store.results()) == 5, what="the new games 2 and 3")
        changes.until(lambda: unacked(restored) == (0, 0), what="their acks")
        by_number = {}
        for r in venue.store.results():
            by_number.setdefault(r["game"], []).append(
                r["payload"]["setup"]["players"][0]["name"])
        assert by_number == {1: ["Ann"], 2: ["Cy", "Gus"], 3: ["Ed", "Ida"]}
        assert venue.store.result("0a0a0a0a", 2)["setup"]["players"][0]["name"] == "Gus"
    finally:
        restored.stop()


def test_a_100_mb_payload_never_reaches_the_venue(broker, venue, changes):
    topics = Topics("Chronos Café", "Table 1")
    send(broker.port, [(topics.result(), b"x" * 100_000_000, False),
                       (topics.live(), b"not json", False)])
    changes.until(lambda: venue.store.counters().get("rejected", 0) >= 1,
                  what="the small message")
    counts = venue.store.counters()  # the big one was refused by the broker itself
    assert counts == {"rejected": 1}
    assert [p["reason"] for p in venue.store.board()["problems"]] == [
        "not JSON (JSONDecodeError)"]
