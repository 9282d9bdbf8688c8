"""Faults: SIGTERM under load, slow and impatient callers, the limits, key rotation under load.

tests/service/test_lifecycle.py checks one slow call per face finishing on
shutdown (in process) and a clean SIGTERM of an idle process; here the real
process gets SIGTERM while callers keep it busy, and its access log proves that
no call it took was lost.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import random
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest

from service.api.pb import api
from service.sealing import tokens
from service.sealing.keys import KeyRing, new_key_entry
from tests.hardening.pool import Position
from tests.service.helpers import Failure, auth, call_grpc, call_rest, ok
from tests.service.servers import Running, delay_grpc_calls, running

ROOT = Path(__file__).resolve().parents[2]
DEAL = api.DealRequest(variant="classic", players=4)


# --- SIGTERM under load ------------------------------------------------------------------


def _spawn(tmp: Path) -> tuple[subprocess.Popen[str], dict[str, int], Path]:
    ready, log = tmp / "ready.json", tmp / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_")}
    env.update({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0",
                "CANASTA_SEAL_KEYS": new_key_entry("sigterm"), "CANASTA_GRACE_SECONDS": "5"})
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                cwd=ROOT, env=env, stderr=err, text=True)
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert proc.poll() is None, log.read_text()
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    return proc, json.loads(ready.read_text()), log


def test_sigterm_under_load_loses_no_call(tmp_path: Path) -> None:
    """16 callers keep the process busy; SIGTERM arrives mid-load. Every call the server
    logged is answered to its caller exactly as logged (OK), calls were still completing
    after the signal, and the only failures are calls it never ran, refused because it
    was stopping (gRPC UNAVAILABLE, or CANCELLED for a call that came in the instant the
    server stopped; REST: the connection closed or refused). Such calls are safe to retry."""
    proc, ports, log = _spawn(tmp_path)
    calls: list[tuple[str, str, str, float]] = []  # (request id, face, outcome, end time)
    lock = threading.Lock()
    gone = threading.Event()
    busy = threading.Event()  # enough calls answered: the signal comes mid-load

    def record(call: tuple[str, str, str, float]) -> None:
        with lock:
            calls.append(call)
            if len(calls) >= 200:
                busy.set()

    def grpc_caller(n: int) -> None:
        with grpc.insecure_channel(f"127.0.0.1:{ports['grpc_port']}") as channel:
            deal = channel.unary_unary("/canasta.v1.CanastaEngine/Deal")
            for i in range(100000):
                rid = f"g{n}-{i}"
                try:
                    deal(DEAL.SerializeToString(), timeout=10, metadata=(("x-request-id", rid),))
                    outcome = "OK"
                except grpc.RpcError as err:
                    outcome = err.code().name
                record((rid, "grpc", outcome, time.monotonic()))
                if gone.is_set() or outcome != "OK":  # refused: the server is stopping
                    return

    def rest_caller(n: int) -> None:
        with httpx.Client(base_url=f"http://127.0.0.1:{ports['http_port']}", timeout=10) as http:
            for i in range(100000):
                rid = f"r{n}-{i}"
                try:
                    resp = http.post("/v1/deal", json={"variant": "classic", "players": 4},
                                     headers={"x-request-id": rid})
                    outcome = str(resp.status_code)
                except httpx.TransportError as err:
                    outcome = type(err).__name__
                record((rid, "rest", outcome, time.monotonic()))
                if gone.is_set() or outcome != "200":
                    return

    threads = [threading.Thread(target=grpc_caller, args=(n,)) for n in range(8)]
    threads += [threading.Thread(target=rest_caller, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    try:
        assert busy.wait(60), "the callers never got going"
        signalled = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=20) == 0
    finally:
        gone.set()
        if proc.poll() is None:
            proc.kill()
        for t in threads:
            t.join(20)
    logged: dict[str, str] = {}
    for line in log.read_text().splitlines():
        if not line.startswith("{"):
            continue
        entry = json.loads(line)
        if entry.get("logger") == "canasta.access":
            logged[entry["request_id"]] = entry["code"]
    # UNAVAILABLE: a gRPC call that came while the server was stopping, refused unrun
    assert set(logged.values()) <= {"OK", "200", "UNAVAILABLE"}, sorted(set(logged.values()))
    before = [c for c in calls if c[3] < signalled]
    after = [c for c in calls if c[3] >= signalled]
    assert len(before) > 100 and all(c[2] in ("OK", "200") for c in before)
    finished_after = [c for c in after if c[0] in logged]
    assert finished_after, "no call was in flight at the signal"
    for rid, face, outcome, _ in calls:
        if rid in logged:
            assert outcome == logged[rid], (rid, outcome, logged[rid])  # taken: answered
        elif face == "grpc":  # never run: refused while stopping (CANCELLED: in the instant
            assert outcome in ("UNAVAILABLE", "CANCELLED"), (rid, outcome)  # of the stop)
        else:
            assert outcome in ("ConnectError", "RemoteProtocolError", "ReadError"), (rid, outcome)


# --- slow and impatient callers --------------------------------------------------------


def _slow_post(port: int, path: str, body: bytes, pause: float, halfway: threading.Semaphore,
               resume: threading.Event, box: dict[str, Any]) -> None:
    """POST ``body`` one byte every ``pause`` seconds, stopping halfway (``halfway`` released)
    until ``resume``; the answer's status goes in ``box``."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as sock:
        sock.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     f"Content-Length: {len(body)}\r\n\r\n".encode())
        for i in range(len(body)):
            if i == len(body) // 2:
                halfway.release()
                assert resume.wait(60)
            sock.sendall(body[i:i + 1])
            time.sleep(pause)
        box["status"] = int(sock.recv(4096).split(b" ", 2)[1])


