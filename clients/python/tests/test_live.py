"""The Python SDK against a live server over a real socket."""

from __future__ import annotations

import asyncio
import inspect
import itertools
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import grpc
import pytest
from canasta.v1 import game_pb2
from canasta_client import (
    AsyncCanastaClient,
    CanastaClient,
    CanastaError,
    DeadlineExceededError,
    DealResponse,
    InvalidRequestError,
    ListVariantsResponse,
    Move,
    PermissionDeniedError,
    ResourceExhaustedError,
    RuleViolationError,
    StaleSnapshotError,
    UnauthenticatedError,
    UnavailableError,
    __version__,
    move,
)
from fakes import busy_at_first, serving, status
from google.rpc import code_pb2

SDK = Path(__file__).resolve().parent.parent
MAX_MOVES = 2000
ILLEGAL_REASONS = {"WRONG_PHASE", "NOT_LISTED", "CARDS_NOT_IN_HAND"}


def pick(moves: list[Move]) -> Move:
    """Echo the first listed move that is not "undo" or "ask" (ends a hand quickly)."""
    return next(m for m in moves if m.text not in ("undo", "ask"))


def test_whole_classic_hand_four_players(client: CanastaClient) -> None:
    deal = client.deal("classic", players=4, seed=11)
    assert deal.header.variant == "classic" and deal.header.seq == 0
    assert {0, 1, 2, 3} <= {v.seat for v in deal.views}
    assert deal.host_token.startswith("ct1.host.") and len(deal.seat_tokens) == 4
    assert [t.split(".")[1] for t in deal.seat_tokens] == ["s0", "s1", "s2", "s3"]
    host = client.with_token(deal.host_token)
    snapshot, seq = deal.snapshot, 0
    for _ in range(MAX_MOVES):
        legal = host.legal_moves(snapshot)
        chosen = pick(list(legal.moves))
        played = host.apply_move(snapshot, chosen, expected_seq=seq, seat=legal.seat,
                                 expected_game_id=deal.header.game_id)
        assert played.move.text == chosen.text and played.seat == legal.seat
        assert played.header.seq == seq + 1 and played.header.game_id == deal.header.game_id
        snapshot, seq = played.snapshot, seq + 1
        if played.hand_over:
            break
    else:
        pytest.fail(f"the hand did not end in {MAX_MOVES} moves")
    score = host.score_hand(snapshot)
    assert score.hand_over
    assert sorted(s.team for s in score.sides) == [0, 1]
    assert sorted(seat for s in score.sides for seat in s.seats) == [0, 1, 2, 3]
    for side in score.sides:
        b = side.breakdown
        assert side.total == (b.base + b.canasta_bonus + b.going_out + b.red_three_points
                              - b.in_hand - b.penalties)
    if not played.game_over:
        nxt = host.next_deal(snapshot, expected_seq=seq, expected_game_id=deal.header.game_id)
        assert nxt.header.seq == seq + 1
        assert game_pb2.EVENT_TYPE_HAND_DEALT in [e.type for e in nxt.events]
        # the same game, the same credentials (the host's answer only)
        assert nxt.host_token == deal.host_token
        assert list(nxt.seat_tokens) == list(deal.seat_tokens)


def test_view_and_text_helper(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=3, view_seat=0)
    assert [v.seat for v in deal.views] == [0]
    mine = client.view(deal.snapshot, seat=0, token=deal.host_token).views
    assert len(mine) == 1 and len(mine[0].hand) == 11 and mine[0].phase == "draw"
    assert client.view(deal.snapshot, seat=-1).views[0].hand == []
    played = client.play(deal.snapshot, "draw", view_seat=0, token=deal.host_token)
    assert played.move.text == "draw" and played.move.HasField("draw")
    assert move("draw") == Move(text="draw")


