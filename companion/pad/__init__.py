"""The Pico slap pad: firmware link, virtual pad and press source.

Layers (``firmware/PROTOCOL.md`` is the specification):

* ``codec`` - pure framing, CRC-16 and messages;
* ``transport`` - pyserial: find, open exclusively, notice unplugs, back off;
* ``link`` - the session: handshake, acks, dedup, clock sync, states (pure);
* ``source`` - ``PadSource``, the thread that runs them and posts events to the UI;
* ``virtual``/``sim`` - the real firmware on CPython behind a pseudo-terminal;
  ``fakehal`` stands in for ``firmware/hal.py``.

Import ``PadSource``, ``LinkStatus`` and ``PadRebooted`` from here.
"""

from companion.pad.link import LINK_STATES, LinkStatus, PadRebooted
from companion.pad.source import PadSource

__all__ = ["LINK_STATES", "LinkStatus", "PadRebooted", "PadSource"]
