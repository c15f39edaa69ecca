"""VirtualPad's programmatic API and ``companion pad-sim`` (sim.main)."""

import io
import os
import types

import pytest

from companion.errors import LinkError
from companion.pad import codec, sim
from companion.pad.virtual import VirtualPad


def frames_from(pad):
    """What the host would read from the pty right now."""
    data = b""
    while pad.plugged:
        try:
            chunk = os.read(pad._slave, 4096)
        except BlockingIOError:
            break
        data += chunk
        if len(chunk) < 4096:
            break
    return [codec.decode_message(f) for f in codec.FrameDecoder().feed(data)]


@pytest.fixture
def pad(tmp_path):
    p = VirtualPad(seats=4, link=tmp_path / "pad", seed=7, start_us=1_000)
    os.set_blocking(p._slave, False)
    yield p
    p.close()


def test_press_is_stamped_by_the_first_scan_after_it(pad):
    pad.tap(2, at_us=1_250, hold_us=50_000, bounces=3)
    pad.step(2_000)
    [press] = frames_from(pad)
    assert (press.pressed, press.t_ns, press.gap_ns) == (0b0010, 1_300_000, 100_000)
    pad.step(60_000)  # the bounces fell in the hold-off; then the release
    [release] = frames_from(pad)
    assert (release.pressed, release.released, release.t_ns) == (0, 0b0010, 51_300_000)
    assert release.report == press.report + 1


def test_stamp_for_predicts_the_scan(pad):
    assert pad.stamp_for(1_250) == 1_300 and pad.stamp_for(1_300) == 1_300
    assert pad.stamp_for(0) == pad.stamp_for(1_100) == 1_100
    pad.tap(1, 1_250)
    pad.step(2_000)
    assert pad.first_sent[(pad.nonce, 1)][1] == 1_300_000


def test_explicit_time_needs_no_real_clock(pad):
    pad.press(1, at_us=5_050)
    pad.step(5_099)
    assert frames_from(pad) == []
    pad.step(5_500)  # stamped by the 5 100 µs scan, sent at the next service pass
    assert [m.t_ns for m in frames_from(pad)] == [5_100_000]


def test_unplug_and_replug_move_the_link(pad, tmp_path):
    first = pad.tty_path
    assert os.readlink(tmp_path / "pad") == first
    pad.unplug()
    assert not (tmp_path / "pad").exists() and not pad.plugged
    pad.press(1, at_us=2_000)
    pad.step(3_000)  # the firmware keeps running while unplugged
    assert len(pad.firmware.pad.queue) == 1
    pad.replug()
    assert os.readlink(tmp_path / "pad") == pad.tty_path
    nonce = pad.nonce
    pad.replug(reboot=True)
    assert pad.nonce != nonce and pad.firmware.pad.queue == [] and pad.boots == 2


def test_reboot_restarts_ids_and_clock(pad):
    pad.press(1, at_us=2_000)
    pad.step(3_000)
    pad.reboot(start_us=0)
    assert pad.now_us == 0
    os.set_blocking(pad._slave, False)
    frames_from(pad)
    pad.press(3, at_us=50)
    pad.step(1_000)
    [press] = frames_from(pad)
    assert (press.report, press.t_ns, press.nonce) == (1, 100_000, pad.nonce)


def test_seat_is_checked(pad):
    with pytest.raises(LinkError, match="seats 1..4"):
        pad.press(5)
    with pytest.raises(LinkError, match="1..8 seats"):
        VirtualPad(seats=9)


def _stdin(text):
    r, w = os.pipe()
    os.write(w, text.encode())
    os.close(w)
    return r, types.SimpleNamespace(fileno=lambda: r)


