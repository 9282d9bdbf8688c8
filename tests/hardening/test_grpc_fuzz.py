"""Fuzzing every ``canasta.v1.CanastaEngine`` method with raw bytes (hypothesis).

Each method gets random bytes and mutated valid requests (bit flips,
truncation, insertions, deletions, wire-level fields appended, fields set to
random values of their type, unknown padding), sent through a generic
``unary_unary`` with no serializers. Every answer must be OK (and parse as the
method's response) or one of the expected codes with a ``google.rpc.ErrorInfo``
whose reason is in the catalogue; never ``INTERNAL`` or ``UNKNOWN``. The server
must still serve afterwards. The server under test keeps the session server's
keys (so real snapshots open, through the cold path: its cache is empty) and
exports imported positions only, so PERMISSION_DENIED is reachable too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Any

import grpc
import pytest
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import DecodeError, Message
from google.rpc import error_details_pb2
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_status import rpc_status
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import Reason
from service.config import ExportPolicy
from service.errors import DOMAIN, ServiceReason
from service.pb import SERVICE_NAME, api, game
from tests.hardening.pool import EXAMPLES, Position
from tests.service.servers import Running, running

CATALOGUE = {r.value for r in Reason} | {r.value for r in ServiceReason}
METHODS = [m.name for m in api.DESCRIPTOR.services_by_name["CanastaEngine"].methods]
EXPECTED = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.ABORTED, grpc.StatusCode.RESOURCE_EXHAUSTED,
            grpc.StatusCode.PERMISSION_DENIED}
LIMIT = 65536  # CANASTA_MAX_MESSAGE_BYTES of the server under test (the default)
CARDS = ["AS", "KH", "QD", "JC", "TS", "9H", "2C", "3D", "3S", "JK", "ZZ", "10H", ""]
TEXTS = ["draw", "ask", "yes", "no", "undo", "decline", "end", "out", "discard 4D",
         "meld KS KH KD", "take 9S 9C", "add K KC", "classic", "samba", "greedy", "random"]


@pytest.fixture(scope="module")
def target(server: Running) -> Iterator[Running]:
    with running(server.app.core.sealer.keys, export_policy=ExportPolicy.IMPORTED) as s:
        yield s


@pytest.fixture(scope="module")
def channel(target: Running) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(target.grpc_target) as ch:
        yield ch


def seeds(method: str, pool: list[Position]) -> list[bytes]:
    """Valid requests of a method (most of them answered OK), serialized."""
    out: list[Message] = []
    playing = [p for p in pool if p.moves]
    if method == "ListVariants":
        out.append(api.ListVariantsRequest())
    elif method == "Deal":
        out += [api.DealRequest(variant=v, players=n, seed=s, view_seat=s % n - 1)
                for s, (v, n) in enumerate([("classic", 4), ("classic", 2), ("samba", 4),
                                            ("bolivia", 4), ("may_i", 3)])]
    elif method == "ApplyMove":
        out += [api.ApplyMoveRequest(snapshot=p.snapshot, move=p.moves[i % len(p.moves)],
                                     expected_seq=p.seq) for i, p in enumerate(playing)]
    elif method == "NextDeal":
        out += [api.NextDealRequest(snapshot=p.snapshot, expected_seq=p.seq)
                for p in pool if p.over]
    elif method == "ImportPosition":
        out += [api.ImportPositionRequest(position=p.text) for p in pool[::3]]
    elif method == "GetView":
        out += [api.GetViewRequest(snapshot=p.snapshot, seat=i % 3 - 1)
                for i, p in enumerate(pool)]
    elif method == "SuggestMove":
        out += [api.SuggestMoveRequest(snapshot=p.snapshot, level=("greedy", "random")[i % 2],
                                       seed=i) for i, p in enumerate(playing)]
    else:  # LegalMoves, ScoreHand, ExportPosition: the snapshot alone
        cls = getattr(api, f"{method}Request")
        out += [cls(snapshot=p.snapshot) for p in pool]
    return [m.SerializeToString() for m in out]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        low, n = n & 0x7F, n >> 7
        out.append(low | (0x80 if n else 0))
        if not n:
            return bytes(out)


@st.composite
def wire_field(draw: st.DrawFn) -> bytes:
    """One field in protobuf wire format, well formed or not: a known or unknown number,
    any wire type, a payload of the right shape or a broken one."""
    number = draw(st.integers(1, 12) | st.integers(13, (1 << 29) - 1))  # 1..12: known fields
    wire = draw(st.integers(0, 7))
    tag = _varint(number << 3 | wire)
    if wire == 0:
        return tag + _varint(draw(st.integers(0, (1 << 70))))
    if wire == 1:
        return tag + draw(st.binary(min_size=8, max_size=8))
    if wire == 5:
        return tag + draw(st.binary(min_size=4, max_size=4))
    payload = draw(st.binary(max_size=64))
    length = draw(st.just(len(payload)) | st.integers(0, 1 << 20))
    return tag + _varint(length) + payload


class Mutations:
    """Strategies for one method's requests, over real positions."""

    def __init__(self, method: str, pool: list[Position]) -> None:
        self.cls: type[Message] = getattr(api, f"{method}Request")
        self.fields = list(self.cls.DESCRIPTOR.fields)
        self.seeds = seeds(method, pool)
        self.snapshots = [p.snapshot for p in pool]
        self.moves = [m for p in pool for m in p.moves[:3]]

    def __repr__(self) -> str:  # hypothesis prints strategies: keep it short
        return f"Mutations({self.cls.DESCRIPTOR.name})"

    def value(self, draw: st.DrawFn, field: FieldDescriptor) -> Any:
        """A random value of a scalar field's type."""
        t = field.type
        if t in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_SINT32,
                 FieldDescriptor.TYPE_SFIXED32, FieldDescriptor.TYPE_ENUM):
            return draw(st.integers(-8, 8) | st.integers(-(1 << 31), (1 << 31) - 1))
        if t in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_FIXED32):
            return draw(st.integers(0, (1 << 32) - 1))
        if t in (FieldDescriptor.TYPE_INT64, FieldDescriptor.TYPE_SINT64,
                 FieldDescriptor.TYPE_SFIXED64):
            return draw(st.integers(-(1 << 63), (1 << 63) - 1))
        if t in (FieldDescriptor.TYPE_UINT64, FieldDescriptor.TYPE_FIXED64):
            return draw(st.integers(0, 8) | st.integers(0, (1 << 64) - 1))
        if t == FieldDescriptor.TYPE_BOOL:
            return draw(st.booleans())
        if t == FieldDescriptor.TYPE_STRING:
            return draw(st.sampled_from(CARDS + TEXTS) | st.text(max_size=40))
        if t == FieldDescriptor.TYPE_BYTES:
            return draw(st.sampled_from(self.snapshots) | st.binary(max_size=80))
        raise AssertionError(f"no value for {field.full_name}")

    def changed_field(self, draw: st.DrawFn, data: bytes) -> bytes:
        """The request with one field set to a random value of its type, or cleared."""
        msg = self.cls.FromString(data)
        if not self.fields:
            return data
        field = draw(st.sampled_from(self.fields))
        if draw(st.integers(0, 5)) == 0:
            msg.ClearField(field.name)
        elif field.message_type is not None and field.message_type.GetOptions().map_entry:
            getattr(msg, field.name)[draw(st.text(max_size=30))] = draw(st.text(max_size=30))
        elif field.type == FieldDescriptor.TYPE_MESSAGE:  # the move: another legal one, or text
            move = draw(st.sampled_from(self.moves) | st.builds(
                game.Move, text=st.sampled_from(TEXTS) | st.text(max_size=30)))
            getattr(msg, field.name).CopyFrom(move)
        elif field.is_repeated:  # the deck: card codes, good and bad
            getattr(msg, field.name).extend(draw(st.lists(st.sampled_from(CARDS), max_size=4)))
        else:
            setattr(msg, field.name, self.value(draw, field))
        return msg.SerializeToString()

    def mutate(self, draw: st.DrawFn) -> bytes:
        """A valid request with one to four mutations."""
        data = draw(st.sampled_from(self.seeds))
        for _ in range(draw(st.integers(1, 4))):
            kind = draw(st.sampled_from(["flip", "truncate", "insert", "delete", "append",
                                         "field", "field", "pad"]))
            if kind == "field":
                try:
                    self.cls.FromString(data)
                except DecodeError:  # an earlier mutation broke the message: leave it broken
                    continue
                data = self.changed_field(draw, data)
                continue
            at = draw(st.integers(0, len(data)))
            if kind == "flip" and data:
                i = min(at, len(data) - 1)
                bit = 1 << draw(st.integers(0, 7))
                data = data[:i] + bytes((data[i] ^ bit,)) + data[i + 1:]
            elif kind == "truncate":
                data = data[:at]
            elif kind == "insert":
                data = data[:at] + draw(st.binary(min_size=1, max_size=16)) + data[at:]
            elif kind == "delete":
                data = data[:at] + data[at + draw(st.integers(1, 16)):]
            elif kind == "append":
                data += draw(wire_field())
            elif kind == "pad":  # an unknown bytes field (past the size limit: see below)
                size = draw(st.integers(0, 4096))
                data += _varint(15 << 3 | 2) + _varint(size) + bytes(size)
        return data

    def requests(self) -> st.SearchStrategy[bytes]:
        return st.binary(max_size=512) | st.composite(lambda draw: self.mutate(draw))()


