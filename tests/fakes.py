"""Small stand-ins shared by several test files (importable: pytest puts tests/ on the path)."""

from __future__ import annotations

import random


class Faces(random.Random):
    """A random source that gives the die faces a test asks for, in order."""

    def __init__(self, *faces):
        super().__init__(0)
        self.faces = list(faces)

    def randrange(self, start, stop=None, step=1):
        return self.faces.pop(0)
