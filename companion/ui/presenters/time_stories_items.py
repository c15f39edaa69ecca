"""View data and actions for the T.I.M.E Stories Items panel (no Kivy).

The controller (``companion/control/time_stories.py``) reads the engine snapshot's
``items`` (name, holder, agency) through these functions and hands the actions they
build to ``app.act``:

    item_rows(snap)                       # one ItemRow per item, Agency items first
    holder_choices(snap)                  # ("Group", None) and each living character
    give_targets(snap, "Lantern")         # where an item can go: not its holder, not the dead
    gain_action(" Lantern ", "Marie", True)   # (action, "")
    give_action("Lantern", None)          # to the group
    drop_action("Lantern")                # used up / discarded
"""

from __future__ import annotations

from dataclasses import dataclass

GROUP = "Group"
KEPT_TEXT = "kept if the run fails"
LOST_TEXT = "back to the deck if the run fails"
DROP_REASON = "used up"


@dataclass(frozen=True)
class ItemRow:
    name: str
    holder: str | None  # None = the group
    holder_text: str  # the character's name, or "group"
    agency: bool
    detail: str  # the secondary line under the name


def holder_text(holder: str | None) -> str:
    return holder if holder else "group"


def item_rows(snap: dict) -> list[ItemRow]:
    """The items in play: T.I.M.E Agency ones first, then in the order they came."""
    rows = []
    for item in snap.get("items", []):
        agency = bool(item.get("agency"))
        who = holder_text(item.get("holder"))
        rows.append(ItemRow(name=item["name"], holder=item.get("holder"), holder_text=who,
                            agency=agency,
                            detail=f"{who} · {KEPT_TEXT if agency else LOST_TEXT}"))
    return sorted(rows, key=lambda r: not r.agency)


def summary_text(snap: dict) -> str:
    """The panel's top line: how many items, how many of them are Agency items."""
    items = snap.get("items", [])
    if not items:
        return "No items yet: add one when a card says so."
    agency = sum(1 for i in items if i.get("agency"))
    noun = "item" if len(items) == 1 else "items"
    return f"{len(items)} {noun} in play, {agency} T.I.M.E Agency"


def _living(snap: dict) -> list[str]:
    return [c["name"] for c in snap.get("characters", []) if not c.get("dead")]


def holder_choices(snap: dict) -> list[tuple[str, str | None]]:
    """Who can receive a new item: the group, then each living character (between runs
    only the group: nobody holds a receptacle until the next run starts)."""
    if not snap.get("running", True):
        return [(GROUP, None)]
    return [(GROUP, None)] + [(n, n) for n in _living(snap)]


def give_targets(snap: dict, item: str) -> list[tuple[str, str | None]]:
    """Where ``item`` can be handed: every choice except the one holding it now."""
    current = next((i.get("holder") for i in snap.get("items", []) if i["name"] == item),
                   None)
    return [(label, value) for label, value in holder_choices(snap) if value != current]


def gain_action(name: str, holder: str | None, agency: bool) -> tuple[dict | None, str]:
    """The ``gain_item`` action for a name typed by the host (a blank one is the
    engine's to refuse, in its words)."""
    name = " ".join(name.split())
    return {"type": "gain_item", "item": name, "holder": holder, "agency": bool(agency)}, ""


def give_action(item: str, to: str | None) -> dict:
    return {"type": "give_item", "item": item, "to": to}


def drop_action(item: str, reason: str = DROP_REASON) -> dict:
    return {"type": "drop_item", "item": item, "reason": reason}