def test_slow_rest_bodies_do_not_block_others(server: Running, pool: list[Position]) -> None:
    """Ten callers dribbling their bodies (one byte per 20 ms), held halfway, and five
    connections stuck in or before their headers hold a connection each, while other
    calls on both faces are answered; each slow call is answered once its body is
    complete. (Their bodies' time limit, ``CANASTA_HTTP_BODY_TIMEOUT_S``, is far longer:
    tests/hardening/test_http_limits.py cuts off slower ones.)"""
    snapshot = base64.b64encode(pool[1].snapshot).decode()
    body = json.dumps({"snapshot": snapshot[:40]}).encode()  # a short, invalid snapshot
    boxes: list[dict[str, Any]] = [{} for _ in range(10)]
    halfway, resume = threading.Semaphore(0), threading.Event()
    slow = [threading.Thread(target=_slow_post, args=(server.app.http_port, "/v1/legal-moves",
                                                       body, 0.02, halfway, resume, box))
            for box in boxes]
    for t in slow:
        t.start()
    idle = [socket.create_connection(("127.0.0.1", server.app.http_port)) for _ in range(5)]
    for sock in idle[:3]:  # part of the headers, then nothing (the other two send nothing)
        sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\n")
    for _ in slow:
        assert halfway.acquire(timeout=60)
    http_server = server.app._http
    assert http_server is not None
    deadline = time.monotonic() + 30  # the server has taken all fifteen connections
    while len(http_server.server_state.connections) < 15:
        assert time.monotonic() < deadline, "the server never took the stuck connections"
        time.sleep(0.01)
    channel, stub = server.stub()
    with channel, httpx.Client(base_url=server.http_base, timeout=10) as http:
        request = api.LegalMovesRequest(snapshot=pool[1].snapshot)
        token = pool[1].mover_token  # a player's own client asking for its moves
        for _ in range(40):  # each would wait for a stuck caller if one could hold it up
            assert ok(call_grpc(stub, "LegalMoves", request, token=token)).moves
            assert ok(call_rest(http, "LegalMoves", request, token=token)).moves
    resume.set()
    for sock in idle:
        sock.close()
    for t in slow:
        t.join(30)
    assert [b.get("status") for b in boxes] == [400] * 10  # answered: the snapshot is invalid


