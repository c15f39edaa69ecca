"""Times: reading actions back from our own game log quickly (``times.apply_logged``).

Part of the Times rules engine. A resume replays every action of the night (twenty
thousand on a long one), each of which ``apply`` checked when it was played, and the
log's checksum refuses a damaged row before it reaches the engine. The two actions that
cost most are read on a short path that expects them as the log writes them:

* ``play``: the keys are the seats as text (``"3"``), the codes the nine exact card
  codes; every seat with cards plays once. All of it is checked (a plain lookup each),
  and the turn order and cancelling are worked out by ``apply``'s own builder.
* ``place``: the seat is the one whose turn it is, the markers are the forced
  1-markers then the card's own, in that order, each a whole number of spaces lying on
  its column. Only the Time Table checks are trusted: that each marker lies inside the
  period in force and that this physical marker was not on the board yet.

The other actions go straight to ``apply``'s own handlers (``times.actions``), which
check them as usual: they cost little. Anything unusual about a ``play`` or ``place``
(another shape, another phase, not that seat's turn, an unknown seat or code) goes to
``apply`` itself, which refuses it with its usual sentence or accepts it. Both ways
end in the same builders (``times.actions``), so the state is equal to what ``apply``
gives for every action ``apply`` accepts (``tests/games/times/test_logged.py``).

Wiring: ``GameSession.resume`` and History call ``times.apply_logged`` for the actions
they read back from the game log (``companion.session.logged_apply``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from companion.games.times.actions import ACTIONS, after_place, after_play
from companion.games.times.cards import CARDS, SIZES, Card
from companion.games.times.state import PLAY, TURNS, State, positions
from companion.games.times.table import BOUNDS, Marker, spans, unfixed, years

#: Where each (column, size) marker lies wholly on its column: its possible starts.
_FITS: dict[tuple[str, int], range] = {
    (column, size): range(first, last - size + 2)
    for column, (first, last) in BOUNDS.items() for size in SIZES
}

#: The last players tuple asked about and {seat as the log writes it: (seat, position)}.
_KEYS: tuple[tuple[Any, ...], dict[str, tuple[int, int]]] = ((), {})


def _keys(state: State) -> dict[str, tuple[int, int]]:
    global _KEYS
    known = _KEYS
    if known[0] is not state.players:
        found = {str(seat): (seat, i) for seat, i in positions(state.players).items()}
        known = _KEYS = (state.players, found)
    return known[1]


def _play(state: State, action: Mapping[str, Any]) -> State | None:
    raw = action.get("cards")
    if state.phase != PLAY or type(raw) is not dict:
        return None
    keys, hands = _keys(state), state.hands
    cards: dict[int, Card] = {}
    for key, code in raw.items():
        found = keys.get(key) if type(key) is str else None
        card = CARDS.get(code) if type(code) is str else None
        if found is None or card is None or hands[found[1]] < 1:
            return None
        cards[found[0]] = card
    if len(cards) != sum(n >= 1 for n in hands):
        return None  # someone with cards did not play: apply names them
    return after_play(state, cards)


def _place(state: State, action: Mapping[str, Any]) -> State | None:
    if state.phase != TURNS:
        return None
    seat, code = state.played[len(state.turns)]
    given, raw = action.get("seat"), action.get("markers")
    if type(given) is not int or given != seat or type(raw) is not list:
        return None
    card = CARDS[code]
    before = spans(state.board)
    forced = unfixed(before, card.column) if card.column != "century" else ()
    if len(raw) != len(forced) + 1:
        return None
    markers = []
    for i, item in enumerate(raw):
        if type(item) is not dict:
            return None
        column, size, start = item.get("column"), item.get("size"), item.get("start")
        if i < len(forced):
            if column != forced[i] or size != 1:
                return None
        elif column != card.column or size != card.size:
            return None
        if type(size) is not int or type(start) is not int or start not in _FITS[column, size]:
            return None
        markers.append(Marker(column, size, start, seat, i < len(forced)))
    return after_place(state, seat, code, tuple(markers), years(spans(markers, before)))


#: How to read each logged action type: quickly for "play" and "place" (None when
#: ``apply`` should take it), by ``apply``'s own handler for the others.
READERS: dict[str, Callable[[State, Mapping[str, Any]], State | None]] = {
    **ACTIONS,
    "play": _play,
    "place": _place,
}
