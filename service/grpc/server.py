"""The gRPC face: ``canasta.v1.CanastaEngine`` on grpcio's thread-pool server, plus health
and reflection.

The servicer only translates: metadata → :class:`~service.api.core.Call`, the core's
answer or :class:`~service.api.errors.ServiceError` → a rich ``google.rpc.Status``
(``grpc-status-details-bin``). An interceptor counts, times and logs every unary call,
and turns request bytes that do not parse into ``INVALID_ARGUMENT`` ``REQUEST_INVALID``
(grpcio would answer ``UNKNOWN``).

Threads: the engine's calls run in a pool of ``CANASTA_GRPC_THREADS`` (grpcio's
per-handler ``experimental_thread_pool``), the long calls (a bot's search, a record's
replay: ``Method.long_call``) in a pool of ``CANASTA_LONG_CALL_THREADS``, everything else
(health, reflection, and the gate's refusals) in a small pool of its own, so neither a
probe nor a short call waits behind a long one; the REST face keeps the event loop's
thread. The core is safe for that (its state cache takes a lock, its memos are single
dict operations). Why this kind and not grpc.aio, and why so few threads:
docs/operations.md, *Scaling*. The gate (:mod:`service.ops.gate`) holds the engine's
calls to ``CANASTA_MAX_CONCURRENT_RPCS`` and stops them first on a stop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent import futures
from dataclasses import dataclass
from typing import Any, NoReturn

import grpc
from google.protobuf import descriptor_pb2
from google.protobuf.message import Message
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from service import codegen
from service.api.core import Abandoned, Call, Core
from service.api.errors import (
    ServiceError,
    ServiceReason,
    invalid_request,
    to_status,
    too_large,
    too_many_calls,
    unavailable,
)
from service.api.messages import negotiate
from service.api.pb import SERVICE_NAME
from service.ops import logs, metrics
from service.ops.config import Settings
from service.ops.gate import Gate, GatedPool, drain
from service.ops.health import Health

Behavior = Callable[[Any, grpc.ServicerContext], Any]
# Threads for what is not an engine call: health checks and watches, reflection streams
# (each holds a thread while open) and the gate's refusals.
CONTROL_THREADS = 4
# C-core refuses messages over this many times the limit itself (RESOURCE_EXHAUSTED with
# no details); up to there, the deserializer measures them and the answer is typed.
HARD_CAP_FACTOR = 4


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


def call_metadata(context: grpc.ServicerContext) -> dict[str, str]:
    """A call's text metadata, the first value of each key (as REST reads its headers)."""
    out: dict[str, str] = {}
    for key, value in context.invocation_metadata() or ():
        if isinstance(value, str):
            out.setdefault(key, value)
    return out


def request_id_of(context: grpc.ServicerContext) -> str:
    """The call's id: its first ``x-request-id`` when sane (service/ops/logs.py) and ASCII,
    else a fresh one. It is echoed in the trailers, and gRPC metadata holds printable
    ASCII only: grpcio ended a call whose given id was ``café`` as INTERNAL, its answer
    lost (REST echoes such an id byte for byte)."""
    given = call_metadata(context).get("x-request-id")
    return logs.request_id(given if given is not None and given.isascii() else None)


def call_of(context: grpc.ServicerContext, rid: str) -> Call:
    """The core's context of a call: language, request id and its credentials, every
    ``authorization`` value (the access rules refuse more than one)."""
    lang: str | None = None
    auth: list[str] = []
    for key, value in context.invocation_metadata() or ():
        if key == "accept-language" and isinstance(value, str) and lang is None:
            lang = negotiate(value)
        elif key == "authorization":
            auth.append(value if isinstance(value, str) else value.decode("latin-1"))
    return Call(lang or "en", rid, tuple(auth), context.is_active)


class Servicer:
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
        except Abandoned:  # the caller has gone: end the call as it ended for the caller
            context.abort(_ended(context), "the caller no longer waits for the answer")

    def handlers(self) -> grpc.GenericRpcHandler:
        """The service's method table (the core lists the methods and their messages)."""
        table = {
            name: grpc.unary_unary_rpc_method_handler(
                lambda request, context, name=name: self._call(name, request, context),
                request_deserializer=m.request.FromString,
                response_serializer=m.response.SerializeToString)
            for name, m in self.core.methods.items()}
        return grpc.method_handlers_generic_handler(SERVICE_NAME, table)


