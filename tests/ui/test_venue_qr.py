"""Venue mode on the box, in the real window: finishing a game shows the QR code of its
score sheet on the venue page; the publisher's news reaches the status bar; without a
venue nothing of it happens."""

from __future__ import annotations

import pytest

from companion.venue.box import VenueBox, box_id
from companion.venue.qr import qr_matrix
from companion.venue.settings import VenueConfig

pytestmark = pytest.mark.window


@pytest.fixture
def venue_box(ui):
    cfg = VenueConfig("127.0.0.1", 9, "Chronos Café", "Table 3",
                      page_url="http://192.0.2.10:8080/")
    box = VenueBox(cfg, ui.app.log)  # not started: no broker needed to show the code
    box.app = ui.app
    yield box
    if box.panel is not None:
        box.panel.dismiss()
    box.stop()
    ui.goto_home()


def _play_and_finish(ui):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                              {"name": "Bo", "seat": 2}]})
    assert ui.app.act({"type": "score", "seat": 1, "points": 5})
    assert ui.app.act({"type": "finish"})
    game_id = ui.app.session.game_id
    assert ui.app.end_game(ask=False)
    ui.pump()
    return game_id


def test_a_finished_game_shows_the_qr_code_of_its_score_sheet(ui, venue_box):
    from kivy.uix.modalview import ModalView

    game_id = _play_and_finish(ui)
    venue_box.tick()
    ui.pump(4)
    panel = venue_box.panel
    assert isinstance(panel, ModalView) and panel.get_parent_window() is not None
    url = f"http://192.0.2.10:8080/game/{box_id(ui.app.log)}/{game_id}"
    assert panel.url == url
    assert any("Scan for this game's score sheet" in str(getattr(w, "text", ""))
               for w in panel.walk())
    path, colours = ui.screenshot("venue-qr-game-over")
    assert colours > 3
    ui.tap(next(w for w in panel.walk() if getattr(w, "text", "") == "Close"))
    ui.pump(6)
    assert panel.get_parent_window() is None


def test_an_abandoned_game_shows_no_code_and_notices_reach_the_status_bar(ui, venue_box):
    ui.goto_home()
    ui.app.start_game("scorepad", {"players": [{"name": "Ann", "seat": 1},
                                              {"name": "Bo", "seat": 2}]})
    ui.app.end_game("abandoned", ask=False)
    venue_box.publisher.notices.put(("Venue: nothing answers at 127.0.0.1:9", False))
    venue_box.tick()
    ui.pump()
    assert venue_box.panel is None
    assert "nothing answers" in ui.app.status


def test_settings_shows_the_box_fingerprint_and_where_it_stands(ui, venue_box):
    ui.app.navigate("settings")
    ui.pump()
    with pytest.raises(LookupError):  # not attached: no venue line
        ui.find(venue_box.fingerprint)
    ui.goto_home()
    ui.app.venue = venue_box  # what VenueBox.attach does
    try:
        ui.app.navigate("settings")
        ui.pump()
        line = ui.find(venue_box.fingerprint)
        assert "Venue: no venue heard yet" in line.text
        ui.screenshot("settings-venue")
    finally:
        ui.app.venue = None
        ui.goto_home()


def test_a_venue_is_believed_once_a_person_confirms_it_in_settings(ui, venue_box):
    from companion.venue.identity import Identity
    from companion.venue.topics import Topics, encode

    pub = venue_box.publisher  # not started: fed and stepped by hand
    pub.open()
    venue = Identity.generate()
    status = Topics("Chronos Café").venue_status
    pub._on_message(status, encode(venue.sign(status, {
        "v": 1, "type": "venue", "online": True, "key": venue.public, "admitted": {}})))
    assert pub.venue_key is None and venue_box.candidate == venue.fingerprint
    ui.app.venue = venue_box
    try:
        ui.app.navigate("settings")
        ui.pump()
        believe = ui.find(f"Believe venue {venue.fingerprint}")
        scroll = believe.parent
        while type(scroll).__name__ != "ScrollView":  # below the fold: scrolled to
            scroll = scroll.parent
        scroll.scroll_to(believe, animate=False)
        ui.pump(2)
        ui.tap(believe)
        ui.pump(2)
        assert pub.venue_key is None  # asked first
        assert "the very same fingerprint" in ui.app.question.text
        ui.screenshot("settings-venue-confirm")
        ui.tap(ui.find("Believe it"))
        ui.pump(2)
        pub.step(0.0)
        assert pub.venue_key == venue.public and pub.outbox.trusted_venue() == venue.public
        assert venue_box.candidate is None
    finally:
        ui.app.venue = None
        ui.goto_home()


def test_the_qr_matrix_is_a_square_code_with_a_quiet_zone():
    m = qr_matrix("http://192.0.2.10:8080/game/0a1b2c3d/12")
    assert len(m) == len(m[0]) >= 21 + 8
    assert not any(m[0]) and not any(row[0] for row in m)  # the quiet zone is light
    assert m[4][4] and m[4][10]  # the finder pattern's dark frame, top left


def test_history_writes_the_score_sheets_to_a_usb_stick(ui, tmp_path, monkeypatch):
    from companion.export import usb

    stick = tmp_path / "media" / "pi" / "STICK"
    stick.mkdir(parents=True)
    mounts = tmp_path / "mounts"
    mounts.write_text("proc /proc proc rw 0 0\n")
    monkeypatch.setattr(usb, "MOUNTS", mounts)
    monkeypatch.setattr(usb, "ROOTS", (f"{tmp_path / 'media'}/",))
    _play_and_finish(ui)
    ui.tap(ui.find("History"))
    ui.tap(ui.find("Sheets to USB"))
    assert ui.app.sm.current_screen.message.startswith("No USB stick found")
    mounts.write_text(f"/dev/sda1 {stick} vfat rw,nosuid 0 0\n")  # plugged in
    ui.tap(ui.find("Sheets to USB"))
    assert "score sheets to STICK" in ui.app.sm.current_screen.message
    assert list(stick.glob("table-companion/score-sheets-*/index.html"))
    ui.screenshot("venue-history-usb")
    ui.goto_home()