def test_a_slow_chunked_body_is_cut_at_the_limit(server: Running) -> None:
    """Without Content-Length the limit is counted while reading: the answer (413) comes as
    soon as the body passes it, not when the sender would have finished."""
    limit = server.app.settings.max_message_bytes
    with socket.create_connection(("127.0.0.1", server.app.http_port), timeout=10) as sock:
        sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                     b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b" " * 4096
        sent = 0
        while sent <= limit:  # just past the limit, then silence
            sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
            sent += len(chunk)
        # the sender never ends its body, and the body timeout (30 s) is longer than this
        # socket's (10 s): only an answer at the limit arrives in time
        answer = sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]


def test_concurrency_limit_refuses_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """With CANASTA_MAX_CONCURRENT_RPCS=4 and four slow gRPC calls (long deadlines) in
    flight, a fifth gRPC call is refused at once (RESOURCE_EXHAUSTED), REST is not held
    up, and once the slow ones finish gRPC serves again."""
    inside = threading.Semaphore(0)
    release = threading.Event()

    def maybe_slow(context: Any) -> None:
        if ("x-slow", "1") in (context.invocation_metadata() or ()):
            inside.release()
            release.wait(30)

    delay_grpc_calls(monkeypatch, maybe_slow)
    with running(KeyRing.parse(new_key_entry("limit-1")), max_concurrent_rpcs=4,
                 grpc_threads=4) as s:  # a thread for each slow call
        channel, stub = s.stub()
        with channel, httpx.Client(base_url=s.http_base, timeout=10) as http:
            slow = [stub.Deal.future(DEAL, timeout=60, metadata=(("x-slow", "1"),))
                    for _ in range(4)]
            for _ in slow:
                assert inside.acquire(timeout=10)
            # a call that queued would wait for the slow four, which wait for ``release``:
            # it would end DEADLINE_EXCEEDED; a refusal comes at once
            with pytest.raises(grpc.RpcError) as err:
                stub.Deal(DEAL, timeout=30)
            assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
            ok(call_rest(http, "Deal", DEAL))  # REST answers while the four still wait
            release.set()
            assert all(f.result(timeout=10).header.seq == 0 for f in slow)
            ok(call_grpc(stub, "Deal", DEAL))


def test_expiring_deadlines_do_not_disturb_others(server: Running, pool: list[Position],
                                                  caplog: pytest.LogCaptureFixture) -> None:
    """Calls with 1 ms deadlines, mixed with ordinary ones from other threads: each of
    them is OK or DEADLINE_EXCEEDED, every ordinary call is OK, the server's metrics show
    no INTERNAL or UNKNOWN and its log no error. (Refusing a call whose deadline had
    passed once failed to send: counted as UNKNOWN, logged by grpc as an error.)"""
    channel, stub = server.stub()
    requests = [api.GetViewRequest(snapshot=p.snapshot) for p in pool[:30]]
    # the host's (every seat's view), a seat's (its own) and, tokenless, a spectator's
    tokens = [(p.host_token, p.seat_tokens[0], None) for p in pool[:30]]

    def impatient(i: int) -> str:
        try:
            stub.GetView(requests[i % len(requests)], timeout=0.001,
                         metadata=auth(tokens[i % len(tokens)][i % 3]))
            return "OK"
        except grpc.RpcError as err:
            return err.code().name

    def patient(i: int) -> str:
        got = call_grpc(stub, "GetView", requests[i % len(requests)],
                        token=tokens[i % len(tokens)][i % 3])
        return got.code if isinstance(got, Failure) else "OK"

    with channel, ThreadPoolExecutor(8) as workers:
        rushed = list(workers.map(impatient, range(300)))
        calm = workers.map(patient, range(100))
        assert set(calm) == {"OK"}
    assert set(rushed) <= {"OK", "DEADLINE_EXCEEDED"}
    assert "DEADLINE_EXCEEDED" in rushed
    text = httpx.get(f"{server.http_base}/metrics").text
    codes = {ln.split('grpc_code="', 1)[1].split('"', 1)[0] for ln in text.splitlines()
             if ln.startswith("grpc_server_handled_total{")}
    assert not codes & {"Internal", "Unknown"}, codes
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors[:3]


