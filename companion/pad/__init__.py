"""The Pico slap pad: firmware link, virtual pad and press source.

Layers (``firmware/PROTOCOL.md`` is the specification):

* ``codec`` - pure framing, CRC-16 and messages;
* ``transport`` - pyserial: find, open exclusively, notice unplugs, back off;
* ``link`` - the session: handshake, acks, dedup, press checks, states (pure);
* ``clocksync`` - pad time against host time: offset and rate, an honest bound, jumps;
* ``source`` - ``PadSource``, the thread that runs them and posts events to the UI;
* ``virtual``/``sim`` - the real firmware on CPython behind a pseudo-terminal;
  ``fakehal`` stands in for ``firmware/hal.py``.
(The firmware's PIO program is assembled on the host for the emulator tests by
``tests/pioasm.py``.)

Import ``PadSource``, ``LinkStatus``, ``PadPress``, ``PadRebooted`` and ``PadVoid`` from
here; ``companion.pad.bridge.PadBridge`` brings the presses into host time.
"""

from companion.pad.link import LINK_STATES, LinkStatus, PadPress, PadRebooted, PadVoid
from companion.pad.source import PadSource

__all__ = ["LINK_STATES", "LinkStatus", "PadPress", "PadRebooted", "PadSource", "PadVoid"]
