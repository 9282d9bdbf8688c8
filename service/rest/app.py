"""The REST gateway: the same RPCs as JSON over HTTP (Starlette on uvicorn).

Routes are made from each RPC's ``google.api.http`` rule and bodies are the
canonical proto3 JSON of the same request and response messages
(``json_format``), so REST and gRPC differ only in framing. Every call goes
through :meth:`service.api.core.Core.handle_json`, in the event loop's thread, except
the long calls (a bot's search, a record's replay), which run in a small pool of threads
so that probes and short calls are answered meanwhile: at most
``CANASTA_MAX_CONCURRENT_RPCS`` of them at once, running or queued (more are refused at
once, ``TOO_MANY_CALLS``). One whose client goes away while it waits never runs, and
one that runs stops at its next check (``Call.waiting``). Errors are AIP-193 JSON with the same
reasons as gRPC; bad input is always a 4xx.

Why Starlette routes and not FastAPI path operations with pydantic models (generated
from the protos): measured in-process through the ASGI app (same core, seat token,
REST legal-moves), a FastAPI ``async`` route with a pydantic body model took 246-270
µs a call against 78-120 µs for this route (0.36-0.45x the throughput), and the core
needs protobuf messages anyway (pydantic validation plus building the message: 41-120
µs a body, ``jsonparse`` 52 µs). The OpenAPI document FastAPI would derive from such
models lacks what :mod:`service.rest.openapi` writes from the descriptors (the proto
comments, 64-bit integers as strings, the error answers, the credential scheme).
docs/operations.md, *The cost of a call*, has the figures.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import re
import sys
import threading
import time
from dataclasses import replace

import grpc
from google.protobuf import json_format
from google.protobuf.message import Message
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

from service.api.core import Call, Core, SnapshotRequest
from service.api.errors import (
    ServiceError,
    ServiceReason,
    invalid_detail,
    invalid_request,
    to_json,
    too_large,
)
from service.api.messages import negotiate
from service.api.pb import api
from service.ops import logs, metrics
from service.ops.gate import GatedPool
from service.ops.health import Health
from service.rest import jsonparse, openapi
from service.rest.cors import Cors
from service.rest.limits import TIMED_OUT, request_id_of
from service.rest.pages import WEB_ROOT, docs_routes, web_routes

JSON = "application/json"
JSON_BYTES = JSON.encode("ascii")
# json_format's refusals name the field as a path ("at ApplyMoveRequest.move.draw"), an
# unknown field by name, or only as a chain ("Failed to parse move field: Failed to parse
# seat field: ..."): the BadRequest field is the JSON path of what did not parse
_AT_RE = re.compile(r'\bat "?[A-Za-z0-9_]+Request((?:\.[A-Za-z0-9_]+|\[\d+\])*)')
_UNKNOWN_RE = re.compile(r'no field named "([^"]+)"')
_CHAIN_RE = re.compile(r'Failed to parse ([A-Za-z0-9_]+) field')


def _bad_field(text: str) -> str:
    """The JSON path of the field a json_format refusal names ("body" when none)."""
    at = _AT_RE.search(text)
    path = (at.group(1).lstrip(".") if at else "") or ".".join(_CHAIN_RE.findall(text))
    unknown = _UNKNOWN_RE.search(text)
    if unknown:
        path = f"{path}.{unknown.group(1)}" if path else unknown.group(1)
    return path or "body"


class TooLarge(Exception):
    pass


def _error(err: ServiceError, lang: str) -> JSONResponse:
    headers = {}
    if err.http_status == 401:  # RFC 6750: a 401 names the scheme that would be accepted
        headers["www-authenticate"] = 'Bearer realm="canasta"'
    if err.retry_after_s:  # RFC 9110: when a refusal of load may be retried
        headers["retry-after"] = str(err.retry_after_s)
    return JSONResponse(to_json(err, lang, logs.REQUEST_ID.get()), status_code=err.http_status,
                        media_type=JSON, headers=headers)


async def _body(scope: Scope, receive: Receive, limit: int) -> bytes | None:
    """The request body, read straight from ASGI; ``None`` when the client went away."""
    for key, value in scope["headers"]:
        if key == b"content-length":
            try:
                declared = int(value)
            except ValueError:
                raise invalid_request("content-length", "bad Content-Length") from None
            if declared > limit:
                raise TooLarge
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            return None
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise TooLarge
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)


def _is_json(kind: bytes | None) -> bool:
    """``application/json``, parameters (``; charset=utf-8``) and case aside."""
    return kind is not None and kind.split(b";", 1)[0].strip().lower() == JSON_BYTES


def unsupported_media_type(kind: bytes | None) -> ServiceError:
    """A POST whose body is not declared JSON (a form or ``text/plain``, which browsers
    send cross-site without a CORS preflight): refused before the body is read."""
    given = "none" if kind is None else kind.decode("latin-1")[:100]
    return ServiceError(grpc.StatusCode.INVALID_ARGUMENT, ServiceReason.UNSUPPORTED_MEDIA_TYPE,
                        field="content-type", params={"type": given},
                        metadata={"content_type": given}, http_status=415)


def _parse(body: bytes, cls: type[Message]) -> Message:
    """The request of a JSON body (an empty one: every field at its default)."""
    msg = cls()
    start = body.lstrip()[:1]
    if not start:
        return msg
    if start != b"{":  # json_format would read [] as {} and "x" as a field name
        raise invalid_detail("body", "not_object")
    try:
        jsonparse.parse(body, msg, strict=True)
    except jsonparse.Twice as err:
        raise invalid_detail(err.path, "twice") from None
    except json_format.ParseError as err:
        raise _refused(err, body, msg) from None
    except UnicodeDecodeError:  # json_format decodes the body before its own checks
        raise invalid_detail("body", "not_utf8") from None
    return msg


def _refused(err: json_format.ParseError, body: bytes, msg: Message) -> ServiceError:
    """A body json_format refused, on the field its words name (or the value's, where they
    are a Python error's: "'int' object is not iterable"), said in the service's words
    (:func:`jsonparse.faults`), never in json_format's or Python's."""
    text = str(err).split("\n", 1)[0].strip()
    cause: BaseException = err
    while cause.__cause__ is not None:
        cause = cause.__cause__
    if isinstance(cause, RecursionError):
        return invalid_detail("body", "too_deep")
    if isinstance(cause, json.JSONDecodeError):
        return invalid_detail("body", "not_json", why=cause.msg, line=cause.lineno,
                              column=cause.colno)
    if isinstance(cause, ValueError) and "integer string conversion" in str(cause):
        return invalid_detail("body", "long_number", digits=sys.get_int_max_str_digits())
    found = jsonparse.misfit(body, msg)
    if isinstance(cause, json_format.ParseError):
        field = _bad_field(text)
        # a string where an object belongs is read as its characters' field names
        # ("move": "draw" -> no field "d" in move.d): the value to name is the string
        if found is not None and field.startswith((f"{found}.", f"{found}[")):
            field = found
    else:
        field = found if found is not None else _bad_field(text)
    # the first fault inside the field or holding it (any, where json_format named none);
    # a fault that holds the field, or one json_format named no field for, is refused on
    # its own path: json_format's field was then none ("body") or no path of the request
    # ("options.key" for a map's key)
    for fault in jsonparse.faults(body, msg):
        if field == "body" or _within(fault.path, field) or _within(field, fault.path):
            if fault.path and (field == "body" or _within(field, fault.path)):
                field = fault.path
            return invalid_detail(field, fault.rule, fault.path, **fault.params)
    return invalid_detail(field, "wrong")


def _within(path: str, outer: str) -> bool:
    """Whether the JSON path ``path`` is ``outer`` or inside it."""
    return path == outer or path.startswith((f"{outer}.", f"{outer}["))


class _Rpc:
    """One RPC's route as a bare ASGI app: body from ``receive``, one JSON answer.

    Every REST call passes here, so it skips Starlette's Request and Response
    objects; errors are the same AIP-193 answers as everywhere else.
    """

    def __init__(self, core: Core, name: str, has_body: bool, limit: int,
                 long_calls: GatedPool) -> None:
        self.core = core
        self.name = name
        # where a long call runs (None: inline, in the event loop's thread)
        self.pool = long_calls if core.methods[name].long_call else None
        self.cls = core.methods[name].request
        self.has_body = has_body
        self.limit = limit
        # a body of the snapshot alone (every other field at its default), answered as
        # JSON directly, needs no message
        self.lean = core.methods[name].run_json is not None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        given = None
        auth: list[str] = []
        kind: bytes | None = None
        for key, value in scope["headers"]:  # the first of a repeated header counts
            if key == b"accept-language" and given is None:
                given = value.decode("latin-1")
            elif key == b"authorization":
                auth.append(value.decode("latin-1"))
            elif key == b"content-type" and kind is None:
                kind = value
        lang = negotiate(given)
        try:
            msg: Message | SnapshotRequest
            if self.has_body:
                if kind != JSON_BYTES and not _is_json(kind):
                    raise unsupported_media_type(kind)
                body = await _body(scope, receive, self.limit)
                if body is None:
                    return  # the client went away: nobody to answer
                snapshot = jsonparse.snapshot_only(body) if self.lean else None
                msg = _parse(body, self.cls) if snapshot is None else SnapshotRequest(snapshot)
            else:
                msg = self.cls()
        except (TooLarge, ServiceError) as exc:
            err = too_large(self.limit) if isinstance(exc, TooLarge) else exc
            metrics.REJECTED.labels(err.reason).inc()  # the core counts its own refusals
            await _error(err, lang)(scope, receive, send)
            return
        call = Call(lang, logs.REQUEST_ID.get(), tuple(auth))
        try:
            if self.pool is None:
                out = self.core.handle_json(self.name, msg, call)
            else:
                answer = await self._long(self.pool, msg, call, receive)
                if answer is None:
                    return  # the client went away: nobody to answer
                out = answer
        except ServiceError as err:
            await _error(err, lang)(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-type", JSON_BYTES),
                                (b"content-length", str(len(out)).encode("ascii"))]})
        await send({"type": "http.response.body", "body": out})

    async def _long(self, pool: GatedPool, msg: Message | SnapshotRequest, call: Call,
                    receive: Receive) -> bytes | None:
        """A long call in ``pool``, counted by its gate from now to its end; None when the
        client goes away first: a call still queued then never runs, one already running
        stops at its next check (``Call.waiting``); so too when this request is cancelled
        (a stop's grace ran out)."""
        refused = pool.gate.enter()
        if refused is not None:
            metrics.REJECTED.labels(refused.reason).inc()
            raise refused
        waiting = threading.Event()  # cleared once nobody waits (client gone, request ended)
        waiting.set()
        # the context carries the request id into the thread's log lines
        work = asyncio.get_running_loop().run_in_executor(
            pool, contextvars.copy_context().run, self.core.handle_json, self.name, msg,
            replace(call, waiting=waiting.is_set))
        gone: asyncio.Future[AsgiMessage] | None = None
        try:
            while True:  # the body is read: receive() now waits for the client to go away
                gone = asyncio.ensure_future(receive())
                await asyncio.wait((work, gone), return_when=asyncio.FIRST_COMPLETED)
                if work.done():
                    return work.result()
                if gone.result()["type"] == "http.disconnect":
                    return None
        finally:
            # no one waits for the answer any more (the client went, or a stop's grace ran
            # out and uvicorn cancelled this request): a running call stops at its next
            # check, one still queued never runs
            waiting.clear()
            work.cancel()
            if gone is not None:
                gone.cancel()


class Observe:
    """ASGI middleware: request id, metrics by route template, one access-log line.

    A call that ends without an answer is counted as 499 (client closed request) when the
    client went away, 408 when its body did not arrive in time (limits.py), and 500
    otherwise (uvicorn then answers 500 itself).
    """

    def __init__(self, app: ASGIApp, routes: frozenset[str] = frozenset(),
                 access_log: bool = True) -> None:
        self.app = app
        self.routes = routes
        self.access_log = access_log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        rid = request_id_of(scope)
        token = logs.REQUEST_ID.set(rid)
        status = 0
        gone = False
        t0 = time.perf_counter()

        async def receive_watched() -> AsgiMessage:
            nonlocal gone
            message = await receive()
            if message["type"] == "http.disconnect":
                gone = True
            return message

        async def send_with_id(message: AsgiMessage) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message.setdefault("headers", [])
                # byte for byte: the id was read as latin-1 (any printable given id is echoed)
                echo = (b"x-request-id", rid.encode("latin-1"))
                message["headers"] = [*message["headers"], echo]
            await send(message)

        try:
            await self.app(scope, receive_watched, send_with_id)
        finally:
            seconds = time.perf_counter() - t0
            path = scope["path"]
            template = path if path in self.routes else "unmatched"  # all routes are static
            code = str(status or (408 if scope.get(TIMED_OUT) else 499 if gone else 500))
            method = metrics.http_method(scope["method"])
            metrics.HTTP_REQUESTS.labels(method, template, code).inc()
            metrics.HTTP_SECONDS.labels(method, template, code).observe(seconds)
            if self.access_log:
                client = scope.get("client")
                logs.access("http", f"{scope['method']} {scope['path']}", code, seconds,
                            f"{client[0]}:{client[1]}" if client else "")
            logs.REQUEST_ID.reset(token)


class Faults:
    """ASGI middleware, the innermost: a fault (a bug) is answered 500 here, inside the
    others, so its answer carries the request id and the CORS headers as every answer does
    (Starlette's own 500 is written outside every middleware). The fault is raised on, for
    uvicorn to log."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        started = False

        async def send_watched(message: AsgiMessage) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, receive, send_watched)
        except Exception as exc:
            if not started and scope["type"] == "http":  # the answer _http_error gives a fault
                await (await _http_error(Request(scope), exc))(scope, receive, send)
            raise


async def _http_error(request: Request, exc: Exception) -> Response:
    """An unknown route, a method a route does not take, or a fault: AIP-193 JSON, as every
    refusal of the API."""
    lang = negotiate(request.headers.get("accept-language"))
    code = exc.status_code if isinstance(exc, HTTPException) else 500
    if code == 404:
        err = ServiceError(grpc.StatusCode.NOT_FOUND, ServiceReason.NOT_FOUND)
    elif code == 405:
        err = ServiceError(grpc.StatusCode.UNIMPLEMENTED, ServiceReason.METHOD_NOT_ALLOWED,
                           http_status=405)
    elif 400 <= code < 500:
        err = invalid_request("body", str(getattr(exc, "detail", "bad request")))
    else:
        err = ServiceError(grpc.StatusCode.INTERNAL, ServiceReason.INTERNAL)
    response = _error(err, lang)
    if code == 405 and isinstance(exc, HTTPException) and exc.headers:
        response.headers.update(exc.headers)  # Allow: the route's methods (RFC 9110)
    return response


_ERRORS = {HTTPException: _http_error, Exception: _http_error}


async def _metrics(request: Request) -> Response:
    return Response(metrics.exposition(), media_type=metrics.CONTENT_TYPE)


def metrics_app() -> Starlette:
    """``/metrics`` alone, for a port of its own (``CANASTA_METRICS_PORT``) that only the
    scraper reaches. Its answers are no API calls: neither counted nor logged."""
    app = Starlette(routes=[Route("/metrics", _metrics, methods=["GET"])],
                    exception_handlers=_ERRORS)
    app.router.redirect_slashes = False
    return app


TITLE, VERSION = "Canasta rules service", "v1"


def create_app(core: Core, long_calls: GatedPool, health: Health | None = None,
               max_body: int = 65536, access_log: bool = True,
               cors_origins: tuple[str, ...] = (), serve_metrics: bool = True) -> Starlette:
    """The application: the RPC routes, probes, metrics (unless ``serve_metrics`` is
    false: they are served apart, :func:`metrics_app`), the OpenAPI document and Swagger
    UI (``/docs``), the reference web table at ``/play`` (from ``WEB_ROOT``, when it is
    there), and CORS for ``cors_origins`` (none: no CORS headers). The long calls run in
    ``long_calls`` (the caller owns it), held to its gate, every other call in the event
    loop."""
    state = health or Health()
    service = api.DESCRIPTOR.services_by_name["CanastaEngine"]
    routes = []
    for method in service.methods:
        verb, path = openapi.http_rule(method)
        routes.append(Route(path, _Rpc(core, method.name, verb != "GET", max_body, long_calls),
                            methods=[verb], name=method.name))
    long = frozenset(name for name, m in core.methods.items() if m.long_call)
    document = JSONResponse(openapi.document(service, TITLE, VERSION, long,
                                             serve_metrics)).body

    async def openapi_json(request: Request) -> Response:
        return Response(document, media_type=JSON)

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "SERVING"})

    async def readyz(request: Request) -> Response:
        ok = state.ready
        return JSONResponse({"status": "SERVING" if ok else "NOT_SERVING"},
                            status_code=200 if ok else 503)

    routes += [Route("/openapi.json", openapi_json, methods=["GET"]),
               Route("/healthz", healthz, methods=["GET"]),
               Route("/readyz", readyz, methods=["GET"])]
    if serve_metrics:
        routes.append(Route("/metrics", _metrics, methods=["GET"]))
    routes += docs_routes(TITLE)
    routes += web_routes(WEB_ROOT)

    paths = frozenset(r.path for r in routes)
    middleware = [Middleware(Observe, routes=paths, access_log=access_log)]
    if cors_origins:  # inside Observe: preflights are counted and logged
        middleware.append(Middleware(Cors, origins=cors_origins))
    middleware.append(Middleware(Faults))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers=_ERRORS)
    # a path with a slash added ("/v1/deal/") is an unknown route, answered 404 as any
    # other, not a bare redirect to the route without it
    app.router.redirect_slashes = False
    return app
