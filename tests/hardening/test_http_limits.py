"""REST limits, over real sockets (service/rest/limits.py, service/rest/app.py).

What a client may make the server hold, and for how long: a header block over
``CANASTA_HTTP_MAX_HEADER_BYTES`` gets 431 and the server's memory stays flat; headers or
a body that do not arrive within ``CANASTA_HTTP_HEADER_TIMEOUT_S`` /
``CANASTA_HTTP_BODY_TIMEOUT_S`` are cut off with 408 (an idle new connection is closed);
hundreds of slow connections leave other calls fast and are all closed; connections past
``CANASTA_HTTP_MAX_CONNECTIONS`` get 503. A client that aborts its upload is counted as
499, not as a server error. A POST whose body is not declared ``application/json`` gets
415 before its body is read, and ``CANASTA_CORS_ORIGINS`` answers the preflights of the
origins it lists, and no other's.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import select
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from service import server
from service.api.core import Core
from service.api.pb import api
from service.ops import logs
from service.ops.config import ConfigError, Settings
from service.sealing.keys import new_key_entry
from tests.service.helpers import call_grpc, call_rest, ok
from tests.service.servers import Running, running

ROOT = Path(__file__).resolve().parents[2]
HEADER_TIMEOUT = 2.0
BODY_TIMEOUT = 2.0
MARGIN = 3.0  # how late a cut-off may come on a busy machine
DEAL = b'{"variant": "classic", "players": 4, "seed": 3}'


@pytest.fixture(scope="module")
def limited() -> Iterator[Running]:
    """A server with short receive time limits (and its access log on)."""
    with running(http_header_timeout_s=HEADER_TIMEOUT, http_body_timeout_s=BODY_TIMEOUT,
                 access_log=True) as s:
        yield s


@pytest.fixture(scope="module")
def http(limited: Running) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=limited.http_base, timeout=10) as client:
        yield client


def _metric(http: httpx.Client, name: str, **labels: str) -> float:
    text = http.get("/metrics").text
    return sum(s.value for family in text_string_to_metric_families(text)
               for s in family.samples
               if s.name == name and labels.items() <= s.labels.items())


def _connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=10)


def _until_closed(sock: socket.socket, deadline: float) -> tuple[bytes, float]:
    """What the server sent until it closed the connection, and when it closed it (the
    monotonic time; ``inf`` if it was still open at ``deadline``)."""
    got = b""
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return got, float("inf")
        sock.settimeout(left)
        try:
            chunk = sock.recv(65536)
        except TimeoutError:
            continue
        except OSError:  # reset: closed
            return got, time.monotonic()
        if not chunk:
            return got, time.monotonic()
        got += chunk


def _status(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0


def _error_of(answer: bytes) -> dict[str, Any]:
    error: dict[str, Any] = json.loads(answer.split(b"\r\n\r\n", 1)[1])["error"]
    return error


def _request_id_of(answer: bytes) -> str:
    """The answer's ``x-request-id`` header, which must be the one its body's ErrorInfo
    names: every answer carries one, those written before any request was read too."""
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").lower().split("\r\n")
    given = [line.split(":", 1)[1].strip() for line in head if line.startswith("x-request-id:")]
    assert len(given) == 1, head
    assert _error_of(answer)["details"][0]["metadata"]["request_id"] == given[0]
    return given[0]


def _connections(server: Running) -> int:
    """Connections the HTTP server holds now."""
    http = server.app._http
    assert http is not None
    return len(http.server_state.connections)


def _wait(condition: Any, seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


# --- header size -------------------------------------------------------------------------


def _peak_rss_kib(pid: int) -> int:
    """The process's peak resident size (VmHWM): what a memory limit would have seen,
    however briefly, without timing when to look."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    raise AssertionError("no VmHWM")


