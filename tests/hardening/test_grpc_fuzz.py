"""Fuzzing every ``canasta.v1.CanastaEngine`` method with raw bytes (hypothesis).

Each method gets random bytes and mutated valid requests (bit flips,
truncation, insertions, deletions, wire-level fields appended, fields set to
random values of their type, unknown padding), sent through a generic
``unary_unary`` with no serializers. Each call presents a credential of the
request's game (tests/hardening/credentials.py): mostly its host token, so the
calls reach the rules, else the awaited seat's or another seat's token, none (a
spectator's call), another game's, a forged one or two at once. Every answer
must be OK (and parse as the method's response) or one of the expected codes
with a ``google.rpc.ErrorInfo`` whose reason is in the catalogue (the
credential refusals, UNAUTHENTICATED and PERMISSION_DENIED ``SEAT_NOT_ALLOWED``,
included); never ``INTERNAL`` or ``UNKNOWN``; and the game's host token with
its own snapshot is never refused for its credential. The server must still
serve afterwards. The server under test keeps the session server's keys (so
real snapshots open, through the cold path: its cache is empty, and the pool's
tokens verify) and exports imported positions only, so PERMISSION_DENIED
``EXPORT_DISABLED`` is reachable too.
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
from service.api.errors import DOMAIN, ServiceReason
from service.api.pb import SERVICE_NAME, api, game
from service.ops.config import ExportPolicy
from tests.hardening.credentials import ACCESS_REASONS, credential_kinds, presented
from tests.hardening.pool import EXAMPLES, Position
from tests.service.helpers import auth
from tests.service.servers import Running, running

CATALOGUE = {r.value for r in Reason} | {r.value for r in ServiceReason}
METHODS = [m.name for m in api.DESCRIPTOR.services_by_name["CanastaEngine"].methods]
EXPECTED = {grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.FAILED_PRECONDITION,
            grpc.StatusCode.ABORTED, grpc.StatusCode.RESOURCE_EXHAUSTED,
            grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED}
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


def seeds(method: str, pool: list[Position]) -> list[tuple[bytes, Position]]:
    """Valid requests of a method (most of them answered OK with the host token), serialized,
    each with the position whose game it is of (for the RPCs without a game: any)."""
    out: list[tuple[Message, Position]] = []
    playing = [p for p in pool if p.moves]
    if method == "ListVariants":
        out.append((api.ListVariantsRequest(), pool[0]))
    elif method == "Deal":
        out += [(api.DealRequest(variant=v, players=n, seed=s, view_seat=s % n - 1), pool[s])
                for s, (v, n) in enumerate([("classic", 4), ("classic", 2), ("samba", 4),
                                            ("bolivia", 4), ("may_i", 3)])]
    elif method == "ApplyMove":
        out += [(api.ApplyMoveRequest(snapshot=p.snapshot, move=p.moves[i % len(p.moves)],
                                      expected_seq=p.seq, expected_game_id=p.game_id), p)
                for i, p in enumerate(playing)]
    elif method == "NextDeal":
        out += [(api.NextDealRequest(snapshot=p.snapshot, expected_seq=p.seq,
                                     expected_game_id=p.game_id), p) for p in pool if p.over]
    elif method == "ImportPosition":
        out += [(api.ImportPositionRequest(position=p.text), p) for p in pool[::3]]
    elif method == "GetView":
        out += [(api.GetViewRequest(snapshot=p.snapshot, seat=i % 3 - 1), p)
                for i, p in enumerate(pool)]
    elif method == "SuggestMove":
        out += [(api.SuggestMoveRequest(snapshot=p.snapshot, level=("greedy", "random")[i % 2],
                                        seed=i), p) for i, p in enumerate(playing)]
    elif method == "ExportPosition":  # the server under test exports imported ones only
        imported = [p for p in pool if p.imported]
        out += [(api.ExportPositionRequest(snapshot=p.snapshot), p)
                for p in imported + pool[:len(imported)]]
    else:  # LegalMoves, ScoreHand: the snapshot alone
        cls = getattr(api, f"{method}Request")
        out += [(cls(snapshot=p.snapshot), p) for p in pool]
    return [(m.SerializeToString(), p) for m, p in out]


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
        self.pool = pool
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
            if field.name == "expected_game_id":  # another game's id, or this one's
                return draw(st.sampled_from([p.game_id for p in self.pool[:20]])
                            | st.text(max_size=40))
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

    def mutate(self, draw: st.DrawFn) -> tuple[bytes, Position]:
        """A valid request with one to four mutations, and the position it was made from."""
        data, position = draw(st.sampled_from(self.seeds))
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
        return data, position

    def requests(self) -> st.SearchStrategy[tuple[bytes, Position]]:
        """A request, and the position whose game's credentials go with it (random bytes:
        any position's). A third are random bytes, two thirds mutated requests."""
        mutated = st.composite(lambda draw: self.mutate(draw))()
        return st.one_of(st.tuples(st.binary(max_size=512), st.sampled_from(self.pool)),
                         mutated, mutated)


def _snapshot_of(cls: type[Message], data: bytes) -> bytes | None:
    """The snapshot a request carries (None when it does not parse or has no snapshot)."""
    if "snapshot" not in cls.DESCRIPTOR.fields_by_name:
        return None
    try:
        return bytes(cls.FromString(data).snapshot)
    except DecodeError:
        return None


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
        api.LegalMovesRequest(snapshot=pool[1].snapshot).SerializeToString(), timeout=10,
        metadata=auth(pool[1].mover_token))
    assert api.LegalMovesResponse.FromString(legal).moves


