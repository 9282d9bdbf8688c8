"""The host's HTTP and WebSocket faces (Starlette): the index page that creates tables, one
page per seat, the seat's WebSocket, and a seat's record download.

A player proves its seat with its seat token (the join link's fragment, sent as the
socket's first message or as ``Authorization: Bearer``); the host token never leaves the
server, nor does any snapshot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import grpc
from canasta_client import AsyncCanastaClient, CanastaError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from .bots import Bots
from .catalogue import variant_json
from .players import Outbox, Players, status
from .store import Store, Table
from .tables import Refused, Tables, message_of, reason_of

log = logging.getLogger("canasta.host.app")
STATIC = Path(__file__).parent / "static"
# what the pages load: served alone, never their folder (its .html pages lack the CSP)
STATIC_FILES = ("host.css", "index.js", "seat.js")
# the standalone web table's modules the pages import (card faces, reading listed moves, an
# integer option's keyboard, a call's deadline); never the table's own page and table.js
WEB = Path(__file__).resolve().parents[2] / "clients" / "web"
WEB_MODULES = ("deadline.js", "i18n.js", "moves.js", "options.js")
# 'self' takes the page's own origin's ws: (wss: behind TLS) too, by CSP Level 3
CSP = "default-src 'self'; img-src 'self' data:; connect-src 'self'"
HELLO_SECONDS = 10.0
INTERNAL = "the host failed; join again"  # the close reason of 1011: no internals
MAX_BODY = 256 * 1024  # a table's body is a few hundred bytes


def no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def loads(text: str | bytes) -> Any:
    """Standard JSON, or ``ValueError``: never ``Infinity`` or ``NaN`` (which ``int`` would
    meet), nor a ``RecursionError`` for nesting deeper than the stack, so a sender's
    malformed text is a refusal, never a handler's traceback."""
    try:
        return json.loads(text, parse_constant=no_constant)
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None


