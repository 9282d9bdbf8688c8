"""The long calls, a bot's search (``SuggestMove``: up to 1.6 s at the expert level) and a
record's replay (``ExportRecord``: about 25 µs a move), run in threads of their own on each
face (``CANASTA_LONG_CALL_THREADS``), so they never hold up the short calls or the probes.
Before, REST ran them in the event loop: with six expert searches queued, ``/healthz``
took up to 1.9 s; on gRPC, as many long calls as engine threads stopped every other
engine call. Real sockets; the long calls are held in their handlers until the test lets
them go, so "every long-call thread busy" is exact."""

from __future__ import annotations

import base64
import contextlib
import json
import socket
import threading
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import httpx
import pytest
from google.protobuf.message import Message

from engine import records
from service.api import core as core_module
from service.api.core import Call, Core
from service.api.pb import api, api_grpc, game
from service.ops.metrics import REGISTRY
from tests.service.servers import running
from tests.service.test_grpc_gate import DEAL, HOLD, _until, held_server

# each long call: its gRPC request from a deal's snapshot, REST path and body, and what
# its answer holds
LONG_CALLS = {
    "SuggestMove": (lambda snapshot: api.SuggestMoveRequest(snapshot=snapshot, level="greedy"),
                    "/v1/suggest-move", {"level": "greedy"}),
    "ExportRecord": (lambda snapshot: api.ExportRecordRequest(snapshot=snapshot),
                     "/v1/record:export", {}),
}


def _answered(name: str, answer: Any, listed: set[str]) -> bool:
    """A long call's real answer: a listed move, or a record's first line."""
    if name == "SuggestMove":
        move = answer["move"]["text"] if isinstance(answer, dict) else answer.move.text
        return move in listed
    record = answer["record"] if isinstance(answer, dict) else answer.record
    return bool(record.startswith("canasta-record 1\n"))


