"""Starting and stopping: graceful shutdown with calls in flight, no port sharing, and the
real process (``python -m service``) with its signals, logs, keys and exit codes."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from service.api.pb import api, api_grpc
from service.grpc import server as grpc_server
from service.rest import app as rest_app
from service.sealing.keys import new_key_entry
from service.server import CannotListen
from tests.service.helpers import grpc_failure
from tests.service.servers import Running, delay_grpc_calls, running

ROOT = Path(__file__).resolve().parents[2]


def test_in_flight_calls_finish_on_shutdown(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call of each face is held in flight until the shutdown has begun (health turned
    NOT_SERVING, REST told to exit, the gRPC drain started), then both get their answer."""
    real_body, real_drain = rest_app._body, grpc_server.drain
    inside = {"grpc": threading.Event(), "rest": threading.Event()}
    stopping = threading.Event()

    def slow_call(context: Any) -> None:
        inside["grpc"].set()
        assert stopping.wait(10)

    async def slow_body(scope: Any, receive: Any, limit: int) -> bytes | None:
        inside["rest"].set()
        assert await asyncio.get_running_loop().run_in_executor(None, stopping.wait, 10)
        return await real_body(scope, receive, limit)

    async def drain(gate: Any, grace: float) -> float:
        stopping.set()
        left: float = await real_drain(gate, grace)
        return left

    delay_grpc_calls(monkeypatch, slow_call)
    monkeypatch.setattr(rest_app, "_body", slow_body)
    monkeypatch.setattr(grpc_server, "drain", drain)
    with running(grace_seconds=5.0) as server:
        channel, stub = server.stub()
        grpc.channel_ready_future(channel).result(timeout=5)
        request = api.DealRequest(variant="classic", players=4, seed=1)
        results: dict[str, Any] = {}

        def rest() -> None:
            with httpx.Client(base_url=server.http_base, timeout=10) as http:
                results["rest"] = http.post("/v1/deal", json={"variant": "classic",
                                                              "players": 4})

        in_flight = stub.Deal.future(request, timeout=10)
        worker = threading.Thread(target=rest)
        worker.start()
        assert inside["grpc"].wait(10) and inside["rest"].wait(10)  # both are in flight
        stopper = threading.Thread(target=server.stop)
        stopper.start()
        assert in_flight.result().header.seq == 0
        worker.join(10)
        assert results["rest"].status_code == 200
        stopper.join(10)
        assert not server.app.health.ready
        with pytest.raises(grpc.RpcError) as err:
            stub.Deal(request, timeout=2)
        assert err.value.code() is grpc.StatusCode.UNAVAILABLE
        channel.close()


@pytest.mark.parametrize("which", ["_http", "_metrics"])
def test_a_server_that_ends_on_its_own_stops_the_process(which: str) -> None:
    """The process serves until its HTTP server or its metrics server ends, then stops
    every face: it waited on the HTTP server alone, so with the metrics server gone it
    served on, never scraped, and nothing said so."""
    with running(metrics_port=0) as server:
        waited = asyncio.run_coroutine_threadsafe(server.app.wait(), server.loop)
        ended = getattr(server.app, which)
        assert ended is not None
        ended.should_exit = True  # as a server that ends on its own
        waited.result(10)
        with pytest.raises(httpx.TransportError):
            httpx.get(f"{server.http_base}/healthz", timeout=1)