# --- limits ----------------------------------------------------------------------


def test_configured_limits_hold_on_both_faces(pool: list[Position]) -> None:
    """CANASTA_MAX_MESSAGE_BYTES and CANASTA_MAX_SNAPSHOT_BYTES set low: a request over the
    first is refused on both faces (413 / RESOURCE_EXHAUSTED), a snapshot over the second
    is SNAPSHOT_INVALID, and requests within both are served."""
    keys = KeyRing.parse(new_key_entry("limits"))
    with running(keys, max_message_bytes=2048, max_snapshot_bytes=512) as s:
        channel, stub = s.stub()
        with channel, httpx.Client(base_url=s.http_base, timeout=10) as http:
            big = api.ImportPositionRequest(position="x" * 3000)
            refused = call_grpc(stub, "ImportPosition", big)
            assert isinstance(refused, Failure) and refused.code == "RESOURCE_EXHAUSTED"
            over = call_rest(http, "ImportPosition", big)
            assert isinstance(over, Failure) and over.http_status == 413
            assert over.reason == "REQUEST_TOO_LARGE"
            deal = ok(call_grpc(stub, "Deal", api.DealRequest(variant="classic", players=2)))
            small = api.LegalMovesRequest(snapshot=deal.snapshot)
            assert len(deal.snapshot) <= 512
            ok(call_grpc(stub, "LegalMoves", small, token=deal.host_token))
            six = ok(call_rest(http, "Deal", api.DealRequest(variant="classic", players=6)))
            assert len(six.snapshot) > 512  # sealed fine, but too big to be opened here
            large = api.LegalMovesRequest(snapshot=six.snapshot)
            for got in (call_grpc(stub, "LegalMoves", large, token=six.host_token),
                        call_rest(http, "LegalMoves", large, token=six.host_token)):
                assert isinstance(got, Failure) and got.reason == "SNAPSHOT_INVALID"


BIG_HAND = ("canasta-position 1\nvariant: classic\nplayers: 2\nphase: draw\nturn: 0\n"
            "hand0: *90\nhand1: *2\npile: 9S\nstock: *\n")


def test_the_limit_is_on_requests_not_answers(server: Running) -> None:
    """A position whose legal moves take more than 64 KiB to send (a 90-card hand) is
    answered on gRPC as on REST. (The gRPC send limit once equalled the request limit:
    such answers failed as RESOURCE_EXHAUSTED with no details.)"""
    channel, stub = server.stub()
    with channel, httpx.Client(base_url=server.http_base, timeout=30) as http:
        imported = ok(call_grpc(stub, "ImportPosition",
                                api.ImportPositionRequest(position=BIG_HAND)))
        request = api.LegalMovesRequest(snapshot=imported.snapshot)
        token = imported.seat_tokens[0]  # seat 0 is in turn: its own moves, all of them
        over_grpc = ok(call_grpc(stub, "LegalMoves", request, token=token))
        over_rest = ok(call_rest(http, "LegalMoves", request, token=token))
    assert over_grpc.ByteSize() > server.app.settings.max_message_bytes
    assert over_grpc == over_rest


# --- key rotation under load ------------------------------------------------------------


OLD, NEW = new_key_entry("rot-old"), new_key_entry("rot-new")


