"""Pure rules engines, one module per game; see ``base`` for the contract.

``REGISTRY`` maps each engine's ``NAME`` to the engine, so the game log can find the
rules a stored game was played with.
"""
