"""Presenters: pure functions from state to plain view data. No Kivy imports here."""


def escape_markup(text: str) -> str:
    """``text`` shown as it is in a Kivy markup label (what ``kivy.utils.escape_markup``
    does, without importing Kivy): a player called "[b]Ann" keeps her brackets."""
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