def test_the_metrics_port_closes_when_the_stop_begins(monkeypatch: pytest.MonkeyPatch
                                                     ) -> None:
    """/metrics on a port of its own closes with the REST listener, at once, not after the
    calls in flight (docs/operations.md, *Signals*): a stopping pod is not scraped."""
    real_body = rest_app._body
    inside, release = threading.Event(), threading.Event()

    async def slow_body(scope: Any, receive: Any, limit: int) -> bytes | None:
        inside.set()
        assert await asyncio.get_running_loop().run_in_executor(None, release.wait, 10)
        return await real_body(scope, receive, limit)

    monkeypatch.setattr(rest_app, "_body", slow_body)
    with running(grace_seconds=5.0, metrics_port=0) as server:
        scrape = f"http://127.0.0.1:{server.app.metrics_port}/metrics"
        assert httpx.get(scrape).status_code == 200
        results: dict[str, Any] = {}

        def rest() -> None:
            results["rest"] = httpx.post(f"{server.http_base}/v1/deal", timeout=10,
                                         json={"variant": "classic", "players": 4})

        worker = threading.Thread(target=rest)
        worker.start()
        assert inside.wait(10)
        stopper = threading.Thread(target=server.stop)
        stopper.start()
        deadline = time.monotonic() + 5
        while True:  # refused within a tick of the stop, while the REST call still runs
            try:
                httpx.get(scrape, timeout=1)
            except httpx.TransportError:
                break
            assert time.monotonic() < deadline, "/metrics still answers"
            time.sleep(0.01)
        assert worker.is_alive()
        release.set()
        worker.join(10)
        assert results["rest"].status_code == 200
        stopper.join(10)


def _refusal(call: Any) -> tuple[str, str]:
    """(code, ErrorInfo reason) of a gRPC call that failed."""
    with pytest.raises(grpc.RpcError) as err:
        call.result(timeout=30)
    failure = grpc_failure(err.value)
    return failure.code, failure.reason


def grpc_failure_retry_s(err: Any) -> int:
    """The seconds of the RetryInfo in a gRPC failure's rich status (0: none)."""
    status = rpc_status.from_call(err)
    for detail in status.details if status else ():
        if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            info = error_details_pb2.RetryInfo()
            detail.Unpack(info)
            return int(info.retry_delay.ToSeconds())
    return 0


def test_calls_that_have_not_started_get_unavailable(monkeypatch: pytest.MonkeyPatch) -> None:
    """While the server stops, a gRPC call that has not started is refused with UNAVAILABLE
    and the typed reason (retryable: it never ran), never CANCELLED, and the call in flight
    still finishes. That includes a call that came before the stop but still waited for a
    thread; with grpcio's own stop it ran in the grace period."""
    inside, release = threading.Event(), threading.Event()

    def hold(context: Any) -> None:
        if ("x-hold", "1") in (context.invocation_metadata() or ()):
            inside.set()
            assert release.wait(30)

    delay_grpc_calls(monkeypatch, hold)
    # one engine thread: a second call must wait for it
    with running(grace_seconds=20.0, grpc_threads=1) as server:
        channel, stub = server.stub()
        health = health_pb2_grpc.HealthStub(channel)
        request = api.DealRequest(variant="classic", players=4, seed=1)
        in_flight = stub.Deal.future(request, timeout=60, metadata=(("x-hold", "1"),))
        assert inside.wait(10)
        queued = stub.Deal.future(request, timeout=60)
        stopper = threading.Thread(target=server.stop)
        stopper.start()
        deadline = time.monotonic() + 10
        while health.Check(health_pb2.HealthCheckRequest(), timeout=5).status \
                == health_pb2.HealthCheckResponse.SERVING:  # the stop has begun
            assert time.monotonic() < deadline
            time.sleep(0.01)
        late = [stub.Deal.future(request, timeout=30) for _ in range(5)]
        assert [_refusal(c) for c in late] == [("UNAVAILABLE", "UNAVAILABLE")] * 5
        # with a retry hint, which every SDK needs to retry it (and a gRPC retry policy
        # reads from the pushback trailer)
        trailers = dict(late[0].trailing_metadata() or ())
        assert trailers.get("grpc-retry-pushback-ms") == "1000", trailers
        assert grpc_failure_retry_s(late[0].exception()) == 1
        release.set()  # the call in flight ends; only then does the server stop
        assert in_flight.result(timeout=30).header.seq == 0
        assert _refusal(queued) == ("UNAVAILABLE", "UNAVAILABLE")
        stopper.join(30)
        assert not stopper.is_alive()
        channel.close()


