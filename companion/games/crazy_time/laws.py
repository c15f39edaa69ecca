"""Crazy Time's Laws of Time: the law record, the two standing laws, name matching.

Used by ``crazy_time`` (the rules engine) and ``crazy_time_view`` (the presenter); it
holds no state of its own. A ``Law`` carries its public name and, for the laws the
table invents between rounds, the secret When?/What? text, the creator's seat and the
seat of the player who was out of the room (who must never be shown that text).

Law names are matched the way people type them: surrounding spaces and inner runs of
spaces do not count, nor does letter case ("time  machine" finds "Time Machine").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Law:
    """One Law of Time in force.

    ``when`` / ``what`` are the texts of the law's two cards (secret for new laws);
    ``creator`` and ``absent`` are seats (``None`` for the standing laws);
    ``from_round`` is the first round in which the law applies.
    """

    name: str
    when: str
    what: str
    standing: bool = False
    creator: int | None = None
    absent: int | None = None
    from_round: int = 1


#: The two laws in force from the first round, described in our own words. They are
#: public: nobody left the room for them, so nobody can guess them.
STANDING_LAWS: tuple[Law, ...] = (
    Law(
        name="Time Machine",
        when="Someone turns up a Time Machine card.",
        what=(
            "From then on the hours are counted backwards (12 follows 1); the seating "
            "order of play stays the same. A further Time Machine flips the count back."
        ),
        standing=True,
    ),
    Law(
        name="Synchronisation",
        when="The card just turned up shows the very hour its player announced.",
        what="Everybody slaps the Stop Time card; the last hand to land picks up.",
        standing=True,
    ),
)


def law_key(text: str) -> str:
    """The form under which law names are compared: case and spacing do not count."""
    return " ".join(text.split()).casefold()


def find_law(laws: Sequence[Law], text: str) -> Law | None:
    """The law in ``laws`` whose name ``text`` spells (see ``law_key``), or None."""
    for law in laws:  # the name as the engine wrote it (no two laws share a key)
        if law.name == text:
            return law
    key = law_key(text)
    if not key:
        return None
    for law in laws:
        if law_key(law.name) == key:
            return law
    return None


def hidden_from(law: Law, viewer: int | None) -> bool:
    """Whether the When?/What? text of ``law`` must be kept from ``viewer``.

    The standing laws are public. A new law's text is shown only to an identified
    viewer who is not the player that was out of the room when it was made; with no
    viewer identified (``None``) the screen may be seen by anyone, so it stays hidden.
    """
    if law.standing:
        return False
    return viewer is None or viewer == law.absent
