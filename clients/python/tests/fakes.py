"""Fake servers for the client's error handling: no service needed."""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager

import grpc
from google.rpc import error_details_pb2, status_pb2

_CODES = {c.value[0]: c for c in grpc.StatusCode}


def status(code: int, reason: str, *delays: float) -> status_pb2.Status:
    """A refusal as the service sends it: its ErrorInfo, and a RetryInfo per delay."""
    refusal = status_pb2.Status(code=code, message="the server is busy")
    refusal.details.add().Pack(error_details_pb2.ErrorInfo(
        reason=reason, domain="canasta.v1", metadata={"limit": "64"}))
    for delay in delays:
        retry = error_details_pb2.RetryInfo()
        retry.retry_delay.FromMilliseconds(round(delay * 1000))
        refusal.details.add().Pack(retry)
    return refusal


def busy_at_first(refusals: int, refusal: status_pb2.Status, details: bytes | None = None,
                  request_id: str | None = None) -> tuple[grpc.Server, list[float]]:
    """A server (not started) that refuses its first ``refusals`` calls with ``refusal`` in
    the status-details trailer (or the raw ``details`` given; ``b""``: no trailer), its
    code as the call's, and an ``x-request-id`` trailer when given, and then answers an
    empty message; and the times the calls arrived."""
    arrived: list[float] = []
    trailer = refusal.SerializeToString() if details is None else details

    def answer(request: bytes, context: grpc.ServicerContext) -> bytes:
        arrived.append(time.monotonic())
        if len(arrived) <= refusals:
            echoed = () if request_id is None else (("x-request-id", request_id),)
            context.set_trailing_metadata(
                ((("grpc-status-details-bin", trailer),) if trailer else ()) + echoed)
            context.abort(_CODES[refusal.code], refusal.message)
        return b""

    class Answer(grpc.GenericRpcHandler):
        def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
            return grpc.unary_unary_rpc_method_handler(answer)

    return grpc.server(ThreadPoolExecutor(1), handlers=[Answer()]), arrived


@contextmanager
def serving(server: grpc.Server) -> Iterator[str]:
    """``server`` started on a free loopback port: its target; stopped at the end."""
    port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.stop(None)
