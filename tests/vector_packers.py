"""How each message of firmware/vectors.json is packed from its fields (pad to host) or
read as a value (host to pad), shared by the two harnesses that hold the firmware to the
vectors: tests/firmware/test_proto_vectors.py on CPython, and test_micropython.py, which
copies this file beside its MicroPython script. So it is written for both: no imports,
no annotations, nothing MicroPython lacks."""


def packers(proto):
    """``(pack, value)``: type -> fields -> payload bytes, and type -> fields -> the value
    ``proto.parse_host`` gives."""
    pack = {
        0x81: lambda f: proto.hello(f["re"], f["proto"], tuple(f["firmware"]), f["seats"],
                                    f["nonce"], f["chip"], f["capture"], f["capture_ns"],
                                    f["holdoff_us"]),
        0x82: lambda f: proto.press(f["nonce"], f["report"], f["t_ns"], f["sent_ns"],
                                    f["pressed"], f["released"], f["gap_ns"]),
        0x83: lambda f: proto.hb_reply(f["re"], f["echo"], f["nonce"], f["t_ns"],
                                       f["pending"], f["lamps"], f["overflow"],
                                       f["max_gap_ns"]),
        0x84: lambda f: proto.lamps_ack(f["re"], f["lamps"]),
        0x85: lambda f: proto.error(f["re"], f["type"], f["code"]),
    }
    value = {
        0x01: lambda f: f["proto"],
        0x02: lambda f: (f["nonce"], f["reports"]),
        0x03: lambda f: f["host_time"],
        0x04: lambda f: f["mask"],
    }
    return pack, value
