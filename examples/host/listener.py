"""The host's server: uvicorn's settings (:func:`server_config`, which bound a WebSocket
message) and its listening socket, on which a connection whose client takes none of the
data sent to it is dropped by the kernel: a client that never reads again (a frozen tab, a
malicious one) shuts its TCP window, and its kernel answers every window probe, so the
connection would stay open forever. The host closes its socket after ``SEND_SECONDS``
(players.py), but the close frame waits for the window too, and asyncio (under uvicorn,
which never aborts a connection) closes a transport only once its buffer is sent: the
connection, its tasks and its buffers stayed, and such clients could pile them up."""

from __future__ import annotations

import socket

import uvicorn
from starlette.applications import Starlette

# the largest WebSocket message the host reads: a seat's are a few hundred bytes, and
# uvicorn's default, 16 MiB, let any client (no token needed: the hello is read whole and
# parsed before it is checked) make the host hold and parse 16 MiB per socket
MAX_MESSAGE = 512 * 1024
# the longest the data sent on a connection may wait for its client's TCP to take it (a
# window shut, or a link gone dead) before the kernel drops the connection: uvicorn's
# keepalive waits as long for a pong
STALL_SECONDS = 20.0


def server_config(app: Starlette, host: str, port: int, log_level: str) -> uvicorn.Config:
    """uvicorn's settings for the host: the sans-I/O WebSocket protocol, a message past
    :data:`MAX_MESSAGE` closing its socket with 1009 (too big) unread, and the app's
    lifespan run (it wakes the stored tables' bots: a failure stops the start)."""
    return uvicorn.Config(app, host=host, port=port, ws="websockets-sansio",
                          ws_max_size=MAX_MESSAGE, log_level=log_level, lifespan="on")


def listener(config: uvicorn.Config) -> socket.socket:
    """``config``'s socket, bound by uvicorn, with ``TCP_USER_TIMEOUT`` set to
    :data:`STALL_SECONDS` for every connection it accepts (they inherit it). Linux alone
    has it (and honours it for a shut window since 5.11); elsewhere a frozen client's
    connection stays as before."""
    sock = config.bind_socket()
    if hasattr(socket, "TCP_USER_TIMEOUT"):
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT, int(STALL_SECONDS * 1000))
    return sock
