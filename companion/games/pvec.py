"""``PVec``: a persistent vector, the frozen states' list that grows without being copied.

A rules engine's state is frozen: ``apply`` returns a new state and never changes the
old one. A history kept as a tuple (the T.I.M.E Stories time log, Crazy Time's pick-ups,
the slap rounds) has to be copied whole to add one entry, so replaying a game of n
actions costs n²/2 copies, and keeping earlier states keeps n²/2 references. ``PVec``
adds an entry in constant time and shares everything else with the vector it came from:
a 32-way tree of full 32-entry leaves plus a tail of up to 32 entries (the layout of
Clojure's persistent vector). Adding copies at most the tail and one path of the tree;
reading an entry walks at most ``log32(n)`` levels (4 levels hold a million entries).

It behaves like the tuple it replaces: ``len``, indexing (negative too), slicing (which
returns a tuple), iteration in both directions, ``in``, ``==`` with another ``PVec`` or
a tuple of the same items, and a hash equal to that tuple's. It never changes: every
"change" returns a new vector.

    log = PVec()                      # or PVec(iterable)
    log = log.append(entry)           # O(1); the old ``log`` is untouched
    log = log.set(-1, better_entry)   # replace one entry (O(log32 n))
    log[-1], log[-8:], len(log)       # last entry, the newest eight as a tuple
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import chain, islice
from typing import Any

_BITS = 5
_WIDTH = 1 << _BITS  # 32
_MASK = _WIDTH - 1

_EMPTY_NODE: tuple = ()


class PVec(Sequence):
    """An immutable vector with cheap append and update; see the module docstring."""

    __slots__ = ("_count", "_shift", "_root", "_tail", "_hash")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        values = items if isinstance(items, (tuple, list)) else tuple(items)
        count = len(values)
        tail_start = ((count - 1) >> _BITS) << _BITS if count else 0
        nodes = [tuple(values[i:i + _WIDTH]) for i in range(0, tail_start, _WIDTH)]
        shift = _BITS
        while len(nodes) > _WIDTH:
            nodes = [tuple(nodes[i:i + _WIDTH]) for i in range(0, len(nodes), _WIDTH)]
            shift += _BITS
        self._set(count, shift, tuple(nodes), tuple(values[tail_start:]))

    def _set(self, count: int, shift: int, root: tuple, tail: tuple) -> PVec:
        self._count, self._shift, self._root, self._tail = count, shift, root, tail
        self._hash = None
        return self

    @classmethod
    def _make(cls, count: int, shift: int, root: tuple, tail: tuple) -> PVec:
        return cls.__new__(cls)._set(count, shift, root, tail)

    # -- reading ---------------------------------------------------------------------

    def __len__(self) -> int:
        return self._count

    def _index(self, i: int) -> int:
        if not isinstance(i, int):
            raise TypeError(f"PVec indices must be integers or slices, not {type(i).__name__}")
        if i < 0:
            i += self._count
        if not 0 <= i < self._count:
            raise IndexError("PVec index out of range")
        return i

    def __getitem__(self, i):
        if i.__class__ is int:  # the common case first: v[-1], v[k]
            count, tail = self._count, self._tail
            if i < 0:
                i += count
            tail_start = count - len(tail)
            if tail_start <= i < count:
                return tail[i - tail_start]
            if 0 <= i < tail_start:
                return self._get(i)
            raise IndexError("PVec index out of range")
        if isinstance(i, slice):
            start, stop, step = i.indices(self._count)
            if step == 1 and stop > start and (stop - start) * 8 > stop:
                return tuple(islice(iter(self), start, stop))  # most of it: walk it
            return tuple(self._get(j) for j in range(start, stop, step))
        return self._get(self._index(i))

    def _get(self, i: int) -> Any:
        tail_start = self._count - len(self._tail)
        if i >= tail_start:
            return self._tail[i - tail_start]
        node = self._root
        level = self._shift
        while level > 0:
            node = node[(i >> level) & _MASK]
            level -= _BITS
        return node[i & _MASK]

    def _leaves(self) -> Iterator[tuple]:
        stack = [(self._root, self._shift)]
        while stack:
            node, level = stack.pop()
            if level == 0:
                yield node
            else:
                stack.extend((child, level - _BITS) for child in reversed(node))

    def __iter__(self) -> Iterator[Any]:
        return chain(chain.from_iterable(self._leaves()), self._tail)

    def __reversed__(self) -> Iterator[Any]:
        leaves = list(self._leaves())
        return chain(reversed(self._tail),
                     chain.from_iterable(reversed(leaf) for leaf in reversed(leaves)))

    def __contains__(self, value: object) -> bool:
        return any(v is value or v == value for v in self)

    # -- "changing" (a new vector each time) -----------------------------------------

    def append(self, value: Any) -> PVec:
        """A new vector with ``value`` added at the end; this one is unchanged."""
        count, shift, root, tail = self._count, self._shift, self._root, self._tail
        if len(tail) < _WIDTH:
            return PVec._make(count + 1, shift, root, (*tail, value))
        # the tail is full: it becomes a leaf of the tree
        if (count >> _BITS) > (1 << shift):  # the root is full: grow a level
            root = (root, _path(shift, tail))
            shift += _BITS
        else:
            root = _push_tail(count, shift, root, tail)
        return PVec._make(count + 1, shift, root, (value,))

    def extend(self, values: Iterable[Any]) -> PVec:
        out = self
        for value in values:
            out = out.append(value)
        return out

    def set(self, i: int, value: Any) -> PVec:
        """A new vector with entry ``i`` (negative counts from the end) replaced."""
        i = self._index(i)
        tail_start = self._count - len(self._tail)
        if i >= tail_start:
            j = i - tail_start
            tail = self._tail
            return PVec._make(self._count, self._shift, self._root,
                              (*tail[:j], value, *tail[j + 1:]))
        return PVec._make(self._count, self._shift,
                          _assoc(self._shift, self._root, i, value), self._tail)

    def __add__(self, other: Iterable[Any]) -> PVec:
        if not isinstance(other, (tuple, list, PVec)):
            return NotImplemented
        return self.extend(other)

    def __radd__(self, other: Iterable[Any]) -> PVec:
        if not isinstance(other, (tuple, list)):
            return NotImplemented
        return PVec(other).extend(self)

    # -- comparing, hashing, printing ------------------------------------------------

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, (PVec, tuple)):
            return NotImplemented
        if len(other) != self._count:
            return False
        return all(a is b or a == b for a, b in zip(self, other, strict=True))

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash(tuple(self))
        return self._hash

    def __repr__(self) -> str:
        return f"PVec({list(self)!r})"

    def __reduce__(self):
        return (PVec, (tuple(self),))


def _path(level: int, node: tuple) -> tuple:
    """``node`` (a leaf) wrapped in single-child nodes up to ``level``."""
    while level > 0:
        node = (node,)
        level -= _BITS
    return node


def _push_tail(count: int, level: int, parent: tuple, leaf: tuple) -> tuple:
    """``parent`` with ``leaf`` added as the rightmost leaf (``count``: entries before)."""
    sub = ((count - 1) >> level) & _MASK
    if level == _BITS:
        child = leaf
    elif sub < len(parent):
        child = _push_tail(count, level - _BITS, parent[sub], leaf)
    else:
        child = _path(level - _BITS, leaf)
    return (*parent[:sub], child)


def _assoc(level: int, node: tuple, i: int, value: Any) -> tuple:
    sub = (i >> level) & _MASK
    if level == 0:
        return (*node[:sub], value, *node[sub + 1:])
    return (*node[:sub], _assoc(level - _BITS, node[sub], i, value), *node[sub + 1:])


#: The empty vector (share it: ``PVec()`` makes a new empty one each time).
EMPTY = PVec()


def newest(items: Sequence[Any], n: int | None) -> Sequence[Any]:
    """The newest ``n`` entries of ``items`` in order (all of them when ``n`` is None):
    what a screen that shows the end of a long history asks a snapshot for."""
    if n is None:
        return items
    return items[max(0, len(items) - max(0, n)):]


__all__ = ["EMPTY", "PVec", "newest"]