class Observe(grpc.ServerInterceptor):
    """Request id, go-grpc-prometheus metrics and an access-log line for unary calls; the
    gate for engine calls, decided as each one arrives (in grpcio's serving thread): let
    in, it runs in its method's pool; refused, its refusal runs in the control pool."""

    def __init__(self, gate: Gate, pools: Mapping[str, GatedPool], access_log: bool = True,
                 max_message_bytes: int = 65536) -> None:
        self.gate = gate
        # the engine's methods (full names) and the pool each runs in; the gate counts
        # these calls, and the rest (health, reflection) run in the server's own pool
        self.pools = pools
        self.access_log = access_log
        self.max_message_bytes = max_message_bytes
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
        if full not in self._refusals:  # not an engine call
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
        pool = self.pools.get(full)
        if pool is not None:  # the pool's tasks let the calls out again
            # grpcio runs the handler in this pool instead of the server's default one
            behavior.experimental_thread_pool = pool  # type: ignore[attr-defined]
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
        gate = self.gate if full in self.pools else None

        def behavior(request: Any, context: grpc.ServicerContext) -> Any:
            rid = request_id_of(context)
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
                # a call whose deadline passed or whose client went away ended so; a handler
                # may also answer a status without raising (health's NOT_FOUND)
                code = (_ended(context) if not context.is_active()
                        else context.code() or code)  # type: ignore[attr-defined]
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


def _ended(context: grpc.ServicerContext) -> grpc.StatusCode:
    """Why a call ended without an answer: its deadline passed, or the client cancelled."""
    remaining = context.time_remaining()
    if remaining is not None and remaining <= 0:
        return grpc.StatusCode.DEADLINE_EXCEEDED
    return grpc.StatusCode.CANCELLED


def _refuse(context: grpc.ServicerContext, rid: str, err: ServiceError) -> NoReturn:
    """Abort a call refused before the servicer, with the rich status of ``err``."""
    lang = negotiate(call_metadata(context).get("accept-language"))
    metrics.REJECTED.labels(err.reason).inc()
    _abort(context, err, lang, rid)


def _abort(context: grpc.ServicerContext, err: ServiceError, lang: str, rid: str) -> NoReturn:
    """End the call with ``err`` as a rich status (``abort_with_status`` raises)."""
    context.abort_with_status(rich_status(err, lang, rid))
    raise AssertionError("abort_with_status returned")


PUSHBACK_KEY = "grpc-retry-pushback-ms"


def rich_status(err: ServiceError, lang: str, rid: str) -> grpc.Status:
    """``err`` as a ``google.rpc.Status`` in the trailers, plus our request id; a refusal
    of load also carries its delay as gRPC's retry pushback (gRFC A6), which a channel's
    own retry policy waits instead of its backoff, in any language."""
    status = rpc_status.to_status(to_status(err, lang, rid))
    pushback = ((PUSHBACK_KEY, str(err.retry_after_s * 1000)),) if err.retry_after_s else ()
    return _Status(status.code, status.details,
                   (*status.trailing_metadata, ("x-request-id", rid), *pushback))


def server_options(settings: Settings) -> list[tuple[str, Any]]:
    """The C-core options of the server.

    C-core turns SO_REUSEPORT on by default, which lets a second server share a busy
    port without an error: it is turned off, so a clash fails loudly.
    """
    options: list[tuple[str, Any]] = [
        ("grpc.so_reuseport", 0),
        ("grpc.max_receive_message_length", settings.max_message_bytes * HARD_CAP_FACTOR),
        # The limit is on requests. Answers are not capped (as on REST): their size follows
        # from the state, which the snapshot cap bounds, and the legal moves of a big hand
        # can pass 64 KiB; capped, such an answer failed as RESOURCE_EXHAUSTED, no details.
        ("grpc.max_send_message_length", -1),
        # One cap on a call's metadata and on REST's headers (CANASTA_HTTP_MAX_HEADER_BYTES).
        # C-core's default refused metadata between 8 and 16 KiB at random (its soft
        # limit), so the same call was answered or refused by chance: soft = hard.
        ("grpc.max_metadata_size", settings.http_max_header_bytes),
        ("grpc.absolute_max_metadata_size", settings.http_max_header_bytes),
    ]
    if settings.max_connection_age_s:
        options += [("grpc.max_connection_age_ms", settings.max_connection_age_s * 1000),
                    ("grpc.max_connection_age_grace_ms", int(settings.grace_seconds * 1000))]
    return options