def _giant_headers(port: int, size: int) -> socket.socket:
    """A connection that sends ``size`` bytes of one header field and never ends it."""
    sock = _connect(port)
    try:
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fill: ")
        piece = b"a" * 65536
        for _ in range(size // len(piece)):
            sock.sendall(piece)
    except OSError:  # the server closed it: what it should do
        pass
    return sock


def test_giant_header_blocks_are_refused_and_memory_stays_flat(tmp_path: Path) -> None:
    """25 connections each send 1 MB of one unfinished header field to a real server
    process (default settings: a 32 KiB cap): each gets 431 or is closed, and the process's
    peak RSS over all of it is within 10 % of its peak before.
    (Before the cap, each such connection made the server hold its megabyte and more.)"""
    ready, log = tmp_path / "ready.json", tmp_path / "server.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith("CANASTA_")}
    env.update({"CANASTA_GRPC_PORT": "0", "CANASTA_HTTP_PORT": "0", "CANASTA_ACCESS_LOG": "false",
                "CANASTA_SEAL_KEYS": new_key_entry("headers")})
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "service", "--ready-file", str(ready)],
                                cwd=ROOT, env=env, stderr=err, text=True)
    socks: list[socket.socket] = []
    try:
        _wait(lambda: ready.exists() or proc.poll() is not None, 30, "the server did not start")
        assert proc.poll() is None, log.read_text()
        port = json.loads(ready.read_text())["http_port"]
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=10) as http:
            for _ in range(20):  # warm up: calls, and the refusal's own code path
                assert http.post("/v1/deal", content=DEAL,
                                 headers={"content-type": "application/json"}).status_code == 200
            for _ in range(3):
                warm = _giant_headers(port, 1 << 20)
                _until_closed(warm, time.monotonic() + 30)
                warm.close()
            before = _peak_rss_kib(proc.pid)
            socks = [_giant_headers(port, 1 << 20) for _ in range(25)]
            deadline = time.monotonic() + 30
            answers = [_until_closed(s, deadline) for s in socks]  # each answered or closed
            after = _peak_rss_kib(proc.pid)  # the most the process ever held, so far
            print(f"peak RSS before {before} KiB, after 25 x 1 MB header blocks {after} KiB")
            assert after <= before * 1.10, (before, after)
            assert http.get("/healthz").status_code == 200
        for answer, closed in answers:
            assert closed < float("inf"), "a giant header block left its connection open"
            assert answer == b"" or _status(answer) == 431, answer[:200]
        assert any(_status(a) == 431 for a, _ in answers)
    finally:
        for s in socks:
            s.close()
        proc.terminate()
        proc.wait(20)


def test_header_blocks_up_to_the_cap_are_served(limited: Running, http: httpx.Client) -> None:
    """Just under the 32 KiB default a request is served; just over it gets a typed 431
    (counted in the metrics, route ``unmatched``) and the connection is closed."""
    cap = limited.app.settings.http_max_header_bytes
    assert cap == 32768
    before = _metric(http, "http_requests_total", route="unmatched", status="431")
    for size, status in ((cap - 1024, 200), (cap + 1024, 431)):
        sock = _connect(limited.app.http_port)
        sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fill: " + b"a" * size
                     + b"\r\nConnection: close\r\n\r\n")
        answer, closed = _until_closed(sock, time.monotonic() + 10)
        sock.close()
        assert _status(answer) == status, answer[:200]
        assert closed < float("inf")
    error = _error_of(answer)
    assert error["code"] == 431 and error["status"] == "RESOURCE_EXHAUSTED"
    info = error["details"][0]
    assert info["reason"] == "REQUEST_TOO_LARGE"
    assert info["metadata"]["limit"] == str(cap) and info["metadata"]["part"] == "headers"
    assert len(_request_id_of(answer)) == 32  # the header block was never read: a fresh id
    assert _metric(http, "http_requests_total", route="unmatched", status="431") == before + 1