def _play(steps: int, servers: list[tuple[Any, httpx.Client]], snapshot: bytes,
          deal: Any, rng: random.Random) -> tuple[bytes, list[str]]:
    """``steps`` moves of one game, each call to a random server and face, as the host or
    as the seat in turn (with the credentials ``deal`` answered)."""
    key_ids = []
    for _ in range(steps):
        stub, http = rng.choice(servers)
        over_grpc = rng.random() < 0.5

        def call(method: str, request: Any, token: str, stub: Any = stub,
                 http: httpx.Client = http, over_grpc: bool = over_grpc) -> Any:
            if over_grpc:
                return call_grpc(stub, method, request, token=token)
            return call_rest(http, method, request, token=token)

        legal = ok(call("LegalMoves", api.LegalMovesRequest(snapshot=snapshot),
                        deal.host_token))
        if not legal.moves:
            break
        moves = [m for m in legal.moves if m.text != "undo"] or list(legal.moves)
        token = rng.choice([deal.host_token, deal.seat_tokens[legal.seat]])
        moved = ok(call("ApplyMove", api.ApplyMoveRequest(snapshot=snapshot,
                                                          move=rng.choice(moves)), token))
        snapshot = moved.snapshot
        key_ids.append(moved.header.key_id)
        if moved.hand_over:
            break
    return snapshot, key_ids


def test_key_rotation_under_load() -> None:
    """A rolling rotation while eight games are played at once over both faces: replicas
    go from [old] to [old, new] (new second) to [new, old] (new first). Every call opens
    the snapshot it is given, whichever replica sealed it, and verifies the credential the
    Deal gave (signed with the old key), and the snapshots dealt before the rotation still
    open at its end. A credential signed with the new key, as a [new, old] replica issues
    them, verifies where the new key is held and is CREDENTIAL_KEY_RETIRED on an [old]
    replica: why the new key goes in second everywhere first, for credentials too."""
    with running(KeyRing.parse(OLD)) as a, running(KeyRing.parse(f"{OLD},{NEW}")) as b, \
            running(KeyRing.parse(f"{NEW},{OLD}")) as c:
        clients = []
        for s in (a, b, c):
            channel, stub = s.stub()
            clients.append((channel, stub, httpx.Client(base_url=s.http_base, timeout=30)))
        try:
            faces = [(stub, http) for _, stub, http in clients]
            deals = [ok(call_grpc(faces[0][0], "Deal", api.DealRequest(
                variant="classic", players=4, seed=seed))) for seed in range(8)]
            assert {d.host_token.split(".")[2] for d in deals} == {"rot-old"}

            def game(i: int) -> tuple[bytes, list[str], list[str]]:
                rng = random.Random(i)
                snap, first = _play(12, faces[:2], deals[i].snapshot, deals[i], rng)
                snap, second = _play(12, faces[1:], snap, deals[i], rng)  # [old,new]/[new,old]
                return snap, first, second

            with ThreadPoolExecutor(8) as workers:
                results = list(workers.map(game, range(8)))
            assert {k for _, first, _ in results for k in first} == {"rot-old"}
            assert {k for _, _, second in results for k in second} == {"rot-old", "rot-new"}
            for deal in deals:  # outstanding since before the rotation
                ok(call_rest(faces[2][1], "LegalMoves", api.LegalMovesRequest(
                    snapshot=deal.snapshot), token=deal.host_token))
            newest = next(s for s, _, second in results if second and second[-1] == "rot-new")
            refused = call_grpc(faces[0][0], "LegalMoves", api.LegalMovesRequest(
                snapshot=newest), token=deals[0].host_token)  # why the new key goes in
            assert isinstance(refused, Failure) and refused.reason == "SNAPSHOT_KEY_RETIRED"
            game_id = uuid.UUID(deals[0].header.game_id).bytes
            new_host = tokens.issue(KeyRing.parse(NEW), game_id, tokens.HOST_ROLE)
            request = api.LegalMovesRequest(snapshot=deals[0].snapshot)
            for stub, _ in faces[1:]:
                ok(call_grpc(stub, "LegalMoves", request, token=new_host))
            retired = call_grpc(faces[0][0], "LegalMoves", request, token=new_host)
            assert isinstance(retired, Failure) and retired.reason == "CREDENTIAL_KEY_RETIRED"
        finally:
            for channel, _, http in clients:
                channel.close()
                http.close()
