"""Presenters: pure functions from state to plain view data. No Kivy imports here."""