@pytest.mark.parametrize("request_line", [
    b"FOO /v1/deal HTTP/1.1\r\nHost: x\r\n\r\n", b"GARBAGE\r\n\r\n",
    b"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: many\r\n\r\n",
])
def test_a_request_that_is_not_http_gets_a_typed_400(limited: Running, http: httpx.Client,
                                                     request_line: bytes) -> None:
    """An unknown method, a line that is no request, a malformed field: each got uvicorn's
    plain-text 400 ("Invalid HTTP request received."), uncounted. Now it is an AIP-193
    REQUEST_INVALID with a request id, counted under route ``unmatched``, and closed."""
    before = _metric(http, "http_requests_total", route="unmatched", status="400")
    sock = _connect(limited.app.http_port)
    sock.sendall(request_line)
    answer, closed = _until_closed(sock, time.monotonic() + 10)
    sock.close()
    assert _status(answer) == 400 and closed < float("inf"), answer[:200]
    error = _error_of(answer)
    assert error["status"] == "INVALID_ARGUMENT"
    assert error["details"][0]["reason"] == "REQUEST_INVALID"
    assert "HTTP/1.1" in error["message"]
    fields = [v["field"] for d in error["details"] for v in d.get("fieldViolations", [])]
    assert fields == ["request"]  # named in docs/api.md, *Errors*, with body and content-type
    assert "`request` for a request that is not HTTP/1.1" in (ROOT / "docs/api.md").read_text()
    assert len(_request_id_of(answer)) == 32
    assert _metric(http, "http_requests_total", route="unmatched", status="400") == before + 1


@pytest.mark.parametrize(("request_line", "status"), [
    (b"GET /v1/variants HTTP/1.1\r\n", 200), (b"GET /no-such-route HTTP/1.1\r\n", 404)])
def test_a_websocket_upgrade_is_answered_as_any_request(limited: Running, request_line: bytes,
                                                        status: int) -> None:
    """The service has no WebSocket route. Where a WebSocket library is installed (the
    dev set has one, and `make run` after `make test` shares its .venv), uvicorn took an
    upgrade request for a WebSocket and answered a bare 403 with no body and no reason;
    without one it answers the request as any other, as it does now everywhere."""
    sock = _connect(limited.app.http_port)
    sock.sendall(request_line + b"Host: x\r\nConnection: Upgrade, close\r\n"
                 b"Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                 b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n")
    answer, closed = _until_closed(sock, time.monotonic() + 10)
    sock.close()
    assert _status(answer) == status and closed < float("inf"), answer[:200]
    body = json.loads(answer.split(b"\r\n\r\n", 1)[1])
    assert body["variants"] if status == 200 else body["error"]["status"] == "NOT_FOUND"


def test_pipelined_requests_are_not_refused_for_their_sum(limited: Running) -> None:
    """1,000 small requests written at once (37 KB, over the cap together) are each
    answered: the cap is on one request's header block. (A guard for the cap's counting;
    it passes without the cap too.)"""
    sock = _connect(limited.app.http_port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n" * 999
                 + b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    answer, closed = _until_closed(sock, time.monotonic() + 30)
    sock.close()
    assert closed < float("inf")
    assert answer.count(b"HTTP/1.1 200 ") == 1000 and b"HTTP/1.1 431" not in answer


# --- time limits -------------------------------------------------------------------------


def test_a_header_byte_a_second_is_cut_off(limited: Running) -> None:
    """A client that keeps sending its headers, one byte a second, is answered 408 and
    closed once the header time limit has passed (the limit is for the whole block: bytes
    that keep coming do not extend it)."""
    sock = _connect(limited.app.http_port)
    t0 = time.monotonic()
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ")
    deadline = t0 + HEADER_TIMEOUT + MARGIN + 2
    while time.monotonic() < deadline:
        readable, _, _ = select.select([sock], [], [], 1.0)
        if readable:
            break
        try:
            sock.sendall(b"a")
        except OSError:
            break
    answer, closed = _until_closed(sock, deadline)
    sock.close()
    assert closed < float("inf"), "the slow client was never cut off"
    assert HEADER_TIMEOUT - 0.5 <= closed - t0 <= HEADER_TIMEOUT + MARGIN, closed - t0
    assert _status(answer) == 408, answer[:200]
    assert _error_of(answer)["details"][0]["reason"] == "REQUEST_TIMEOUT"
    _request_id_of(answer)


def test_an_idle_new_connection_is_closed(limited: Running) -> None:
    """A connection that sends nothing is closed, unanswered, after the header limit."""
    sock = _connect(limited.app.http_port)
    t0 = time.monotonic()
    answer, closed = _until_closed(sock, t0 + HEADER_TIMEOUT + MARGIN + 2)
    sock.close()
    assert answer == b"" and closed - t0 <= HEADER_TIMEOUT + MARGIN, (answer, closed - t0)


def _slow_deal(server: Running, headers: bytes) -> bytes:
    """A Deal whose body comes one byte a second, with ``headers`` added: what the server
    answered before it closed the connection, within the body time limit."""
    sock = _connect(server.app.http_port)
    sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                 + headers + f"Content-Length: {len(DEAL)}\r\n\r\n".encode())
    t0 = time.monotonic()
    deadline = t0 + BODY_TIMEOUT + MARGIN + 2
    for i in range(len(DEAL)):
        readable, _, _ = select.select([sock], [], [], 1.0)
        if readable or time.monotonic() > deadline:
            break
        try:
            sock.sendall(DEAL[i:i + 1])
        except OSError:
            break
    answer, closed = _until_closed(sock, deadline)
    sock.close()
    assert closed < float("inf") and closed - t0 <= BODY_TIMEOUT + MARGIN, closed - t0
    return answer