class CommentedReflection(reflection.ReflectionServicer):
    """Server reflection whose ``canasta.v1`` files carry their comments.

    grpcio-reflection serializes files from the descriptor pool, whose descriptors have
    no source info (generated modules drop it), so ``grpcurl describe`` would show no
    comment. Each such file in an answer is swapped for its copy in the descriptor set
    with source info that ``make setup`` generates (:func:`service.codegen.descriptor_set`).
    The pool finds no file for a method's name (``grpcurl describe
    canasta.v1.CanastaEngine.Deal``): such a request asks for its service's file.
    """

    def __init__(self, service_names: Iterable[str]) -> None:
        super().__init__(service_names)
        files = codegen.descriptor_set().file
        self.files = {f.name: f.SerializeToString() for f in files}
        self.methods = {f"{f.package}.{s.name}.{m.name}": f"{f.package}.{s.name}"
                        for f in files for s in f.service for m in s.method}

    def _by_service(self, requests: Iterable[reflection_pb2.ServerReflectionRequest]
                    ) -> Iterator[reflection_pb2.ServerReflectionRequest]:
        for request in requests:
            service = self.methods.get(request.file_containing_symbol)
            if service is not None:
                request = reflection_pb2.ServerReflectionRequest(
                    host=request.host, file_containing_symbol=service)
            yield request

    def ServerReflectionInfo(  # noqa: N802 (the generated servicer's name)
        self, request_iterator: Iterable[reflection_pb2.ServerReflectionRequest],
        context: grpc.ServicerContext | grpc.aio.ServicerContext[Any, Any],
    ) -> Iterator[reflection_pb2.ServerReflectionResponse]:
        for answer in super().ServerReflectionInfo(self._by_service(request_iterator),
                                                   context):
            if answer.HasField("file_descriptor_response"):
                files = answer.file_descriptor_response.file_descriptor_proto
                for i, blob in enumerate(files):
                    name = descriptor_pb2.FileDescriptorProto.FromString(blob).name
                    files[i] = self.files.get(name, blob)
            yield answer


# the generated registration (untyped in grpcio-reflection's stubs)
add_reflection: Callable[[CommentedReflection, grpc.Server], None] = \
    reflection_pb2_grpc.add_ServerReflectionServicer_to_server


def _undecodable_metadata(record: logging.LogRecord) -> bool:
    """grpcio's record of a metadata value that is not UTF-8 (which it then reads as
    latin-1), as a warning that does not repeat the value: it logged an error with a
    traceback and the value itself, so any caller could fill the error log, and the
    token of an ``authorization`` value with one stray byte was written to it."""
    if record.getMessage().startswith("Invalid encoding on "):
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        record.msg, record.args = "a metadata value that is not UTF-8 was read as latin-1", ()
        record.exc_info, record.exc_text = None, None
    return True


def _address(bind: str, port: int) -> str:
    return f"[{bind}]:{port}" if ":" in bind else f"{bind}:{port}"


def start(core: Core, settings: Settings, health: Health, gate: Gate) -> tuple[grpc.Server, int]:
    """Build, bind and start the server; the server and its bound port (port 0 = any).

    The engine's calls run in ``settings.grpc_threads`` threads, the long ones in
    ``settings.long_call_threads``, the rest in :data:`CONTROL_THREADS` of their own;
    ``gate`` holds the engine's calls to the limit (pass it to :func:`stop`).
    """
    logging.getLogger("grpc._cython.cygrpc").addFilter(_undecodable_metadata)
    engine = GatedPool(settings.grpc_threads, gate)
    long_calls = GatedPool(settings.long_call_threads, gate, "grpc-long")
    pools = {f"/{SERVICE_NAME}/{name}": long_calls if method.long_call else engine
             for name, method in core.methods.items()}
    server = grpc.server(
        futures.ThreadPoolExecutor(max_workers=CONTROL_THREADS, thread_name_prefix="grpc-ctl"),
        handlers=[Servicer(core).handlers()],
        interceptors=[Observe(gate, pools, settings.access_log, settings.max_message_bytes)],
        options=server_options(settings),
        maximum_concurrent_rpcs=None)  # the gate limits the engine's calls, not health
    health_pb2_grpc.add_HealthServicer_to_server(health.servicer, server)
    if settings.reflection:
        add_reflection(CommentedReflection(
            (SERVICE_NAME, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name,
             reflection.SERVICE_NAME)), server)
    port = server.add_insecure_port(_address(settings.bind, settings.grpc_port))
    server.start()
    return server, port


async def stop(server: grpc.Server, gate: Gate, grace: float) -> None:
    """:func:`~service.ops.gate.drain`, then the server's own stop with the grace left
    (after which grpcio cancels what still runs)."""
    left = await drain(gate, grace)
    await asyncio.to_thread(server.stop(left).wait)


__all__ = ["CommentedReflection", "Observe", "Servicer", "start", "stop"]
