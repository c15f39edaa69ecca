"""The [venue] section: opt-in, and every mistake named with the file and the key."""

from __future__ import annotations

import pytest

from companion.config import DEFAULT_CONFIG, load_config
from companion.errors import ConfigError


def write(tmp_path, venue: str):
    path = tmp_path / "box.toml"
    path.write_text(DEFAULT_CONFIG.read_text() + "\n[venue]\n" + venue)
    return path


def test_without_a_venue_section_nothing_is_published():
    assert load_config(DEFAULT_CONFIG).venue is None


def test_a_full_venue_section(tmp_path):
    secret = tmp_path / "mqtt-password"
    secret.write_text("s3cret\n")
    secret.chmod(0o600)
    ca = tmp_path / "ca.pem"
    ca.write_text("-----BEGIN CERTIFICATE-----\n")
    cfg = load_config(write(tmp_path, f"""
host = "192.168.1.20"
venue = "Chronos  Café"
table = "Table 3"
username = "table3"
password_file = "{secret}"
tls = true
ca_file = "ca.pem"
fingerprint = "3F2A 91BC 07DE 55A1 C0FE"
""")).venue
    assert (cfg.host, cfg.port, cfg.venue, cfg.table, cfg.username) == (
        "192.168.1.20", 8883, "Chronos Café", "Table 3", "table3")
    assert cfg.fingerprint == "3f2a-91bc-07de-55a1-c0fe"  # as the venue's page writes it
    assert cfg.ca_file == ca and cfg.password() == "s3cret"
    assert cfg.page_base() == "http://192.168.1.20:8080"


@pytest.mark.parametrize(("venue", "fragment"), [
    ('table = "T1"', "missing key venue.host"),
    ('host = "h"', "missing key venue.table"),
    ('host = "h"\ntable = "T1"\nport = 70000', "venue.port = 70000: must be between"),
    ('host = "h"\ntable = "T1"\nport = "1883"', "venue.port = '1883': must be int"),
    ('host = "mqtt://h"\ntable = "T1"', "venue.host = 'mqtt://h': must be a host name"),
    ('host = "h"\ntable = "   "', "venue.table = '   ': must not be empty"),
    ('host = "h"\ntable = "Table\\u0007"', "venue.table = 'Table\\x07': has a control"),
    ('host = "h"\ntable = "' + "x" * 41 + '"', "is 41 characters"),
    ('host = "h"\ntable = "T1"\nbroker = "h"', "unknown key venue.broker"),
    ('host = "h"\ntable = "T1"\nca_file = "box.toml"', "venue.ca_file = 'box.toml': needs "
                                                       "venue.tls = true"),
    ('host = "h"\ntable = "T1"\ntls = true\ncert_file = "box.toml"',
     "venue.cert_file and venue.key_file go together; venue.key_file is missing"),
    ('host = "h"\ntable = "T1"\ntls = true\nca_file = "nope.pem"', "venue.ca_file = "
                                                                 "'nope.pem': cannot be read"),
    ('host = "h"\ntable = "T1"\npage_url = "venue.local"', "must start with http://"),
    ('host = "h"\ntable = "T1"\nfingerprint = "3f2a-91bc"', "venue.fingerprint = "
                                                          "'3f2a-91bc': must be the venue's"),
])
def test_bad_values_name_the_file_and_key(tmp_path, venue, fragment):
    path = write(tmp_path, venue)
    with pytest.raises(ConfigError) as err:
        load_config(path)
    assert str(path) in str(err.value) and fragment in str(err.value)


def test_a_password_file_others_can_read_is_refused(tmp_path):
    secret = tmp_path / "pw"
    secret.write_text("x")
    secret.chmod(0o644)
    path = write(tmp_path, f'host = "h"\ntable = "T1"\nusername = "t"\n'
                           f'password_file = "{secret}"')
    with pytest.raises(ConfigError, match="can be read by others .mode 644.; run chmod 600"):
        load_config(path)
    secret.chmod(0o600)
    assert load_config(path).venue.password() == "x"
    path = write(tmp_path, f'host = "h"\ntable = "T1"\npassword_file = "{secret}"')
    with pytest.raises(ConfigError, match="needs venue.username"):
        load_config(path)


def test_doctor_says_whether_venue_mode_is_on_and_what_the_outbox_holds(tmp_path, data_dir,
                                                                        capsys):
    from companion.cli import main
    from companion.games import get_rules
    from companion.paths import log_path
    from companion.session import GameSession
    from companion.store.gamelog import GameLog
    from companion.venue.outbox import OutboxHook

    assert main(["doctor"]) == 0
    assert "venue:         off (no [venue] table in the config)" in capsys.readouterr().out
    config = tmp_path / "box.toml"
    config.write_text(DEFAULT_CONFIG.read_text() + '\n[venue]\nhost = "10.0.0.2"\n'
                      'venue = "Dice Bar"\ntable = "Table 4"\n')
    log = GameLog(log_path())
    log.outbox_hook = OutboxHook()
    game = GameSession.start(log, get_rules("scorepad"), {"players": [
        {"name": "Ann", "seat": 1}, {"name": "Bo", "seat": 2}]})
    game.do({"type": "score", "seat": 1, "points": 3})
    log.close()
    before = log_path().read_bytes()
    assert main(["doctor", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "venue:         Dice Bar, table 'Table 4': broker 10.0.0.2:1883" in out
    assert "venue outbox:  2 message(s) waiting to be sent" in out
    assert "venue key:     none yet (made when venue mode first starts)" in out
    assert log_path().read_bytes() == before, "the doctor changes nothing it looks at"
    from companion.venue.outbox import Outbox

    outbox = Outbox(log_path())  # the publisher makes the box's key when it first opens
    fingerprint = outbox.box_identity().fingerprint
    outbox.close()
    assert main(["doctor", "--config", str(config)]) == 0
    assert f"venue key:     fingerprint {fingerprint} (the venue's operator admits this box" \
        in capsys.readouterr().out
