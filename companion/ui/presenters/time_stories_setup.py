"""The T.I.M.E Stories setup panel's data: mission, starting TU, one character a player.

Pure (no Kivy). The setup's controller (``companion/control/time_stories_setup.py``)
keeps a ``SetupDraft`` while the host fills it in, changes it only through these
functions and turns it into the engine's sheets with ``check``:

    draft = new_draft(snap, fresh=True)   # from the snapshot; one sheet per player
    choose_mission(draft, "The Marcy Case")
    step_tu(draft, +5); step(draft.sheets[0], "life", +1); step_trait(sheet, 0, -1)
    use_preset(sheet, ASYLUM_MARIE)
    sheets, why, page = check(draft)      # engine sheets, or a sentence and the page
    page = page_of(draft, refusal)        # the page an engine refusal of the sheets names

Whether the sheets are acceptable is the engine's to say: the controller dry-runs
``set_characters`` and shows the refusal's sentence on the page ``page_of`` finds.
``check`` only turns the draft's pairs into the engine's dict (a characteristic named
twice in one sheet, or none at all, is the draft's own problem).

``needs_setup(snap, skipped)`` says when the screen opens the setup by itself and
blocks the Time Captain die: the run has no characters, nothing has happened in it
yet (``set_characters`` is still allowed) and the host has not chosen to play
without characters.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DEFAULT_TU = 25
MAX_TU = 200
MAX_LIFE = 20
MAX_TRAIT = 20
MAX_CHARACTERS = 4
MAX_TRAITS = 6

#: mission presets -> the characteristics its receptacle cards use (empty: not known)
MISSIONS: dict[str, tuple[str, ...]] = {
    "Asylum": ("Deftness", "Glibness", "Combat"),
    "The Marcy Case": ("Search", "Ranged Combat", "Close Combat"),
    "Prophecy of Dragons": (),
}
#: the receptacle cards quoted in the shared rules summary, by mission: Marie turns one
#: die into a hit on Glibness tests; Madeleine has fewer dice alone, more with everyone
CHARACTER_PRESETS: dict[str, list[dict]] = {
    "Asylum": [
        {"short": "Marie", "name": "Marie Bertholet", "life": 2, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 3, "Combat": 1},
         "abilities": [{"characteristic": "Glibness", "turn_to_hit": 1}]},
        {"short": "Madeleine", "name": "Madeleine du Tilleul", "life": 3, "resistance": 2,
         "characteristics": {"Deftness": 2, "Glibness": 1, "Combat": 2},
         "alone": {"Deftness": 1, "Glibness": 0, "Combat": 1},
         "together": {"Deftness": 3, "Glibness": 2, "Combat": 3}},
    ],
}
#: what a sheet may carry besides its numbers: company and abilities (from a preset)
EXTRAS = ("alone", "together", "abilities")
#: the screen's own rule: the captain die and "Stay" wait for the characters (or for
#: "Play without characters"), so the first turn is not spent without them
NO_CHARACTERS = "Add the characters first, or play without characters."
#: engine log kinds that do not count as "something happened" in a run
QUIET_KINDS = ("run", "cast", "item")
SKIP_SETTING = "time_stories.without_characters"


@dataclass
class SheetDraft:
    seat: int
    player: str
    name: str = ""
    life: int = 2
    resistance: int = 2
    traits: list[list] = field(default_factory=list)  # [name, dice] in card order
    extras: dict = field(default_factory=dict)  # company and abilities, as the engine takes


@dataclass
class SetupDraft:
    mission: str
    starting_tu: int
    sheets: list[SheetDraft]
    fresh: bool  # nothing at all logged yet: mission and starting TU may still change

    @property
    def pages(self) -> int:
        """Page 0 is the mission (fresh games only); then one page a character."""
        return len(self.sheets) + (1 if self.fresh else 0)

    def sheet_at(self, page: int) -> SheetDraft | None:
        i = page - (1 if self.fresh else 0)
        return self.sheets[i] if 0 <= i < len(self.sheets) else None


# ----------------------------------------------------------------- when to set up
def nothing_happened(snap: dict) -> bool:
    """The engine still takes ``set_characters``: no time, damage or test in this run."""
    if "run_begun" in snap:  # the engine says so (the screens' log holds the newest lines)
        started = snap["run_begun"]
    else:
        started = any(e["run"] == snap["run"] and e["kind"] not in QUIET_KINDS
                      for e in snap["log"])
    return snap["running"] and not started and not snap["tests"]


def needs_setup(snap: dict | None, skipped: bool) -> bool:
    return (snap is not None and not snap["characters"] and not skipped
            and nothing_happened(snap))


def skip_value(game_id: int, run: int) -> list[int]:
    """The setting that remembers "play without characters" for one run of one game."""
    return [game_id, run]


# ----------------------------------------------------------------- the draft
def mission_traits(mission: str, sheets: list[SheetDraft] = ()) -> list[str]:
    """The characteristics a new sheet starts with: the mission's, or those typed already."""
    known = MISSIONS.get(mission.strip())
    if known:
        return list(known)
    for s in sheets:
        names = [t[0] for t in s.traits if t[0].strip()]
        if names:
            return names
    return [""]


