"""SerialTransport and find_pad_port on real pseudo-terminals with real pyserial."""

import os
import select
import tty
from types import SimpleNamespace

import pytest

from companion.errors import LinkError
from companion.pad.transport import Backoff, SerialTransport, find_pad_port


@pytest.fixture
def pty_pair():
    master, slave = os.openpty()
    tty.setraw(slave)
    fds = {"master": master, "slave": slave}
    yield fds, os.ttyname(slave)
    for fd in fds.values():
        if fd >= 0:
            os.close(fd)


def port(device, vid=0x2E8A, pid=0x0005):
    return SimpleNamespace(device=device, vid=vid, pid=pid)


def test_find_prefers_the_udev_name(tmp_path):
    stable = tmp_path / "slap-pad"
    stable.touch()
    assert find_pad_port(lambda: [port("/dev/ttyACM0")], [str(stable)], tmp_path) == str(stable)


def test_find_by_usb_id_prefers_the_by_id_name(tmp_path):
    device = tmp_path / "ttyACM3"
    device.touch()
    by_id = tmp_path / "by-id"
    by_id.mkdir()
    (by_id / "usb-MicroPython_Board_in_FS_mode_e6614c-if00").symlink_to(device)
    ports = [port("/dev/ttyUSB0", vid=0x0403, pid=0x6001), port(str(device))]
    found = find_pad_port(lambda: ports, [str(tmp_path / "absent")], by_id)
    assert found == str(by_id / "usb-MicroPython_Board_in_FS_mode_e6614c-if00")


def test_find_falls_back_to_the_device_and_to_none(tmp_path):
    absent = [str(tmp_path / "absent")]
    assert find_pad_port(lambda: [port("/dev/ttyACM9")], absent, tmp_path / "no") == "/dev/ttyACM9"
    assert find_pad_port(lambda: [port("/dev/ttyUSB0", vid=1, pid=2)], absent, tmp_path) is None


def test_no_pad_is_a_clear_error():
    with pytest.raises(LinkError, match="no Pico on USB .VID:PID 2E8A:0005."):
        SerialTransport(None, finder=lambda: None).open()


def test_missing_path_is_named(tmp_path):
    with pytest.raises(LinkError, match=r"slap-pad is not there \(unplugged\?\)"):
        SerialTransport(str(tmp_path / "slap-pad")).open()


def test_open_is_exclusive(pty_pair):
    _, path = pty_pair
    first = SerialTransport(path)
    first.open()
    try:
        with pytest.raises(LinkError, match="in use by another program"):
            SerialTransport(path).open()
    finally:
        first.close()


def test_read_write_and_unplug(pty_pair):
    fds, path = pty_pair
    transport = SerialTransport(path)
    assert transport.open() == path
    assert transport.read() == b""
    os.write(fds["master"], b"\xa5hello")
    assert select.select([transport.fileno()], [], [], 5)[0]
    assert transport.read() == b"\xa5hello"
    transport.write(b"ping")
    assert select.select([fds["master"]], [], [], 5)[0]
    assert os.read(fds["master"], 100) == b"ping"
    os.close(fds["master"])  # the cable is pulled
    os.close(fds["slave"])
    fds["master"] = fds["slave"] = -1
    assert select.select([transport.fileno()], [], [], 5)[0]
    with pytest.raises(LinkError, match=r"went away \(unplugged\?\)"):
        transport.read()
    assert not transport.is_open
    with pytest.raises(LinkError, match="not there"):
        transport.open()


def test_backoff_doubles_to_a_limit_and_resets():
    backoff = Backoff(first=0.05, limit=0.3)
    assert [backoff.next() for _ in range(5)] == [0.05, 0.1, 0.2, 0.3, 0.3]
    backoff.reset()
    assert backoff.next() == 0.05


def test_every_micropython_board_is_a_candidate_and_rotate_moves_on(tmp_path):
    from companion.pad.transport import pad_ports

    a, b = tmp_path / "ttyACM0", tmp_path / "ttyACM1"
    a.touch()
    b.touch()
    ports = [port(str(a)), port("/dev/ttyUSB0", vid=0x0403, pid=0x6001), port(str(b))]
    found = pad_ports(lambda: ports, [str(tmp_path / "absent")], tmp_path / "no")
    assert found == [str(a), str(b)]
    opened = []
    transport = SerialTransport(None, finder=lambda: found,
                                serial_factory=lambda path, **kw: opened.append(path) or
                                SimpleNamespace(close=lambda: None), describer=lambda p: "")
    transport.open()
    transport.close()
    transport.rotate()  # that one was not the pad
    transport.open()
    assert opened == [str(a), str(b)]


def test_a_port_is_described_by_what_usb_says(tmp_path):
    from companion.pad.transport import describe_port

    dev = tmp_path / "ttyACM0"
    dev.touch()
    info = SimpleNamespace(device=str(dev), vid=0x2E8A, pid=0x0005, serial_number="E6614C",
                           product="Board in FS mode", description="Board CDC")
    assert describe_port(str(dev), lambda: [info]) == (
        "Board in FS mode, USB 2E8A:0005, serial E6614C")
    assert describe_port("/dev/pts/7", lambda: [info]) == ""