def test_sigterm_under_load_refuses_unstarted_calls_as_unavailable(tmp_path: Path) -> None:
    """16 gRPC callers keep the real process busy, each until its first failure; SIGTERM.
    Every failure is UNAVAILABLE, retryable, and never CANCELLED: grpcio ends the calls it
    had received but not handed to the service yet as CANCELLED (grpc/grpc#41785), so the
    server refuses new calls itself (ErrorInfo reason UNAVAILABLE) until it is quiet, and
    only then lets grpcio stop. Calls answered OK were run to the end."""
    proc, ready = _spawn(tmp_path, {"CANASTA_SEAL_KEYS": new_key_entry("drain-1"),
                                    "CANASTA_GRACE_SECONDS": "10", "CANASTA_ACCESS_LOG": "false"})
    outcomes: list[tuple[str, str]] = []
    lock = threading.Lock()
    try:
        ports = _wait_ready(proc, ready)
        target = f"127.0.0.1:{ports['grpc_port']}"
        request = api.DealRequest(variant="classic", players=4)
        started = threading.Barrier(17)

        def caller() -> None:
            with grpc.insecure_channel(target) as channel:
                stub = api_grpc.CanastaEngineStub(channel)
                ok_calls = 0
                while True:
                    try:
                        stub.Deal(request, timeout=20)
                        ok_calls += 1
                        if ok_calls == 3:
                            started.wait(20)
                    except grpc.RpcError as err:
                        failure = grpc_failure(err)
                        with lock:
                            outcomes.append((failure.code, failure.reason))
                        return

        callers = [threading.Thread(target=caller) for _ in range(16)]
        for t in callers:
            t.start()
        started.wait(30)  # every caller has been answered; all keep calling
        proc.send_signal(signal.SIGTERM)
        for t in callers:
            t.join(30)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    assert len(outcomes) == 16
    assert {code for code, _ in outcomes} == {"UNAVAILABLE"}, outcomes
    assert ("UNAVAILABLE", "UNAVAILABLE") in outcomes  # refused by the service itself


def test_a_taken_port_fails_loudly(server: Running) -> None:
    with pytest.raises(CannotListen, match="CANASTA_GRPC_PORT"), \
            running(grpc_port=server.app.grpc_port):
        pass
    with pytest.raises(CannotListen, match="CANASTA_HTTP_PORT"), \
            running(http_port=server.app.http_port):
        pass


