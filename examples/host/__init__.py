"""A reference game host for the Canasta rules service: many tables, one SQLite store,
players on their own seat over WebSocket, bots through ``SuggestMove``, a game record per
table. See README.md; run it with ``make host`` (or ``python -m examples.host``)."""
