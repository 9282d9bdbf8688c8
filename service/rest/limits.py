"""What one REST client may make the server hold, and for how long.

uvicorn's httptools protocol (llhttp, in C) parses fast but sets no limit on a header
block, which it buffers whole, and no time limit on receiving a request; h11, which has a
header limit, is pure Python and slower (docs/operations.md, *Hardening*). This subclass
keeps httptools and adds, per connection:

* a cap on the header block (request line and fields): past ``max_header_bytes`` the
  client gets 431 and the connection is closed, the excess never parsed (a request
  pipelined behind another in the same read is counted from where the read was cut,
  so it may pass the cap by at most the cap again);
* a time limit on the headers (from the connection's start, or the request's first byte
  on a kept-alive one) and one on the body (from the end of the headers): past either the
  client gets 408 and the connection is closed. A body cut off this way reaches the
  application as a disconnect marked :data:`TIMED_OUT` in the scope, so it is counted as
  408; an idle new connection that sent nothing is closed without an answer (idle
  kept-alive connections are uvicorn's ``timeout_keep_alive``);
* a cap on open connections: one accepted beyond ``max_connections`` gets 503 and is
  closed at once;
* a request llhttp cannot parse (an unknown method, a malformed line or field) gets a
  typed 400, ``REQUEST_INVALID``, where uvicorn answers a plain-text one, and is counted.

The fast path, a whole request in one read, costs a few attribute checks: the timers are
armed only when a read ends with a request still incomplete.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass
from typing import Any, ClassVar

import grpc
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from service.api.errors import (
    RETRY_AFTER_S,
    ServiceError,
    ServiceReason,
    invalid_request,
    to_json,
)
from service.ops import logs, metrics
from service.rest.cors import ANY_ORIGIN

# Set in the scope of a request whose body did not arrive in time (read by service.rest.app.Observe).
TIMED_OUT = "canasta.timed_out"
# A request's id, kept in its scope by whichever needs it first: the application's
# Observe, or the 408 written here when its body does not arrive
REQUEST_ID = "canasta.request_id"


@dataclass(frozen=True, slots=True)
class HttpLimits:
    max_header_bytes: int = 32768
    header_timeout_s: float = 10.0
    body_timeout_s: float = 30.0
    max_connections: int = 1000
    access_log: bool = True
    cors: bool = False  # CANASTA_CORS_ORIGINS is set: pages may read these answers too


def protocol_class(limits: HttpLimits) -> type[asyncio.Protocol]:
    """The protocol class to give ``uvicorn.Config(http=...)``, bound to ``limits``."""
    return type("LimitedHttpToolsProtocol", (LimitedHttpToolsProtocol,), {"limits": limits})


def _answer(status: int, phrase: str, err: ServiceError, rid: str, cors: bool) -> bytes:
    """A whole HTTP/1.1 answer with an AIP-193 body (English: no request was read to
    negotiate a language) and its request id, as every answer has, closing the connection;
    with ``cors``, readable by a page of any origin (service/rest/cors.py)."""
    body = json.dumps(to_json(err, "en", rid), separators=(",", ":")).encode()
    retry = f"retry-after: {err.retry_after_s}\r\n" if err.retry_after_s else ""
    allow = b"".join(k + b": " + v + b"\r\n" for k, v in ANY_ORIGIN) if cors else b""
    return (f"HTTP/1.1 {status} {phrase}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n{retry}x-request-id: {rid}\r\n"
            # latin-1, as the id was read: a given id is echoed byte for byte
            ).encode("latin-1") + allow + b"connection: close\r\n\r\n" + body


def request_id_of(scope: Any) -> str:
    """The id of a request whose headers were read: its first ``x-request-id`` when sane
    (service/ops/logs.py), else a fresh one. Made once and kept in the scope, so an
    answer written here and the application's log line of the call name the same id."""
    rid: str | None = scope.get(REQUEST_ID)
    if rid is None:
        given = next((v for k, v in scope.get("headers", ()) if k == b"x-request-id"), b"")
        rid = scope[REQUEST_ID] = logs.request_id(given.decode("latin-1") or None)
    return rid


class LimitedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's httptools protocol with a header cap, receive timeouts and a connection
    cap (see the module's docstring)."""

    limits: ClassVar[HttpLimits] = HttpLimits()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._in_headers = True  # the next bytes are a request's line and fields
        self._begun = False  # some bytes of the current request have arrived
        self._header_bytes = 0
        self._timer: asyncio.TimerHandle | None = None
        self._refused = False

    # --- the connection ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        limits = self.limits
        if len(self.connections) >= limits.max_connections:
            self._refused = True
            self.transport = transport  # type: ignore[assignment]
            err = ServiceError(grpc.StatusCode.UNAVAILABLE, ServiceReason.UNAVAILABLE,
                               english="the server has too many open connections; retry later",
                               metadata={"max_connections": str(limits.max_connections)},
                               retry_after_s=RETRY_AFTER_S)
            self._refuse(503, "Service Unavailable", err, "-", 0.0)
            return
        super().connection_made(transport)  # type: ignore[arg-type]
        # until the first request's headers are in (an idle new connection included)
        self._timer = self.loop.call_later(limits.header_timeout_s, self._expire)

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel()
        if self._refused:
            return
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self._refused:
            return
        limit = self.limits.max_header_bytes
        while self._in_headers:
            room = limit - self._header_bytes
            if len(data) <= room:
                self._header_bytes += len(data)
                break
            # only what may still end the headers is parsed; the rest only if they end
            head, data = data[:room], data[room:]
            self._header_bytes += len(head)
            if head:
                HttpToolsProtocol.data_received(self, head)
            if self.transport.is_closing():
                return
            if self._in_headers and self._header_bytes >= limit:  # no end of the headers
                self._too_large()
                return
            # the headers ended within the cap (on_headers_complete reset the count): the
            # rest is counted anew, so pipelined requests are not refused for their sum
        if data:
            HttpToolsProtocol.data_received(self, data)
        if self._timer is None and not self.transport.is_closing():
            if not self._in_headers:
                self._timer = self.loop.call_later(self.limits.body_timeout_s, self._expire)
            elif self._begun:
                self._timer = self.loop.call_later(self.limits.header_timeout_s, self._expire)

    # --- parser callbacks ----------------------------------------------------------------

    # (called once per request each: no super(), no helper calls)

    def on_message_begin(self) -> None:
        self._begun = True
        HttpToolsProtocol.on_message_begin(self)

    def on_headers_complete(self) -> None:
        self._in_headers = False
        self._header_bytes = 0
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        HttpToolsProtocol.on_headers_complete(self)

    def on_message_complete(self) -> None:
        self._in_headers = True
        self._begun = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        HttpToolsProtocol.on_message_complete(self)

    # --- limits --------------------------------------------------------------------------

    def _cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _expire(self) -> None:
        """A request (or a new connection's first) did not arrive in time."""
        self._timer = None
        if self.transport.is_closing():
            return
        if self._in_headers and not self._begun:
            self.transport.close()  # a new connection that sent nothing: no one to answer
            return
        limit = self.limits.header_timeout_s if self._in_headers else self.limits.body_timeout_s
        err = ServiceError(grpc.StatusCode.DEADLINE_EXCEEDED, ServiceReason.REQUEST_TIMEOUT,
                           params={"seconds": f"{limit:g}"},
                           metadata={"timeout_s": f"{limit:g}"}, http_status=408)
        cycle = self.cycle
        if self._in_headers or cycle is None:
            self._refuse(408, "Request Timeout", err, self._method(), limit)
            return
        # in the body: the application is waiting for it and counts the call (as 408)
        if not cycle.response_started:
            cycle.scope[TIMED_OUT] = True  # type: ignore[literal-required]
            self.transport.write(_answer(408, "Request Timeout", err, request_id_of(cycle.scope),
                                         self.limits.cors))
            cycle.response_started = True
        cycle.disconnected = True
        cycle.message_event.set()
        self.transport.close()

    def _too_large(self) -> None:
        limit = self.limits.max_header_bytes
        err = ServiceError(grpc.StatusCode.RESOURCE_EXHAUSTED, ServiceReason.REQUEST_TOO_LARGE,
                           english=f"the request's header block is larger than {limit} bytes",
                           params={"limit": limit},
                           metadata={"limit": str(limit), "part": "headers"}, http_status=431)
        self._refuse(431, "Request Header Fields Too Large", err, self._method(), 0.0)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to what llhttp cannot parse, as every other refusal here."""
        err = invalid_request("request", "not an HTTP/1.1 request this server can parse (its "
                                         "method, request line or a header field)")
        self._refuse(400, "Bad Request", err, self._method(), 0.0)

    def _method(self) -> str:
        try:
            return bytes(self.parser.get_method()).decode("ascii")
        except Exception:  # no method parsed yet (or a connection already closing)
            return "-"

    def _refuse(self, status: int, phrase: str, err: ServiceError, method: str,
                seconds: float) -> None:
        """Answer ``status`` without the application, close, and count it (route
        ``unmatched``: the request was never routed; its duration: the time limit that
        ran out, else 0)."""
        self._cancel()
        rid = logs.request_id(None)  # no header was read: the caller's id is not known
        self.transport.write(_answer(status, phrase, err, rid, self.limits.cors))
        self.transport.close()
        code = str(status)
        label = metrics.http_method(method)  # (the access log below names the method sent)
        metrics.HTTP_REQUESTS.labels(label, "unmatched", code).inc()
        metrics.HTTP_SECONDS.labels(label, "unmatched", code).observe(seconds)
        if self.limits.access_log:
            peer = self.transport.get_extra_info("peername")
            token = logs.REQUEST_ID.set(rid)
            try:
                logs.access("http", f"{method} -", code, seconds,
                            f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) else "")
            finally:
                logs.REQUEST_ID.reset(token)