def _spawn(tmp_path: Path, env: dict[str, str]) -> tuple[subprocess.Popen[str], Path]:
    ready = tmp_path / "ready.json"
    full = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_")}
    full.update({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0", **env})
    proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                            cwd=ROOT, env=full, stderr=subprocess.PIPE, text=True)
    return proc, ready


def _wait_ready(proc: subprocess.Popen[str], ready: Path) -> dict[str, int]:
    deadline = time.monotonic() + 30
    while not ready.exists():
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        assert time.monotonic() < deadline, "the server did not start"
        time.sleep(0.05)
    ports: dict[str, int] = json.loads(ready.read_text())
    return ports


def test_a_misspelt_setting_is_warned_of_at_start(tmp_path: Path) -> None:
    """The service names a CANASTA_* variable that nearly spells a setting, and the setting
    (it stops here on a bind it cannot have, right after reading its settings)."""
    proc, _ = _spawn(tmp_path, {"CANASTA_SEAL_KEYS": new_key_entry("k1"),
                                "CANASTA_BIND": "192.0.2.1", "CANASTA_ACCES": "trusted"})
    assert proc.wait(timeout=30) == 2
    lines = [json.loads(x) for x in proc.stderr.read().splitlines() if x.startswith("{")]
    (warning,) = [x for x in lines if x.get("level") == "warning"]
    assert "CANASTA_ACCES is not a setting" in warning["msg"]
    assert "did you mean CANASTA_ACCESS?" in warning["msg"]


def test_a_removed_setting_is_warned_of_at_start(tmp_path: Path) -> None:
    """CANASTA_WORKERS (removed in 0.11) left an upgraded deployment on one process without a
    word: the service names it and says what to do instead."""
    proc, _ = _spawn(tmp_path, {"CANASTA_SEAL_KEYS": new_key_entry("k1"),
                                "CANASTA_BIND": "192.0.2.1", "CANASTA_WORKERS": "4"})
    assert proc.wait(timeout=30) == 2
    lines = [json.loads(x) for x in proc.stderr.read().splitlines() if x.startswith("{")]
    (warning,) = [x for x in lines if x.get("level") == "warning"]
    assert warning["msg"].startswith("CANASTA_WORKERS is no longer a setting (removed in 0.11)")
    assert "run more replicas" in warning["msg"]


def test_the_process_serves_and_stops_on_sigterm(tmp_path: Path) -> None:
    proc, ready = _spawn(tmp_path, {"CANASTA_SEAL_KEYS": new_key_entry("proc-1"),
                                    "CANASTA_GRACE_SECONDS": "3"})
    try:
        ports = _wait_ready(proc, ready)
        with grpc.insecure_channel(f"127.0.0.1:{ports['grpc_port']}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for name in ("", "canasta.v1.CanastaEngine"):
                answer = health.Check(health_pb2.HealthCheckRequest(service=name), timeout=5)
                assert answer.status == health_pb2.HealthCheckResponse.SERVING
            deal = api_grpc.CanastaEngineStub(channel).Deal(
                api.DealRequest(variant="classic", players=4), timeout=10,
                metadata=(("x-request-id", "proc-test-1"),))
            assert deal.header.key_id == "proc-1"
            api_grpc.CanastaEngineStub(channel).LegalMoves(
                api.LegalMovesRequest(snapshot=deal.snapshot), timeout=10,
                metadata=(("authorization", f"Bearer {deal.seat_tokens[0]}"),))
        base = f"http://127.0.0.1:{ports['http_port']}"
        bearer = {"authorization": f"Bearer {deal.host_token}"}
        assert httpx.post(f"{base}/v1/view", json={"snapshot": "AAAA"},
                          headers=bearer).status_code == 400
        assert httpx.get(f"{base}/readyz").status_code == 200
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    stderr = proc.stderr.read()
    lines = [json.loads(line) for line in stderr.splitlines() if line.strip()]
    messages = [line["msg"] for line in lines]
    assert "listening" in messages and "stopped" in messages
    for token in (deal.host_token, *deal.seat_tokens):  # never logged, not even in part
        assert token.rsplit(".", 1)[1] not in stderr
    listening = next(line for line in lines if line["msg"] == "listening")
    assert listening["access"] == "tokens"
    assert not any("CANASTA_ACCESS=trusted" in m for m in messages)
    # the defaults (CANASTA_GRPC_THREADS, CANASTA_LONG_CALL_THREADS, CANASTA_METRICS_PORT)
    assert (listening["grpc_threads"], listening["long_call_threads"]) == (2, 2)
    assert listening["metrics"] == listening["http"] == f"127.0.0.1:{ports['http_port']}"
    assert ports["metrics_port"] == ports["http_port"]
    access = [line for line in lines if line.get("request_id") == "proc-test-1"]
    assert access and access[0]["method"] == "/canasta.v1.CanastaEngine/Deal"
    assert access[0]["code"] == "OK" and "duration_ms" in access[0]


def test_the_process_serves_metrics_on_their_own_port(tmp_path: Path) -> None:
    """CANASTA_METRICS_PORT: the ready file and the "listening" line name the port, where
    /metrics answers; the HTTP port does not serve it; SIGTERM closes it with the rest."""
    proc, ready = _spawn(tmp_path, {"CANASTA_SEAL_KEYS": new_key_entry("proc-1"),
                                    "CANASTA_METRICS_PORT": "0"})
    try:
        ports = _wait_ready(proc, ready)
        assert ports["metrics_port"] not in (0, ports["http_port"])
        scrape = httpx.get(f"http://127.0.0.1:{ports['metrics_port']}/metrics")
        assert scrape.status_code == 200 and "canasta_deals_total" in scrape.text
        assert httpx.get(f"http://127.0.0.1:{ports['http_port']}/metrics").status_code == 404
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    lines = [json.loads(line) for line in proc.stderr.read().splitlines() if line.strip()]
    listening = next(line for line in lines if line["msg"] == "listening")
    assert listening["metrics"] == f"127.0.0.1:{ports['metrics_port']}"
    assert not [line for line in lines if line["level"] == "error"]


def test_dev_keys_are_made_when_none_are_configured(tmp_path: Path) -> None:
    key_file = tmp_path / ".dev-keys" / "seal.keys"
    proc, ready = _spawn(tmp_path, {"CANASTA_DEV_KEY_FILE": str(key_file)})
    try:
        _wait_ready(proc, ready)
        assert key_file.exists()
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=15) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
    warnings = [json.loads(line) for line in proc.stderr.read().splitlines() if line.strip()]
    assert any(w["level"] == "warning" and "development" in w["msg"] for w in warnings)


@pytest.mark.parametrize(("env", "text"), [
    ({}, "CANASTA_SEAL_KEYS"),
    ({"CANASTA_SEAL_KEYS": "k1:tooshort"}, "32 bytes"),
    ({"CANASTA_SEAL_KEYS": new_key_entry("k1"), "CANASTA_GRPC_PORT": "x"}, "CANASTA_GRPC_PORT"),
    ({"CANASTA_SEAL_KEYS": new_key_entry("k1"), "CANASTA_ACCESS": "open"}, "CANASTA_ACCESS"),
])
def test_bad_configuration_exits_2(tmp_path: Path, env: dict[str, str], text: str) -> None:
    proc, _ = _spawn(tmp_path, env)
    assert proc.wait(timeout=30) == 2
    assert text in proc.stderr.read()


@pytest.mark.parametrize("what", ["grpc port taken", "http port taken",
                                  "metrics port taken", "bind elsewhere",
                                  "key file a folder", "connection age beyond 32 bits",
                                  "malformed key ring", "malformed key file"])
def test_a_deployment_that_cannot_start_exits_2_with_one_line(
        server: Running, tmp_path: Path, what: str) -> None:
    """Each of these once ended in a traceback and exit code 1 (the runbook reads exit 2 as
    a configuration error): now one JSON line names the setting. A malformed key ring
    already exited 2, but its line named the key and not the variable that holds it. A
    gRPC port that could not be bound also left a line of C-core's own, not JSON."""
    keys = {"CANASTA_SEAL_KEYS": new_key_entry("k1")}
    bad_file = tmp_path / "bad.keys"
    bad_file.write_text("dev-1:tooshort\n")
    env, text = {
        "grpc port taken": ({**keys, "CANASTA_GRPC_PORT": str(server.app.grpc_port)},
                            "CANASTA_GRPC_PORT"),
        "http port taken": ({**keys, "CANASTA_HTTP_PORT": str(server.app.http_port)},
                            "CANASTA_HTTP_PORT"),
        "metrics port taken": ({**keys, "CANASTA_METRICS_PORT": str(server.app.http_port)},
                               "CANASTA_METRICS_PORT"),
        "bind elsewhere": ({**keys, "CANASTA_BIND": "192.0.2.1"}, "CANASTA_BIND"),
        "key file a folder": ({"CANASTA_DEV_KEY_FILE": str(tmp_path)}, "CANASTA_DEV_KEY_FILE"),
        "connection age beyond 32 bits": ({**keys, "CANASTA_GRPC_MAX_CONNECTION_AGE_S":
                                           "2147484"}, "CANASTA_GRPC_MAX_CONNECTION_AGE_S"),
        "malformed key ring": ({"CANASTA_SEAL_KEYS": "k1:tooshort"}, "CANASTA_SEAL_KEYS"),
        "malformed key file": ({"CANASTA_DEV_KEY_FILE": str(bad_file)},
                               "CANASTA_DEV_KEY_FILE"),
    }[what]
    proc, _ = _spawn(tmp_path, env)
    assert proc.wait(timeout=30) == 2
    stderr = proc.stderr.read()
    assert "Traceback" not in stderr, stderr
    # every line is the service's JSON: C-core's own line for a port it could not bind
    # ("E1207 ... add_port.cc:83] Failed to add port ...") broke log parsers
    lines = [json.loads(x) for x in stderr.splitlines()]
    (line,) = [x for x in lines if x["level"] == "error"]
    assert line["msg"].startswith("configuration error: ") and text in line["msg"], line
