"""The gRPC concurrency limit (``CANASTA_MAX_CONCURRENT_RPCS``) holds the engine's calls
only: health checks are answered however full the engine is
(step 10: with the limit reached, up to 28 % of health checks were refused, and the
Kubernetes probes use them). Real sockets; the engine's calls are held in their handlers
with :func:`delay_grpc_calls` until the test lets them go, so "full" is exact."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

import grpc
import httpx
import pytest
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status

from service.api.pb import SERVICE_NAME, api, api_grpc
from service.ops.metrics import REGISTRY
from service.sealing.keys import KeyRing, new_key_entry
from tests.service.helpers import Failure, call_grpc, grpc_failure, ok
from tests.service.servers import Running, delay_grpc_calls, running

DEAL = api.DealRequest(variant="classic", players=4)
HOLD = (("x-hold", "1"),)
SERVING = health_pb2.HealthCheckResponse.SERVING


class Holder:
    """Engine calls sent with :data:`HOLD` wait in their handler until :meth:`release`."""

    def __init__(self) -> None:
        self.inside = threading.Semaphore(0)
        self.released = threading.Event()

    def hook(self, context: Any) -> None:
        if HOLD[0] in (context.invocation_metadata() or ()):
            self.inside.release()
            assert self.released.wait(30)

    def wait_inside(self, n: int) -> None:
        for _ in range(n):
            assert self.inside.acquire(timeout=10), "a held call did not reach its handler"

    def release(self) -> None:
        self.released.set()


@contextmanager
def held_server(monkeypatch: pytest.MonkeyPatch, **settings: Any) -> Iterator[
        tuple[Running, Holder]]:
    holder = Holder()
    delay_grpc_calls(monkeypatch, holder.hook)
    with running(KeyRing.parse(new_key_entry("gate-1")), **settings) as server:
        try:
            yield server, holder
        finally:
            holder.release()


def _until(condition: Any, what: str, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.005)


def _rejected(reason: str) -> float:
    return REGISTRY.get_sample_value("canasta_requests_rejected_total",
                                     {"reason": reason}) or 0.0


@pytest.mark.parametrize(("threads", "limit"), [
    (4, 4),  # every engine thread busy and the limit reached
    (4, 8),  # every engine thread busy, four more engine calls queued
], ids=["full", "queued"])
def test_health_is_answered_with_the_engine_full(monkeypatch: pytest.MonkeyPatch,
                                                 threads: int, limit: int) -> None:
    """CANASTA_MAX_CONCURRENT_RPCS engine calls held in flight and a flood of more engine
    calls: every one of 200 health checks (both service names) and a Watch answer SERVING
    at once, the REST probes answer 200, and each engine call over the limit is refused
    with RESOURCE_EXHAUSTED TOO_MANY_CALLS (metadata: the limit; a RetryInfo of 1 s)."""
    with held_server(monkeypatch, max_concurrent_rpcs=limit, grpc_threads=threads) as (
            server, holder):
        channel, stub = server.stub()
        with channel, httpx.Client(base_url=server.http_base, timeout=10) as http:
            grpc.channel_ready_future(channel).result(timeout=10)
            slow = [stub.Deal.future(DEAL, timeout=60, metadata=HOLD) for _ in range(limit)]
            holder.wait_inside(min(limit, threads))
            _until(lambda: server.app.gate.in_flight == limit, "the gate did not fill")
            refused_before = _rejected("TOO_MANY_CALLS")
            stop = threading.Event()

            def flood() -> list[str]:  # engine calls while the engine is full
                seen = []
                while not stop.is_set():
                    got = call_grpc(stub, "Deal", DEAL)
                    assert isinstance(got, Failure), "a call got past the full gate"
                    seen.append(f"{got.code} {got.reason}")
                return seen

            health = health_pb2_grpc.HealthStub(channel)
            with ThreadPoolExecutor(5) as pool:
                floods = [pool.submit(flood) for _ in range(4)]
                answers = [health.Check(health_pb2.HealthCheckRequest(service=name),
                                        timeout=5).status
                           for _ in range(100) for name in ("", SERVICE_NAME)]
                watch = health.Watch(health_pb2.HealthCheckRequest(service=SERVICE_NAME),
                                     timeout=5)
                watched = next(watch).status
                watch.cancel()
                probes = [http.get(path).status_code for path in ("/healthz", "/readyz")]
                stop.set()
                refusals = [r for f in floods for r in f.result(timeout=30)]
            assert answers == [SERVING] * 200 and watched == SERVING
            assert probes == [200, 200]
            assert refusals and set(refusals) == {"RESOURCE_EXHAUSTED TOO_MANY_CALLS"}
            assert _rejected("TOO_MANY_CALLS") - refused_before == len(refusals)
            try:
                stub.Deal(DEAL, timeout=10, metadata=(("accept-language", "ru"),))
            except grpc.RpcError as err:
                failure = grpc_failure(err)
                assert failure.reason == "TOO_MANY_CALLS" and str(limit) in failure.message
                assert "вызов" in failure.message
                status = rpc_status.from_call(err)
                assert status is not None
                retries = [d for d in status.details
                           if d.Is(error_details_pb2.RetryInfo.DESCRIPTOR)]
                assert len(retries) == 1
                retry = error_details_pb2.RetryInfo()
                retries[0].Unpack(retry)
                assert retry.retry_delay.ToSeconds() == 1
            else:
                raise AssertionError("a call got past the full gate")
            holder.release()
            assert all(f.result(timeout=30).header.seq == 0 for f in slow)
            _until(lambda: server.app.gate.in_flight == 0, "the gate did not empty")
            ok(call_grpc(stub, "Deal", DEAL))


def test_a_call_cancelled_while_queued_leaves_the_gate(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """The gate counts an engine call from its arrival. A call cancelled while it waits
    for a thread never reaches its handler; it must still leave the gate, or every such
    call would shrink the limit for good."""
    with held_server(monkeypatch, max_concurrent_rpcs=3, grpc_threads=1) as (server, holder):
        channel, stub = server.stub()
        with channel:
            first = stub.Deal.future(DEAL, timeout=60, metadata=HOLD)
            holder.wait_inside(1)  # the only engine thread is taken
            queued = [stub.Deal.future(DEAL, timeout=60) for _ in range(2)]
            _until(lambda: server.app.gate.in_flight == 3, "the queued calls were not counted")
            refused = call_grpc(stub, "Deal", DEAL)
            assert isinstance(refused, Failure) and refused.reason == "TOO_MANY_CALLS"
            for call in queued:
                call.cancel()
            holder.release()
            assert first.result(timeout=30).header.seq == 0
            _until(lambda: server.app.gate.in_flight == 0, "a cancelled call stayed counted")
            holder.released.clear()
            again = [stub.Deal.future(DEAL, timeout=60, metadata=HOLD) for _ in range(3)]
            holder.wait_inside(1)
            _until(lambda: server.app.gate.in_flight == 3, "the limit shrank")
            holder.release()
            assert all(f.result(timeout=30).header.seq == 0 for f in again)


def _retrying_channel(target: str, attempts: int) -> grpc.Channel:
    """A channel whose own retry policy (gRFC A6) sends a Deal refused with
    RESOURCE_EXHAUSTED again, after a backoff of 10 ms unless the server pushes back."""
    config = {"methodConfig": [{
        "name": [{"service": SERVICE_NAME}],
        "retryPolicy": {"maxAttempts": attempts, "initialBackoff": "0.01s",
                        "maxBackoff": "0.01s", "backoffMultiplier": 1,
                        "retryableStatusCodes": ["RESOURCE_EXHAUSTED"]}}]}
    return grpc.insecure_channel(target, options=[
        ("grpc.enable_retries", 1), ("grpc.service_config", json.dumps(config))])


def test_a_refusal_of_load_pushes_a_retry_policy_back(monkeypatch: pytest.MonkeyPatch
                                                      ) -> None:
    """TOO_MANY_CALLS carries its RetryInfo delay as ``grpc-retry-pushback-ms`` (1000), so a
    client's own gRPC retry policy waits it instead of its backoff: a Deal refused while
    the gate is full, released 0.3 s later, comes back answered after about 1 s, on the
    policy's second attempt, where a 10 ms backoff would have met the full gate again."""
    with held_server(monkeypatch, max_concurrent_rpcs=1, grpc_threads=2) as (server, holder):
        channel, stub = server.stub()
        with channel:
            slow = stub.Deal.future(DEAL, timeout=60, metadata=HOLD)
            holder.wait_inside(1)
            _until(lambda: server.app.gate.in_flight == 1, "the gate did not fill")
            try:
                stub.Deal(DEAL, timeout=10)
            except grpc.RpcError as err:
                assert ("grpc-retry-pushback-ms", "1000") in (err.trailing_metadata() or ())
            else:
                raise AssertionError("a call got past the full gate")
            refused_before = _rejected("TOO_MANY_CALLS")
            with _retrying_channel(server.grpc_target, 2) as retrying:
                grpc.channel_ready_future(retrying).result(timeout=10)
                started = time.monotonic()
                retried = api_grpc.CanastaEngineStub(retrying).Deal.future(DEAL, timeout=20)
                _until(lambda: _rejected("TOO_MANY_CALLS") > refused_before,
                       "the first attempt was not refused")
                time.sleep(0.3)
                holder.release()
                assert slow.result(timeout=30).header.seq == 0
                assert retried.result(timeout=30).header.seq == 0
                took = time.monotonic() - started
            assert _rejected("TOO_MANY_CALLS") - refused_before == 1
            assert took >= 0.95, took  # the server's 1 s, not the policy's 10 ms
