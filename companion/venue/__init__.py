"""Venue mode: many tables, one leaderboard, over an MQTT broker (docs/venue.md).

On a box (``[venue]`` in the config): ``outbox`` writes what is to be published in the
same SQLite transaction as the action, ``publisher`` sends it with paho-mqtt (QoS 1,
resent until the venue acknowledges it), ``box`` wires both into the kiosk and shows
the game-over QR code (``qr``).

On the venue's machine (``companion venue``): ``subscriber`` receives into ``receiver``
(its own SQLite copy, exactly once per table's game and sequence number), and ``web``
serves the read-only live page, with each game's score sheet from
``companion.export.sheet`` (the same page ``companion export --format html`` writes).
``topics`` holds the topic layout and the JSON payloads both sides agree on. What a
game's players, scores, line and winners are is the rules engine's ``outcome``; nothing
here imports the UI.
"""