def test_a_slow_body_is_cut_off_and_counted_as_408(limited: Running, http: httpx.Client) -> None:
    """A body sent one byte a second is answered 408 once the body time limit has passed;
    the call is counted as 408 on its route, neither as 499 nor as 500."""
    labels = {"route": "/v1/deal", "method": "POST"}
    before = {s: _metric(http, "http_requests_total", status=s, **labels)
              for s in ("408", "499", "500")}
    answer = _slow_deal(limited, b"X-Request-Id: slow-body-1\r\n")
    assert _status(answer) == 408, answer[:200]
    assert _request_id_of(answer) == "slow-body-1"  # the headers were read: the caller's id
    _wait(lambda: _metric(http, "http_requests_total", status="408", **labels)
          == before["408"] + 1, 10, "the cut-off call was not counted as 408")
    assert _metric(http, "http_requests_total", status="499", **labels) == before["499"]
    assert _metric(http, "http_requests_total", status="500", **labels) == before["500"]


class _Ids(logging.Handler):
    """The request id of each access-log line, as the JSON formatter reads it when it
    writes the line."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[tuple[str, str, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "fields", {})
        self.lines.append((fields.get("method", ""), fields.get("code", ""),
                           logs.REQUEST_ID.get()))


@pytest.mark.parametrize(("headers", "echoed"), [
    (b"", None),  # none given: the one made up for the call
    (b"X-Request-Id: first-id\r\nX-Request-Id: second-id\r\n", b"first-id"),
    (b"X-Request-Id: caf\xc3\xa9-id\r\n", b"caf\xc3\xa9-id"),  # not ASCII: byte for byte
])
def test_a_cut_off_call_names_one_request_id(limited: Running, headers: bytes,
                                             echoed: bytes | None) -> None:
    """The 408 written when a body does not arrive names the request id that the call's
    access-log line names: the caller's (its first, byte for byte) or, when none was
    given, the one made up for the call (it used to make up a second one)."""
    ids = _Ids()
    logs.ACCESS.addHandler(ids)
    level = logs.ACCESS.level
    logs.ACCESS.setLevel(logging.INFO)
    try:
        answer = _slow_deal(limited, headers)
        _wait(lambda: any(line[:2] == ("POST /v1/deal", "408") for line in ids.lines), 10,
              "the cut-off call was not logged")
    finally:
        logs.ACCESS.removeHandler(ids)
        logs.ACCESS.setLevel(level)
    assert _status(answer) == 408, answer[:200]
    head = answer.split(b"\r\n\r\n", 1)[0].split(b"\r\n")
    sent = [line.split(b":", 1)[1].strip() for line in head
            if line.lower().startswith(b"x-request-id:")]
    logged = [rid for method, code, rid in ids.lines if (method, code) == ("POST /v1/deal", "408")]
    assert sent == [logged[0].encode("latin-1")], (sent, logged)
    if echoed is None:
        assert len(logged[0]) == 32
    else:
        assert sent == [echoed]


def test_slow_connections_leave_calls_fast_and_are_all_closed() -> None:
    """300 connections trickle their headers (a byte every half second each): meanwhile the
    service answers REST and gRPC calls, with all 300 open; then the header time limit
    closes every one of them, and the server holds none. (Those calls' latency beside the
    300 is a figure of bench/slow_clients_bench.py, in make bench.)"""
    timeout = 20.0  # long enough for the calls while all 300 are open, on a slow machine
    with running(http_header_timeout_s=timeout) as srv, \
            httpx.Client(base_url=srv.http_base, timeout=10) as http:
        deal = ok(call_rest(http, "Deal", api.DealRequest(variant="classic", players=4, seed=5)))
        request = api.LegalMovesRequest(snapshot=deal.snapshot)
        ok(call_rest(http, "LegalMoves", request, token=deal.host_token))
        slow = []
        for _ in range(300):
            sock = _connect(srv.app.http_port)
            sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            sock.setblocking(False)
            slow.append(sock)
        t0 = time.monotonic()
        stop = threading.Event()

        def trickle() -> None:
            while not stop.wait(0.5):
                for sock in slow:
                    with contextlib.suppress(OSError):  # closed by the server: done
                        sock.send(b"a")

        dripper = threading.Thread(target=trickle, daemon=True)
        dripper.start()
        try:
            _wait(lambda: _connections(srv) >= 300, 5, "the server did not take 300 connections")
            channel, stub = srv.stub()
            with channel:
                for _ in range(40):
                    assert ok(call_rest(http, "LegalMoves", request, token=deal.host_token)).moves
                    assert ok(call_grpc(stub, "LegalMoves", request, token=deal.host_token)).moves
            held = _connections(srv)
            measured = time.monotonic() - t0
        finally:
            stop.set()
            dripper.join(5)
        assert held >= 300, (held, measured)  # all still open after the calls
        deadline = t0 + timeout + 5
        open_ = set(slow)
        while open_ and time.monotonic() < deadline:
            readable, _, _ = select.select(list(open_), [], [], 0.5)
            for sock in readable:
                try:
                    if sock.recv(65536) == b"":
                        open_.discard(sock)
                except BlockingIOError:
                    pass
                except OSError:
                    open_.discard(sock)
        for sock in slow:
            sock.close()
        assert not open_, f"{len(open_)} of 300 slow connections still open"
        _wait(lambda: _connections(srv) <= 1, 5, "the server still holds slow connections")


def test_connections_past_the_cap_get_503() -> None:
    """With ``CANASTA_HTTP_MAX_CONNECTIONS=8`` and eight idle connections open, a ninth gets
    a typed 503 at once, saying when to retry (``Retry-After: 1``, ``RetryInfo``); once
    they close, calls are served again."""
    with running(http_max_connections=8) as srv:
        idle = [_connect(srv.app.http_port) for _ in range(8)]
        _wait(lambda: _connections(srv) == 8, 5, "the server did not take 8 connections")
        sock = _connect(srv.app.http_port)
        answer, closed = _until_closed(sock, time.monotonic() + 5)
        sock.close()
        assert closed < float("inf")
        assert _status(answer) == 503, answer[:200]
        details = _error_of(answer)["details"]
        info = details[0]
        assert info["reason"] == "UNAVAILABLE" and info["metadata"]["max_connections"] == "8"
        assert b"\r\nretry-after: 1\r\n" in answer.split(b"\r\n\r\n", 1)[0] + b"\r\n"
        assert {"@type": "type.googleapis.com/google.rpc.RetryInfo",
                "retryDelay": "1s"} in details
        for s in idle:
            s.close()
        _wait(lambda: _connections(srv) == 0, 5, "the idle connections were not let go")
        assert httpx.get(f"{srv.http_base}/healthz", timeout=10).status_code == 200


# --- aborted uploads ---------------------------------------------------------------------


def test_an_aborted_upload_is_499_not_500(limited: Running, http: httpx.Client,
                                          caplog: pytest.LogCaptureFixture) -> None:
    """A client that closes its connection in the middle of its body is counted as 499
    (client closed request) in the metrics and the access log, never as 500 (which would
    fire the CanastaServerErrors alert)."""
    labels = {"route": "/v1/apply-move", "method": "POST"}

    def counts() -> tuple[float, float]:
        return (_metric(http, "http_requests_total", status="499", **labels),
                _metric(http, "http_requests_total", status="500", **labels))

    before = counts()
    with caplog.at_level(logging.INFO, logger=logs.ACCESS.name):
        for _ in range(3):
            sock = _connect(limited.app.http_port)
            sock.sendall(b"POST /v1/apply-move HTTP/1.1\r\nHost: x\r\n"
                         b"Content-Type: application/json\r\nContent-Length: 4000\r\n\r\n"
                         b'{"snapshot": "')
            sock.close()
        _wait(lambda: counts() != before and sum(counts()) >= sum(before) + 3, 10,
              "the aborted calls were not counted")
    assert counts() == (before[0] + 3, before[1])
    lines = [r for r in caplog.records if r.name == logs.ACCESS.name
             and getattr(r, "fields", {}).get("method") == "POST /v1/apply-move"]
    assert [r.fields["code"] for r in lines] == ["499"] * 3  # type: ignore[attr-defined]


# --- content type ------------------------------------------------------------------------


@pytest.mark.parametrize("kind", [None, "text/plain", "text/plain;charset=UTF-8",
                                  "application/x-www-form-urlencoded",
                                  "multipart/form-data; boundary=x", "application/jsonp",
                                  "text/json"])
def test_a_post_not_declared_json_gets_415(kind: str | None, http: httpx.Client) -> None:
    """What a cross-site form or ``fetch`` may send without a CORS preflight (a form, plain
    text) and anything else not ``application/json`` is refused, typed, before the body is
    read; so is a POST without Content-Type."""
    headers = {"content-type": kind} if kind else {}
    resp = http.post("/v1/deal", content=DEAL, headers=headers)
    assert resp.status_code == 415, resp.text
    error = resp.json()["error"]
    assert error["status"] == "INVALID_ARGUMENT"
    info = error["details"][0]
    assert info["reason"] == "UNSUPPORTED_MEDIA_TYPE"
    assert info["metadata"]["content_type"] == (kind or "none")
    assert "application/json" in error["message"]
    russian = http.post("/v1/deal", content=DEAL, headers={**headers, "accept-language": "ru"})
    assert russian.json()["error"]["message"].startswith("Тело запроса")


@pytest.mark.parametrize("kind", ["application/json", "application/json; charset=utf-8",
                                  "Application/JSON;charset=UTF-8"])
def test_json_with_parameters_is_served(kind: str, http: httpx.Client) -> None:
    assert http.post("/v1/deal", content=DEAL, headers={"content-type": kind}).status_code == 200


def test_415_comes_before_reading_the_body(limited: Running) -> None:
    """A text/plain POST declaring a body far over the size limit is answered 415 at once,
    without the server waiting for (or reading) the body."""
    sock = _connect(limited.app.http_port)
    sock.sendall(b"POST /v1/deal HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n"
                 b"Content-Length: 10000000\r\n\r\n")
    sock.settimeout(5)
    answer = sock.recv(65536)
    sock.close()
    assert _status(answer) == 415, answer[:200]


# --- CORS ---------------------------------------------------------------------------------

GAME = "https://game.example"
PREFLIGHT = {"access-control-request-method": "POST",
             "access-control-request-headers": "content-type,authorization"}


@pytest.fixture(scope="module")
def cors() -> Iterator[httpx.Client]:
    with running(cors_origins=(GAME, "http://localhost:5173")) as srv, \
            httpx.Client(base_url=srv.http_base, timeout=10) as client:
        yield client


def _cors_headers(resp: httpx.Response) -> dict[str, str]:
    return {k: v for k, v in resp.headers.items() if k.startswith("access-control-")}


def test_cors_answers_the_preflight_of_a_listed_origin(cors: httpx.Client) -> None:
    """A web game on a listed origin may call REST: its preflight gets 204 naming the
    origin, the methods (GET, POST) and the request headers the API reads; its calls get
    the origin and may read ``x-request-id``."""
    pre = cors.options("/v1/deal", headers={"origin": GAME, **PREFLIGHT})
    assert pre.status_code == 204
    assert pre.headers["access-control-allow-origin"] == GAME
    assert {m.strip() for m in pre.headers["access-control-allow-methods"].split(",")} \
        == {"GET", "POST"}
    allowed = {h.strip() for h in pre.headers["access-control-allow-headers"].split(",")}
    assert allowed == {"content-type", "authorization", "accept-language", "x-request-id"}
    assert "access-control-allow-credentials" not in pre.headers  # bearer tokens, no cookies
    assert "origin" in pre.headers["vary"].lower()
    call = cors.post("/v1/deal", content=DEAL,
                     headers={"origin": GAME, "content-type": "application/json"})
    assert call.status_code == 200
    assert call.headers["access-control-allow-origin"] == GAME
    assert _exposed(call) == {"x-request-id", "retry-after", "www-authenticate"}
    refused = cors.post("/v1/deal", content=DEAL, headers={"origin": "http://localhost:5173"})
    assert refused.status_code == 415  # the page can read why
    assert refused.headers["access-control-allow-origin"] == "http://localhost:5173"


def _exposed(resp: httpx.Response) -> set[str]:
    return {h.strip() for h in resp.headers["access-control-expose-headers"].split(",")}


def test_cors_lets_the_page_read_a_401s_challenge(cors: httpx.Client) -> None:
    """A 401 names the scheme it takes (``WWW-Authenticate: Bearer``, RFC 6750): a page of a
    listed origin may read it, as it may the request id (it read neither header before)."""
    dealt = cors.post("/v1/deal", content=DEAL, headers={"content-type": "application/json"})
    refused = cors.post("/v1/apply-move", json={"snapshot": dealt.json()["snapshot"],
                                                "move": {"text": "draw"}},
                        headers={"origin": GAME})
    assert refused.status_code == 401
    assert refused.headers["www-authenticate"].startswith("Bearer")
    assert refused.headers["access-control-allow-origin"] == GAME
    assert {"www-authenticate", "x-request-id"} <= _exposed(refused)


def _raw_cors_headers(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    fields = (line.split(":", 1) for line in head)
    return {k.strip().lower(): v.strip() for k, v in fields
            if k.strip().lower().startswith("access-control-")}


def test_answers_written_before_the_application_are_readable_by_a_page() -> None:
    """With CANASTA_CORS_ORIGINS set, the answers the server writes without the application
    (a header block over the cap: 431; a body that did not arrive in time: 408; a connection
    over the cap: 503) let a page read them, their status, reason, request id and
    Retry-After: without an ``Access-Control-Allow-Origin`` the browser gave the page a bare
    network error. No origin is checked there, so they allow any (``*``); they hold nothing
    of anybody's."""
    with running(cors_origins=(GAME,), http_max_header_bytes=1024,
                 http_body_timeout_s=BODY_TIMEOUT, http_max_connections=2) as srv:
        sock = _connect(srv.app.http_port)
        sock.sendall(b"POST /v1/view HTTP/1.1\r\nHost: x\r\nOrigin: " + GAME.encode()
                     + b"\r\nX-Fill: " + b"a" * 2048 + b"\r\n\r\n")
        answer, _ = _until_closed(sock, time.monotonic() + 5)
        sock.close()
        assert _status(answer) == 431, answer[:200]
        assert _raw_cors_headers(answer) == {
            "access-control-allow-origin": "*",
            "access-control-expose-headers": "x-request-id, retry-after, www-authenticate"}
        answer = _slow_deal(srv, b"Origin: " + GAME.encode() + b"\r\n")
        assert _status(answer) == 408, answer[:200]
        assert _raw_cors_headers(answer)["access-control-allow-origin"] == "*"
        idle = [_connect(srv.app.http_port) for _ in range(2)]
        _wait(lambda: _connections(srv) == 2, 5, "the server did not take 2 connections")
        sock = _connect(srv.app.http_port)
        answer, _ = _until_closed(sock, time.monotonic() + 5)
        sock.close()
        for s in idle:
            s.close()
        assert _status(answer) == 503, answer[:200]
        assert _raw_cors_headers(answer)["access-control-allow-origin"] == "*"


