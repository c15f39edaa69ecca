"""Which venue a box believes, without a broker (the publisher fed its messages by hand):
the one named by fingerprint in its config, or one a person confirmed once on its screen
and the log kept; any other is refused and the table told; an announcement its key did
not sign is not even considered; the box says whether the venue has admitted it."""

from __future__ import annotations

from simtable import SimTable
from venue_helpers import VENUE_KEY, venue_config

from companion.venue.identity import Identity
from companion.venue.publisher import Publisher
from companion.venue.settings import VenueConfig
from companion.venue.topics import Topics, encode

STATUS = Topics("Chronos Café").venue_status


def announcement(me: Identity, admitted: dict | None = None, signer: Identity | None = None):
    body = {"v": 1, "type": "venue", "online": True, "key": me.public,
            "admitted": admitted or {}}
    return STATUS, encode((signer or me).sign(STATUS, body))


def notices(pub) -> list[tuple[str, bool]]:
    out = []
    while not pub.notices.empty():
        out.append(pub.notices.get_nowait())
    return out


def test_a_venue_confirmed_once_on_the_screen_is_kept_and_no_other_believed(tmp_path):
    cfg = VenueConfig("127.0.0.1", 9, "Chronos Café", "Table 1")  # no fingerprint
    table = SimTable(tmp_path / "box", cfg, "0a0a0a0a")
    venue, stranger = Identity.generate(), Identity.generate()
    pub = table.publisher
    try:
        pub.open()
        pub._on_message(*announcement(venue, signer=stranger))  # not signed by its key
        assert notices(pub) == [] and pub.candidate is None
        pub._on_message(*announcement(venue))
        ((text, error),) = notices(pub)
        assert venue.fingerprint in text and "confirm it in Settings" in text and error
        assert pub.venue_key is None  # nothing is sent to it yet
        pub.confirm_venue(stranger.fingerprint)  # not the one asking: nothing confirmed
        pub.step(0.0)
        assert pub.venue_key is None
        assert any("nothing was confirmed" in t for t, _ in notices(pub))
        pub.confirm_venue(venue.fingerprint.upper())
        pub.step(1.0)
        assert pub.venue_key == venue.public
        assert any("waiting for the venue to admit this box" in t and pub.fingerprint in t
                   for t, _ in notices(pub))
    finally:
        table.stop()
    again = Publisher(cfg, table.path, "0a0a0a0a")  # restarted: the log kept the venue
    try:
        again.open()
        again._on_message(*announcement(stranger))
        ((text, error),) = notices(again)
        assert "refused a venue" in text and stranger.fingerprint in text and error
        assert again.venue_key is None and again.venue_status.startswith("refused")
        again._on_message(*announcement(venue, {"0a0a0a0a": again.fingerprint}))
        assert again.venue_key == venue.public and again.admitted
        assert [t for t, _ in notices(again)] == [
            "Venue: admitted by the venue; games are delivered."]
        assert again.venue_status == "admitted by the venue; games are delivered."
    finally:
        again.stop()


def test_the_configured_fingerprint_wins_and_another_key_for_this_box_is_told(tmp_path):
    table = SimTable(tmp_path / "box", venue_config(9), "0a0a0a0a")
    pub = table.publisher
    try:
        pub.open()
        pub._on_message(*announcement(Identity.generate()))
        assert "refused a venue" in notices(pub)[0][0] and pub.venue_key is None
        pub._on_message(*announcement(VENUE_KEY, {"0a0a0a0a": "0000-0000-0000-0000-0000"}))
        ((text, error),) = notices(pub)
        assert "admitted this box with another key" in text and pub.fingerprint in text
        assert error and not pub.admitted and pub.venue_key == VENUE_KEY.public
    finally:
        table.stop()
