"""The gRPC face: ``canasta.v1.CanastaEngine`` on grpc.aio, plus health and reflection.

The servicer only translates: metadata → :class:`~service.core.Call`, the
core's answer or :class:`~service.errors.ServiceError` → a rich
``google.rpc.Status`` (``grpc-status-details-bin``). An interceptor counts,
times and logs every unary call, and turns request bytes that do not parse into
``INVALID_ARGUMENT`` ``REQUEST_INVALID`` (grpcio would answer ``UNKNOWN``).

A :class:`Gate`, shared with the thread-pool kind (service/grpc_threads.py), holds
``CanastaEngine`` calls to ``CANASTA_MAX_CONCURRENT_RPCS`` (``RESOURCE_EXHAUSTED``
``TOO_MANY_CALLS`` beyond it) and never counts ``grpc.health.v1.Health``, so a probe
is answered however busy the engine is; grpcio's own ``maximum_concurrent_rpcs``
is not used, since it counts every service. On a stop, :func:`stop` first closes
the gate (a call that has not started gets ``UNAVAILABLE``, retryable) and waits for
the calls in flight, and only then stops the server: grpcio would end the calls
it had received but not yet handed to us as ``CANCELLED`` (grpc/grpc#41785).
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn, TypeVar, cast

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio
from grpc_reflection.v1alpha import reflection
from grpc_status import rpc_status

from service import logs, metrics
from service.config import Settings
from service.core import Call, Core
from service.errors import (
    ServiceError,
    ServiceReason,
    invalid_request,
    to_status,
    too_large,
    too_many_calls,
    unavailable,
)
from service.messages import negotiate
from service.pb import SERVICE_NAME, api, api_grpc

Behavior = Callable[[Any, grpc.aio.ServicerContext[Any, Any]], Awaitable[Any]]
_Req = TypeVar("_Req")
_Resp = TypeVar("_Resp")


@dataclass(frozen=True)
class _Status(grpc.Status):
    """A status for ``abort_with_status``: the rich details plus our request id."""

    code: grpc.StatusCode
    details: str
    trailing_metadata: tuple[tuple[str, str | bytes], ...]


@dataclass(frozen=True, slots=True)
class Undecodable:
    """What the tolerant deserializer hands on for bytes that are not the method's message."""


@dataclass(frozen=True, slots=True)
class TooLarge:
    """What it hands on for a request over the size limit (not parsed at all)."""


# The calls the gate counts: the engine's, never health's or reflection's.
COUNTED_PREFIX = f"/{SERVICE_NAME}/"
# How long a stopping server must have seen no new call (and have none in flight) before
# grpcio stops it: a caller answered in the last instant may already have sent its next call.
DRAIN_QUIET_S = 0.1


class Gate:
    """``CanastaEngine`` calls in flight, held to ``CANASTA_MAX_CONCURRENT_RPCS``, and the
    stop. Health and reflection never pass through it.

    grpc.aio counts a call from its handler's start to its end; the thread-pool kind from
    its arrival (still queued for a thread) to its end. Thread-safe: the thread-pool kind
    enters in grpcio's serving thread and leaves in the pool's threads.
    """

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


async def stop(server: grpc.aio.Server | grpc.Server, gate: Gate, grace: float) -> None:
    """Stop a server of either kind: :func:`drain`, then its own stop with the grace left
    (after which grpcio cancels what still runs)."""
    left = await drain(gate, grace)
    if isinstance(server, grpc.aio.Server):
        await server.stop(left)
    else:  # the thread-pool server: stop() returns an Event
        await asyncio.to_thread(server.stop(left).wait)


# C-core refuses messages over this many times the limit itself (RESOURCE_EXHAUSTED with
# no details); up to there, the deserializer measures them and the answer is typed.
HARD_CAP_FACTOR = 4


def tolerant(parse: Callable[[bytes], Any], limit: int) -> Callable[[bytes], Any]:
    """A request deserializer that returns :class:`Undecodable` or :class:`TooLarge`
    instead of raising."""

    def deserialize(data: bytes) -> Any:
        if len(data) > limit:
            return TooLarge()
        try:
            return parse(data)
        except Exception:  # untrusted bytes: any failure to parse is a malformed request
            return Undecodable()

    return deserialize


def observed(handler: grpc.RpcMethodHandler[Any, Any], behavior: Any,
             limit: int) -> grpc.RpcMethodHandler[Any, Any]:
    """``handler`` with ``behavior`` in its place and a :func:`tolerant` deserializer."""
    parse = handler.request_deserializer
    return grpc.unary_unary_rpc_method_handler(
        behavior, request_deserializer=tolerant(parse, limit) if parse is not None else None,
        response_serializer=handler.response_serializer)


Context = grpc.aio.ServicerContext[Any, Any] | grpc.ServicerContext


