"""gRPC metadata no grpcio client sends: values that are not ASCII, or not UTF-8; and
the cap on a call's metadata.

grpcio's clients refuse to send such values, but the wire carries any bytes, and
other clients (or a hand-written one) send them. So these tests speak HTTP/2 over a
bare socket: one unary call, headers as HPACK literals, the answer's DATA read back.
The rule is the same as for any bad input: the call is answered (or refused with a
reason), never ended as INTERNAL, and nothing the caller sent is logged as an error.
"""

from __future__ import annotations

import logging
import socket
import struct

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from service.api.pb import api
from tests.service.servers import Running, running

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, RST_STREAM, SETTINGS, PING, GOAWAY = 0x0, 0x1, 0x3, 0x4, 0x6, 0x7
END_STREAM, ACK, END_HEADERS = 0x1, 0x1, 0x4


def _frame(kind: int, flags: int, stream: int, payload: bytes) -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes([kind, flags]) + struct.pack(
        ">I", stream) + payload


def _hpack_int(n: int) -> bytes:
    """An HPACK integer with a 7-bit prefix (RFC 7541, 5.1), Huffman bit clear."""
    if n < 127:
        return bytes([n])
    out, n = [127], n - 127
    while n >= 128:
        out.append(n % 128 + 128)
        n //= 128
    return bytes([*out, n])


def _literal(name: bytes, value: bytes) -> bytes:
    """A header field as a literal without indexing, new name (RFC 7541, 6.2.2)."""
    return b"\x00" + _hpack_int(len(name)) + name + _hpack_int(len(value)) + value


def unary(target: str, method: str, request: bytes,
          metadata: list[tuple[bytes, bytes]]) -> bytes | None:
    """One unary call of ``canasta.v1.CanastaEngine/method``; the answer's message, or
    None when the call ended without one (a refusal, an INTERNAL, a reset)."""
    host, port = target.rsplit(":", 1)
    headers = [(b":method", b"POST"), (b":scheme", b"http"),
               (b":path", f"/canasta.v1.CanastaEngine/{method}".encode()),
               (b":authority", target.encode()), (b"content-type", b"application/grpc"),
               (b"te", b"trailers"), *metadata]
    block = b"".join(_literal(n, v) for n, v in headers)
    body = b"\x00" + struct.pack(">I", len(request)) + request
    data = b""
    with socket.create_connection((host, int(port)), timeout=20) as sock:
        sock.sendall(PREFACE + _frame(SETTINGS, 0, 0, b"")
                     + _frame(HEADERS, END_HEADERS, 1, block)
                     + _frame(DATA, END_STREAM, 1, body))
        buffer = b""
        while True:
            while len(buffer) < 9 or len(buffer) < 9 + int.from_bytes(buffer[:3], "big"):
                chunk = sock.recv(65536)
                if not chunk:
                    return None
                buffer += chunk
            size = int.from_bytes(buffer[:3], "big")
            kind, flags = buffer[3], buffer[4]
            stream = int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF
            payload, buffer = buffer[9:9 + size], buffer[9 + size:]
            if kind == SETTINGS and not flags & ACK:
                sock.sendall(_frame(SETTINGS, ACK, 0, b""))
            elif kind == PING and not flags & ACK:
                sock.sendall(_frame(PING, ACK, 0, payload))
            elif kind == DATA and stream == 1:
                data += payload
            elif kind in (RST_STREAM, GOAWAY) or (kind == HEADERS and flags & END_STREAM):
                return data[5:] if data else None


@pytest.mark.parametrize("rid", [b"caf\xc3\xa9", b"\xc3\xa9" * 3, b"\xff\xfe"])
def test_a_request_id_that_is_not_ascii_is_replaced(server: Running, rid: bytes) -> None:
    """The request id is echoed in the trailers, where gRPC carries printable ASCII only:
    grpcio ended a call with ``x-request-id: café`` as INTERNAL ("Invalid metadata"),
    its answer lost. Such an id is replaced by one made up, as a too long one is."""
    answer = unary(server.grpc_target, "ListVariants", b"", [(b"x-request-id", rid)])
    assert answer is not None, "the call ended without its answer"
    assert api.ListVariantsResponse.FromString(answer).variants


def test_metadata_that_is_not_utf8_is_not_an_error_in_the_log(
        server: Running, caplog: pytest.LogCaptureFixture) -> None:
    """grpcio reads a metadata value that is not UTF-8 as latin-1, and logged it as an
    error with a traceback and the value itself: any caller could fill the error log
    (which the on-call reads for CanastaServerErrors), and the token of an
    ``authorization`` value with one stray byte was written into it."""
    secret = b"ct1.host.k-1.not-to-be-logged"
    with caplog.at_level(logging.WARNING):
        answer = unary(server.grpc_target, "ListVariants", b"", [
            (b"authorization", b"Bearer " + secret + b"\xff"),
            (b"accept-language", b"ru\xff")])
    assert answer is not None
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not any(secret.decode() in r.getMessage() for r in caplog.records)


def _codes(target: str, kib: int) -> list[grpc.StatusCode]:
    """The codes of 20 health checks, each sent with ``kib`` KiB of metadata."""
    stub = health_pb2_grpc.HealthStub(grpc.insecure_channel(target))
    codes = []
    for _ in range(20):
        try:
            stub.Check(health_pb2.HealthCheckRequest(), timeout=10,
                       metadata=[("x-padding", "a" * kib * 1024)])
            codes.append(grpc.StatusCode.OK)
        except grpc.RpcError as err:
            codes.append(err.code())
    return codes


@pytest.mark.parametrize(("kib", "answered"), [(12, True), (24, True), (40, False)])
def test_metadata_is_capped_as_rest_caps_headers(server: Running, kib: int,
                                                 answered: bool) -> None:
    """A call's metadata has REST's header cap, 32 KiB: below it every call is answered,
    above it every one is refused (``RESOURCE_EXHAUSTED``, from C-core, docs/api.md).
    C-core's default refused metadata between 8 and 16 KiB at random and all above: of 20
    calls with 12 KiB, some were answered and some refused."""
    want = grpc.StatusCode.OK if answered else grpc.StatusCode.RESOURCE_EXHAUSTED
    assert _codes(server.grpc_target, kib) == [want] * 20


def test_the_metadata_cap_is_the_header_setting() -> None:
    """``CANASTA_HTTP_MAX_HEADER_BYTES`` moves both caps: at 16 KiB, 12 KiB of metadata
    is answered and 20 KiB refused (it was fixed at 32 KiB whatever the setting)."""
    with running(http_max_header_bytes=16384) as small:
        assert _codes(small.grpc_target, 12) == [grpc.StatusCode.OK] * 20
        assert _codes(small.grpc_target, 20) == [grpc.StatusCode.RESOURCE_EXHAUSTED] * 20
