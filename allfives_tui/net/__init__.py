"""Friends across the network: a host serves one table over WebSockets, players join it.

No Textual here: :mod:`~allfives_tui.net.protocol` (the messages),
:mod:`~allfives_tui.net.host` (the host around a table), made of
:mod:`~allfives_tui.net.transport` (its connections),
:mod:`~allfives_tui.net.auth` (signing in),
:mod:`~allfives_tui.net.seating` (the seats and the waiting room) and
:mod:`~allfives_tui.net.game_loop` (the game played, each seat told its picture);
:mod:`~allfives_tui.net.hostfiles` (the host's record and tokens on disk),
:mod:`~allfives_tui.net.client` (joining, rejoining),
:mod:`~allfives_tui.net.tokens` (a player's rejoin tokens) and
:mod:`~allfives_tui.net.remote_table` (the host's table as one seat sees it).
"""

DEFAULT_PORT = 7777
"""The port a host listens on and a client dials when none is given (here, not in
:mod:`~allfives_tui.net.protocol`, so the command line reads it without the messages)."""