def test_answers_written_before_the_application_have_no_cors_by_default(
        limited: Running) -> None:
    sock = _connect(limited.app.http_port)
    sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nOrigin: " + GAME.encode()
                 + b"\r\nX-Fill: " + b"a" * 40000 + b"\r\n\r\n")
    answer, _ = _until_closed(sock, time.monotonic() + 5)
    sock.close()
    assert _status(answer) == 431 and _raw_cors_headers(answer) == {}, answer[:300]


def test_a_fault_is_answered_like_every_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug's 500 carries the request id (header and body) and, for a listed origin, the
    CORS headers, as every other answer: it was answered outside the middleware, with
    neither, so a page saw a network error and nobody had an id to look the fault up by."""
    def fault(*args: Any, **kwargs: Any) -> bytes:
        raise RuntimeError("a bug")

    with running(cors_origins=(GAME,)) as srv, httpx.Client(base_url=srv.http_base) as client:
        monkeypatch.setattr(Core, "handle_json", fault)
        answer = client.post("/v1/view", content=b"{}", headers={
            "origin": GAME, "content-type": "application/json", "x-request-id": "fault-1"})
    assert answer.status_code == 500
    assert answer.json()["error"]["details"][0]["reason"] == "INTERNAL"
    assert answer.headers["x-request-id"] == "fault-1"
    assert answer.json()["error"]["details"][0]["metadata"]["request_id"] == "fault-1"
    assert answer.headers["access-control-allow-origin"] == GAME


def test_cors_gives_other_origins_nothing(cors: httpx.Client, http: httpx.Client) -> None:
    """An origin not listed gets no CORS header (its preflight is the usual 405), and
    without CANASTA_CORS_ORIGINS no origin gets one."""
    for client, origin in ((cors, "https://evil.example"), (cors, "https://game.example:8443"),
                           (cors, "http://game.example"), (http, GAME)):
        pre = client.options("/v1/deal", headers={"origin": origin, **PREFLIGHT})
        assert pre.status_code == 405 and _cors_headers(pre) == {}, (origin, pre.headers)
        call = client.post("/v1/deal", content=DEAL,
                           headers={"origin": origin, "content-type": "application/json"})
        assert call.status_code == 200 and _cors_headers(call) == {}, (origin, call.headers)


def test_cors_any_origin() -> None:
    with running(cors_origins=("*",)) as srv, httpx.Client(base_url=srv.http_base) as client:
        pre = client.options("/v1/legal-moves",
                             headers={"origin": "https://any.example", **PREFLIGHT})
        assert pre.status_code == 204 and pre.headers["access-control-allow-origin"] == "*"
        call = client.get("/v1/variants", headers={"origin": "https://any.example"})
        assert call.headers["access-control-allow-origin"] == "*"


# --- settings ----------------------------------------------------------------------------


def test_settings_defaults_and_parsing() -> None:
    d = Settings.from_env({})
    assert (d.http_max_header_bytes, d.http_header_timeout_s, d.http_body_timeout_s,
            d.http_max_connections, d.cors_origins) == (32768, 10.0, 30.0, 1000, ())
    s = Settings.from_env({"CANASTA_HTTP_MAX_HEADER_BYTES": "16384",
                           "CANASTA_HTTP_HEADER_TIMEOUT_S": "5",
                           "CANASTA_HTTP_BODY_TIMEOUT_S": "60",
                           "CANASTA_HTTP_MAX_CONNECTIONS": "200",
                           "CANASTA_CORS_ORIGINS": " https://Game.Example/ , http://[::1]:8080,"
                                                   "http://localhost:5173"})
    assert (s.http_max_header_bytes, s.http_header_timeout_s, s.http_body_timeout_s,
            s.http_max_connections) == (16384, 5.0, 60.0, 200)
    assert s.cors_origins == ("https://game.example", "http://[::1]:8080",
                              "http://localhost:5173")
    assert Settings.from_env({"CANASTA_CORS_ORIGINS": "*"}).cors_origins == ("*",)


@pytest.mark.parametrize(("name", "value"), [
    ("CANASTA_HTTP_MAX_HEADER_BYTES", "12"), ("CANASTA_HTTP_MAX_HEADER_BYTES", "big"),
    ("CANASTA_HTTP_HEADER_TIMEOUT_S", "0"), ("CANASTA_HTTP_BODY_TIMEOUT_S", "1.5"),
    ("CANASTA_HTTP_MAX_CONNECTIONS", "0"), ("CANASTA_CORS_ORIGINS", "game.example"),
    ("CANASTA_CORS_ORIGINS", "https://game.example/path"), ("CANASTA_CORS_ORIGINS", "*,https://a.b"),
])
def test_a_bad_setting_exits_2(name: str, value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ConfigError, match=name):
        Settings.from_env({name: value})
    for key in list(os.environ):
        if key.startswith("CANASTA_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("CANASTA_SEAL_KEYS", new_key_entry("bad"))
    monkeypatch.setenv(name, value)
    assert server.main([]) == 2
