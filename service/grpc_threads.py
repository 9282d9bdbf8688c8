"""The gRPC face on grpcio's thread-pool server: by default the workers of a group use
it, and ``CANASTA_GRPC_THREADS`` picks it (or grpc.aio) for any process.

Same service, same answers, errors, metrics and logs as :mod:`service.grpc_server`
(grpc.aio); only the server kind differs. Why two: on a 2-core machine a lone
grpc.aio process served the most calls, but two grpc.aio processes only added
about a third, while two thread-pool processes served half as much again as
the lone grpc.aio one (docs/operations.md, "Scaling"); and beside a busy REST
face a pool gives gRPC calls a fairer share ("Hardening"). Handlers run in the
pool's threads, the REST face in the event loop's thread; the core is safe for
that (its state cache takes a lock, its memos are single dict operations).

Two pools: the engine's calls run in a pool of ``threads`` (grpcio's per-handler
``experimental_thread_pool``), everything else (health, reflection, and the refusals of
the gate) in a small one of its own, so a probe never waits behind busy engine calls.
The gate (:class:`~service.grpc_server.Gate`) counts an engine call from its arrival,
while it may still wait for a thread, to its end, so the limit still bounds the queue.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent import futures
from typing import Any, NoReturn

import grpc
from google.protobuf.message import Message
from grpc_health.v1 import health as health_sync
from grpc_health.v1 import health_pb2

from service import logs, metrics
from service.config import Settings
from service.core import Core
from service.errors import (
    ServiceError,
    ServiceReason,
    invalid_request,
    too_large,
    too_many_calls,
    unavailable,
)
from service.grpc_server import (
    COUNTED_PREFIX,
    Gate,
    TooLarge,
    Undecodable,
    add_common_services,
    call_metadata,
    call_of,
    finish,
    method_labels,
    observed,
    rich_status,
    server_options,
)
from service.messages import negotiate
from service.pb import SERVICE_NAME

Behavior = Callable[[Any, grpc.ServicerContext], Any]
# Threads for what is not an engine call: health checks and watches, reflection streams
# (each holds a thread while open) and the gate's refusals.
CONTROL_THREADS = 4


class GatedPool(futures.ThreadPoolExecutor):
    """The engine calls' pool: each call the gate let in leaves it when its task ends, run
    or not (a call cancelled while queued never reaches its handler)."""

    def __init__(self, threads: int, gate: Gate) -> None:
        super().__init__(max_workers=threads, thread_name_prefix="grpc")
        self.gate = gate

    def submit(self, fn: Callable[..., Any], /, *args: Any,
               **kwargs: Any) -> futures.Future[Any]:
        future = super().submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self.gate.leave())
        return future


class ThreadServicer:
    """Every RPC of ``canasta.v1.CanastaEngine`` over :meth:`Core.handle`, blocking."""

    def __init__(self, core: Core) -> None:
        self.core = core

    def _call(self, name: str, request: Message, context: grpc.ServicerContext) -> Message:
        call = call_of(context, logs.REQUEST_ID.get())
        try:
            remaining = context.time_remaining()
            if remaining is not None and remaining <= 0:
                raise ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED,
                                   ServiceReason.DEADLINE_EXCEEDED)
            return self.core.handle(name, request, call)
        except ServiceError as err:
            _abort(context, err, call.lang, call.request_id)

    def handlers(self) -> grpc.GenericRpcHandler:
        """The service's method table (the core lists the methods and their messages)."""
        table = {
            name: grpc.unary_unary_rpc_method_handler(
                lambda request, context, name=name: self._call(name, request, context),
                request_deserializer=m.request.FromString,
                response_serializer=m.response.SerializeToString)
            for name, m in self.core.methods.items()}
        return grpc.method_handlers_generic_handler(SERVICE_NAME, table)