def _reason(err: grpc.RpcError) -> str | None:
    status = rpc_status.from_call(err)
    if status is None:
        return None
    infos = []
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
            infos.append(info)
    assert len(infos) == 1, status
    assert infos[0].domain == DOMAIN
    return infos[0].reason


def _serves(target: Running, channel: grpc.Channel, pool: list[Position]) -> None:
    health = health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(
        service=SERVICE_NAME), timeout=10)
    assert health.status == health_pb2.HealthCheckResponse.SERVING
    legal = channel.unary_unary(f"/{SERVICE_NAME}/LegalMoves")(
        api.LegalMovesRequest(snapshot=pool[1].snapshot).SerializeToString(), timeout=10)
    assert api.LegalMovesResponse.FromString(legal).moves


@pytest.mark.parametrize("method", METHODS)
def test_raw_bytes(method: str, target: Running, channel: grpc.Channel,
                   pool: list[Position]) -> None:
    call = channel.unary_unary(f"/{SERVICE_NAME}/{method}")
    response_cls = getattr(api, f"{method}Response")
    outcomes: Counter[str] = Counter()

    @settings(max_examples=3 * EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(data=Mutations(method, pool).requests())
    def fuzz(data: bytes) -> None:
        try:
            answer = call(data, timeout=30)
        except grpc.RpcError as err:
            code = err.code()
            assert code in EXPECTED, (code, err.details(), data[:80])
            reason = _reason(err)
            assert reason in CATALOGUE, (code, reason, err.details())
            outcomes[f"{code.name} {reason}"] += 1
            return
        response_cls.FromString(answer)
        outcomes["OK"] += 1

    fuzz()
    assert sum(outcomes.values()) >= 3 * EXAMPLES, outcomes
    _serves(target, channel, pool)


def test_undecodable_requests_are_request_invalid(target: Running, channel: grpc.Channel,
                                                  pool: list[Position]) -> None:
    """Bytes that are no protobuf message are INVALID_ARGUMENT REQUEST_INVALID on every
    method (grpcio alone answers UNKNOWN, with no details), and so is a string field that
    is not UTF-8."""
    broken = [b"\xff\xff\xff", b"\x0a\x05ab", b"\x08" + b"\x80" * 10 + b"\x01"]
    calls = [(m, data) for m in METHODS for data in broken]
    calls.append(("Deal", b"\x0a\x02\xc3\x28"))  # variant (field 1): not UTF-8
    for method, data in calls:
        with pytest.raises(grpc.RpcError) as err:
            channel.unary_unary(f"/{SERVICE_NAME}/{method}")(data, timeout=10)
        got = (err.value.code(), _reason(err.value))
        assert got == (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_INVALID"), (method, data)
    _serves(target, channel, pool)


def test_oversized_requests(target: Running, channel: grpc.Channel,
                            pool: list[Position]) -> None:
    """A request past the limit is RESOURCE_EXHAUSTED on every method, refused by grpc
    before the service (so without details), and the server serves on. (Kept out of the
    fuzz: each such call takes the client ~0.1-0.5 s of flow control.)"""
    for method in METHODS:
        data = seeds(method, pool)[0]
        data += _varint(15 << 3 | 2) + _varint(LIMIT) + bytes(LIMIT)
        with pytest.raises(grpc.RpcError) as err:
            channel.unary_unary(f"/{SERVICE_NAME}/{method}")(data, timeout=10)
        assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED, method
    _serves(target, channel, pool)
