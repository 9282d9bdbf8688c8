"""AsyncCanastaClient, the asyncio client: against the live server, and a busy fake one."""

from __future__ import annotations

import asyncio
import itertools

import pytest
from canasta_client import (
    AsyncCanastaClient,
    InvalidRequestError,
    ListVariantsResponse,
    PermissionDeniedError,
    ResourceExhaustedError,
)
from fakes import busy_at_first, serving, status
from google.rpc import code_pb2


def test_a_whole_hand_with_seat_tokens(target: str) -> None:
    """The README's hand, awaited: each player moves with its own seat's token and sees
    only its own hand; the host scores the hand."""

    async def play() -> list[int]:
        async with AsyncCanastaClient(target) as client:
            deal = await client.deal("classic", players=4, seed=7)
            host = client.with_token(deal.host_token)
            players = [client.with_token(t) for t in deal.seat_tokens]
            assert [v.seat for v in (await players[1].view(deal.snapshot)).views] == [1]
            snapshot, seat = deal.snapshot, (await host.legal_moves(deal.snapshot)).seat
            for _ in range(2000):
                legal = await players[seat].legal_moves(snapshot)
                move = next(m for m in legal.moves if m.text not in ("undo", "ask"))
                played = await players[seat].apply_move(snapshot, move)
                snapshot, seat = played.snapshot, played.awaited
                if played.hand_over:
                    break
            else:
                raise AssertionError("the hand did not end")
            return [side.total for side in (await host.score_hand(snapshot)).sides]

    totals = asyncio.run(play())
    assert len(totals) == 2 and totals != [0, 0]


def test_typed_errors_and_concurrent_calls(target: str) -> None:
    """Refusals raise the same typed errors as the blocking client, and one client
    serves many calls at once from one event loop."""

    async def run() -> None:
        async with AsyncCanastaClient(target) as client:
            deals = await asyncio.gather(*(client.deal("classic", 4, seed=s) for s in range(20)))
            assert len({d.header.game_id for d in deals}) == 20
            deal = deals[0]
            with pytest.raises(InvalidRequestError) as tampered:
                await client.legal_moves(deal.snapshot[:-1] + b"x", token=deal.host_token)
            assert tampered.value.reason == "SNAPSHOT_INVALID"
            seat = (await client.legal_moves(deal.snapshot, token=deal.host_token)).seat
            other = deal.seat_tokens[(seat + 1) % 4]
            with pytest.raises(PermissionDeniedError) as refused:
                await client.play(deal.snapshot, "draw", seat=seat, token=other)
            assert refused.value.reason == "SEAT_NOT_ALLOWED"

    asyncio.run(run())


def test_a_calls_request_id_is_sent_and_read_back(target: str) -> None:
    """As the blocking client: request_id is sent as the call's x-request-id (over the
    client's metadata's), on_request_id gets the id the server echoed, answered or refused,
    and one it made up when none was sent."""
    seen: list[str] = []

    async def run() -> tuple[InvalidRequestError, InvalidRequestError]:
        async with AsyncCanastaClient(target, metadata=[("x-request-id", "aio-client")]) as c:
            await c.list_variants(request_id="aio-req-1", on_request_id=seen.append)
            await c.list_variants(on_request_id=seen.append)
            with pytest.raises(InvalidRequestError) as caught:
                await c.view(b"not a snapshot", request_id="aio-req-2",
                             on_request_id=seen.append)
        async with AsyncCanastaClient(target) as c:
            deal = await c.deal("classic", 4, seed=3, on_request_id=seen.append)
            await c.score_hand(deal.snapshot, token=deal.host_token, request_id="aio-req-3",
                               on_request_id=seen.append)
            with pytest.raises(InvalidRequestError) as made:
                await c.view(b"not a snapshot", on_request_id=seen.append)
        return caught.value, made.value

    caught, made = asyncio.run(run())
    assert caught.request_id == "aio-req-2"
    assert seen[:3] == ["aio-req-1", "aio-client", "aio-req-2"]
    assert seen[4] == "aio-req-3"
    assert len(seen) == 6 and seen[3] and seen[5] and seen[3] != seen[5]
    assert made.request_id == seen[5]


@pytest.mark.parametrize(("refusals", "answered"), [(2, True), (3, False)])
def test_retries_wait_the_hint_without_a_thread(refusals: int, answered: bool) -> None:
    """retries=2: a TOO_MANY_CALLS with a RetryInfo of 0.2 s is sent again after it,
    twice at most (asyncio.sleep: the loop runs other work while it waits)."""
    server, arrived = busy_at_first(
        refusals, status(code_pb2.RESOURCE_EXHAUSTED, "TOO_MANY_CALLS", 0.2))

    async def run(target: str) -> int:
        ticks = 0

        async def tick() -> None:
            nonlocal ticks
            while True:
                await asyncio.sleep(0.01)
                ticks += 1

        ticker = asyncio.create_task(tick())
        try:
            async with AsyncCanastaClient(target, retries=2) as client:
                seat = client.with_token("a-seat-token")  # the copy keeps the retries
                if answered:
                    assert await seat.list_variants() == ListVariantsResponse()
                else:
                    with pytest.raises(ResourceExhaustedError) as caught:
                        await seat.list_variants()
                    assert caught.value.retry_after == 0.2
        finally:
            ticker.cancel()
        return ticks

    with serving(server) as target:
        ticks = asyncio.run(run(target))
    assert len(arrived) == 3
    assert all(b - a >= 0.19 for a, b in itertools.pairwise(arrived))
    assert ticks >= 10  # the loop went on during the 0.4 s of waits
