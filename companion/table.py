"""The box on the table: seat buttons, captain button and lamps behind one object.

``Table`` builds the gpiozero devices from the config with the chosen pin factory,
collects their edges on one ``EventQueue``, and offers the keyboard simulation: keys
``1``-``8`` press the seat buttons and the space bar the captain button, by driving
gpiozero's mock pins, so a laptop exercises exactly the code path of the real box.

The UI thread calls ``drain()`` once per frame; it is the only consumer.

    table = Table.from_config(config)            # auto: real pins on a Pi, keyboard elsewhere
    table.key_down("3"); table.key_up("3")      # simulation only
    for event in table.drain(): ...
    table.lamps.on(3)
"""

from __future__ import annotations

import time
from collections.abc import Callable

from companion.config import Config
from companion.events import CAPTAIN_SEAT, EventQueue
from companion.hw.buttons import SeatButtons
from companion.hw.factory import FactoryInfo, make_factory
from companion.hw.lamps import Lamps


class Table:
    def __init__(self, config: Config, pin_factory, info: FactoryInfo,
                 clock: Callable[[], int] = time.monotonic_ns) -> None:
        self.config, self.factory, self.info, self.clock = config, pin_factory, info, clock
        self.queue = EventQueue()
        self.buttons = SeatButtons(config, self.queue.post, pin_factory=pin_factory,
                                   source=info.source)
        self.lamps = Lamps(config, pin_factory=pin_factory)
        self._keys: dict[str, int] = {str(s.seat): s.button_pin for s in config.seats}
        if config.captain_button_pin is not None:
            self._keys["spacebar"] = config.captain_button_pin
            self._keys[" "] = config.captain_button_pin

    @classmethod
    def from_config(cls, config: Config, factory_name: str | None = None) -> Table:
        factory, info = make_factory(factory_name or config.factory)
        return cls(config, factory, info)

    @property
    def seats(self) -> list[int]:
        return [s.seat for s in self.config.seats]

    @property
    def simulated(self) -> bool:
        return self.info.simulated

    def now_ns(self) -> int:
        """The current time in the clock the GPIO events are stamped in."""
        return self.clock()

    def drain(self) -> list:
        return self.queue.drain()

    # -- keyboard simulation -----------------------------------------------------------

    def key_seat(self, key: str) -> int | None:
        """The seat a key stands for in simulation (0 = captain), or None."""
        pin = self._keys.get(key)
        if pin is None:
            return None
        if pin == self.config.captain_button_pin:
            return CAPTAIN_SEAT
        return next(s.seat for s in self.config.seats if s.button_pin == pin)

    def key_down(self, key: str) -> bool:
        """Press the button a key stands for; False when the key means nothing here."""
        return self._drive(key, low=True)

    def key_up(self, key: str) -> bool:
        return self._drive(key, low=False)

    def release_all(self) -> None:
        """Simulation only: let go of every button the keyboard is holding down."""
        for key in self._keys:
            self.key_up(key)

    def _drive(self, key: str, low: bool) -> bool:
        if not self.simulated or key not in self._keys:
            return False
        pin = self.factory.pin(self._keys[key])
        pin.drive_low() if low else pin.drive_high()  # repeats of a held key change nothing
        return True

    def close(self) -> None:
        self.buttons.close()
        self.lamps.close()
        close = getattr(self.factory, "close", None)
        if close:
            close()