@pytest.mark.parametrize("method", METHODS)
def test_raw_bytes(method: str, target: Running, channel: grpc.Channel,
                   pool: list[Position]) -> None:
    call = channel.unary_unary(f"/{SERVICE_NAME}/{method}")
    response_cls = getattr(api, f"{method}Response")
    outcomes: Counter[str] = Counter()

    mutations = Mutations(method, pool)

    @settings(max_examples=3 * EXAMPLES, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(request=mutations.requests(), kind=credential_kinds(),
           other=st.sampled_from(pool), pick=st.integers(0, 7))
    def fuzz(request: tuple[bytes, Position], kind: str, other: Position, pick: int) -> None:
        data, position = request
        values = presented(kind, position, other, pick)
        try:
            answer = call(data, timeout=30, metadata=[("authorization", v) for v in values])
        except grpc.RpcError as err:
            code = err.code()
            assert code in EXPECTED, (code, err.details(), data[:80])
            reason = _reason(err)
            assert reason in CATALOGUE, (code, reason, err.details())
            if kind == "host" and reason in ACCESS_REASONS - {"SNAPSHOT_WRONG_GAME"}:
                # the host's own token is refused only with another game's snapshot
                assert _snapshot_of(mutations.cls, data) != position.snapshot, (reason, data[:80])
            outcomes[f"{code.name} {reason}"] += 1
            return
        response_cls.FromString(answer)
        outcomes["OK"] += 1

    fuzz()
    assert sum(outcomes.values()) >= 3 * EXAMPLES, outcomes
    _serves(target, channel, pool)


@pytest.mark.parametrize("method", METHODS)
def test_seeds_reach_the_rules(method: str, channel: grpc.Channel,
                               pool: list[Position]) -> None:
    """The control of the fuzz: its unmutated requests, with their game's host token, get
    past the access check (OK, or a refusal of the rules or the export policy), and the same
    with no credential are a spectator's (refused CREDENTIAL_REQUIRED where the table says)."""
    call = channel.unary_unary(f"/{SERVICE_NAME}/{method}")
    answers: Counter[str] = Counter()
    spectator: Counter[str] = Counter()
    for data, position in seeds(method, pool):
        for values, counter in ((auth(position.host_token), answers), ((), spectator)):
            try:
                call(data, timeout=30, metadata=values)
                counter["OK"] += 1
            except grpc.RpcError as err:
                counter[f"{err.code().name} {_reason(err)}"] += 1
    assert answers["OK"] >= sum(answers.values()) // 2, answers
    assert set(answers) <= {"OK", "PERMISSION_DENIED EXPORT_DISABLED",
                            "FAILED_PRECONDITION GAME_OVER"}, answers
    if method in ("LegalMoves", "ApplyMove", "NextDeal", "ExportPosition", "SuggestMove"):
        assert set(spectator) == {"UNAUTHENTICATED CREDENTIAL_REQUIRED"}, spectator
    else:  # GetView (the public view or asking for a seat's), ScoreHand, the open RPCs
        assert set(spectator) <= {"OK", "UNAUTHENTICATED CREDENTIAL_REQUIRED"}, spectator


def test_undecodable_requests_are_request_invalid(target: Running, channel: grpc.Channel,
                                                  pool: list[Position]) -> None:
    """Bytes that are no protobuf message are INVALID_ARGUMENT REQUEST_INVALID on every
    method (grpcio alone answers UNKNOWN, with no details), and so is a string field that
    is not UTF-8, whatever credential comes with them (none, a host's, a malformed one)."""
    broken = [b"\xff\xff\xff", b"\x0a\x05ab", b"\x08" + b"\x80" * 10 + b"\x01"]
    calls = [(m, data) for m in METHODS for data in broken]
    calls.append(("Deal", b"\x0a\x02\xc3\x28"))  # variant (field 1): not UTF-8
    credentials = [(), auth(pool[1].host_token), (("authorization", "Basic x"),)]
    for i, (method, data) in enumerate(calls):
        with pytest.raises(grpc.RpcError) as err:
            channel.unary_unary(f"/{SERVICE_NAME}/{method}")(
                data, timeout=10, metadata=credentials[i % len(credentials)])
        got = (err.value.code(), _reason(err.value))
        assert got == (grpc.StatusCode.INVALID_ARGUMENT, "REQUEST_INVALID"), (method, data)
    _serves(target, channel, pool)


def test_oversized_requests(target: Running, channel: grpc.Channel,
                            pool: list[Position]) -> None:
    """A request past the limit is RESOURCE_EXHAUSTED on every method, refused by grpc
    before the service (so without details), and the server serves on. (Kept out of the
    fuzz: each such call takes the client ~0.1-0.5 s of flow control.)"""
    for method in METHODS:
        data, position = seeds(method, pool)[0]
        data += _varint(15 << 3 | 2) + _varint(LIMIT) + bytes(LIMIT)
        with pytest.raises(grpc.RpcError) as err:
            channel.unary_unary(f"/{SERVICE_NAME}/{method}")(
                data, timeout=10, metadata=auth(position.host_token))
        assert err.value.code() is grpc.StatusCode.RESOURCE_EXHAUSTED, method
    _serves(target, channel, pool)
