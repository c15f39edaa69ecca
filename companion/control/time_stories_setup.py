"""The T.I.M.E Stories setup and the fields typed on the screen's own keyboard, no Kivy.

Part of ``TimeStoriesControl`` (``time_stories.py``), which owns one ``SetupControl``
and passes it the setup's taps. Pages: the mission (name, a preset, starting TU: only in
a game where nothing is logged yet), then one page a player's character (name or a
preset card, life, resistance, characteristics). "Start run" records the cast with the
engine's ``set_characters``; a mission or starting TU changed first amends the untouched
game's setup (``app.amend_setup``). The draft is a ``SetupDraft``
(``companion.ui.presenters.time_stories_setup``).

Typing: a tap on a field (``("type", "mission")``, ``("type", "name")``,
``("type", "trait", i)``, ``("type", "item")``) sets ``typing``; the view is then the
screen's keyboard in place of the panel, with the field's text and the presets as
suggestions; ``typed(text)`` is what the keyboard typed, ``next_field`` the next field
of the page, Done ends it. What is wrong with a field (a missing name, a name twice) is
the panel's message, shown beside it.
"""

from __future__ import annotations

from companion.palette import rgba
from companion.ui import theme
from companion.ui.presenters import time_stories_setup as s


def _choice(text, key, down=False, disabled=False, counter=False) -> dict:
    return {"text": text, "key": key, "down": down, "disabled": disabled,
            "repeat_ok": counter}


def _steps(steps, key) -> tuple:
    """A stepper's buttons: every tap counts."""
    return tuple(_choice(f"{n:+d}" if len(steps) > 1 else ("-" if n < 0 else "+"), (*key, n),
                         counter=True) for n in steps)


