"""A seat whose socket stops reading (a frozen tab, a mobile link gone dead: its TCP window
full) holds up no other seat, nor the table: each socket is sent its messages by a task of
its own, and one that takes no message within ``SEND_SECONDS`` is closed (1011, join
again); if it never reads again, its connection is dropped (``STALL_SECONDS``)."""

from __future__ import annotations

import contextlib
import json
import logging
import socket
import threading
import time
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from examples.host import listener, players
from tests.host.hosts import Host, Player, hosting, stored
from tests.service.servers import Running

# the longest seat 1 may wait for the table's next state: SEND_SECONDS is 0.5 s here, and a
# busy machine needs room (before the fix the stall lasted while seat 0 did not read)
GAP = 3.0



def small_buffers(host: Host) -> socket.socket:
    """A client socket to ``host`` on which the buffers fill within tens of states, not a
    game: the host's send buffer small (its accepted sockets take the listener's), the
    client's receive buffer too (and the tests' clients send no compression: similar
    states shrink to a hundred bytes)."""
    host.server.servers[0].sockets[0].setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.connect(("127.0.0.1", host.port))
    return sock


def closed_for_no_message(caplog: pytest.LogCaptureFixture, seconds: float) -> None:
    """Wait up to ``seconds`` for the host to close a socket that took no message."""
    deadline = time.monotonic() + seconds
    while not any("took no message" in r.getMessage() for r in caplog.records):
        assert time.monotonic() < deadline, "seat 0's socket was never closed"
        time.sleep(0.01)


def test_a_seat_that_stops_reading_holds_up_no_other(rules: Running, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    """Two bots play a game, watched through both seats' sockets (joined with the tokens
    the store holds): seat 0's client stops reading once two frames wait unread, seat
    1's reads every state. Seat 1 gets each state of the game in time, and seat 0's socket is closed
    with 1011 and :data:`players.REJOIN`, which its client reads once it reads again."""
    monkeypatch.setattr(players, "SEND_SECONDS", 0.5)
    caplog.set_level(logging.WARNING, "canasta.host.players")
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        sock = small_buffers(host)
        created = host.create("classic", 2, {0: "greedy", 1: "greedy"})
        game_id = created["game_id"]
        tokens = stored(db, game_id).seat_tokens
        with connect(f"ws://127.0.0.1:{host.port}/ws/{game_id}/0", sock=sock, max_queue=1,
                     compression=None, close_timeout=1) as frozen:
            frozen.send(json.dumps({"token": tokens[0]}))
            watcher = Player(host, f"/play/{game_id}/1#{tokens[1]}")
            while not watcher.state.get("game_over"):
                seq = watcher.state.get("seq", -1)
                watcher.wait(lambda s, seq=seq: s["seq"] > seq, timeout=GAP)
            assert watcher.state["seq"] == stored(db, game_id).seq
            closed_for_no_message(caplog, 10)
            got = []
            with pytest.raises(ConnectionClosed):
                while True:
                    got.append(json.loads(frozen.recv(timeout=10)))
            assert frozen.close_code == 1011 and frozen.close_reason == players.REJOIN
            assert got and got[-1]["seq"] < watcher.state["seq"]  # what it took before
            watcher.close()


def test_a_seat_that_sends_without_reading_is_read_no_further(rules: Running, tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch
                                                              ) -> None:
    """A client that sends message after message (each refused) and reads none: the host
    stops reading it once :data:`players.MAX_WAITING` messages wait for its socket, as when
    its reader waited for each send. It read on, and queued a refusal for each message
    (hundreds of thousands within ``SEND_SECONDS``)."""
    monkeypatch.setattr(players, "SEND_SECONDS", 60.0)  # the socket is not closed meanwhile
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        sock = small_buffers(host)
        game_id = host.create("classic", 2, {1: "greedy"})["game_id"]
        with connect(f"ws://127.0.0.1:{host.port}/ws/{game_id}/0", sock=sock, max_queue=1,
                     compression=None, close_timeout=1) as flooding:
            flooding.send(json.dumps({"token": stored(db, game_id).seat_tokens[0]}))

            def flood() -> None:
                with contextlib.suppress(ConnectionClosed, OSError):
                    for _ in range(20_000):
                        flooding.send("{}")

            sender = threading.Thread(target=flood, daemon=True)
            sender.start()
            outboxes = host.app.state.players._sockets[game_id][0]
            peak = 0
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and sender.is_alive():
                peak = max([peak, *(len(outbox._waiting) for outbox in list(outboxes))])
                time.sleep(0.001)
            sock.shutdown(socket.SHUT_RDWR)  # (a sender still held up fails: it ends)
            sender.join(10)
    assert 0 < peak <= players.MAX_WAITING + 1, peak  # (and a state of the bot's moves)


def test_a_seat_that_never_reads_again_has_its_connection_dropped(
        rules: Running, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """A client that stops reading for good (a frozen tab, a malicious client): the close
    frame of its socket cannot go out either, yet the host's connection to it is gone
    soon after (``STALL_SECONDS``: 1 s here), and with it the socket's handler. It stayed
    open, the handler waiting for the client, for as long as the client's kernel answered
    the window probes: as long as the client lived."""
    monkeypatch.setattr(players, "SEND_SECONDS", 0.5)
    monkeypatch.setattr(listener, "STALL_SECONDS", 1.0)
    caplog.set_level(logging.WARNING, "canasta.host.players")
    db = tmp_path / "tables.db"
    with hosting(db, rules.grpc_target) as host:
        sock = small_buffers(host)
        client = sock.getsockname()
        game_id = host.create("classic", 2, {0: "greedy", 1: "greedy"})["game_id"]
        with connect(f"ws://127.0.0.1:{host.port}/ws/{game_id}/0", sock=sock, max_queue=1,
                     compression=None, close_timeout=1) as frozen:
            frozen.send(json.dumps({"token": stored(db, game_id).seat_tokens[0]}))
            closed_for_no_message(caplog, 30)

            def open_() -> bool:  # the host's connection to the client, or its handler
                connections = list(host.server.server_state.connections)
                return (any(c.client == client for c in connections)
                        or game_id in host.app.state.players._sockets)

            deadline = time.monotonic() + 5  # 1 s, and room for a busy machine
            while open_():
                assert time.monotonic() < deadline, "the host kept the frozen connection"
                time.sleep(0.05)
