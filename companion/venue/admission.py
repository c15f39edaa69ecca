"""Boxes the venue has heard of but not admitted: the operator page's *waiting* list.

A box is admitted by a person (the venue's operator page, ``VenueStore.admit``) after
comparing the fingerprint the page shows with the one on the box's Settings. Until then
its messages are dropped before their signature is checked, and all that is kept of them
is one entry here, in memory: box id, the key it carries, the table name it claims, when
it was first and last heard and how many messages came. Nothing is written to disk and
nothing is shown as a table.

The list is bounded two ways, so invented boxes cannot fill it: at most ``per_level``
entries per topic level (the broker's ACL gives each account one level, so a stranger's
account can only push out its own inventions, never a real box at another level) and at
most ``total`` entries in all (the one heard longest ago goes).

    room = WaitingRoom()
    room.heard("table-3", "c151f61e", public_key, "Table 3", now_iso)  # True: new entry
    entry = room.take("c151f61e", "3f2a-91bc-07de-55a1-c0fe")         # the operator said yes
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

from companion.venue.identity import fingerprint


@dataclass
class Waiting:
    box: str
    key: str
    fingerprint: str
    table: str
    level: str
    first_seen: str
    last_seen: str
    messages: int = 1


class WaitingRoom:
    def __init__(self, per_level: int = 4, total: int = 200) -> None:
        self.per_level, self.total = per_level, total
        self._levels: OrderedDict[str, OrderedDict[tuple[str, str], Waiting]] = OrderedDict()
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def heard(self, level: str, box: str, key: str, table: object, now: str) -> bool:
        """A message from ``box`` with ``key`` that is not admitted; True when the entry
        is new (the page should show it)."""
        entries = self._levels.get(level)
        if entries is None:
            entries = self._levels[level] = OrderedDict()
        self._levels.move_to_end(level)
        entry = entries.get((box, key))
        if entry is not None:
            entries.move_to_end((box, key))
            entry.last_seen, entry.messages = now, entry.messages + 1
            return False
        if len(entries) >= self.per_level:
            entries.popitem(last=False)
            self._size -= 1
        while self._size >= self.total:
            self._evict_oldest(level)
        name = table if isinstance(table, str) and len(table) <= 40 and table.isprintable() \
            else "?"
        entries[(box, key)] = Waiting(box, key, fingerprint(key), name, level, now, now)
        self._size += 1
        return True

    def _evict_oldest(self, keep: str) -> None:
        for level, entries in self._levels.items():
            if level != keep or len(self._levels) == 1:
                entries.popitem(last=False)
                self._size -= 1
                if not entries:
                    del self._levels[level]
                return

    def find(self, box: str, fingerprint_text: str) -> Waiting | None:
        """The waiting entry of ``box`` with that fingerprint, left in place."""
        for entries in self._levels.values():
            for (b, _key), entry in entries.items():
                if b == box and entry.fingerprint == fingerprint_text:
                    return entry
        return None

    def take(self, box: str, fingerprint_text: str) -> Waiting | None:
        """The waiting entry of ``box`` with that fingerprint, removed (None: no such)."""
        for level, entries in self._levels.items():
            for (b, key), entry in entries.items():
                if b == box and entry.fingerprint == fingerprint_text:
                    del entries[(b, key)]
                    self._size -= 1
                    if not entries:
                        del self._levels[level]
                    return entry
        return None

    def forget(self, box: str) -> None:
        """Every entry of ``box`` (it was admitted with one of its keys)."""
        for level in list(self._levels):
            entries = self._levels[level]
            for b, key in [k for k in entries if k[0] == box]:
                del entries[(b, key)]
                self._size -= 1
            if not entries:
                del self._levels[level]

    def entries(self) -> list[Waiting]:
        """Every entry, the one heard last first."""
        return sorted((e for entries in self._levels.values() for e in entries.values()),
                      key=lambda e: e.last_seen, reverse=True)