def test_tampered_snapshot_is_snapshot_invalid(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    snapshot = bytearray(deal.snapshot)
    snapshot[len(snapshot) // 2] ^= 0x01
    with pytest.raises(InvalidRequestError) as caught:
        client.legal_moves(bytes(snapshot), token=deal.host_token)
    err = caught.value
    assert err.code == grpc.StatusCode.INVALID_ARGUMENT
    assert err.reason == "SNAPSHOT_INVALID"


def test_illegal_move_is_a_rule_violation(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    with pytest.raises(RuleViolationError) as caught:  # a discard in the draw phase
        client.play(deal.snapshot, "discard 4D", token=deal.host_token)
    err = caught.value
    assert err.code == grpc.StatusCode.FAILED_PRECONDITION
    assert err.reason in ILLEGAL_REASONS, err.reason
    assert isinstance(err, CanastaError) and err.message


def test_stale_snapshot_and_bad_request(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    with pytest.raises(StaleSnapshotError) as stale:
        client.play(deal.snapshot, "draw", expected_seq=7, token=deal.host_token)
    assert stale.value.reason == "SNAPSHOT_STALE"
    with pytest.raises(InvalidRequestError) as bad:
        client.deal("classic", players=9)
    assert bad.value.reason == "BAD_PLAYER_COUNT"
    assert "players" in [field for field, _ in bad.value.field_violations]


def test_deadline_is_a_typed_error() -> None:
    """A server that refuses the first call (the channel is then connected) and holds
    every later one unanswered, noting the deadline it carries: the call's own timeout
    (0.3 s, not the client's 30 s) is what the server sees, and it ends the call with
    DeadlineExceededError."""
    seen: list[float | None] = []
    calls = itertools.count()

    def hold(request: bytes, context: grpc.ServicerContext) -> bytes:
        if next(calls) == 0:
            context.abort(grpc.StatusCode.UNIMPLEMENTED, "the first call")
        seen.append(context.time_remaining())
        ended = threading.Event()
        context.add_callback(ended.set)
        ended.wait()  # until the deadline (or the server's stop) ends the call
        return b""

    class Silent(grpc.GenericRpcHandler):
        def service(self, details: grpc.HandlerCallDetails) -> grpc.RpcMethodHandler:
            return grpc.unary_unary_rpc_method_handler(hold)

    silent = grpc.server(ThreadPoolExecutor(2), handlers=[Silent()])
    with serving(silent) as target, CanastaClient(target, timeout=30.0) as client:
        with pytest.raises(CanastaError) as first:
            client.list_variants()
        assert first.value.code == grpc.StatusCode.UNIMPLEMENTED
        with pytest.raises(DeadlineExceededError) as caught:
            client.deal("classic", 4, seed=1, timeout=0.3)
    assert caught.value.code == grpc.StatusCode.DEADLINE_EXCEEDED
    assert caught.value.reason == "DEADLINE_EXCEEDED"
    # the timeout travels rounded up to its unit, and the server dates it on arrival
    assert len(seen) == 1 and seen[0] is not None and 0 < seen[0] <= 0.31, seen


@pytest.mark.parametrize(("delays", "expected"),
                         [((1.0,), 1.0), ((1.5,), 1.5), ((), None), ((-1.0,), None)])
def test_a_refusal_of_load_says_when_to_retry(delays: tuple[float, ...],
                                              expected: float | None) -> None:
    """TOO_MANY_CALLS (RESOURCE_EXHAUSTED) is a ResourceExhaustedError whose retry_after
    is the RetryInfo the server sent (the service sends 1 s), or None without one (or
    with a negative one, which is malformed)."""
    server, _ = busy_at_first(
        1, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", *delays))
    with serving(server) as target, CanastaClient(target) as client, \
                pytest.raises(ResourceExhaustedError) as caught:
        client.suggest_move(b"snapshot", level="expert")
    assert caught.value.reason == "TOO_MANY_CALLS"
    assert caught.value.metadata == {"limit": "64"}
    assert caught.value.retry_after == expected


@pytest.mark.parametrize(("refusals", "retries", "answered"),
                         [(2, 2, True), (3, 2, False), (1, 0, False)])
def test_retries_send_a_call_refused_for_load_again(refusals: int, retries: int,
                                                    answered: bool) -> None:
    """With ``retries=N`` a TOO_MANY_CALLS that carries RetryInfo is sent again after its
    delay, up to N times; then the refusal is raised. The default (0) raises at once."""
    server, arrived = busy_at_first(
        refusals, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", 0.2))
    with serving(server) as target:
        kwargs = {"retries": retries} if retries else {}
        with CanastaClient(target, **kwargs) as client:
            seat = client.with_token("a-seat-token")  # the copy keeps the retries
            if answered:
                assert seat.list_variants() == ListVariantsResponse()
            else:
                with pytest.raises(ResourceExhaustedError) as caught:
                    seat.list_variants()
                assert caught.value.retry_after == 0.2
    assert len(arrived) == retries + 1
    gaps = [b - a for a, b in itertools.pairwise(arrived)]
    assert all(gap >= 0.19 for gap in gaps), gaps  # each after the server's delay


@pytest.mark.parametrize("delays", [(), (-1.0,), (-0.001,)])
def test_a_refusal_without_a_hint_is_not_sent_again(delays: tuple[float, ...]) -> None:
    """RESOURCE_EXHAUSTED without RetryInfo is a limit no wait lifts: raised at once. A
    negative RetryInfo is malformed and no hint either, as in every SDK: sending the call
    again at once (a hint of 0 s) would hammer a server under load."""
    server, arrived = busy_at_first(
        5, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", *delays))
    with serving(server) as target, CanastaClient(target, retries=3) as client, \
                pytest.raises(ResourceExhaustedError) as caught:
        client.list_variants()
    assert caught.value.retry_after is None
    assert len(arrived) == 1


def test_retries_keep_to_the_calls_timeout(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hint longer than MAX_RETRY_WAIT is waited MAX_RETRY_WAIT, and a wait that would
    pass the call's timeout is not made: the refusal is raised before the timeout. The
    client's waits are recorded, not timed (a wall-clock bound failed on a loaded machine)."""
    monkeypatch.setattr("canasta_client._calls.MAX_RETRY_WAIT", 0.4)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        time.sleep(seconds)

    monkeypatch.setattr("canasta_client.client.time", SimpleNamespace(sleep=sleep))
    server, arrived = busy_at_first(
        5, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", 60.0))
    with serving(server) as target, CanastaClient(target, retries=5, timeout=30.0) as client:
        grpc.channel_ready_future(client.channel).result(timeout=10)  # connected first
        with pytest.raises(ResourceExhaustedError):
            client.list_variants(timeout=1.0)
    gaps = [b - a for a, b in itertools.pairwise(arrived)]
    # waits of 0.4 s (the cap, not 60 s) while they end within the 1 s timeout: 3 sends,
    # and no wait after the third refusal, which would end past the timeout
    assert len(arrived) == 3, gaps
    assert waits == [0.4, 0.4], waits
    assert all(gap >= 0.39 for gap in gaps), gaps


def test_a_details_trailer_that_does_not_parse_is_still_a_typed_error() -> None:
    """A grpc-status-details-bin that does not parse (a proxy, a broken server) is left out:
    the failure is the call's own code as a typed error, not protobuf's DecodeError."""
    server, _ = busy_at_first(
        1, status(code_pb2.UNAVAILABLE, "UNAVAILABLE"), details=b"\xff\xff\xff")
    with serving(server) as target, CanastaClient(target) as client, \
                pytest.raises(UnavailableError) as caught:
        client.list_variants()
    assert caught.value.reason == "" and caught.value.retry_after is None
    assert caught.value.message == "the server is busy"


@pytest.mark.parametrize(("value", "text"), [(1500, "'1500'"), (True, "'true'")])
def test_an_option_value_that_is_no_text_is_refused_naming_the_option(value: object,
                                                                      text: str) -> None:
    """Option values are text as ListVariants writes them (docs/api.md, *Deal*): an int or a
    bool is refused before sending by both clients, naming the option and the text to
    write; protobuf's own TypeError ("bad argument type for built-in operation") named
    neither."""
    options: Any = {"target_score": value}

    async def dealt() -> None:
        async with AsyncCanastaClient("127.0.0.1:1") as client:
            await client.deal("classic", 4, options=options)

    with pytest.raises(TypeError, match=rf"target_score.*{text}"):
        CanastaClient("127.0.0.1:1").deal("classic", 4, options=options)
    with pytest.raises(TypeError, match=rf"target_score.*{text}"):
        asyncio.run(dealt())


def test_retries_must_not_be_negative() -> None:
    with pytest.raises(ValueError, match="retries"):
        CanastaClient("127.0.0.1:1", retries=-1)


@pytest.mark.parametrize("cls", [CanastaClient, AsyncCanastaClient])
@pytest.mark.parametrize(("retries", "kind"), [(1.5, "float"), (float("inf"), "float"),
                                               (True, "bool")])
def test_retries_must_be_a_whole_number(cls: type[CanastaClient | AsyncCanastaClient],
                                        retries: float, kind: str) -> None:
    """Refused when the client is made, as TypeScript refuses it: a float was taken, and
    every call then failed with range()'s TypeError; True was taken as one retry."""
    with pytest.raises(TypeError, match=kind):
        cls("127.0.0.1:1", retries=retries)  # type: ignore[arg-type]


def test_no_server_is_unavailable() -> None:
    with CanastaClient("127.0.0.1:1", timeout=2.0) as dead, pytest.raises(UnavailableError):
        dead.list_variants()


@pytest.mark.parametrize(("target", "shown"), [
    ("user:PASS-SECRET@127.0.0.1:1", "'***@127.0.0.1:1'"),
    ("dns://PASS-SECRET@127.0.0.1:53/localhost:1", "'dns://***@127.0.0.1:53/localhost:1'")])
@pytest.mark.parametrize("cls", [CanastaClient, AsyncCanastaClient])
def test_a_target_with_userinfo_is_refused_without_showing_it(cls: type, target: str,
                                                              shown: str) -> None:
    """As in every SDK: gRPC quoted a target's user:password@ in each call's UNAVAILABLE."""
    with pytest.raises(ValueError, match="cannot carry a user or password") as caught:
        cls(target)
    assert shown in str(caught.value) and "PASS-SECRET" not in str(caught.value)


@pytest.mark.parametrize("timeout", [float("inf"), float("nan")])
def test_a_timeout_that_is_no_number_of_seconds_is_refused(timeout: float) -> None:
    """As in the TypeScript SDK: gRPC failed it at once as DEADLINE_EXCEEDED (the server
    looked slow; inf reads as "no deadline", which no SDK has). Nothing is sent."""
    server, arrived = busy_at_first(0, status(code_pb2.OK, ""))

    async def in_a_loop(target: str) -> None:
        async with AsyncCanastaClient(target) as client:
            await client.list_variants(timeout=timeout)

    with serving(server) as target, CanastaClient(target) as client:
        for call in (lambda: client.list_variants(timeout=timeout),
                     lambda: asyncio.run(in_a_loop(target)),
                     lambda: CanastaClient(target, timeout=timeout),
                     lambda: AsyncCanastaClient(target, timeout=timeout)):
            with pytest.raises(ValueError, match="timeout must be a finite number of seconds"):
                call()
    assert arrived == []


@pytest.mark.parametrize("timeout", [1e10, 1e300])
def test_a_timeout_beyond_max_timeout_is_taken_as_max_timeout(timeout: float) -> None:
    """As in every SDK, a timeout over MAX_TIMEOUT (a week) is taken as a week: gRPC failed
    one of about 9.2e9 s or more at once as DEADLINE_EXCEEDED, before sending it."""
    server, arrived = busy_at_first(0, status(code_pb2.OK, ""))

    async def in_a_loop(target: str) -> None:
        async with AsyncCanastaClient(target, timeout=timeout) as client:
            await client.list_variants()

    with serving(server) as target, CanastaClient(target) as client:
        client.list_variants(timeout=timeout)
        asyncio.run(in_a_loop(target))
    assert len(arrived) == 2


def test_version_is_the_one_in_clients_version() -> None:
    assert __version__ == (SDK.parent / "VERSION").read_text().strip()


def test_suggest_move_is_accepted(client: CanastaClient) -> None:
    deal = client.deal("classic", players=4, seed=3)
    host = client.with_token(deal.host_token)
    hint = host.suggest_move(deal.snapshot, "greedy", seed=1)
    played = host.apply_move(deal.snapshot, hint.move)
    assert (played.move.text, played.seat) == (hint.move.text, hint.seat)


# ---- credentials (the server runs with CANASTA_ACCESS=tokens) -----------------------------

def awaited_seat(client: CanastaClient, deal: DealResponse) -> int:
    return client.legal_moves(deal.snapshot, token=deal.host_token).seat


def test_a_seat_token_sees_its_own_hand_only(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=21)
    every = {v.seat: list(v.hand) for v in client.with_token(deal.host_token)
             .view(deal.snapshot).views}
    assert sorted(every) == [0, 1, 2, 3] and all(len(h) == 11 for h in every.values())
    seat_1 = client.with_token(deal.seat_tokens[1])
    views = seat_1.view(deal.snapshot).views
    assert [v.seat for v in views] == [1]
    assert list(views[0].hand) == every[1] and list(views[0].hand_sizes) == [11] * 4
    public = seat_1.view(deal.snapshot, seat=-1).views
    assert [v.seat for v in public] == [-1] and list(public[0].hand) == []
    with pytest.raises(PermissionDeniedError) as caught:
        seat_1.view(deal.snapshot, seat=0)
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert caught.value.reason == "SEAT_NOT_ALLOWED"


def test_a_seat_token_moves_for_its_seat_only(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=21)
    turn = awaited_seat(client, deal)
    other = client.with_token(deal.seat_tokens[(turn + 1) % 4])
    with pytest.raises(PermissionDeniedError) as caught:
        other.play(deal.snapshot, "draw", seat=turn)
    assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
    assert caught.value.reason == "SEAT_NOT_ALLOWED"
    with pytest.raises(PermissionDeniedError) as advice:
        other.suggest_move(deal.snapshot, seat=turn)
    assert advice.value.reason == "SEAT_NOT_ALLOWED"
    waiting = other.legal_moves(deal.snapshot)
    assert (waiting.seat, list(waiting.moves)) == (turn, [])
    mover = client.with_token(deal.seat_tokens[turn])
    assert mover.suggest_move(deal.snapshot).seat == turn
    played = mover.play(deal.snapshot, "draw")
    assert played.seat == turn and [v.seat for v in played.views] == [turn]


def test_a_call_without_a_token_is_refused(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=21)
    with pytest.raises(UnauthenticatedError) as listed:
        client.legal_moves(deal.snapshot)
    with pytest.raises(UnauthenticatedError) as moved:
        client.play(deal.snapshot, "draw")
    for err in (listed.value, moved.value):
        assert err.code == grpc.StatusCode.UNAUTHENTICATED
        assert err.reason == "CREDENTIAL_REQUIRED"
    public = client.view(deal.snapshot).views  # a spectator sees the public table
    assert [v.seat for v in public] == [-1] and list(public[0].hand) == []
    host = client.with_token(deal.host_token)  # token="" sends none, whatever the client's
    with pytest.raises(UnauthenticatedError) as none:
        host.legal_moves(deal.snapshot, token="")
    assert none.value.reason == "CREDENTIAL_REQUIRED"


def test_a_token_of_another_game_is_invalid(client: CanastaClient) -> None:
    mine, theirs = client.deal("classic", 4, seed=21), client.deal("classic", 4, seed=21)
    for token in (theirs.host_token, theirs.seat_tokens[0]):
        for call in (lambda t: client.legal_moves(mine.snapshot, token=t),
                     lambda t: client.play(mine.snapshot, "draw", token=t),
                     lambda t: client.view(mine.snapshot, token=t)):
            with pytest.raises(UnauthenticatedError) as caught:
                call(token)
            assert caught.value.code == grpc.StatusCode.UNAUTHENTICATED
            assert caught.value.reason == "CREDENTIAL_INVALID"


def test_a_calls_token_wins_over_the_clients(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=21)
    seat_2 = client.with_token(deal.seat_tokens[2])
    assert [v.seat for v in seat_2.view(deal.snapshot).views] == [2]
    every = seat_2.view(deal.snapshot, token=deal.host_token).views
    assert [v.seat for v in every] == [0, 1, 2, 3] and all(len(v.hand) == 11 for v in every)
    with CanastaClient(channel=client.channel, token=deal.host_token) as host:
        assert len(host.view(deal.snapshot).views) == 4


@pytest.mark.parametrize("wrap", [
    lambda t: t + "\n", lambda t: t + "\r\nx-a: b", lambda t: " " + t, lambda t: t + " ",
    lambda t: t[:5] + "\t" + t[5:], lambda t: t + "\u00f6"])
def test_a_token_that_cannot_be_a_header_is_refused_before_sending(client: CanastaClient,
                                                                     wrap: Callable[[str], str]
                                                                     ) -> None:
    """As in every SDK: a token with a character outside visible ASCII (spaces around it, a
    newline, a control character, one outside ASCII) is refused before anything is sent,
    INTERNAL with a message naming the character and not the token."""
    deal = client.deal("classic", 4, seed=21)
    token = wrap(deal.host_token)
    for call in (lambda: client.view(deal.snapshot, token=token),
                 lambda: client.with_token(token).view(deal.snapshot),
                 lambda: client.with_token(token).list_variants()):
        with pytest.raises(CanastaError) as caught:
            call()
        assert caught.value.code == grpc.StatusCode.INTERNAL and caught.value.reason == ""
        assert "the token cannot be sent" in caught.value.message
        assert deal.host_token not in str(caught.value)


@pytest.mark.parametrize(("pair", "said"), [
    (("accept-language", "ru\n"), "the metadata value of 'accept-language' cannot be sent: "
                                  "its character 3 (U+000A) is not printable ASCII"),
    (("authorization", "Bearer SECRET\u00f6"), "the metadata value of 'authorization' cannot "
                                             "be sent: its character 14 (U+00F6)"),
    (("x-trace id", "1"), "the metadata key 'x-trace id' cannot be sent: its character 8 "
                          "(U+0020)"),
    (("x-trace", b"1"), "only a key ending in '-bin' takes bytes")])
def test_client_metadata_that_cannot_be_sent_is_refused_before_sending(
        pair: tuple[str, str], said: str) -> None:
    """The client's own metadata is checked as a call's token is, by both clients: a typed
    INTERNAL naming the key and the character, never the value, and nothing sent. gRPC
    failed it as a bare "Invalid metadata" in the blocking client and with its untyped
    ExecuteBatchError in the asyncio one."""
    server, arrived = busy_at_first(0, status(code_pb2.OK, ""))

    async def in_a_loop(target: str) -> None:
        async with AsyncCanastaClient(target, metadata=[pair]) as client:
            await client.list_variants()

    with serving(server) as target, CanastaClient(target, metadata=[pair]) as client:
        for call in (client.list_variants, lambda: asyncio.run(in_a_loop(target))):
            with pytest.raises(CanastaError) as caught:
                call()
            assert caught.value.code == grpc.StatusCode.INTERNAL and caught.value.reason == ""
            assert said in caught.value.message
            assert "SECRET" not in str(caught.value)
    assert arrived == []


def test_client_metadata_keys_are_sent_in_lower_case(target: str) -> None:
    """gRPC takes lower-case keys only, as the other SDKs send them: a key written
    X-Request-Id goes as x-request-id (it failed every call with "Invalid metadata")."""
    seen: list[str] = []

    async def in_a_loop() -> None:
        async with AsyncCanastaClient(target, metadata=[("X-Request-Id", "py-aio")]) as client:
            await client.list_variants(on_request_id=seen.append)

    with CanastaClient(target, metadata=[("X-Request-Id", "py-upper")]) as client:
        client.list_variants(on_request_id=seen.append)
        client.list_variants(request_id="py-call", on_request_id=seen.append)
    asyncio.run(in_a_loop())
    assert seen == ["py-upper", "py-call", "py-aio"]


def test_a_refusals_request_id_is_the_one_the_server_echoed() -> None:
    """A failure's request_id is ErrorInfo's request_id, else the x-request-id trailer the
    server echoed (a refusal whose details carry none)."""
    server, _ = busy_at_first(1, status(code_pb2.UNAVAILABLE, "UNAVAILABLE"), details=b"",
                              request_id="r-echoed")
    with serving(server) as target, CanastaClient(target) as client, \
                pytest.raises(UnavailableError) as caught:
        client.list_variants()
    assert caught.value.request_id == "r-echoed"


def test_a_calls_request_id_is_in_its_error(target: str) -> None:
    """The server puts a call's x-request-id in the error's details."""
    with CanastaClient(target, metadata=[("x-request-id", "py-req-1")]) as client, \
            pytest.raises(InvalidRequestError) as caught:
        client.view(b"not a snapshot")
    assert caught.value.request_id == "py-req-1"


def test_a_calls_request_id_is_sent_and_read_back(target: str) -> None:
    """As in every SDK: a call's request_id is sent as its x-request-id (over the one in the
    client's metadata), and on_request_id gets the id the server echoed, whether it answered
    or refused; without one sent, the one the server made up."""
    seen: list[str] = []
    with CanastaClient(target, metadata=[("x-request-id", "py-client")]) as client:
        client.list_variants(request_id="py-req-1", on_request_id=seen.append)
        client.list_variants(on_request_id=seen.append)
        with pytest.raises(InvalidRequestError) as caught:
            client.view(b"not a snapshot", request_id="py-req-2", on_request_id=seen.append)
    assert caught.value.request_id == "py-req-2"
    with CanastaClient(target) as client:
        deal = client.deal("classic", 4, seed=3, on_request_id=seen.append)
        client.score_hand(deal.snapshot, token=deal.host_token, request_id="py-req-3",
                          on_request_id=seen.append)
        with pytest.raises(InvalidRequestError) as made:
            client.view(b"not a snapshot", on_request_id=seen.append)
    assert seen[:3] == ["py-req-1", "py-client", "py-req-2"]
    assert seen[4] == "py-req-3"
    assert len(seen) == 6 and seen[3] and seen[5] and seen[3] != seen[5]
    assert made.value.request_id == seen[5]


@pytest.mark.parametrize("request_id", ["r\n1", "r\r\nx-a: b", "r\u00e9"])
def test_a_request_id_that_cannot_be_sent_is_refused_before_sending(target: str,
                                                                    request_id: str) -> None:
    """A request id with a control character or one outside ASCII is refused before anything
    is sent, a typed INTERNAL naming the character, by both clients: gRPC failed it as a
    bare "Invalid metadata" in the blocking one, with its untyped ExecuteBatchError in the
    asyncio one."""
    seen: list[str] = []

    async def in_a_loop() -> None:
        async with AsyncCanastaClient(target) as client:
            await client.list_variants(request_id=request_id, on_request_id=seen.append)

    with CanastaClient(target) as client:
        for call in (lambda: client.list_variants(request_id=request_id,
                                                  on_request_id=seen.append),
                     lambda: asyncio.run(in_a_loop())):
            with pytest.raises(CanastaError) as caught:
                call()
            assert caught.value.code == grpc.StatusCode.INTERNAL and caught.value.reason == ""
            assert "the request id cannot be sent: its character 2" in caught.value.message
    assert seen == []


@pytest.mark.parametrize("cls", [CanastaClient, AsyncCanastaClient])
def test_every_rpc_method_takes_a_calls_request_id(cls: type) -> None:
    """Each method that calls the server takes request_id= and on_request_id=, keyword-only
    (play passes its keywords on to apply_move), so a method added later cannot miss them."""
    local = {"with_token", "close", "play"}
    methods = [name for name, fn in vars(cls).items()
               if callable(fn) and not name.startswith("_") and name not in local]
    assert len(methods) == 12, methods
    for name in methods:
        params = inspect.signature(getattr(cls, name)).parameters
        for keyword in ("request_id", "on_request_id"):
            assert params[keyword].kind is inspect.Parameter.KEYWORD_ONLY, (name, keyword)


def test_on_request_id_hears_each_attempt_that_got_one() -> None:
    """With retries, on_request_id is called once per attempt whose answer carried an
    x-request-id: the refusal's here, not the fake's answer, which carries none."""
    server, arrived = busy_at_first(1, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", 0.1),
                                    request_id="r-refused")
    seen: list[str] = []
    with serving(server) as target, CanastaClient(target, retries=1) as client:
        assert client.list_variants(on_request_id=seen.append) == ListVariantsResponse()
    assert len(arrived) == 2 and seen == ["r-refused"]


def test_expected_game_id(client: CanastaClient) -> None:
    deal, other = client.deal("classic", 4, seed=21), client.deal("classic", 4, seed=21)
    host = client.with_token(deal.host_token)
    with pytest.raises(StaleSnapshotError) as caught:
        host.play(deal.snapshot, "draw", expected_game_id=other.header.game_id)
    assert caught.value.code == grpc.StatusCode.ABORTED
    assert caught.value.reason == "SNAPSHOT_WRONG_GAME"
    played = host.play(deal.snapshot, "draw", expected_game_id=deal.header.game_id)
    assert played.header.game_id == deal.header.game_id


# ---- bots and positions ----------------------------------------------------------------------

def test_suggest_move_with_a_seat_token(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=3)
    turn = awaited_seat(client, deal)
    mover = client.with_token(deal.seat_tokens[turn])
    hint = mover.suggest_move(deal.snapshot, "greedy", seed=1)
    assert (hint.seat, hint.level) == (turn, "greedy")
    assert mover.suggest_move(deal.snapshot, "greedy", seed=1) == hint  # the same seed, the same move
    played = mover.apply_move(deal.snapshot, hint.move)
    assert played.move.text == hint.move.text


def test_import_position_then_export_it_with_the_host_token(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    position = client.export_position(deal.snapshot, token=deal.host_token).position
    imported = client.import_position(position)
    assert imported.header.imported and imported.header.seq == 0
    assert len(imported.seat_tokens) == 4
    host = client.with_token(imported.host_token)
    assert host.export_position(imported.snapshot).position == position


def test_export_record_for_the_host_and_a_seat(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    host = client.with_token(deal.host_token)
    record = host.export_record(deal.snapshot).record  # the record's start
    played = host.play(deal.snapshot, "draw")
    record += f"{played.seat} {played.move.text}\n"
    full = host.export_record(played.snapshot, record).record
    assert full.startswith("canasta-record 1\n") and "seed: 5" in full and "0 draw" in full
    own = client.export_record(played.snapshot, record, token=deal.seat_tokens[1]).record
    assert "view: 1" in own and "seed:" not in own and "0 draw" in own
    assert host.export_record(played.snapshot, record, view_seat=1).record == own


def test_a_seat_tokens_export_is_refused(client: CanastaClient) -> None:
    deal = client.deal("classic", 4, seed=5)
    for token in deal.seat_tokens:
        with pytest.raises(PermissionDeniedError) as caught:
            client.export_position(deal.snapshot, token=token)
        assert caught.value.code == grpc.StatusCode.PERMISSION_DENIED
        assert caught.value.reason == "SEAT_NOT_ALLOWED"


def test_legal_moves_come_in_pages(client: CanastaClient) -> None:
    """A list longer than a page (a May I? hand with sets of any size, MI-CON-2) comes a page
    at a time; all_legal_moves follows the tokens to the end, in the list's order."""
    position = "\n".join([
        "mayi-position 1", "variant: may_i", "players: 3", "options: contract_exact_sizes=false",
        "hand: 3", "phase: meld", "turn: 0", "drew: stock", "buys: 3 0 0",
        "hand0: 4S 4S 4H 4H 4D 4D 4C 4C 5S 5S 5H 5H 5D 5D 5C 5C 8S",
        "hand1: *1", "hand2: *1", "stock: *", ""])
    imported = client.import_position(position)
    host = client.with_token(imported.host_token)
    first = host.legal_moves(imported.snapshot)
    assert len(first.moves) == 1000 and first.total_size > 1000 and first.next_page_token
    small = host.legal_moves(imported.snapshot, page_size=3, page_token=first.next_page_token)
    every = host.all_legal_moves(imported.snapshot)
    assert len(every) == first.total_size
    assert [m.text for m in every[:1000]] == [m.text for m in first.moves]
    assert [m.text for m in small.moves] == [m.text for m in every[1000:1003]]


def _dealt_seed(client: CanastaClient, deal: DealResponse) -> int:
    record = client.export_record(deal.snapshot, token=deal.host_token).record
    return int(next(x for x in record.splitlines() if x.startswith("seed: ")).split()[1])


def test_a_deal_without_a_seed_gets_a_random_one(client: CanastaClient) -> None:
    """A seed left out is not 0 on the wire (every such game would be one deal anybody can
    replay): the client picks a random 64-bit one. A seed given, 0 too, is sent as it is."""
    seeds = {_dealt_seed(client, client.deal("classic", 2)) for _ in range(4)}
    assert len(seeds) == 4 and 0 not in seeds and max(seeds) >= 2**40
    assert _dealt_seed(client, client.deal("classic", 2, seed=0)) == 0
    assert _dealt_seed(client, client.deal("classic", 2, seed=2**64 - 1)) == 2**64 - 1