class ThreadObserve(grpc.ServerInterceptor):
    """Request id, metrics and an access-log line for unary calls, as ``Observe`` does;
    the gate for engine calls, decided as each one arrives (in grpcio's serving thread):
    let in, it runs in the engine's pool; refused, its refusal runs in the control pool."""

    def __init__(self, access_log: bool = True, max_message_bytes: int = 65536,
                 gate: Gate | None = None, pool: futures.ThreadPoolExecutor | None = None,
                 ) -> None:
        self.access_log = access_log
        self.max_message_bytes = max_message_bytes
        self.gate = gate
        self.pool = pool  # the engine calls' pool (None: grpcio's default, as for the rest)
        self._wrapped: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}
        # per engine method: its refusals (why -> handler), made with the method's handler
        self._refusals: dict[str, dict[str, grpc.RpcMethodHandler[Any, Any]]] = {}

    def intercept_service(
        self, continuation: Callable[[grpc.HandlerCallDetails], grpc.RpcMethodHandler[Any, Any] | None],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        full = handler_call_details.method
        cached = self._wrapped.get(full)
        if cached is None:
            handler = continuation(handler_call_details)
            if handler is None or handler.unary_unary is None:
                return handler
            cached = self._observe(full, handler)
        if self.gate is None or full not in self._refusals:  # not an engine call
            return cached
        refusal = self.gate.enter()  # counted in here, out when the pool's task ends
        if refusal is None:
            return cached
        return self._refusals[full][refusal.reason]

    def _observe(self, full: str, handler: grpc.RpcMethodHandler[Any, Any]
                 ) -> grpc.RpcMethodHandler[Any, Any]:
        inner = handler.unary_unary
        assert inner is not None
        behavior = self._wrap(full, inner)
        # gated only with its own pool: the pool's tasks are what let the calls out again
        if self.gate is not None and self.pool is not None and full.startswith(COUNTED_PREFIX):
            # grpcio runs the handler in this pool instead of the server's default one
            behavior.experimental_thread_pool = self.pool  # type: ignore[attr-defined]
            self._refusals[full] = {
                err.reason: observed(handler, self._wrap(full, _refusing(err)),
                                     self.max_message_bytes)
                for err in (unavailable(), too_many_calls(self.gate.limit))}
        wrapped = observed(handler, behavior, self.max_message_bytes)
        self._wrapped[full] = wrapped
        return wrapped

    def _wrap(self, full: str, inner: Behavior) -> Behavior:
        started = metrics.GRPC_STARTED.labels("unary", *method_labels(full))
        access_log = self.access_log
        limit = self.max_message_bytes
        gate = self.gate if full.startswith(COUNTED_PREFIX) else None

        def behavior(request: Any, context: grpc.ServicerContext) -> Any:
            rid = logs.request_id(call_metadata(context).get("x-request-id"))
            token = logs.REQUEST_ID.set(rid)
            started.inc()
            t0 = time.perf_counter()
            code = grpc.StatusCode.OK
            try:
                if gate is not None and gate.stopping:  # queued before the stop: never ran
                    _refuse(context, rid, unavailable())
                if isinstance(request, Undecodable):
                    _refuse(context, rid, invalid_request(
                        "body", "the request is not a valid protobuf message of this method"))
                if isinstance(request, TooLarge):
                    _refuse(context, rid, too_large(limit))
                response = inner(request, context)
                if not context.is_active():  # its deadline passed or the client went away
                    code = _ended(context)
                context.set_trailing_metadata((("x-request-id", rid),))
                return response
            except BaseException:  # an abort raises a bare Exception after setting the code
                code = context.code() or (  # type: ignore[attr-defined]
                    grpc.StatusCode.UNKNOWN if context.is_active() else _ended(context))
                raise
            finally:
                finish(full, code, t0, context.peer(), access_log)
                logs.REQUEST_ID.reset(token)

        return behavior


def _refusing(err: ServiceError) -> Behavior:
    """A handler that refuses every call with ``err`` (run inside the observed wrapper, so
    the refusal is counted and logged like any answer)."""

    def refuse(request: Any, context: grpc.ServicerContext) -> Any:
        _refuse(context, logs.REQUEST_ID.get(), err)

    return refuse


def _ended(context: grpc.ServicerContext) -> grpc.StatusCode:
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return grpc.StatusCode.CANCELLED


def _refuse(context: grpc.ServicerContext, rid: str, err: ServiceError) -> NoReturn:
    lang = negotiate(call_metadata(context).get("accept-language"))
    metrics.REJECTED.labels(err.reason).inc()
    _abort(context, err, lang, rid)


def _abort(context: grpc.ServicerContext, err: ServiceError, lang: str, rid: str) -> NoReturn:
    context.abort_with_status(rich_status(err, lang, rid))  # raises
    raise AssertionError("abort_with_status returned")


def start(core: Core, settings: Settings, threads: int, health: health_sync.HealthServicer,
          reuse_port: bool = False, gate: Gate | None = None) -> tuple[grpc.Server, int]:
    """Build, bind and start a thread-pool server; the server and its bound port. The
    engine's calls run in ``threads`` threads, the rest in :data:`CONTROL_THREADS` of
    their own; ``gate`` (default: a new one) holds the engine's calls to the limit."""
    gate = gate or Gate(settings.max_concurrent_rpcs)
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=CONTROL_THREADS, thread_name_prefix="grpc-ctl"),
        handlers=[ThreadServicer(core).handlers()],
        interceptors=[ThreadObserve(settings.access_log, settings.max_message_bytes, gate,
                                    GatedPool(threads, gate))],
        options=server_options(settings, reuse_port),
        maximum_concurrent_rpcs=None)  # the gate limits the engine's calls, not health
    port = add_common_services(server, health, settings)
    server.start()
    for name in ("", SERVICE_NAME):
        health.set(name, health_pb2.HealthCheckResponse.SERVING)
    return server, port
