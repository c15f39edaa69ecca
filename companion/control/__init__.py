"""Kivy-free controllers: what a tap on each screen means; a screen calls its controller
and shows the view it returns."""
