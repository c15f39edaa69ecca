"""The box's physical parts: seat buttons, the captain button and the lamps.

Everything here is composed from gpiozero devices that ask an injected pin factory for
their pins, so the same code drives the real header on a Pi, gpiozero's ``MockFactory``
in tests, and the keyboard simulation on a laptop.
"""
