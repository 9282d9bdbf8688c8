"""Calls in flight held to ``CANASTA_MAX_CONCURRENT_RPCS``, one gate per face, and the stop.

gRPC's gate counts ``CanastaEngine`` calls only: health and reflection never pass
through it, so a probe is answered however busy the engine is (grpcio's own
``maximum_concurrent_rpcs`` counts every service, and is not used). A call is counted
from its arrival, while it may still wait for a thread of the engine's pool
(:class:`GatedPool`: the engine's, or the long calls'), to its end, so the limit also
bounds those queues; beyond it a call gets ``RESOURCE_EXHAUSTED`` ``TOO_MANY_CALLS``.
REST's gate counts its long calls the same way (the only calls that wait for a thread:
every other one runs in the event loop), so a flood of bot searches queues at most the
limit, and the rest are refused at once.

On a gRPC stop, :func:`drain` closes the gate first (a call that has not started gets
``UNAVAILABLE``, retryable) and waits for the calls in flight; only then is the server
stopped: grpcio would end the calls it had received but not yet handed to a handler as
``CANCELLED`` (grpc/grpc#41785).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from concurrent import futures
from typing import Any

from service.api.errors import ServiceError, too_many_calls, unavailable

# How long a stopping server must have seen no new call (and have none in flight) before
# grpcio stops it: a caller answered in the last instant may already have sent its next call.
DRAIN_QUIET_S = 0.1


class Gate:
    """The count and the stop. Thread-safe: a call enters in grpcio's serving thread (or
    the event loop's) and leaves in a thread of its pool."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.in_flight = 0
        self.stopping = False
        self.last_arrival = 0.0  # time.monotonic() of the latest call, refused or not
        self._lock = threading.Lock()

    def enter(self) -> ServiceError | None:
        """Count a call in; or why it is refused (the server is stopping, or full)."""
        with self._lock:
            self.last_arrival = time.monotonic()
            if self.stopping:
                return unavailable()
            if self.in_flight >= self.limit:
                return too_many_calls(self.limit)
            self.in_flight += 1
            return None

    def leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def close(self) -> None:
        """From now on every call is refused with ``UNAVAILABLE``."""
        with self._lock:
            self.stopping = True

    def quiet(self, seconds: float) -> bool:
        """No call in flight, and none arrived in the last ``seconds``."""
        with self._lock:
            return self.in_flight == 0 and time.monotonic() - self.last_arrival >= seconds


class GatedPool(futures.ThreadPoolExecutor):
    """A pool of gated calls: each call the gate let in leaves it when its task ends, run
    or not (a call cancelled while queued never reaches its handler)."""

    def __init__(self, threads: int, gate: Gate, name: str = "grpc") -> None:
        super().__init__(max_workers=threads, thread_name_prefix=name)
        self.gate = gate

    def submit(self, fn: Callable[..., Any], /, *args: Any,
               **kwargs: Any) -> futures.Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self.gate.leave())
        return future


async def drain(gate: Gate, grace: float) -> float:
    """The first step of a stop, while the server still takes calls: close the gate, so
    each new call is refused at once with ``UNAVAILABLE``, and wait until the calls in
    flight have ended and callers have gone quiet (:data:`DRAIN_QUIET_S`), at most
    ``grace`` seconds. The grace left for the server's own stop."""
    deadline = time.monotonic() + grace
    gate.close()
    while time.monotonic() < deadline and not gate.quiet(DRAIN_QUIET_S):
        await asyncio.sleep(0.01)
    return max(0.0, deadline - time.monotonic())