@pytest.mark.parametrize("name", LONG_CALLS)
def test_grpc_engine_calls_are_answered_while_every_long_call_thread_is_busy(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """Both long-call threads held and a third long call queued for one: LegalMoves and
    Deal are answered meanwhile (in the engine's one thread). The gate counts the long
    calls, and each leaves it when it ends."""
    request = LONG_CALLS[name][0]
    with held_server(monkeypatch, grpc_threads=1, long_call_threads=2) as (server, holder):
        channel, stub = server.stub()
        with channel:
            deal = stub.Deal(DEAL, timeout=10)
            host = (("authorization", f"Bearer {deal.host_token}"),)
            method = getattr(stub, name)
            calls = [method.future(request(deal.snapshot), timeout=60, metadata=(*HOLD, *host))
                     for _ in range(3)]
            holder.wait_inside(2)
            _until(lambda: server.app.gate.in_flight == 3, "the long calls were not counted")
            legal = stub.LegalMoves(api.LegalMovesRequest(snapshot=deal.snapshot),
                                    timeout=10, metadata=host)
            listed = {m.text for m in legal.moves}
            assert "draw" in listed
            assert stub.Deal(DEAL, timeout=10).header.seq == 0
            assert not any(f.done() for f in calls)
            holder.release()
            assert all(_answered(name, f.result(timeout=30), listed) for f in calls)
            _until(lambda: server.app.gate.in_flight == 0, "a long call stayed counted")


@pytest.mark.parametrize("name", LONG_CALLS)
def test_rest_probes_and_calls_are_answered_while_a_long_call_runs(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A REST long call held in the core: ``/healthz``, ``/readyz`` and a legal-moves call
    are answered meanwhile, and the long call then answers too."""
    inside, go = threading.Event(), threading.Event()
    attr = {"SuggestMove": "suggest_move", "ExportRecord": "export_record"}[name]
    run = getattr(Core, attr)

    def held(self: Core, req: Message, call: Any) -> Any:
        inside.set()
        assert go.wait(30)
        return run(self, req, call)

    monkeypatch.setattr(Core, attr, held)
    _, path, body = LONG_CALLS[name]
    with running() as server, httpx.Client(base_url=server.http_base, timeout=10) as http, \
            httpx.Client(base_url=server.http_base, timeout=60) as other, \
            ThreadPoolExecutor(1) as pool:
        deal = http.post("/v1/deal", json={"variant": "classic", "players": 2}).json()
        auth = {"Authorization": f"Bearer {deal['hostToken']}"}
        long_call = pool.submit(other.post, path, headers=auth,
                                json={"snapshot": deal["snapshot"], **body})
        try:
            assert inside.wait(10), "the long call did not reach the core"
            assert http.get("/healthz").status_code == 200
            assert http.get("/readyz").status_code == 200
            legal = http.post("/v1/legal-moves", headers=auth,
                              json={"snapshot": deal["snapshot"]})
            listed = {m["text"] for m in legal.json()["moves"]}
            assert "draw" in listed
            assert not long_call.done()
        finally:
            go.set()
        answer = long_call.result(timeout=30)
        assert answer.status_code == 200 and _answered(name, answer.json(), listed)


def _held_core(monkeypatch: pytest.MonkeyPatch) -> tuple[threading.Event, threading.Event,
                                                          list[str]]:
    """``SuggestMove`` held in the core until the test lets it go: the events (it is
    inside, let it go) and the request id of every call that reached the core."""
    inside, go = threading.Event(), threading.Event()
    reached: list[str] = []
    run = Core.suggest_move

    def held(self: Core, req: Message, call: Any) -> Any:
        reached.append(call.request_id)
        inside.set()
        assert go.wait(30)
        return run(self, req, call)

    monkeypatch.setattr(Core, "suggest_move", held)
    return inside, go, reached


def _suggest(deal: dict[str, Any], rid: str) -> tuple[dict[str, str], dict[str, Any]]:
    """Headers and body of a greedy ``SuggestMove`` as the deal's host, tagged ``rid``."""
    return ({"Authorization": f"Bearer {deal['hostToken']}", "x-request-id": rid},
            {"snapshot": deal["snapshot"], "level": "greedy"})


@contextlib.contextmanager
def _post_on_a_socket(port: int, path: str, authorization: str,
                      body: dict[str, Any]) -> Iterator[None]:
    """A call sent on a socket of its own, closed (the client gone) on leaving."""
    raw = json.dumps(body).encode()
    with socket.create_connection(("127.0.0.1", port)) as conn:
        conn.sendall(f"POST {path} HTTP/1.1\r\nhost: x\r\n".encode()
                     + b"content-type: application/json\r\nx-request-id: gone\r\n"
                     + f"authorization: {authorization}\r\n"
                       f"content-length: {len(raw)}\r\n\r\n".encode() + raw)
        yield


def _closed_requests(path: str = "/v1/suggest-move") -> float:
    return REGISTRY.get_sample_value("http_requests_total", {
        "method": "POST", "route": path, "status": "499"}) or 0.0


def test_rest_long_call_of_a_client_gone_while_queued_never_runs(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The one long-call thread held, a second client's long call waits in the queue and
    that client closes its connection: the call is dropped at once (counted 499) and
    never reaches the core, and the gate empties. Before, it waited and then ran, for
    nobody, ahead of the calls queued behind it."""
    inside, go, reached = _held_core(monkeypatch)
    with running(long_call_threads=1) as server, \
            httpx.Client(base_url=server.http_base, timeout=60) as http, \
            ThreadPoolExecutor(1) as pool:
        deal = http.post("/v1/deal", json={"variant": "classic", "players": 2}).json()
        headers, body = _suggest(deal, "first")
        first = pool.submit(http.post, "/v1/suggest-move", headers=headers, json=body)
        try:
            assert inside.wait(10), "the first long call did not reach the core"
            closed = _closed_requests()
            with _post_on_a_socket(server.app.http_port, "/v1/suggest-move",
                                   headers["Authorization"], body):
                _until(lambda: server.app.rest_gate.in_flight == 2, "the call was not queued")
            _until(lambda: _closed_requests() == closed + 1, "the call was not dropped")
            assert server.app.rest_gate.in_flight == 1
        finally:
            go.set()
        assert first.result(timeout=30).status_code == 200
        # the pool runs its queue in order: had the dropped call stayed, it ran before this
        last = http.post("/v1/suggest-move", headers=_suggest(deal, "last")[0], json=body)
        assert last.status_code == 200
        assert reached == ["first", "last"]
        _until(lambda: server.app.rest_gate.in_flight == 0, "a long call stayed counted")


def test_rest_long_calls_are_held_to_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """``CANASTA_MAX_CONCURRENT_RPCS`` long calls running or queued on REST: one more is
    refused at once with 429 ``TOO_MANY_CALLS`` (metadata: the limit; retry after 1 s:
    ``Retry-After`` and ``RetryInfo``), while probes and
    short calls are answered; the held calls then answer and the gate empties. Before,
    every connection (up to 1,000) could queue a bot's search."""
    inside, go, reached = _held_core(monkeypatch)
    with running(long_call_threads=1, max_concurrent_rpcs=2) as server, \
            httpx.Client(base_url=server.http_base, timeout=60) as http, \
            ThreadPoolExecutor(2) as pool:
        deal = http.post("/v1/deal", json={"variant": "classic", "players": 2}).json()
        headers, body = _suggest(deal, "held")
        held = [pool.submit(http.post, "/v1/suggest-move", headers=headers, json=body)
                for _ in range(2)]
        try:
            assert inside.wait(10), "the long call did not reach the core"
            _until(lambda: server.app.rest_gate.in_flight == 2, "the gate did not fill")
            with httpx.Client(base_url=server.http_base, timeout=10) as other:
                refused = other.post("/v1/suggest-move", headers=headers, json=body)
                assert refused.status_code == 429, refused.text
                assert refused.headers["retry-after"] == "1"
                details = refused.json()["error"]["details"]
                assert (details[0]["reason"], details[0]["metadata"]["limit"]) == (
                    "TOO_MANY_CALLS", "2")
                assert {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                        "retryDelay": "1s"} in details
                assert other.get("/healthz").status_code == 200
                legal = other.post("/v1/legal-moves", headers=headers,
                                   json={"snapshot": deal["snapshot"]})
                assert legal.status_code == 200 and legal.json()["moves"]
            assert not any(f.done() for f in held)
        finally:
            go.set()
        assert [f.result(timeout=30).status_code for f in held] == [200, 200]
        assert len(reached) == 2
        _until(lambda: server.app.rest_gate.in_flight == 0, "a long call stayed counted")


def _hold_the_first_round(monkeypatch: pytest.MonkeyPatch) -> tuple[
        threading.Event, threading.Event, list[Call]]:
    """A long call's check whether its caller still waits (before each round of an expert
    search's playouts, before every 64 moves of a replay), counted, the first one held
    until the test lets it go: the events (held, let go) and each check's call."""
    inside, go = threading.Event(), threading.Event()
    checks: list[Call] = []
    check = core_module._give_up_if_gone

    def counted(call: Call) -> None:
        checks.append(call)
        if len(checks) == 1:
            inside.set()
            assert go.wait(30)
        check(call)

    monkeypatch.setattr(core_module, "_give_up_if_gone", counted)
    return inside, go, checks


def _internal_errors() -> float:
    return REGISTRY.get_sample_value("canasta_requests_rejected_total",
                                     {"reason": "INTERNAL"}) or 0.0


def _cancelled(name: str) -> float:
    return REGISTRY.get_sample_value("grpc_server_handled_total", {
        "grpc_type": "unary", "grpc_service": "canasta.v1.CanastaEngine",
        "grpc_method": name, "grpc_code": "Canceled"}) or 0.0


def _abandoned_call(stub: Any, name: str) -> tuple[Message, str, dict[str, Any], str]:
    """A long call that runs long enough to be abandoned: its gRPC request, its REST path
    and body, and the host's token. ``SuggestMove``: an expert search at the largest
    budget in a meld phase (62 rounds of playouts); ``ExportRecord``: a record of 100
    moves (a check before every 64, so two)."""
    deal = stub.Deal(api.DealRequest(variant="classic", players=4, seed=11), timeout=10)
    host = (("authorization", f"Bearer {deal.host_token}"),)
    if name == "SuggestMove":
        drawn = stub.ApplyMove(api.ApplyMoveRequest(snapshot=deal.snapshot,
                                                    move=game.Move(text="draw")),
                               timeout=10, metadata=host)
        search = api.SuggestMoveRequest(snapshot=drawn.snapshot, level="expert", budget=500)
        return search, "/v1/suggest-move", {
            "snapshot": base64.b64encode(drawn.snapshot).decode(), "level": "expert",
            "budget": 500}, deal.host_token
    record = records.parse(stub.ExportRecord(api.ExportRecordRequest(snapshot=deal.snapshot),
                                             timeout=10, metadata=host).record)
    snapshot = deal.snapshot
    for _ in range(100):
        hint = stub.SuggestMove(api.SuggestMoveRequest(snapshot=snapshot, level="greedy"),
                                timeout=10, metadata=host)
        played = stub.ApplyMove(api.ApplyMoveRequest(snapshot=snapshot, move=hint.move),
                                timeout=10, metadata=host)
        assert not played.hand_over
        record = records.played(record, played.seat, played.move.text)
        snapshot = played.snapshot
    text = records.write(record)
    return (api.ExportRecordRequest(snapshot=snapshot, record=text), "/v1/record:export",
            {"snapshot": base64.b64encode(snapshot).decode(), "record": text},
            deal.host_token)


@pytest.mark.parametrize("name", LONG_CALLS)
def test_grpc_long_call_stops_once_its_caller_has_cancelled(
        monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """A long call whose caller cancels stops at its next check (a search's next round of
    playouts, a replay's next 64 moves), ends as CANCELLED, and frees its thread; no
    error is counted. Before, it ran to its end for nobody (a search: up to 1.6 s)."""
    inside, go, checks = _hold_the_first_round(monkeypatch)
    with held_server(monkeypatch) as (server, _), server.stub()[0] as channel:
        stub = api_grpc.CanastaEngineStub(channel)
        request, _, _, host = _abandoned_call(stub, name)
        errors, cancelled = _internal_errors(), _cancelled(name)
        call = getattr(stub, name).future(request, timeout=60,
                                          metadata=(("authorization", f"Bearer {host}"),))
        try:
            assert inside.wait(10), "the long call did not start"
            call.cancel()
            _until(lambda: not checks[0].waiting(), "the server did not see the cancel")
        finally:
            go.set()
        _until(lambda: server.app.gate.in_flight == 0, "the long call went on")
        assert len(checks) == 1
        assert _internal_errors() == errors
        assert _cancelled(name) == cancelled + 1


@pytest.mark.parametrize("name", LONG_CALLS)
def test_rest_long_call_stops_once_its_client_has_gone(monkeypatch: pytest.MonkeyPatch,
                                                       name: str) -> None:
    """A long call over REST whose client closes its connection stops at its next check
    and frees its thread (counted 499, no error). Before, it ran to its end for nobody."""
    inside, go, checks = _hold_the_first_round(monkeypatch)
    with running() as server, server.stub()[0] as channel:
        _, path, body, host = _abandoned_call(api_grpc.CanastaEngineStub(channel), name)
        errors, closed = _internal_errors(), _closed_requests(path)
        try:
            with _post_on_a_socket(server.app.http_port, path, f"Bearer {host}", body):
                assert inside.wait(10), "the long call did not start"
            _until(lambda: _closed_requests(path) == closed + 1, "the close was not seen")
            assert not checks[0].waiting()
        finally:
            go.set()
        _until(lambda: server.app.rest_gate.in_flight == 0, "the long call went on")
        assert len(checks) == 1
        assert _internal_errors() == errors


def test_rest_long_call_stops_when_the_stop_cuts_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A REST long call still running when a stop's grace runs out is cancelled by uvicorn;
    it must then stop at its next check, as when its client goes. Before, only a
    disconnect stopped it: the search ran on for nobody to the end of its budget, and the
    process waited for that thread before exiting, seconds past CANASTA_GRACE_SECONDS."""
    inside, go, checks = _hold_the_first_round(monkeypatch)
    with running(grace_seconds=0.0) as server, server.stub()[0] as channel:
        _, path, body, host = _abandoned_call(api_grpc.CanastaEngineStub(channel),
                                              "SuggestMove")
        with _post_on_a_socket(server.app.http_port, path, f"Bearer {host}", body):
            try:
                assert inside.wait(10), "the long call did not start"
                server.stop()  # REST's grace: at least 1 s, then the call is cancelled
                assert not checks[0].waiting(), "the cut call went on"
            finally:
                go.set()
