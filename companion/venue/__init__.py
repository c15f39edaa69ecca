"""Venue mode: many tables, one leaderboard, over an MQTT broker (docs/venue.md).

On a box (``[venue]`` in the config): ``outbox`` writes what is to be published in the
same SQLite transaction as the action, ``publisher`` sends it with paho-mqtt (QoS 1,
resent until the venue acknowledges it), ``box`` wires both into the kiosk and shows
the game-over QR code (``qr``).

On the venue's machine (``companion venue``): ``subscriber`` receives into ``receiver``
(its own SQLite copy, exactly once per box and game, from admitted boxes only), and ``web``
serves the live page (and the operator's page that admits boxes), with each game's score sheet from
``companion.export.sheet`` (the same page ``companion export --format html`` writes).
``topics`` holds the topic layout and the JSON payloads both sides agree on; ``identity``
the Ed25519 keys each side signs with; ``admission`` the venue's bounded list of boxes
waiting for the operator, ``ratelimit`` its per-table rate limits. What a
game's players, scores, line and winners are is the rules engine's ``outcome``; nothing
here imports the UI.
"""