class SetupControl:
    """The setup draft, its page and the field being typed (see the module doc)."""

    def __init__(self, control) -> None:
        self.control = control
        self.draft: s.SetupDraft | None = None
        self.page = 0
        self.typing: tuple | None = None  # ("mission",), ("name",), ("trait", i), ("item",)

    def begin(self) -> None:
        """A fresh draft from the game (each opening of the setup)."""
        snap = self.control.snapshot()
        self.typing, self.page = None, 0
        if snap is not None:
            self.draft = s.new_draft(snap, fresh=not self.control.session().n_actions)

    def sheet(self) -> s.SheetDraft | None:
        return self.draft.sheet_at(self.page) if self.draft else None

    # -- the pages ----------------------------------------------------------------------

    def panel(self, snap: dict):
        if self.draft is None:
            self.begin()
        d = self.draft
        self.page = max(0, min(self.page, d.pages - 1))
        sheet = self.sheet()
        title, rows = self.mission_page() if sheet is None else self.sheet_page(sheet)
        last = self.page >= d.pages - 1
        footer = [_choice("Cancel", ("setup_cancel",)) if snap["characters"] else
                  _choice("Play without characters", ("without",)),
                  _choice("< Back", ("setup_go", -1), disabled=self.page == 0),
                  _choice(f"Start run {snap['run']}", ("setup_start",)) if last else
                  _choice("Next >", ("setup_go", 1))]
        return title, rows, "", footer

    def mission_page(self):
        d = self.draft
        names = ", ".join(x.player for x in d.sheets)
        return "Setup: mission and time", [
            {"viewclass": "TsField", "label": "Mission", "text": d.mission,
             "hint": "Mission name", "key": ("type", "mission")},
            {"viewclass": "TsChoices", "heading": "Missions", "choices": tuple(
                _choice(m, ("setup_mission", m), m == d.mission.strip()) for m in s.MISSIONS)},
            {"viewclass": "TsStepper", "name": "Starting TU", "value": str(d.starting_tu),
             "minus": _steps((-5, -1), ("setup_tu",)), "plus": _steps((1, 5), ("setup_tu",)),
             "field": None},
            {"viewclass": "TsLine", "text": f"Next: a character for each player ({names})",
             "look": "small"}]

    def sheet_page(self, sheet: s.SheetDraft):
        d = self.draft
        first = 1 if d.fresh else 0
        title = (f"Setup: {sheet.player}'s character "
                 f"({self.page - first + 1} of {len(d.sheets)})")
        rows = [{"viewclass": "TsField", "label": f"{sheet.player}'s character",
                 "text": sheet.name, "hint": "the character's name", "key": ("type", "name")}]
        presets = s.presets_for(d.mission)
        if presets:
            rows.append({"viewclass": "TsChoices", "heading": "Cards", "choices": tuple(
                _choice(pre["short"], ("setup_preset", i)) for i, pre in enumerate(presets))})
        for what, name in (("life", "Life"), ("resistance", "Resistance")):
            rows.append({"viewclass": "TsStepper", "name": name,
                         "value": str(getattr(sheet, what)), "field": None,
                         "minus": _steps((-1,), ("setup_step", what)),
                         "plus": _steps((1,), ("setup_step", what))})
        for i, (trait, dice) in enumerate(sheet.traits):
            rows.append({"viewclass": "TsStepper", "name": trait or "Characteristic",
                         "value": str(dice), "field": ("type", "trait", i),
                         "minus": _steps((-1,), ("setup_trait", i)),
                         "plus": _steps((1,), ("setup_trait", i))})
        if len(sheet.traits) < s.MAX_TRAITS:
            rows.append({"viewclass": "TsChoices", "heading": "", "choices": (
                _choice("+ Characteristic", ("setup_add_trait",)),)})
        return title, rows

    def go(self, delta: int) -> None:
        self.page += delta

    def preset(self, i: int) -> None:
        s.use_preset(self.sheet(), s.presets_for(self.draft.mission)[i])

    # -- the end of setup ------------------------------------------------------------------

    def without(self) -> None:
        c = self.control
        snap = c.snapshot()
        if snap is None:
            return
        c.app.log.set_setting(s.SKIP_SETTING, s.skip_value(c.session().game_id, snap["run"]))
        c.app.say("Playing without characters")
        c.panel = "mission"

    def start(self) -> None:
        c = self.control
        sheets, why, page = s.check(self.draft)
        if sheets is None:
            self.page = page
            c.refuse(why)
            return
        action = {"type": "set_characters", "characters": sheets}
        refused = c.refusal(action)
        if refused is not None:  # the engine's sentence, on the page of the sheet it names
            self.page = s.page_of(self.draft, refused)
            c.refuse(refused.sentence)
            return
        d, snap = self.draft, c.snapshot()
        if d.fresh and s.tu_changes(d, snap) and not self.restart_with(d.mission.strip(),
                                                                       d.starting_tu):
            self.page = 0  # the mission page: its name or time was refused
            return
        if c.act(action):
            snap = c.snapshot()
            c.app.say(f"Run {snap['run']}: {snap['tu']} TU")
            c.panel, self.draft = "mission", None

    def restart_with(self, mission: str, starting_tu: int) -> bool:
        """A new mission name / starting TU for this untouched game (its setup)."""
        game = self.control.session()
        if game is None or game.actions:
            return False
        new = {k: v for k, v in game.setup.items() if k != "characters"}
        new.update(mission=mission, starting_tu=starting_tu)
        return bool(self.control.app.amend_setup(new))

    # -- typing ----------------------------------------------------------------------------

    def fields(self) -> list[tuple]:
        """The page's fields, in order (``next_field`` goes through them)."""
        if self.typing == ("item",):
            return [("item",)]
        sheet = self.sheet()
        if sheet is None:
            return [("mission",)]
        return [("name",), *(("trait", i) for i in range(len(sheet.traits)))]

    def text(self) -> str:
        kind = self.typing[0]
        if kind == "item":
            return self.control.item_name
        if kind == "mission":
            return self.draft.mission
        if kind == "name":
            return self.sheet().name
        return self.sheet().traits[self.typing[1]][0]

    def typed(self, text: str) -> None:
        if self.typing is None:
            return
        kind = self.typing[0]
        if kind == "item":
            self.control.item_name = text
        elif kind == "mission":
            s.choose_mission(self.draft, text)
        elif kind == "name":
            self.sheet().name = text
        else:
            self.sheet().traits[self.typing[1]][0] = text

    def suggest(self, text: str) -> None:
        """A suggestion tapped: a mission preset, a preset card, a known characteristic."""
        kind = self.typing[0] if self.typing else None
        if kind == "name":
            presets = s.presets_for(self.draft.mission)
            pre = next((x for x in presets if x["name"] == text), None)
            if pre is not None:
                s.use_preset(self.sheet(), pre)
                return
        self.typed(text)

    def next_field(self) -> None:
        fields = self.fields()
        i = fields.index(self.typing) if self.typing in fields else -1
        self.typing = fields[i + 1] if i + 1 < len(fields) else None

    def typing_view(self, snap: dict) -> dict:
        """The View's fields while a field is typed: the keyboard in place of the panel."""
        kind = self.typing[0]
        seat, label, offer = 0, "Item", ()
        if kind == "mission":
            label, offer = "Mission", tuple(s.MISSIONS)
        elif kind in ("name", "trait"):
            sheet = self.sheet()
            seat = sheet.seat
            if kind == "name":
                label = f"{sheet.player}'s character"
                offer = tuple(x["name"] for x in s.presets_for(self.draft.mission))
            else:
                label = "Characteristic"
                offer = tuple(t for t in s.mission_traits(self.draft.mission)
                              if t not in {x[0] for x in sheet.traits})
        colours = {x.seat: x.colour for x in self.control.app.cfg.seats}
        colour = rgba(colours[seat]) if seat in colours else theme.WHITE
        return {"panel": "typing", "title": label,
                "typing": {"text": self.text(), "seat": seat, "colour": colour},
                "footer": tuple(_choice(o, ("suggest", o)) for o in offer[:3])}