async def receive_json(ws: WebSocket) -> Any:
    """The socket's next message, by :func:`loads`; ``ValueError`` for a binary frame."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000), message.get("reason"))
    text = message.get("text")
    if not isinstance(text, str):
        raise ValueError("a binary frame")
    return loads(text)


def json_int(value: Any) -> int:
    """A JSON integer, or ``TypeError``: never a float, a string or a boolean that ``int``
    would turn into one (``0.9`` is no ``seq``)."""
    if type(value) is not int:
        raise TypeError(f"{value!r} is not an integer")
    return value


def json_str(value: Any) -> str:
    """A JSON string, or ``TypeError`` (``str`` would write ``["draw"]`` or ``None``); or
    ``ValueError`` for a lone surrogate (JSON's ``"\\ud800"``), no character gRPC can send."""
    if not isinstance(value, str):
        raise TypeError(f"{value!r} is not a string")
    try:
        value.encode()
    except UnicodeEncodeError:
        raise ValueError(f"{value!r:.80} is not Unicode text") from None
    return value


def json_object(value: Any) -> dict[str, Any]:
    """A JSON object, or ``TypeError`` (``dict`` would take a list of pairs)."""
    if not isinstance(value, dict):
        raise TypeError(f"{value!r:.80} is not an object")
    return value


def option_text(value: Any) -> str:
    """A table option's value as the rules service reads it: text (docs/api.md; ListVariants
    gives each option's type). A string as it is, a boolean ``true`` or ``false``, an
    integer in decimal, a float only when integral (``1500.0`` is ``1500``); ``TypeError``
    for anything else (``null``, a list, an object, ``2.5``), which ``str`` would have
    written as ``None``, ``[1]`` or ``2.5`` (and a boolean as ``True``)."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    raise TypeError(f"{value!r:.80} is not an option's value")


class TooLarge(Exception):
    pass


async def read_body(request: Request) -> bytes:
    """The request's body, or :class:`TooLarge` past :data:`MAX_BODY` (never held whole)."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise TooLarge
    return body


async def close(ws: WebSocket, code: int, reason: str = "") -> None:
    """Close ``ws`` with ``code``, unless its client is gone already (its close frame has no
    one to reach, and Starlette's ``close`` would raise)."""
    with contextlib.suppress(WebSocketDisconnect, WebSocketDisconnected):
        await ws.close(code, reason)


def refused(reason: str, message: str, status_code: int = 400) -> JSONResponse:
    return JSONResponse({"reason": reason, "message": message}, status_code)


def refusal(reason: str, message: str, rule: str = "") -> dict[str, Any]:
    """A seat's refusal, one shape whoever refused: ``rule`` is the service's rule ID, ""
    for the host's own refusals (a client reads every key the README names)."""
    return {"type": "refused", "reason": reason, "message": message, "rule": rule}


def told(err: CanastaError) -> str:
    """What a caller is told of the service's refusal (:func:`message_of`); gRPC's own
    text, which it is not told, is logged for the operator."""
    if not err.reason:
        log.warning("the rules service: %s", err)
    return message_of(err)


STATUS = {"NOT_FOUND": 404, "SEAT_NOT_ALLOWED": 403, "SNAPSHOT_STALE": 409}

Endpoint = Callable[[Request], Awaitable[Response]]


def guarded(endpoint: Endpoint) -> Endpoint:
    """``endpoint``, its unforeseen errors (the store failing: a database away) logged and
    answered as a 500 refusal like every other, ``INTERNAL`` with nothing of the error,
    never Starlette's plain-text page (which the index page cannot read)."""
    async def run(request: Request) -> Response:
        try:
            return await endpoint(request)
        except Exception:
            log.error("%s %s: the host failed", request.method, request.url.path,
                      exc_info=True)
            return refused("INTERNAL", "the host failed; try again", 500)

    return run


def page(name: str) -> Response:
    return FileResponse(STATIC / name, headers={"Content-Security-Policy": CSP,
                                                "Cache-Control": "no-store"})


def files(prefix: str, folder: Path, names: tuple[str, ...]) -> list[Route]:
    """A route for each of ``folder``'s files ``names`` at ``prefix/NAME``: any other path
    under ``prefix`` is a 404."""
    def serving(path: Path) -> Endpoint:
        async def serve(request: Request) -> Response:
            return FileResponse(path)
        return serve

    return [Route(f"{prefix}/{name}", serving(folder / name)) for name in names]


def bearer(request: Request) -> str:
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


def is_json(request: Request) -> bool:
    """Whether the body is ``application/json``: a page of another site can POST a form to
    the host in its visitor's browser with no preflight, but only as ``text/plain`` (whose
    body can be JSON), a urlencoded form or multipart, never this type."""
    kind = request.headers.get("content-type", "").partition(";")[0]
    return kind.strip().lower() == "application/json"


def join_links(table: Table) -> list[dict[str, Any]]:
    """Each seat's join link (its token in the fragment: browsers never send a fragment to
    a server, so it stays out of logs), or the bot that plays it."""
    return [{"seat": s, "bot": table.bots.get(s),
             "link": None if s in table.bots
             else f"/play/{table.game_id}/{s}#{table.seat_tokens[s]}"}
            for s in range(table.players)]


def create_app(store: Store, connect: Callable[[], AsyncCanastaClient]) -> Starlette:
    """The host over ``store`` and a client of the rules service, which ``connect`` makes
    on the event loop that serves the app (and the app closes when it stops)."""
    tables = Tables(store, connect)
    bots = Bots(tables)
    players = Players(tables)

    async def changed(table: Table) -> None:
        bots.wake(table.game_id)
        await players.push(table)

    tables.changed = changed

    async def index(request: Request) -> Response:
        return page("index.html")

    async def seat_page(request: Request) -> Response:
        return page("seat.html")

    @guarded
    async def variants(request: Request) -> Response:
        try:
            answer = await tables.client.list_variants()
        except CanastaError as err:
            return refused(reason_of(err), told(err), 502)
        return JSONResponse([variant_json(v) for v in answer.variants])

    @guarded
    async def create(request: Request) -> Response:
        if not is_json(request):
            return refused("UNSUPPORTED_MEDIA_TYPE", "a table's body is application/json", 415)
        try:
            body = json_object(loads(await read_body(request)))
            bot_seats = {int(s): json_str(level)
                         for s, level in json_object(body.get("bots", {})).items()}
            options = {name: option_text(value)
                       for name, value in json_object(body.get("options", {})).items()}
            table = await tables.create(json_str(body["variant"]), json_int(body["players"]),
                                        bot_seats, options)
        except TooLarge:
            return refused("REQUEST_TOO_LARGE", f"a table's body is at most {MAX_BODY} bytes",
                           413)
        except (KeyError, TypeError, ValueError, AttributeError, OverflowError):
            return refused("BAD_REQUEST", "send {variant, players, bots: {seat: level},"
                           " options: {name: value}}")
        except Refused as err:
            return refused(err.reason, err.message)
        except CanastaError as err:  # the request's fault, or the service's (away, busy)
            return refused(reason_of(err), told(err),
                           400 if err.code == grpc.StatusCode.INVALID_ARGUMENT else 502)
        return JSONResponse({**status(table), "seats": join_links(table)}, 201)

    @guarded
    async def table_status(request: Request) -> Response:
        try:
            return JSONResponse(status(await tables.get(request.path_params["game_id"])))
        except Refused as err:
            return refused(err.reason, err.message, 404)

    @guarded
    async def record(request: Request) -> Response:
        try:
            text = await tables.seat_record(request.path_params["game_id"],
                                            int(request.query_params.get("seat", "-1")),
                                            bearer(request))
        except ValueError:
            return refused("BAD_REQUEST", "seat is a number")
        except Refused as err:
            return refused(err.reason, err.message, STATUS.get(err.reason, 400))
        except CanastaError as err:
            return refused(reason_of(err), told(err), 502)
        return PlainTextResponse(text, headers={"Cache-Control": "no-store"})

    async def socket(ws: WebSocket) -> None:
        game_id = ws.path_params["game_id"]
        seat = ws.path_params["seat"]
        await ws.accept()
        try:
            hello = await asyncio.wait_for(receive_json(ws), HELLO_SECONDS)
            token = json_str(hello["token"])
        except (WebSocketDisconnect, WebSocketDisconnected):
            return  # gone before its token was checked: nobody to close the socket for
        except (TimeoutError, KeyError, TypeError, ValueError):
            await close(ws, 4403)  # no token, no seat
            return
        try:
            seated = tables.is_seat(await tables.get(game_id), seat, token)
        except Refused:  # no such table
            seated = False
        except Exception:  # the store failed (a database error): the token is unchecked,
            failed(game_id, seat)  # so 1011, and the seat's page joins again (not 4403)
            await close(ws, 1011, INTERNAL)
            return
        if not seated:
            await close(ws, 4403)
            return
        outbox = players.join(game_id, seat, ws)
        bots.wake(game_id)  # a bot stopped by a refusal tries again: a stuck table recovers
        try:
            await players.greet(outbox, await tables.get(game_id), seat)
            while True:
                await outbox.room()  # a client that does not read is not read on either
                try:
                    msg = await receive_json(ws)
                except ValueError:
                    msg = None
                await play(outbox, game_id, seat, token, msg)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass  # gone (a failed send marks the socket disconnected too)
        except CanastaError:  # no view to send (the rules service is away): reconnect later
            await close(ws, 1011)
        except Exception:  # the store failed: whether a move landed is unknown, so the seat
            failed(game_id, seat)  # joins again (its page does on 1011) and loads the table
            await close(ws, 1011, INTERNAL)
        finally:
            players.leave(game_id, seat, outbox)

    def failed(game_id: str, seat: int) -> None:
        """Log the error being handled (a store's, or a bug) for the operator; the seat is
        told only the close code 1011 and :data:`INTERNAL`, never what failed."""
        log.error("seat %d of table %.80r: the socket closes on an error", seat, game_id,
                  exc_info=True)

    async def play(outbox: Outbox, game_id: str, seat: int, token: str, msg: Any) -> None:
        """One message of a seat: ``{"type": "move", "move": TEXT, "seq": N}`` or
        ``{"type": "next", "seq": N}``; a refusal is answered to that seat alone."""
        try:
            kind, seq = msg["type"], json_int(msg["seq"])
            move = json_str(msg["move"]) if kind == "move" else None
        except (KeyError, TypeError, ValueError, OverflowError):
            outbox.put(refusal("BAD_REQUEST", "send {type, seq[, move]}"))
            return
        # the message read: from here an error is the host's (a store's ValueError is no bad
        # request), and what is not a refusal ends the socket (socket() logs it)
        try:
            if move is not None:
                await tables.move(game_id, seat, token, move, seq)
            elif kind == "next":
                await tables.next_deal(game_id, seat, token, seq)
            else:
                raise Refused("BAD_REQUEST", f"unknown message type {kind!r:.80}")
        except Refused as err:
            outbox.put(refusal(err.reason, err.message))
        except CanastaError as err:
            outbox.put(refusal(reason_of(err), told(err), err.rule or ""))

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for game_id in await store.game_ids():  # a restart: the bots go on where they were
            bots.wake(game_id)
        yield
        await bots.stop()
        await tables.close()

    routes: list[Route | WebSocketRoute] = [
        Route("/", index),
        Route("/play/{game_id}/{seat:int}", seat_page),
        Route("/api/variants", variants),
        Route("/api/tables", create, methods=["POST"]),
        Route("/api/tables/{game_id}", table_status),
        Route("/api/tables/{game_id}/record", record),
        WebSocketRoute("/ws/{game_id}/{seat:int}", socket),
        *files("/static", STATIC, STATIC_FILES),
    ]
    if WEB.is_dir():
        routes += files("/web", WEB, WEB_MODULES)
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    app.state.bots = bots
    app.state.players = players
    return app

