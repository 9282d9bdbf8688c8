"""CORS for the origins listed in ``CANASTA_CORS_ORIGINS``: what a page of such an origin
may send, and what it may read of every answer (errors included: a refusal without
``Access-Control-Allow-Origin`` reaches the page as a bare network error)."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.types import Message as AsgiMessage

METHODS = b"GET, POST"
HEADERS = b"content-type, authorization, accept-language, x-request-id"
MAX_AGE = b"600"
# the headers a front end reads beyond the CORS-safelisted ones: the id to quote, when to
# retry a refusal of load, the scheme a 401 takes
EXPOSED = b"x-request-id, retry-after, www-authenticate"
# an answer the server writes without the application (service/rest/limits.py: 400, 431,
# 408, the connection cap's 503): no origin is checked there (none was read, but for a body
# that did not arrive in time), and the answer holds only the error and the caller's own id
ANY_ORIGIN = ((b"access-control-allow-origin", b"*"), (b"access-control-expose-headers", EXPOSED))


class Cors:
    """ASGI middleware: CORS for the origins listed in ``CANASTA_CORS_ORIGINS``.

    A request from a listed origin gets ``Access-Control-Allow-Origin`` (and may read the
    headers of :data:`EXPOSED`); its preflight (``OPTIONS`` with
    ``Access-Control-Request-Method``) is answered 204 with the methods and headers the API
    takes. A request from any other origin gets no CORS header at all, so the browser keeps
    the answer from its page. Without origins this middleware is not installed.
    """

    def __init__(self, app: ASGIApp, origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.any = origins == ("*",)
        self.origins = frozenset(o.encode("latin-1") for o in origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        origin: bytes | None = None
        preflight = False
        for key, value in scope["headers"]:
            if key == b"origin":
                origin = value
            elif key == b"access-control-request-method":
                preflight = True
        if origin is None or not (self.any or origin.lower() in self.origins):
            await self.app(scope, receive, send if self.any else _vary(send, []))
            return
        allow = b"*" if self.any else origin  # as the browser sent it
        if preflight and scope["method"] == "OPTIONS":
            await send({"type": "http.response.start", "status": 204, "headers": [
                (b"access-control-allow-origin", allow),
                (b"access-control-allow-methods", METHODS),
                (b"access-control-allow-headers", HEADERS),
                (b"access-control-max-age", MAX_AGE), (b"vary", b"origin")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, _vary(send, [
            (b"access-control-allow-origin", allow), (b"access-control-expose-headers", EXPOSED)]))


def _vary(send: Send, extra: list[tuple[bytes, bytes]]) -> Send:
    """``send`` adding ``extra`` and ``Vary: Origin`` (the answer depends on the origin) to
    the response's headers."""
    added = [*extra, (b"vary", b"origin")]

    async def send_with(message: AsgiMessage) -> None:
        if message["type"] == "http.response.start":
            message["headers"] = [*message.get("headers", []), *added]
        await send(message)

    return send_with