def call_metadata(context: Context) -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in context.invocation_metadata() or ():
        if isinstance(value, str):
            out[key] = value
    return out


def call_of(context: Context, rid: str) -> Call:
    """The core's context of a call: language, request id and its credentials, every
    ``authorization`` value (the access rules refuse more than one)."""
    lang = "en"
    auth: list[str] = []
    for key, value in context.invocation_metadata() or ():
        if key == "accept-language" and isinstance(value, str):
            lang = negotiate(value)
        elif key == "authorization":
            auth.append(value if isinstance(value, str) else value.decode("latin-1"))
    return Call(lang, rid, tuple(auth))


class Servicer(api_grpc.CanastaEngineServicer):
    """Each RPC is the same three steps over :meth:`Core.handle`."""

    def __init__(self, core: Core) -> None:
        self.core = core

    async def _call(self, name: str, request: Message,
                    context: grpc.aio.ServicerContext[Any, Any]) -> Message:
        call = call_of(context, logs.REQUEST_ID.get())
        try:
            remaining = context.time_remaining()
            if remaining is not None and remaining <= 0:
                raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                                   ServiceReason.DEADLINE_EXCEEDED)
            return self.core.handle(name, request, call)
        except ServiceError as err:
            await _abort(context, err, call.lang, call.request_id)

    async def ListVariants(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ListVariants", request, context)

    async def Deal(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("Deal", request, context)

    async def LegalMoves(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("LegalMoves", request, context)

    async def ApplyMove(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ApplyMove", request, context)

    async def ScoreHand(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ScoreHand", request, context)

    async def GetView(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("GetView", request, context)

    async def NextDeal(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("NextDeal", request, context)

    async def ImportPosition(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ImportPosition", request, context)

    async def ExportPosition(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("ExportPosition", request, context)

    async def SuggestMove(self, request: Any, context: Any) -> Any:  # noqa: N802
        return await self._call("SuggestMove", request, context)


class Observe(grpc.aio.ServerInterceptor):
    """Request id, go-grpc-prometheus metrics and an access-log line for unary calls; the
    gate for ``CanastaEngine`` calls."""

    def __init__(self, access_log: bool = True, max_message_bytes: int = 65536,
                 gate: Gate | None = None) -> None:
        self.access_log = access_log
        self.max_message_bytes = max_message_bytes
        self.gate = gate
        self._wrapped: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails],
                               Awaitable[grpc.RpcMethodHandler[_Req, _Resp] | None]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[_Req, _Resp] | None:
        full = handler_call_details.method
        cached = self._wrapped.get(full)
        if cached is not None:
            return cast("grpc.RpcMethodHandler[_Req, _Resp]", cached)
        handler = await continuation(handler_call_details)
        if handler is None or handler.unary_unary is None:
            return handler
        wrapped = observed(handler, self._wrap(full, cast(Behavior, handler.unary_unary)),
                           self.max_message_bytes)
        self._wrapped[full] = wrapped
        return wrapped

    def _wrap(self, full: str, inner: Behavior) -> Behavior:
        started = metrics.GRPC_STARTED.labels("unary", *method_labels(full))
        access_log = self.access_log
        gate = self.gate if full.startswith(COUNTED_PREFIX) else None

        async def behavior(request: Any, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
            rid = logs.request_id(call_metadata(context).get("x-request-id"))
            token = logs.REQUEST_ID.set(rid)
            started.inc()
            t0 = time.perf_counter()
            code = grpc.StatusCode.OK
            entered = False
            try:
                if gate is not None:
                    refusal = gate.enter()
                    if refusal is not None:  # stopping, or the limit is reached
                        await _refuse(context, rid, refusal)
                    entered = True
                if isinstance(request, Undecodable):
                    await _refuse(context, rid, invalid_request(
                        "body", "the request is not a valid protobuf message of this method"))
                if isinstance(request, TooLarge):
                    await _refuse(context, rid, too_large(self.max_message_bytes))
                response = await inner(request, context)
                context.set_trailing_metadata((("x-request-id", rid),))
                return response
            except grpc.aio.AbortError:
                code = context.code() or grpc.StatusCode.UNKNOWN
                raise
            except asyncio.CancelledError:  # the client went away or its deadline passed
                code = _ended(context, grpc.StatusCode.CANCELLED)
                raise
            except BaseException:  # e.g. the answer could not be sent: the call was over
                code = _ended(context, grpc.StatusCode.UNKNOWN)
                raise
            finally:
                if entered and gate is not None:
                    gate.leave()
                finish(full, code, t0, context.peer(), access_log)
                logs.REQUEST_ID.reset(token)

        return behavior


def method_labels(full: str) -> tuple[str, str]:
    """``/pkg.Service/Method`` as its metric labels (service, method)."""
    service, _, method = full.lstrip("/").rpartition("/")
    return service, method


def finish(full: str, code: grpc.StatusCode, t0: float, peer: str, access_log: bool) -> None:
    """A unary call's metrics and access-log line, once it ended with ``code``."""
    seconds = time.perf_counter() - t0
    service, method = method_labels(full)
    name = metrics.go_code(code)
    metrics.GRPC_HANDLED.labels("unary", service, method, name).inc()
    metrics.GRPC_SECONDS.labels("unary", service, method, name).observe(seconds)
    if access_log:
        logs.access("grpc", full, code.name, seconds, peer)


def _ended(context: grpc.aio.ServicerContext[Any, Any],
           otherwise: grpc.StatusCode) -> grpc.StatusCode:
    """Why a call ended without an answer: its deadline passed, the client cancelled it,
    or ``otherwise``."""
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return grpc.StatusCode.CANCELLED if context.cancelled() else otherwise


async def _refuse(context: grpc.aio.ServicerContext[Any, Any], rid: str,
                  err: ServiceError) -> None:
    """Abort a call refused before the servicer, with the rich status of ``err``."""
    lang = negotiate(call_metadata(context).get("accept-language"))
    metrics.REJECTED.labels(err.reason).inc()
    await _abort(context, err, lang, rid)


async def _abort(context: grpc.aio.ServicerContext[Any, Any], err: ServiceError, lang: str,
                 rid: str) -> NoReturn:
    """End the call with ``err`` as a rich status (``abort_with_status`` raises AbortError).

    A call already over (its deadline passed, the client went away) cannot be answered:
    it ends as cancelled, where the failed send would be logged by grpc as a servicer bug.
    """
    try:
        await context.abort_with_status(rich_status(err, lang, rid))
    except grpc.aio.AbortError:
        raise
    except Exception:
        if _ended(context, grpc.StatusCode.UNKNOWN) is grpc.StatusCode.UNKNOWN:
            raise
        raise asyncio.CancelledError from None
    raise AssertionError("abort_with_status returned")


def rich_status(err: ServiceError, lang: str, rid: str) -> grpc.Status:
    """``err`` as a ``google.rpc.Status`` in the trailers, plus our request id."""
    status = rpc_status.to_status(to_status(err, lang, rid))
    return _Status(status.code, status.details,
                   (*status.trailing_metadata, ("x-request-id", rid)))


def _address(bind: str, port: int) -> str:
    return f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"


def server_options(settings: Settings, reuse_port: bool) -> list[tuple[str, Any]]:
    """The C-core options both server kinds use."""
    options: list[tuple[str, Any]] = [
        ("grpc.so_reuseport", 1 if reuse_port else 0),
        ("grpc.max_receive_message_length", settings.max_message_bytes * HARD_CAP_FACTOR),
        # The limit is on requests. Answers are not capped (as on REST): their size follows
        # from the state, which the snapshot cap bounds, and the legal moves of a big hand
        # can pass 64 KiB; capped, such an answer failed as RESOURCE_EXHAUSTED, no details.
        ("grpc.max_send_message_length", -1),
    ]
    if settings.max_connection_age_s:
        options += [("grpc.max_connection_age_ms", settings.max_connection_age_s * 1000),
                    ("grpc.max_connection_age_grace_ms", int(settings.grace_seconds * 1000))]
    return options


def add_common_services(server: grpc.Server | grpc.aio.Server, health: Any,
                        settings: Settings) -> int:
    """Add health (and reflection) to a server of either kind, bind it; the bound port."""
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    if settings.reflection:
        reflection.enable_server_reflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME), server)
    return server.add_insecure_port(_address(settings.bind, settings.grpc_port))


async def start(core: Core, settings: Settings, health: health_aio.HealthServicer,
                reuse_port: bool = False, gate: Gate | None = None) -> tuple[grpc.aio.Server, int]:
    """Build, bind and start the server; returns it and the bound port (port 0 = any).

    C-core turns SO_REUSEPORT on by default, which lets a second server share a busy
    port without an error; it stays off unless this process is one of the workers of a
    ``CANASTA_WORKERS`` supervisor (service/workers.py), which checked the port first.
    ``gate`` (default: a new one) holds the engine's calls to the concurrency limit;
    pass it to :func:`stop`.
    """
    server = grpc.aio.server(
        interceptors=[Observe(settings.access_log, settings.max_message_bytes,
                              gate or Gate(settings.max_concurrent_rpcs))],
        options=server_options(settings, reuse_port),
        maximum_concurrent_rpcs=None)  # the gate limits the engine's calls, not health
    api_grpc.add_CanastaEngineServicer_to_server(Servicer(core), server)
    port = add_common_services(server, health, settings)
    await server.start()
    for name in ("", SERVICE_NAME):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, port


__all__ = ["Gate", "Observe", "Servicer", "api", "drain", "start", "stop"]