def _blank(seat: int, player: str, mission: str, others=()) -> SheetDraft:
    return SheetDraft(seat, player, traits=[[t, 1] for t in mission_traits(mission, others)])


def new_draft(snap: dict, fresh: bool) -> SetupDraft:
    """A draft from the snapshot: its characters if any, else one blank sheet a player."""
    players = [(pl["seat"], pl.get("name") or f"Seat {pl['seat']}") for pl in snap["players"]]
    names = dict(players)
    sheets = [SheetDraft(c["seat"], names.get(c["seat"], f"Seat {c['seat']}"), c["name"],
                         c["max_life"], c["resistance"],
                         [[k, v] for k, v in c["characteristics"].items()],
                         {k: c[k] for k in EXTRAS if c.get(k)})
              for c in snap["characters"]]
    have = {s.seat for s in sheets}
    for seat, player in players:
        if seat not in have and len(sheets) < MAX_CHARACTERS:
            sheets.append(_blank(seat, player, snap["mission"]))
    sheets.sort(key=lambda s: s.seat)
    return SetupDraft(snap["mission"], snap["starting_tu"], sheets, fresh)


def choose_mission(draft: SetupDraft, mission: str) -> None:
    """A new mission name; blank sheets switch to that mission's characteristics."""
    old = mission_traits(draft.mission)
    draft.mission = mission
    new = MISSIONS.get(mission.strip())
    if new is None:
        return
    for s in draft.sheets:
        if not s.name.strip() and [t[0] for t in s.traits] == old:
            s.traits = [[t, 1] for t in new] or [["", 1]]


def step_tu(draft: SetupDraft, delta: int) -> None:
    draft.starting_tu = max(1, min(MAX_TU, draft.starting_tu + delta))


def step(sheet: SheetDraft, what: str, delta: int) -> None:
    """Life (1-20) or resistance (0-20) up or down."""
    lo = 1 if what == "life" else 0
    setattr(sheet, what, max(lo, min(MAX_LIFE, getattr(sheet, what) + delta)))


def step_trait(sheet: SheetDraft, index: int, delta: int) -> None:
    sheet.traits[index][1] = max(0, min(MAX_TRAIT, sheet.traits[index][1] + delta))


def add_trait(sheet: SheetDraft) -> None:
    if len(sheet.traits) < MAX_TRAITS:
        sheet.traits.append(["", 1])


def presets_for(mission: str) -> list[dict]:
    return CHARACTER_PRESETS.get(mission.strip(), [])


def use_preset(sheet: SheetDraft, preset: dict) -> None:
    sheet.name, sheet.life, sheet.resistance = preset["name"], preset["life"], preset["resistance"]
    sheet.traits = [[k, v] for k, v in preset["characteristics"].items()]
    sheet.extras = {k: preset[k] for k in EXTRAS if preset.get(k)}


def tu_changes(draft: SetupDraft, snap: dict) -> bool:
    """Mission or starting TU differ from the game's: only the setup can carry them."""
    return (draft.mission.strip() != snap["mission"]
            or draft.starting_tu != snap["starting_tu"])


# ----------------------------------------------------------------- checking
def check(draft: SetupDraft) -> tuple[list[dict] | None, str, int]:
    """The engine's sheets from the draft, or (None, a sentence, the page to show) for
    what only the draft can get wrong; the engine judges the sheets themselves."""
    first = 1 if draft.fresh else 0
    out = []
    for i, s in enumerate(draft.sheets):
        page = first + i
        name = s.name.strip()
        who = name or f"{s.player}'s character"
        traits: dict[str, int] = {}
        for trait, dice in s.traits:
            trait = trait.strip()
            if not trait:
                if dice:
                    return None, f"Name each of {who}'s characteristics.", page
                continue
            if trait in traits:
                return None, f"{who} has {trait} twice.", page
            traits[trait] = dice
        if not traits:
            return None, f"Give {who} at least one characteristic.", page
        out.append({"name": name, "player_seat": s.seat, "life": s.life,
                    "resistance": s.resistance, "characteristics": traits, **s.extras})
    return out, "", -1


def page_of(draft: SetupDraft, refusal) -> int:
    """The page to show for the engine's refusal of the sheets (a ``RuleError``): the
    sheet its ``name`` or ``player`` field names, else the first page."""
    first = 1 if draft.fresh else 0
    fields = getattr(refusal, "fields", {})
    name, player = str(fields.get("name", "")).lower(), fields.get("player")
    found = [i for i, s in enumerate(draft.sheets)
             if (name and s.name.strip().lower() == name) or (player and s.player == player)]
    return first + found[-1] if found else 0