def test_sim_main_takes_line_commands(monkeypatch, capsys, tmp_path):
    fd, stdin = _stdin("1\n24\nu\nu\nr\nm\nm\nc\nc\ns\nh\nx\nq\n")
    monkeypatch.setattr("sys.stdin", stdin)
    try:
        code = sim.main(["--seats", "4", "--seed", "1", "--link", str(tmp_path / "p"),
                         "--duration", "10"])
    finally:
        os.close(fd)
    out = capsys.readouterr().out
    assert code == 0
    assert "virtual pad on " + str(tmp_path / "p") in out
    assert "run the companion with: companion run --pad" in out
    for text in ("slap seat 1 at pad time", "slap seat 2+4 at", "cable pulled",
                 "plugged back in on", "rebooted: boot", "stopped answering",
                 "answering again", "corrupting 1.0% of bytes", "frames_out",
                 "unknown key 'x'", "bye"):
        assert text in out, text
    assert not (tmp_path / "p").exists()


def test_sim_main_without_stdin_runs_for_its_duration(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO())  # no fileno: no keyboard
    assert sim.main(["--duration", "0.05", "--seats", "2"]) == 0
    assert "/dev/pts/" in capsys.readouterr().out


def test_sim_main_reports_bad_arguments(capsys):
    assert sim.main(["--seats", "9", "--duration", "1"]) == 2
    assert "--seats 9: a pad has 1 to 8 seats" in capsys.readouterr().err


def test_pad_sim_refuses_bad_arguments_and_never_replaces_a_file(tmp_path, capsys):
    from companion.pad.sim import main

    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    for argv, words in ((["--link", str(precious)], "pad-sim only replaces links"),
                        (["--scan-us", "0"], "scan period must be 10"),
                        (["--scan-us", "-5"], "scan period must be 10"),
                        (["--corrupt", "2"], "--corrupt 2.0: a fraction"),
                        (["--drop", "-1"], "--drop -1.0: a fraction"),
                        (["--ppm", "5000"], "--ppm 5000.0: a crystal is within 1000 ppm"),
                        (["--duration", "0"], "must be more than 0 seconds")):
        assert main(argv) == 2
        assert words in capsys.readouterr().err
    assert precious.read_text() == "keep me"


class HostClock:
    """An injected host clock for the virtual pad (ns)."""

    def __init__(self):
        self.ns = 10**12

    def __call__(self):
        return self.ns


def test_the_pad_crystal_runs_n_ppm_off_and_can_step(tmp_path):
    host = HostClock()
    pad = VirtualPad(seats=2, link=tmp_path / "pad", seed=1, clock=host, ppm=50)
    try:
        host.ns += 3600 * 10**9  # an hour of host time
        assert pad.clock_us() == 3600 * 10**6 + 180_000  # 50 ppm: 180 ms ahead
        pad.set_ppm(-20)
        host.ns += 10**9
        assert pad.clock_us() == 3600 * 10**6 + 180_000 + 10**6 - 20
        before = pad.clock_us()
        pad.step_clock(-2**32)  # a wrapped 32-bit microsecond counter
        assert pad.clock_us() == before - 2**32 and pad.hal.now_us() < before
        assert round(pad.ppm) == -20
    finally:
        pad.close()


def test_pio_capture_stamps_to_the_sample_not_the_scan(tmp_path):
    pad = VirtualPad(seats=4, link=tmp_path / "pad", seed=2, start_us=1_000, capture="pio")
    os.set_blocking(pad._slave, False)
    try:
        pad.press(3, at_us=1_250)
        pad.step(2_000)
        [press] = frames_from(pad)
        assert press.t_ns == pad.stamp_ns(1_250) and press.gap_ns == 56
        assert 1_250_000 <= press.t_ns < 1_250_056
    finally:
        pad.close()


def test_pad_sim_takes_ppm_and_capture(monkeypatch, capsys):
    monkeypatch.setattr("sys.stdin", io.StringIO())
    assert sim.main(["--duration", "0.05", "--ppm", "-35", "--capture", "pio"]) == 0
    out = capsys.readouterr().out
    assert "pio capture, clock -35 ppm" in out
